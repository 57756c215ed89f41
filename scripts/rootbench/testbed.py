"""testbed: the experiments' client of scripts/testbed, and the Python
counterparts of scripts/lib/experiment.sh (exp_testbed_up,
exp_testbed_check, exp_family_*, exp_host_speed*).

Every verb is one `scripts/testbed VERB ARGS` process; a verb that fails
raises TestbedError (a RunError: a run's failed summary carries it) with
the verb and the last lines of its stderr. The argument lists are built
apart (Testbed.argv) so that they are tested without a testbed.
"""

import glob
import json
import os
import re
import subprocess
import sys
import time

from rootbench.lifecycle import RunError, project_top, run_dir, utc_now, write_json

SERVICE4 = "198.18.0.53"     # scripts/lib/topology.sh
SERVICE6 = "2001:2::53"
PROFILE_LINE = re.compile(r"^([A-Z_][A-Z0-9_]*)=([^#\s]*)")
REFUSAL_LINE = re.compile(r"^[a-z-]*: error: (.*)$")


class TestbedError(RunError):
    """A testbed verb that failed: its message names the verb and its stderr."""

    __test__ = False    # not a pytest class

    def __init__(self, msg, verb="", rc=None, stderr=""):
        super().__init__(msg)
        self.verb, self.rc, self.stderr = verb, rc, stderr


def tail_lines(text, n=3, sep="\n"):
    """The last n lines of text, joined by sep."""
    return sep.join(text.rstrip("\n").split("\n")[-n:]) if text.strip() else ""


def profile_settings(path):
    """The KEY=VALUE settings of a profile file (as exp_pass_settings reads it)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = PROFILE_LINE.match(line)
            if m:
                out[m.group(1)] = m.group(2)
    return out


def pairs(settings):
    """KEY=VALUE strings of a dict or of a list of KEY=VALUE strings."""
    if isinstance(settings, dict):
        return ["%s=%s" % (k, v) for k, v in settings.items()]
    return list(settings)


class Testbed:
    """scripts/testbed of the project at top, run with env (default the
    process's environment: RB_PREFIX, BACKEND, ... reach it).

    warn(msg): where the not-taken warnings go (default stderr, as warn of
    common.sh); started: whether this client brought the testbed up (then
    release() brings it down)."""

    __test__ = False

    def __init__(self, top=None, env=None, prog=None, warn=None, log=None):
        self.top = top or project_top()
        self.env = env
        self.prog = prog or os.environ.get("RB_PROG") or "experiment"
        self.program = os.path.join(self.top, "scripts", "testbed")
        self._warn = warn
        self._log = log
        self.started = False
        self._up_names = None

    def warn(self, msg):
        if self._warn:
            self._warn(msg)
        else:
            print("%s: warning: %s" % (self.prog, msg), file=sys.stderr, flush=True)

    def log(self, msg):
        if self._log:
            self._log(msg)
        else:
            print("%s: %s" % (self.prog, msg), file=sys.stderr, flush=True)

    def environ(self):
        return os.environ if self.env is None else self.env

    # ------------------------------------------------------------ the verbs
    def argv(self, verb, *args):
        """The command line of VERB ARGS."""
        return [self.program, verb] + [str(a) for a in args]

    def run(self, verb, *args, check=True, input=None):
        """VERB ARGS run; (rc, stdout, stderr). check: TestbedError when it fails."""
        argv = self.argv(verb, *args)
        try:
            p = subprocess.run(argv, input=input, capture_output=True, text=True, env=self.env)
        except OSError as e:
            raise TestbedError("scripts/testbed %s: %s" % (verb, e), verb) from e
        if check and p.returncode != 0:
            raise TestbedError("scripts/testbed %s failed (exit %d): %s" % (
                " ".join([verb] + [str(a) for a in args]), p.returncode,
                tail_lines(p.stderr, 3, " | ") or "no message"), verb, p.returncode, p.stderr)
        return p.returncode, p.stdout, p.stderr

    def text(self, verb, *args):
        """VERB ARGS's standard output."""
        return self.run(verb, *args)[1]

    def json(self, verb, *args):
        """VERB ARGS's standard output, parsed as JSON."""
        out = self.text(verb, *args)
        try:
            return json.loads(out)
        except ValueError as e:
            raise TestbedError("scripts/testbed %s printed no JSON: %s" % (verb, e), verb) from e

    def status(self):
        """status --json, parsed (what results record as testbed.json)."""
        return self.json("status", "--json")

    def status_text(self):
        """status --json as printed (to record it unchanged)."""
        return self.text("status", "--json")

    def processes(self):
        """processes: the server daemons and the SNMP agent, running or not."""
        return self.json("processes")

    def is_up(self):
        """Whether the testbed is up (processes succeeds; cheap)."""
        return self.run("processes", check=False)[0] == 0

    def counters(self):
        return self.json("counters")

    def server_stats(self, *roles):
        """server-stats for several roles in one call ({} a stopped one)."""
        return self.json("server-stats", *roles)

    def cpu_budget_stat(self):
        return self.json("cpu-budget-stat")

    def down(self):
        self.run("down")

    def up(self, profile=None, *settings):
        """up [--profile PROFILE] KEY=VALUE... as given (no environment
        settings passed: up_for does that)."""
        args = (["--profile", profile] if profile else []) + pairs(settings)
        return self.text("up", *args)

    def check(self, profile=None, *settings):
        """check [--profile PROFILE] KEY=VALUE...; TestbedError on a refusal."""
        args = (["--profile", profile] if profile else []) + pairs(settings)
        return self.text("check", *args)

    def sample_argv(self, series, summary, ready=None, interval_ms=100, *options):
        """The command line of the sampler (exp_sampler_start's)."""
        args = ["--quiet", "--interval-ms", interval_ms, "--series", series, "--summary", summary]
        if ready:
            args += ["--ready", ready]
        return self.argv("sample", *(args + list(options)))

    def record(self, status_text=None, env=None):
        """The testbed's configuration beside the results: <run>/testbed.json
        (status --json, or status_text when the caller has just read it:
        one read fewer) and the zone variants' manifests built in this tree
        as <run>/zones/<variant>.json (results_record_testbed). Returns
        the status, parsed."""
        text = self.status_text() if status_text is None else status_text
        try:
            status = json.loads(text)
        except ValueError as e:
            raise RunError("refusing to write invalid JSON to testbed.json: %s" % e) from e
        run = run_dir(env, self.top)
        write_json(os.path.join(run, "testbed.json"), status)
        self.record_zones(env)
        return status

    def record_zones(self, env=None):
        """The manifests of the zone variants built in this tree
        (zones/build/<variant>/variant.json) beside the results, as
        <run>/zones/<variant>.json, so the report names serials and keys
        even when the tree changes later (results_record_zones); nothing
        when no variant is built."""
        run = run_dir(env, self.top)
        for m in sorted(glob.glob(os.path.join(self.top, "zones", "build", "*", "variant.json"))):
            variant = os.path.basename(os.path.dirname(m))
            try:
                with open(m, encoding="utf-8") as f:
                    manifest = json.load(f)
            except (OSError, ValueError):
                self.warn("zone manifest %s is not JSON; not recorded" % m)
                continue
            os.makedirs(os.path.join(run, "zones"), exist_ok=True)
            write_json(os.path.join(run, "zones", variant + ".json"), manifest)

    def sampler(self, run, folder, *options, interval_ms=100):
        """The testbed sampler started in the background (exp_sampler_start):
        every layer's counters every interval_ms into folder/series.jsonl,
        folder/sample.json and folder/sampler.log, started through
        run.spawn (stopped at the end of the run); returns once it took its
        first sample (a Sampler: .ready_ns, .stop())."""
        return Sampler(self, run, folder, options, interval_ms)

    # ------------------------------------------- the experiment's testbed
    def up_setting_names(self):
        """The settings `up` takes (scripts/testbed.settings.json, "up": true)."""
        if self._up_names is None:
            path = os.path.join(self.top, "scripts", "testbed.settings.json")
            try:
                with open(path, encoding="utf-8") as f:
                    t = json.load(f)
            except (OSError, ValueError) as e:
                raise RunError("scripts/testbed.settings.json unreadable: %s" % e) from e
            self._up_names = [e["name"] for e in t["settings"] if e.get("up") is True]
        return self._up_names

    def pass_settings(self, profile, settings=(), warn=True):
        """The user's testbed settings (the environment's, as make passes
        them) that pass to `up` beside PROFILE and settings; with warn, each
        one the profile or settings set otherwise named as not taken
        (exp_pass_settings)."""
        set_here = profile_settings(profile)
        for a in pairs(settings):
            k, _, v = a.partition("=")
            set_here[k] = v
        env, out = self.environ(), []
        for name in self.up_setting_names():
            user = env.get(name, "")
            if user == "":
                continue
            if name in set_here:
                v = set_here[name]
                if warn and user != v:
                    self.not_taken(name, "this experiment sets %s=%s (its profile %s, or its own setting)" % (
                        name, v or "(the testbed default)", self.rel(profile)))
            else:
                out.append("%s=%s" % (name, user))
        return out

    def not_taken(self, name, why):
        """The warning that the user's NAME is not taken, and why (exp_not_taken)."""
        v = self.environ().get(name, "")
        if v:
            self.warn("%s=%s is not taken: %s" % (name, v, why))

    def rel(self, path):
        top = self.top.rstrip("/") + "/"
        return path[len(top):] if path.startswith(top) else path

    def up_for(self, profile, settings=()):
        """The testbed at PROFILE's settings plus settings (KEY=VALUE list or
        dict; an empty value: the testbed's default), with the user's other
        testbed settings passed and the fixed ones warned (exp_testbed_up).
        A testbed that was down is brought down again by release()."""
        if not self.is_up():
            if not self.started:
                self.log("testbed '%s' is down: bringing it up (and down again at the end)" % self.environ().get("RB_PREFIX", "rb"))
            self.started = True
        given = pairs(settings)
        args = ["--profile", profile] + self.pass_settings(profile, given, warn=True) + given
        rc, out, err = self.run("up", *args, check=False)
        if rc != 0:
            raise TestbedError("testbed up with profile %s %s: %s" % (
                self.rel(profile), " ".join(given), tail_lines(out + err)), "up", rc, err)

    def check_for(self, profile, settings=()):
        """What up_for would give `up`, checked by `scripts/testbed check`
        with nothing touched; a refusal raises, naming what the testbed
        lacks (exp_testbed_check)."""
        given = pairs(settings)
        args = ["--profile", profile] + self.pass_settings(profile, given, warn=False) + given
        rc, out, err = self.run("check", *args, check=False)
        if rc == 0:
            return
        both = out + err
        msgs = [m.group(1) for m in (REFUSAL_LINE.match(line) for line in both.split("\n")) if m]
        msg = msgs[-1] if msgs else tail_lines(both, 3, " ")
        raise TestbedError("refused before anything starts (BACKEND=%s): %s" % (
            self.environ().get("BACKEND") or "netns", msg), "check", rc, err)

    def release(self):
        """Down again if this client brought the testbed up (exp_testbed_release)."""
        if self.started:
            self.started = False
            if self.run("down", check=False)[0] != 0:
                self.warn("testbed down failed")

    def servers_down(self, *roles):
        """The roles among roles whose server daemon is not running (exp_servers_down)."""
        try:
            st = self.processes()
        except TestbedError as e:
            raise TestbedError("scripts/testbed processes failed: is the testbed '%s' still up?" % self.environ().get("RB_PREFIX", "rb"),
                               "processes", e.rc, e.stderr) from e
        return [p["role"] for p in st if p.get("role") in roles and not p.get("running")]

    # ------------------------------------------------------- host speed
    def host_speed(self, testbed_json):
        """How fast this host is now on the servers' CPUs and the rig's
        (scripts/sampler/rbspeed), as {at, unit, server, rig}; None on a
        lab, without rbspeed or without pinning (exp_host_speed)."""
        prog = os.path.join(self.top, "scripts", "sampler", "rbspeed")
        if (testbed_json.get("backend") or "netns") != "netns" or not os.access(prog, os.X_OK):
            return None
        names = (testbed_json.get("pinning") or {}).get("cpu_names") or {}
        sv = names.get("server") or []
        cl = names.get("client") or []
        if not sv or not cl:
            return None
        strip = [n[3:] if n.startswith("cpu") else n for n in sv + cl]
        p = subprocess.run([prog] + strip, capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            self.warn("host speed not measured: %s" % (p.stdout + p.stderr).rstrip("\n"))
            return None
        cpus = json.loads(p.stdout)["cpus"]
        svn = ["cpu" + n for n in strip[:len(sv)]]
        cln = ["cpu" + n for n in strip[len(sv):]]
        return {"at": utc_now(),
                "unit": "ns per iteration of rbspeed's fixed loop (median of its repeats; lower is faster)",
                "server": {k: v for k, v in cpus.items() if k in svn},
                "rig": {k: v for k, v in cpus.items() if k in cln}}


class Sampler:
    """A running `scripts/testbed sample` (Testbed.sampler)."""

    READY_WAIT_S = 5.0

    def __init__(self, testbed, run, folder, options, interval_ms):
        self.folder = folder
        self.summary = os.path.join(folder, "sample.json")
        ready = os.path.join(folder, "sampler.ready")
        self.logfile = os.path.join(folder, "sampler.log")
        for f in (self.summary, ready):
            if os.path.exists(f):
                os.unlink(f)
        argv = testbed.sample_argv(os.path.join(folder, "series.jsonl"), self.summary, ready, interval_ms, *options)
        with open(self.logfile, "w", encoding="utf-8") as log:
            self.proc = run.spawn(argv, stdout=log, stderr=subprocess.STDOUT, env=testbed.env)
        deadline = time.monotonic() + self.READY_WAIT_S
        while not os.path.exists(ready):
            if self.proc.poll() is not None:
                raise TestbedError("the testbed sampler did not start: %s" % self.log_tail(), "sample")
            if time.monotonic() > deadline:
                raise TestbedError("the testbed sampler took no first sample within 5 s: %s" % self.log_tail(), "sample")
            time.sleep(0.02)
        self.ready_ns = os.stat(ready).st_mtime_ns

    def log_tail(self):
        try:
            with open(self.logfile, encoding="utf-8", errors="replace") as f:
                return tail_lines(f.read())
        except OSError:
            return ""

    def end(self):
        """TERM (it writes its summary) and waited for; never fails (exp_sampler_end)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait()

    def stop(self):
        """end(), then TestbedError unless it wrote sample.json (exp_sampler_stop)."""
        self.end()
        if not (os.path.exists(self.summary) and os.path.getsize(self.summary) > 0):
            raise TestbedError("the testbed sampler wrote no summary: %s" % self.log_tail(), "sample")


class HostSpeed:
    """A summary's host_speed: begin() at the start (the first time only),
    pair() at the end: {start, end} (exp_host_speed_begin, _pair)."""

    def __init__(self, testbed):
        self.testbed = testbed
        self.start = None
        self._begun = False

    def begin(self, testbed_json):
        if not self._begun:
            self.start = self.testbed.host_speed(testbed_json)
            self._begun = True
        return self.start

    def pair(self, testbed_json):
        return {"start": self.start, "end": self.testbed.host_speed(testbed_json)}


# ------------------------------------------------------------------ family

def registry_path(top=None):
    return os.path.join(top or project_top(), "scripts", "lib", "experiments.json")


def read_registry(top=None):
    with open(registry_path(top), encoding="utf-8") as f:
        return json.load(f)


def family_only(name, registry):
    """(family, why) of an experiment that measures over one family only,
    else None (the registry's only_family, keyed by command or name)."""
    for e in registry["experiments"]:
        if (e.get("command") or e["name"]) == name and e.get("only_family") is not None:
            return e["only_family"], e.get("why")
    return None


def family_parse(value, name=None, registry=None):
    """FAMILY normalised to "4", "6" or "both" (ipv4/ipv6/v4/v6 accepted,
    default 4), or RunError; with name, a family the experiment does not
    measure in refused with the reason (exp_family_parse)."""
    v = value or "4"
    if v in ("4", "ipv4", "v4"):
        fam = "4"
    elif v in ("6", "ipv6", "v6"):
        fam = "6"
    elif v == "both":
        fam = "both"
    else:
        raise RunError("FAMILY=%s: must be 4, 6 or both" % v)
    if name and registry is not None:
        only = family_only(name, registry)
        if only and fam != str(only[0]):
            raise RunError("FAMILY=%s: %s measures over IPv%s only (FAMILY=%s): %s" % (fam, name, only[0], only[0], only[1]))
    return fam


class Family:
    """One family of a run: family ("4" or "6"), suffix ("" or "-v6", of
    the results folder), service (the service address) (exp_family_read)."""

    def __init__(self, family):
        self.family = family
        self.suffix = "-v6" if family == "6" else ""
        self.service = SERVICE6 if family == "6" else SERVICE4

    def __repr__(self):
        return "Family(%s)" % self.family


def family_both(run_once):
    """FAMILY=both: run_once("4"), then run_once("6") (each returns an exit
    status); 130 at once when the first was interrupted, else the first
    non-zero status (exp_family_both)."""
    rc = run_once("4")
    if rc == 130:
        return 130
    rc6 = run_once("6")
    return rc if rc != 0 else rc6

#!/usr/bin/python3
"""bench: the main job (make bench). Builds, brings the testbed up, builds
the zones, runs every experiment into one results directory, brings the
testbed down and writes the report:

  results/<UTC stamp>/  (results/latest -> it)
    bench.json          scale, start, end, the host's speed at both
                        (host_speed, exp_host_speed) and every step with
                        its status
    logs/<step>.log     each step's output
    testbed.json, zones/*.json, <experiment>/..., report.html,
    report-data.html (every value and table), report.pdf

Its settings are declared in scripts/bench.settings.json (listed below,
with their defaults by SCALE). Also read: SCALE=smoke|quick|paper (how
long every experiment runs; exported, each experiment's settings table
gives its defaults at that scale), RB_RUN (add to this results directory
instead of a new one) and FAMILY=4|6|both (the address family of every
experiment, default 4; both: each experiment once per family, IPv6 into
<experiment>-v6/, steps udp, udp-v6, ...; the trace then holds half IPv4,
half IPv6 queries), declared in scripts/lib/settings.json.

Each experiment brings the testbed to its own profile (no testbed setting
passes from one to the next); the bench adds only the settings listed
with it below (the UDP ceiling on the paper's 100 Mb/s link and unshaped).
An experiment that fails is recorded as failed with its error, and the
others still run. A step the testbed cannot run (the shaped UDP step on a
lab, whose links are its wires) is recorded as skipped with the reason
and does not fail the bench.
Ctrl-C stops the running step, marks it interrupted, brings the testbed
down and still writes the report of what exists.

  scripts/bench --list    the steps it would run (with SCALE, FAMILY and
                          BENCH_EXPERIMENTS as given), and nothing else
"""

# The bench as one Python process (scripts/bench is its shim): the steps
# come from the registry (scripts/lib/experiments.json), each one `make
# TARGET VARS` in a session of its own, its output into logs/<step>.log
# and onto the terminal; bench.json is rewritten after every step, so an
# interrupted or killed bench leaves what it measured. The run's life
# (its directory's lock, SIGINT and SIGTERM, the end that always runs) is
# rootbench.lifecycle's Run, with bench.json and the report as its summary.

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rootbench import settings as settings_rules  # noqa: E402
from rootbench.jqtext import to_json  # noqa: E402
from rootbench.lifecycle import Run, RunError, project_top, run_dir, status_summary, utc_now, write_json  # noqa: E402
from rootbench.testbed import HostSpeed, Testbed, family_only, family_parse, read_registry  # noqa: E402

SCHEMA = "rootbench.bench/1"
PROG = "bench"
KILL_AFTER_S = 20       # after the INT that stops a step, KILL to its group
POLL_S = 0.1            # how often a running step's log is copied to the terminal
LAST_LINES = 6          # the end of a step's output in its error: lines,
LAST_LINE_BYTES = 300   # and bytes of each
BLANK_LINE = re.compile(rb"^\s*$")


def log(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr, flush=True)


def warn(msg):
    print("%s: warning: %s" % (PROG, msg), file=sys.stderr, flush=True)


def default_sigint():
    """In a step's process before it starts: SIGINT at its default, so that
    the INT the bench sends at the time limit or on an interrupt stops it
    also when the bench itself started with SIGINT ignored (a background
    job of a script; timeout(1) gave the bash bench's steps the same)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Refused(RunError):
    """A refusal before anything starts, with its exit status."""

    def __init__(self, msg, rc=1):
        super().__init__(msg)
        self.rc = rc


# ------------------------------------------------------------ the plan

def bench_entries(registry):
    """The registry's bench experiments: (name, make target, variables)."""
    return [(e["name"], e["target"], e.get("vars") or "") for e in registry["experiments"] if e.get("bench")]


def select(entries, words):
    """The entries BENCH_EXPERIMENTS' words choose, in the registry's order
    (all when there are none), and the words that name none of them."""
    if not words:
        return list(entries), []
    names = [e[0] for e in entries]
    return [e for e in entries if e[0] in words], [w for w in dict.fromkeys(words) if w not in names]


def families_of(family):
    """The families FAMILY (canonical) asks for."""
    return ["4", "6"] if family == "both" else [family]


def plan(entries, family, registry, note=log):
    """The experiment steps: (step, make target, variables) per entry in
    each family of FAMILY; an experiment that measures one family only is
    noted, not planned, in the others. FAMILY=4 alone is the default every
    experiment takes (and the environment's): the step names no family then."""
    steps = []
    for name, target, vars_ in entries:
        only = family_only(name, registry)
        for fam in families_of(family):
            if only and str(only[0]) != fam:
                note("%s: measures IPv%s only; no IPv%s step" % (name, only[0], fam))
                continue
            if family == "4":
                steps.append((name, target, vars_))
            elif fam == "6":
                steps.append((name + "-v6", target, (vars_ + " " if vars_ else "") + "FAMILY=6"))
            else:
                steps.append((name, target, (vars_ + " " if vars_ else "") + "FAMILY=4"))
    return steps


def cannot_run(words, shapes):
    """Why this testbed cannot run a step with these KEY=VALUE words ("" when
    it can): link shaping (UDP_LINK other than none) where the testbed says
    it cannot shape (a lab, docs/real-lab.md)."""
    for w in words:
        if w.startswith("UDP_LINK="):
            v = w[len("UDP_LINK="):]
            if v not in ("", "none") and not shapes:
                return ("this testbed cannot shape links (%s asked): a lab's links are its wires (docs/real-lab.md); "
                        "the UDP ceiling on the lab's own link is udp-unshaped" % v)
    return ""


def schema_of(step):
    """The schema of a step's summary the bench writes itself."""
    return "rootbench.%s/1" % (step[:-3] if step.endswith("-v6") else step)


# ---------------------------------------------------------- the records

def last_lines(path):
    """The end of a step's output, for its error: its last non-blank lines,
    each cut to its first bytes."""
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError:
        return ""
    if lines and lines[-1] == b"":
        lines.pop()
    keep = [line[:LAST_LINE_BYTES] for line in lines if not BLANK_LINE.match(line)][-LAST_LINES:]
    return b"\n".join(keep).decode("utf-8", "replace").rstrip("\n")


def step_record(name, target, status, seconds, error=""):
    """One step of bench.json."""
    r = {"name": name, "target": target, "status": status, "seconds": seconds}
    if error:
        r["error"] = error
    return r


def bench_json(scale, family, started, finished, status, host_speed, limit, steps):
    """bench.json: finished None while it runs; host_speed (start, end)
    None until timed; limit 0 is no limit."""
    return {"schema": SCHEMA, "scale": scale, "family": family, "started": started,
            "finished": finished, "status": status,
            "host_speed": {"start": host_speed[0], "end": host_speed[1]},
            "step_timeout_s": limit or None, "steps": list(steps)}


def bench_status(steps, interrupted):
    """The bench's status: interrupted, failed when a step is neither ok
    nor skipped, else ok."""
    if interrupted:
        return "interrupted"
    if any(s["status"] not in ("ok", "skipped") for s in steps):
        return "failed"
    return "ok"


def read_summary(path):
    """A summary as the bench reads it: (its JSON, its status), the status
    "none" when there is no readable object with one."""
    try:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
    except (OSError, ValueError):
        return None, "none"
    if not isinstance(s, dict) or s.get("status") in (None, False):
        return (s if isinstance(s, dict) else None), "none"
    st = s["status"]
    return s, st if isinstance(st, str) else to_json(st)


def settle(exp_dir, step, target, rc, interrupted, limit, log_path):
    """The step's summary.json made to say what happened, whatever the
    experiment itself managed to write; its status."""
    os.makedirs(exp_dir, exist_ok=True)
    f = os.path.join(exp_dir, "summary.json")
    s, status = read_summary(f)
    if interrupted:
        msg = "interrupted by the user (Ctrl-C) during make %s" % target
        if status == "none":
            write_json(f, {"schema": schema_of(step), "experiment": step[:-3] if step.endswith("-v6") else step,
                           "status": "interrupted", "error": msg, "finished": utc_now()})
            status = "interrupted"
        elif status != "failed":
            s["status"] = "interrupted"
            if s.get("error") in (None, False):
                s["error"] = msg
            write_json(f, s)
            status = "interrupted"
    elif rc == 0:
        if status == "none":
            write_json(f, status_summary(exp_dir, schema_of(step), "failed",
                                         "make %s finished but wrote no (valid) summary.json" % target))
            status = "failed"
    else:
        msg = "make %s exited with %d%s: %s" % (target, rc, " (step time limit %d s reached)" % limit if rc == 124 else "",
                                                 last_lines(log_path))
        if status == "none":
            write_json(f, status_summary(exp_dir, schema_of(step), "failed", msg))
            status = "failed"
        elif status not in ("failed", "interrupted"):
            s["status"] = "failed"
            s["error"] = msg
            write_json(f, s)
            status = "failed"
    return status


def error_text(summary):
    """A summary's error as the step records it ("" without one)."""
    if not isinstance(summary, dict) or summary.get("error") in (None, False):
        return ""
    e = summary["error"]
    return e if isinstance(e, str) else to_json(e)


# ------------------------------------------------------------ the bench

class BenchRun(Run):
    """The bench's Run: a signal stops the running step (the bench goes on
    to its end); the summary is bench.json and the report."""

    def __init__(self, bench):
        super().__init__(bench.run, schema=SCHEMA, prog=PROG, on_signal="flag", scratch=False)
        self.bench = bench

    def __enter__(self):
        super().__enter__()
        # A SIGINT ignored when the bench started (a background job of a
        # script: the terminal's Ctrl-C is the foreground's) stays ignored,
        # as the bash bench's did.
        if self._old_handlers.get(signal.SIGINT) == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return self

    def _signal(self, signum, frame):
        super()._signal(signum, frame)
        self.bench.stop_child()

    def _write_summary(self, status, error, rescue):
        self.bench.summary_write(status)
        self.status = status


class Bench:
    """One bench: top, the project; env, the environment its steps get
    (the bench's, with SCALE, BENCH_STEP_TIMEOUT, FAMILY and RB_RUN as it
    resolved them). main(args) runs it and returns its exit status."""

    def __init__(self, top, env):
        self.top = top
        self.env = env          # the children's environment
        self.registry = read_registry(top)
        self.steps = []
        self.child = None
        self.kill_at = None
        self.testbed_up = False
        self.shapes = True
        self.report_ok = False
        self.run = None
        self.started = None
        self.host0 = None
        self.host1 = None
        self.runobj = None
        self.testbed = Testbed(top, env=env, prog=PROG)
        self.host = HostSpeed(self.testbed)

    @property
    def interrupted(self):
        return bool(self.runobj and self.runobj.interrupted)

    # ------------------------------------------------------ settings
    def read_settings(self):
        table = os.path.join(self.top, "scripts", "bench.settings.json")
        t = settings_rules.read_table(table)
        try:
            scale = settings_rules.canonical_scale(self.registry, self.env.get("SCALE", ""))
        except settings_rules.SettingsError as e:
            raise Refused(str(e)) from e
        values, warnings, errors = settings_rules.resolve_values(t, self.env, scale, [])
        for w in warnings:
            warn(w)
        if errors:
            raise Refused(errors[0])
        self.scale = scale
        self.limit = int(values["BENCH_STEP_TIMEOUT"])
        self.trace_queries = values["BENCH_TRACE_QUERIES"]
        self.words = [w for w in settings_rules.LIST_SPLIT.split(values["BENCH_EXPERIMENTS"]) if w]
        self.words_text = values["BENCH_EXPERIMENTS"]
        self.pdf = values["REPORT_PDF"]
        self.make = values["MAKE"]
        # every step reads the same scale and limit
        self.env["SCALE"] = scale
        self.env["BENCH_STEP_TIMEOUT"] = values["BENCH_STEP_TIMEOUT"]

    def read_family(self):
        try:
            self.family = family_parse(self.env.get("FAMILY", ""))
        except RunError as e:
            # (the bash bench's status for it, kept)
            raise Refused(str(e), 2) from e
        self.env["FAMILY"] = self.family

    def selection(self):
        entries = bench_entries(self.registry)
        chosen, unknown = select(entries, self.words)
        if not chosen:
            raise Refused("BENCH_EXPERIMENTS='%s' names none of: %s" % (self.words_text, " ".join(e[0] for e in entries)))
        for w in unknown:
            warn("BENCH_EXPERIMENTS: %s is none of the bench's experiments (%s); left out"
                 % (w, " ".join(e[0] for e in entries)))
        return chosen

    # ------------------------------------------------------ bench.json
    def write_bench_json(self, status):
        finished = None if status == "running" else utc_now()
        write_json(os.path.join(self.run, "bench.json"),
                   bench_json(self.scale, self.family, self.started, finished, status,
                              (self.host0, self.host1), self.limit, self.steps))

    def record(self, name, target, status, seconds, error=""):
        self.steps.append(step_record(name, target, status, seconds, error))
        self.write_bench_json("running")

    # ------------------------------------------------------ one step
    def stop_child(self):
        """The signal's action: the running step stopped (INT to its group,
        KILL 20 s later); the bench goes on to its end."""
        log("interrupted: stopping the running step, then report what exists")
        # (no poll here: the handler may run inside the main loop's)
        if self.child is not None and self.child.returncode is None:
            self.signal_child(signal.SIGINT)
            if self.kill_at is None:
                self.kill_at = time.monotonic() + KILL_AFTER_S

    def signal_child(self, sig):
        try:
            os.killpg(self.child.pid, sig)
        except OSError:
            pass

    def run_make(self, name, target, words, extra_env=None):
        """make TARGET WORDS in a session of its own, its output into
        logs/NAME.log and onto the terminal, within the step time limit;
        its exit status (124 at the limit, 130 once interrupted)."""
        path = os.path.join(self.run, "logs", name + ".log")
        env = dict(self.env, **(extra_env or {}))
        argv = [self.make, "-C", self.top, "--no-print-directory", target] + list(words)
        timed_out = False
        with open(path, "wb") as out, open(path, "rb") as tail, open(os.devnull, "rb") as devnull:
            self.kill_at = None
            # close_fds=False: the descriptors the bench inherited (make's
            # jobserver) reach the step, as they did the bash bench's; the
            # bench's own are not inheritable
            self.child = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=devnull,
                                          env=env, start_new_session=True, close_fds=False,
                                          preexec_fn=default_sigint)
            limit_at = time.monotonic() + self.limit if self.limit > 0 else None
            pending = b""
            while True:
                done = self.child.poll() is not None
                pending = self.show(tail, pending, done)
                if done:
                    break
                now = time.monotonic()
                if limit_at is not None and now >= limit_at and not timed_out:
                    timed_out = True
                    self.signal_child(signal.SIGINT)
                    self.kill_at = now + KILL_AFTER_S
                if self.kill_at is not None and now >= self.kill_at:
                    self.signal_child(signal.SIGKILL)
                    self.kill_at = None
                time.sleep(POLL_S)
            rc = self.child.returncode
            self.child = None
        if rc < 0:
            rc = 128 - rc
        if timed_out:
            rc = 124
        if self.interrupted:
            rc = 130
        return rc

    @staticmethod
    def show(tail, pending, done):
        """The log's new lines on the terminal, each after "    | "."""
        data = pending + tail.read()
        lines = data.split(b"\n")
        pending = lines.pop()
        if done and pending:
            lines.append(pending)
            pending = b""
        if lines:
            text = b"".join(b"    | " + line + b"\n" for line in lines)
            sys.stderr.flush()
            sys.stderr.buffer.write(text)
            sys.stderr.buffer.flush()
        return pending

    def run_step(self, name, target, extra_env=None):
        """A preparation step (build, zones, trace)."""
        start = int(time.time())
        log("%s: make %s" % (name, target))
        rc = self.run_make(name, target, [], extra_env)
        if rc == 0:
            self.record(name, target, "ok", int(time.time()) - start)
        else:
            self.record(name, target, "interrupted" if self.interrupted else "failed", int(time.time()) - start,
                        "make %s exited with %d: %s" % (target, rc, last_lines(os.path.join(self.run, "logs", name + ".log"))))

    def run_experiment(self, name, target, vars_):
        words = vars_.split()
        shown = target + (" " + " ".join(words) if words else "")
        start = int(time.time())
        exp_dir = os.path.join(self.run, name)
        if self.interrupted:
            self.record(name, shown, "not run", 0, "bench interrupted before this experiment")
            return
        if not self.testbed_up:
            os.makedirs(exp_dir, exist_ok=True)
            write_json(os.path.join(exp_dir, "summary.json"), status_summary(
                exp_dir, schema_of(name), "failed", "not run: the testbed did not come up (see logs/testbed.log)"))
            self.record(name, shown, "failed", 0, "the testbed did not come up")
            return
        why = cannot_run(words, self.shapes)
        if why:
            os.makedirs(exp_dir, exist_ok=True)
            write_json(os.path.join(exp_dir, "summary.json"), status_summary(exp_dir, schema_of(name), "skipped", why))
            self.record(name, shown, "skipped", 0, why)
            log("%s: skipped: %s" % (name, why))
            return
        log("%s: make %s %s (SCALE=%s)" % (name, target, " ".join(words), self.scale))
        rc = self.run_make(name, target, words)
        status = settle(exp_dir, name, target, rc, self.interrupted, self.limit,
                        os.path.join(self.run, "logs", name + ".log"))
        summary, _ = read_summary(os.path.join(exp_dir, "summary.json"))
        self.record(name, shown, status, int(time.time()) - start, error_text(summary))
        log("%s: %s (%d s)" % (name, status, int(time.time()) - start))

    # ------------------------------------------------------ the testbed
    def testbed_bring_up(self):
        start = int(time.time())
        log("testbed: up")
        path = os.path.join(self.run, "logs", "testbed.log")
        with open(path, "wb") as out:
            rc = subprocess.call(self.testbed.argv("up"), stdout=out, stderr=subprocess.STDOUT, env=self.env)
        if rc != 0:
            self.record("testbed", "testbed-up", "failed", int(time.time()) - start, last_lines(path))
            warn("the testbed did not come up: %s" % last_lines(path))
            return
        self.testbed_up = True
        status = self.testbed.record(env=self.env)
        # the host's speed at the bench's start, on the CPUs the testbed pins
        self.host0 = self.host.begin(status)
        # can this testbed shape a link (a lab's links are its wires)?
        self.shapes = status.get("link_shaping") is not False
        self.record("testbed", "testbed-up", "ok", int(time.time()) - start)

    def testbed_down(self):
        if not self.testbed_up:
            return
        log("testbed: down")
        if self.testbed.run("down", check=False)[0] != 0:
            warn("testbed down failed")
        self.testbed_up = False

    def children_stop(self):
        """At the end: a step still running stopped, the testbed down."""
        if self.child is not None and self.child.poll() is None:
            self.stop_child()
            self.signal_child(signal.SIGKILL)
            self.child.wait()
        self.testbed_down()

    def host_speed_end(self):
        # testbed.json as the last experiment recorded it
        with open(os.path.join(self.run, "testbed.json"), encoding="utf-8") as f:
            return self.testbed.host_speed(json.load(f))

    # ------------------------------------------------------ the end
    def summary_write(self, status):
        """bench.json with STATUS, then the report (and its PDF unless
        REPORT_PDF=off) of what exists."""
        self.write_bench_json(status)
        if subprocess.call([os.path.join(self.top, "analysis", "report"), self.run], env=self.env) == 0:
            if self.pdf == "off":
                self.report_ok = True
                log("no PDF of the report (REPORT_PDF=off)")
            elif subprocess.call([os.path.join(self.top, "analysis", "report-pdf"), self.run], env=self.env) == 0:
                self.report_ok = True
            else:
                warn("the report's PDF could not be written")
        else:
            warn("the report could not be written")
        log("results: %s (%s)" % (self.run, status))

    def main(self, args):
        self.read_settings()
        self.read_family()
        chosen = self.selection()
        if args[:1] == ["--list"]:
            print("step\tmake target\tvariables")
            for step in plan(chosen, self.family, self.registry):
                print("\t".join(step))
            return 0
        if args:
            raise Refused("unknown argument '%s': --list or none" % args[0])
        if os.geteuid() != 0:
            raise Refused("must run as root (network namespaces need CAP_NET_ADMIN)")
        if shutil.which(self.make, path=self.env.get("PATH")) is None:
            raise Refused("missing %s: run make deps" % self.make)
        self.run = run_dir(self.env, self.top)
        os.makedirs(os.path.join(self.run, "logs"), exist_ok=True)
        self.started = utc_now()
        self.runobj = BenchRun(self)
        with self.runobj as r:
            r.at_end(self.children_stop)
            log("run %s, SCALE=%s, FAMILY=%s, step limit %d s" % (self.run, self.scale, self.family, self.limit))
            self.run_step("build", "all")
            if not self.interrupted:
                self.run_step("zones", "zones")
            # the query trace every UDP experiment replays, against the zone served
            if not self.interrupted:
                self.run_step("trace", "trace", {"TRACE_QUERIES": self.trace_queries})
            if not self.interrupted:
                self.testbed_bring_up()
            self.testbed.record_zones(self.env)
            for name, target, vars_ in plan(chosen, self.family, self.registry):
                self.run_experiment(name, target, vars_)
            # and at its end, the last step done (on the CPUs the testbed pinned)
            if self.testbed_up:
                self.host1 = self.host_speed_end()
            self.testbed_down()
            r.finish(bench_status(self.steps, self.interrupted))
        return 0 if r.status == "ok" and self.report_ok else 1


def main(argv):
    top = project_top()
    if argv[:1] in (["-h"], ["--help"]):
        t = settings_rules.read_table(os.path.join(top, "scripts", "bench.settings.json"))
        t["file"] = "scripts/bench.settings.json"
        print(__doc__.strip("\n") + "\n\n" + "\n".join(settings_rules.help_lines(t)))
        return 0
    env = dict(os.environ)
    env["RB_TOP"] = top
    bench = Bench(top, env)
    try:
        return bench.main(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    except Refused as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr, flush=True)
        return e.rc
    except RunError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C before the run began: nothing started
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""sizes: `make sizes`, the paper's response-size experiment (§3, Tables
2-5, Figure 4). The same query trace is replayed slowly (every query
answered) once per zone variant; the switch's SNMP octet counters of the
router's server-VLAN port give bytes in (queries) and out (answers) per
query, a capture of that port's traffic cross-checks them, and a capture
of the answers at the Listener gives rcodes, reply sizes and DNSSEC shares.
Where the port's traffic is captured is the testbed's to say (`testbed
capture-points router-s`): on the namespace testbed the switch port
itself; on a lab (whose switch is a device) both servers' test NICs,
merged into one capture (docs/sizes.md, docs/real-lab.md).

  analysis/sizes/run                      run (SCALE, RB_RUN, RB_PREFIX from the environment)
  analysis/sizes/run check-accounting SNMP_IN SNMP_OUT PCAP ROUTER_MAC [DROPPED [START END]]
                                      compare SNMP octet deltas with a port
                                      capture; prints JSON, exit 0 when both
                                      directions agree within 0.5 %, 3 if not

Testbed: the profile analysis/sizes/profile, each variant served in turn
(ZONES); no testbed setting is taken from the environment. From a down
testbed it brings one up, and down again at the end.

Its settings are declared in analysis/sizes/settings.json (listed below,
with their defaults by SCALE=smoke|quick|paper; VARIANTS is now
SIZES_VARIANTS). Also FAMILY=4|6|both: the queries' address family: the
same queries (same seed) from IPv4 clients to 198.18.0.53, from IPv6
clients to 2001:2::53, or one run each.

Writes <run>/sizes/ (FAMILY=6: <run>/sizes-v6/): summary.json (rootbench.sizes/1), table2_bytes.csv,
table3_rcodes.csv, table4_no_dnssec.csv, table5_edns_sizes.csv,
qtypes.csv, reply_sizes.csv, sizes.png/.svg/.pdf, and per run <key>/ with the
Listener's answer capture and dnsstat reports. See docs/sizes.md."""

# The run, by the Python driver (scripts/rootbench/experiment.py): its
# rules (the accounting, the records, the summary, the tables) are
# rules.py's; here what measures: the testbed's verbs, the captures,
# tcpreplay, dnsstat (C), gnuplot.

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from rootbench import settings as settings_rules
from rootbench.capture import Capture
from rootbench.experiment import sibling
from rootbench.jqtext import to_text
from rootbench.plot import gnuplot_figure
from rootbench.lifecycle import RunError, json_pretty, run_dir, utc_now, write_json, write_text
from rootbench.testbed import HostSpeed

rules = sibling(__file__, "rules")

SCHEMA = rules.SCHEMA
NAME = "sizes"
FAMILY = True
# bad settings under a shared run (make bench): a failed summary that says
# why, never a half-written one
BAD_SETTINGS_SUMMARY = True

USAGE_ACCOUNTING = ("usage: analysis/sizes/run check-accounting SNMP_IN SNMP_OUT PCAP ROUTER_MAC "
                    "[DROPPED [START END]]")
NEED_TOOLS = ["gnuplot", "tcpdump", "tcpreplay", "tcprewrite", "capinfos", "editcap", "mergecap", "dig"]
MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")
INT_RE = re.compile(r"^[0-9]+$")
EPOCH_RE = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def folder_file(*path):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), *path)


def top_file(top, *path):
    return os.path.join(top, *path)


def msg(text):
    """A line on stderr without the program's name (the progress lines)."""
    print(text, file=sys.stderr, flush=True)


def fail(text):
    """sizes: error: TEXT, exit 1 (outside a run: check-accounting)."""
    print("sizes: error: %s" % text, file=sys.stderr, flush=True)
    sys.exit(1)


# ------------------------------------------------------------ the accounting

class Counter:
    """dnsstat's frame counts of a capture, per BPF filter."""

    def __init__(self, dnsstat, die):
        self.dnsstat = dnsstat
        self.die = die

    def frames_bytes(self, pcap, bpf):
        """"FRAMES BYTES" of the frames of pcap matching bpf ("" all)."""
        argv = [self.dnsstat, "--json"] + (["-f", bpf] if bpf else []) + [pcap]
        p = subprocess.run(argv, capture_output=True, text=True)
        try:
            if p.returncode != 0:
                raise ValueError(p.stderr)
            r = json.loads(p.stdout)
            return "%s %s" % (json_text(r["frames"]), json_text(r["frame_bytes"]))
        except (ValueError, KeyError, TypeError):
            if p.stderr:
                sys.stderr.write(p.stderr)
            self.die("dnsstat cannot read %s" % pcap)


def json_text(v):
    return to_text(v)


def accounting_input(count, snmp_in, snmp_out, pcap, mac, dropped, start, end, where, die, work):
    """What the accounting rule is given (rules.accounting): the SNMP deltas
    and the capture of the same port counted per direction (in = frames the
    router sent into the switch, i.e. from its MAC; out = all others). With
    START and END (epoch seconds: when the two SNMP readings were taken)
    only the frames between them are compared; those outside are counted,
    with the ratios over the whole capture."""
    if not (INT_RE.match(snmp_in) and INT_RE.match(snmp_out)):
        die("check-accounting: SNMP deltas must be integers")
    if not os.path.isfile(pcap):
        die("check-accounting: no such capture: %s" % pcap)
    if not MAC_RE.match(mac):
        die("check-accounting: '%s' is not a MAC address" % mac)
    all_ = win_in = win_out = inwin = ""
    win = None
    if start:
        if not (EPOCH_RE.match(start) and EPOCH_RE.match(end)):
            die("check-accounting: START and END must be epoch seconds")
        all_ = count(pcap, "")
        win_in = count(pcap, "ether src %s" % mac)
        win_out = count(pcap, "not ether src %s" % mac)
        fd, win = tempfile.mkstemp(prefix="rb-sizes-window.", dir=work)
        os.close(fd)
        p = subprocess.run(["editcap", "-F", "pcap", "-A", start, "-B", end, pcap, win],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if p.returncode != 0:
            os.unlink(win)
            die("editcap cannot cut %s" % pcap)
        pcap = win
    link = rules.LINK_OWN_FRAMES
    m = {"snmp_in": int(snmp_in), "snmp_out": int(snmp_out),
         "capture_in": count(pcap, "ether src %s" % mac),
         "capture_out": count(pcap, "not ether src %s" % mac),
         "arp": count(pcap, "arp"), "ip6": count(pcap, "ip6 and not (udp port 53)"),
         "link_in": count(pcap, "ether src %s and (%s)" % (mac, link)),
         "link_out": count(pcap, "not ether src %s and (%s)" % (mac, link)),
         "other": count(pcap, "not arp and not ip6 and not (udp port 53)")}
    if win:
        inwin = count(win, "")
        os.unlink(win)
    m.update({"link_filter": link, "dropped": dropped, "where": where, "start": start, "end": end,
              "all": all_, "in_window": inwin, "whole_in": win_in, "whole_out": win_out})
    return m


def check_accounting(ctx, args):
    """check-accounting ARGS: the accounting check of one run, by hand;
    its JSON printed, exit 0 when it passes, 3 when not."""
    if len(args) < 4:
        fail(USAGE_ACCOUNTING)
    dnsstat = top_file(ctx.top, "analysis", "dnsstat")
    if not os.access(dnsstat, os.X_OK):
        fail("missing %s: run make" % dnsstat)
    snmp_in, snmp_out, pcap, mac = args[:4]
    dropped = args[4] if len(args) > 4 else ""
    start = args[5] if len(args) > 5 else ""
    end = args[6] if len(args) > 6 else ""
    count = Counter(dnsstat, fail).frames_bytes
    m = accounting_input(count, snmp_in, snmp_out, pcap, mac, dropped, start, end, "router-s", fail, None)
    a = rules.accounting(m)
    print(json_pretty(a))
    sys.exit(0 if a["pass"] else 3)


def parse_args(ctx, args):
    """No argument: the run; check-accounting ...: that check alone (it
    exits here, before any run is opened)."""
    if args[:1] == ["check-accounting"]:
        check_accounting(ctx, args[1:])
    if args:
        raise RunError("unknown argument '%s' (usage: analysis/sizes/run, or analysis/sizes/run check-accounting ...)"
                       % args[0])
    return None


# ------------------------------------------------------------ the testbed's parts

def need_tools(tools):
    for t in tools:
        if shutil.which(t) is None:
            raise RunError("missing %s: run make deps" % t)


def need_program(top, path):
    if not os.access(path, os.X_OK):
        raise RunError("missing %s: run make" % path)


def capture_max_qps(top):
    """CAPTURE_MAX_QPS of scripts/lib/tcpdump.sh, where it is declared."""
    with open(top_file(top, "scripts", "lib", "tcpdump.sh"), encoding="utf-8") as f:
        m = re.search(r"^CAPTURE_MAX_QPS=([0-9]+)", f.read(), re.M)
    return int(m.group(1))


def run_quiet(argv, what, env=None):
    """argv run; RunError naming what, with its last lines, when it fails."""
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        tail = "\n".join((p.stdout + p.stderr).rstrip("\n").split("\n")[-2:])
        raise RunError("%s: %s" % (what, tail))
    return p.stdout


class Sizes:
    """One family's run: what it measured so far (ctx.sizes)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.top = ctx.top
        self.tb = ctx.testbed
        self.fam = ctx.family
        self.profile = folder_file("profile")
        self.dnsstat = top_file(self.top, "analysis", "dnsstat")
        self.runs_done = []          # the records of the runs measured
        self.settings_json = None
        self.testbed_json = None
        self.host = HostSpeed(self.tb)
        self.started = ""
        self.where = "router-s"
        self.points = None
        self.answers = {}            # key: the Listener's dnsstat report
        self.ports = {}              # key: router-s's dnsstat report
        self.validating = True
        self.count = Counter(self.dnsstat, ctx.die).frames_bytes

    # -------------------------------------------------- settings and plan
    def plan(self):
        """The settings (settings.json, by the driver), the rate within what
        the captures hold, the variants known and built, the runs."""
        ctx = self.ctx
        words = ctx.words("SIZES_VARIANTS")
        if words == ["all"]:
            words = list(rules.ALL_VARIANTS)
        self.variant_list = words
        pps = ctx.int("SIZES_PPS")
        cap = capture_max_qps(self.top)
        if pps > cap:
            ctx.warn("SIZES_PPS=%d q/s is above %d q/s, the highest rate at which the captures were measured to "
                     "stay complete under load (docs/sizes.md, Captures under load)" % (pps, cap))
            ctx.die("refused: SIZES_PPS=%s" % ctx.settings["SIZES_PPS"])
        # the profile's testbed, each variant only another ZONES: asked before anything starts
        self.tb.check_for(self.profile)
        if not words:
            ctx.die("SIZES_VARIANTS is empty")
        bad = rules.unknown_variant(words)
        if bad:
            ctx.die("unknown zone variant '%s' (known: %s)" % (bad, " ".join(rules.ALL_VARIANTS)))
        # what is missing built (a variant that is up to date is left alone)
        p = subprocess.run([top_file(self.top, "zones", "build-zones")] + words, capture_output=True, text=True)
        if p.returncode != 0:
            tail = "\n".join((p.stdout + p.stderr).rstrip("\n").split("\n")[-2:])
            ctx.die("zones/build-zones %s failed: %s" % (" ".join(words), tail))
        for v in words:
            d = top_file(self.top, "zones", "build", v)
            if not (os.path.isfile(os.path.join(d, "variant.json")) and os.path.isfile(os.path.join(d, "root.zone"))):
                ctx.die("zone variant '%s' is not built (zones/build-zones %s)" % (v, v))
        self.runs = rules.plan_runs(words, ctx.int("SIZES_QUERIES"), ctx.int("SIZES_BIG_QUERIES"))

    # -------------------------------------------------- the testbed
    def serve(self, variant):
        """The experiment's profile serving VARIANT; nothing else from the environment."""
        self.tb.up_for(self.profile, ["ZONES=%s" % variant])

    def check_served(self, variant):
        """The service answers the root SOA, with an RRSIG exactly when
        VARIANT is signed."""
        with open(top_file(self.top, "zones", "build", variant, "variant.json"), encoding="utf-8") as f:
            signed = json.load(f).get("signed")
        addr = self.fam.service
        rc, out, _ = self.tb.run("exec", "player1", "--", "dig", "+dnssec", "+norec", "+time=2", "+tries=3",
                                 "@" + addr, ".", "SOA", check=False)
        if rc != 0:
            self.ctx.die("no answer to '. SOA' from %s after serving %s" % (addr, variant))
        rrsig = sum(1 for line in out.split("\n") if "\tRRSIG\tSOA" in line)
        if signed is True and rrsig == 0:
            self.ctx.die("%s is signed but '. SOA' came without RRSIG" % variant)
        if signed is False and rrsig > 0:
            self.ctx.die("%s is unsigned but '. SOA' came with an RRSIG" % variant)

    def port_points(self):
        """Where router-s's traffic is captured (testbed capture-points router-s)."""
        rc, out, _ = self.tb.run("capture-points", "router-s", check=False)
        if rc != 0:
            self.ctx.die("the testbed does not say where the traffic of router-s can be captured "
                         "(scripts/testbed capture-points router-s)")
        try:
            points = json.loads(out)
            ok = len(points["points"]) > 0
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            self.ctx.die("capture-points router-s: no capture point: %s" % out.rstrip("\n"))
        self.points = points
        self.where = points.get("where")

    def listener_answers(self):
        try:
            return int(self.tb.counters()["listener"]["dns_answers"]["packets"])
        except (KeyError, TypeError, ValueError) as e:
            raise RunError("the Listener's answer counter is unreadable (scripts/testbed counters): %s" % e) from e

    def settle_answers(self):
        """The Listener's answer counter once it stops (10 s at most)."""
        last = -1
        now = None
        for _ in range(20):
            now = self.listener_answers()
            if now == last:
                return now
            last = now
            time.sleep(0.5)
        return now

    def snmp_both(self):
        """(IN, OUT) octets of router-s, both read in parallel."""
        procs = {d: subprocess.Popen(self.tb.argv("snmp-octets", d, "router-s"), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=self.tb.env) for d in ("in", "out")}
        got = {}
        for d, p in procs.items():
            out, err = p.communicate()
            if p.returncode != 0:
                self.ctx.die("SNMP reading failed: snmpget ifHC%sOctets of switch port router-s from the switch's agent "
                             "(scripts/testbed snmp-octets %s router-s; on the namespace testbed snmpd in %s-switch): %s"
                             % ("In" if d == "in" else "Out", d, os.environ.get("RB_PREFIX", "rb"),
                                err.replace("\n", " ")))
            got[d] = out.strip()
        if not (INT_RE.match(got["in"]) and INT_RE.match(got["out"])):
            self.ctx.die("SNMP octets not numeric: %s %s" % (got["in"], got["out"]))
        return int(got["in"]), int(got["out"])

    def reading_time(self, settle):
        """When a reading is taken: now plus snmp-octets' settle time."""
        return "%.6f" % (time.time() + settle)

    def rewrite(self, trace, out):
        """The trace rewritten for the testbed (udpreplay/lib.sh's
        ur_rewrite_for_testbed: player1's and the router's MACs, the
        service, the Listener as source); its "kept N ..." line."""
        script = ('. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/scripts/lib/topology.sh"; '
                  '. "$RB_TOP/udpreplay/lib.sh"; ur_rewrite_for_testbed "$@"')
        p = subprocess.run(["bash", "-c", script, "sizes", trace, out, "player1", "", self.fam.family],
                           capture_output=True, text=True)
        if p.returncode != 0:
            # its error becomes the run's (printed once, by the run's end)
            lines = p.stderr.rstrip("\n").split("\n")
            err = [line for line in lines if ": error: " in line]
            rest = [line for line in lines if line and ": error: " not in line]
            if rest:
                sys.stderr.write("\n".join(rest) + "\n")
            raise RunError(err[-1].split(": error: ", 1)[1] if err else "the trace's rewrite failed")
        return p.stdout

    def replay(self, pcap, pps, n, log):
        """N packets of pcap from player1 at PPS (tcpreplay), bounded in time
        (N / PPS + 30 s); the target guard on every packet first."""
        guard = [top_file(self.top, "analysis", "target-check")]
        if os.environ.get("RB_ALLOW_RANGES"):
            guard += ["--allow-range", os.environ["RB_ALLOW_RANGES"]]
        p = subprocess.run(guard + ["--pcap", pcap], capture_output=True, text=True)
        if p.returncode != 0:
            out = (p.stdout + p.stderr).rstrip("\n").replace("target-check: ", "")
            out = out.replace("error: --allow-range:", "RB_ALLOW_RANGES:")
            raise RunError(out[len("error: "):] if out.startswith("error: ") else out)
        timer = os.environ.get("UDP_TIMER", "auto")
        if timer == "auto":
            timer = "nano" if pps <= 4000 else "gtod"
        elif timer not in ("gtod", "nano"):
            raise RunError("UDP_TIMER=%s: auto, gtod or nano" % timer)
        iface = self.tb.text("iface", "player1").strip()
        argv = ["timeout", "--kill-after=5", str(n // pps + 30)] + self.tb.argv(
            "exec", "player1", "--", "tcpreplay", "--intf1=%s" % iface, "--timer=%s" % timer, "--pps=%d" % pps,
            "--limit=%d" % n, "--loop=0", pcap)
        with open(log, "w", encoding="utf-8") as f:
            p = self.ctx.run.spawn(argv, group=True, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            return p.wait()

    # -------------------------------------------------- one run
    def port_capture_start(self, work):
        caps = []
        for i, pt in enumerate(self.points["points"]):
            c = Capture(self.ctx.run, self.tb, "port%d" % i, pt["role"], pt["iface"],
                        os.path.join(work, "port%d.pcap" % i), pt.get("filter") or "", snaplen=0, warn=self.ctx.warn)
            if not c.start():
                self.ctx.die("cannot start the capture of router-s's traffic on %s %s" % (pt["role"], pt["iface"]))
            caps.append(c)
        return caps

    def port_capture_stop(self, caps, out, work):
        """The port captures stopped and merged (chronologically, mergecap)
        into out; (complete, dropped: the packets the kernels dropped, ""
        when one is unknown). A short capture flags the run instead of
        ending it."""
        complete = True
        dropped = 0
        files = []
        for c in caps:
            complete = c.stop() and complete
            files.append(c.file)
            d = c.stats()[2]
            dropped = "" if d == "?" or dropped == "" else dropped + int(d)
        if len(files) == 1:
            os.replace(files[0], out)
        else:
            p = subprocess.run(["mergecap", "-F", "pcap", "-w", out] + files, capture_output=True, text=True)
            if p.returncode != 0:
                self.ctx.die("mergecap cannot merge the captures of router-s's traffic: %s"
                             % "\n".join(p.stderr.rstrip("\n").split("\n")[-2:]))
            for f in files:
                os.unlink(f)
        for c in caps:
            try:
                os.unlink(c.log)
            except OSError:
                pass
        return complete, ("" if dropped == "" else str(dropped))

    def dnsstat_report(self, pcap, out, what):
        p = subprocess.run([self.dnsstat, "--json", "--bin", str(self.ctx.int("SIZES_BIN")), "-o", out, pcap])
        if p.returncode != 0:
            self.ctx.die("dnsstat failed on %s" % what)
        with open(out, encoding="utf-8") as f:
            return json.load(f)

    def measure(self, key, variant, n, trace):
        """Serve, capture, replay, read: one run's record. Returns whether
        every capture it stopped was complete."""
        ctx, tb = self.ctx, self.tb
        work = ctx.run.work
        d = os.path.join(ctx.dir, key)
        os.makedirs(d, exist_ok=True)
        t0 = int(time.time())
        self.serve(variant)
        self.check_served(variant)
        replay_pcap = os.path.join(work, "replay.pcap")
        rewritten = self.rewrite(trace, replay_pcap)
        fields = rewritten.split()
        kept = int(fields[1]) if len(fields) > 1 and INT_RE.match(fields[1]) else 0
        if kept < n:
            ctx.die("the rewritten trace has %d queries, fewer than %d: %s" % (kept, n, rewritten.rstrip("\n")))
        rmac = tb.text("mac", "router", "eths").strip()

        answers = Capture(ctx.run, tb, "answers", "listener", "eth0", os.path.join(d, "answers.pcap"),
                          "udp and src port 53", snaplen=0, warn=ctx.warn)
        if not answers.start():
            ctx.die("cannot start the answer capture at the Listener")
        ports = self.port_capture_start(work)
        # the readings are taken when snmpget runs, after snmp-octets' settle time
        settle = float(tb.text("snmp-settle").strip())
        w0 = self.reading_time(settle)
        si0, so0 = self.snmp_both()
        a0 = self.listener_answers()
        rlog = os.path.join(d, "replay.log")
        pps = ctx.int("SIZES_PPS")
        if self.replay(replay_pcap, pps, n, rlog) != 0:
            ctx.die("tcpreplay failed for %s (see %s)" % (key, rlog))
        a1 = self.settle_answers()
        w1 = self.reading_time(settle)
        si1, so1 = self.snmp_both()
        # completeness is judged below from the drop counts, so a short
        # capture flags the run instead of ending it
        complete = answers.stop()
        port_pcap = os.path.join(work, "port.pcap")
        port_complete, port_dropped = self.port_capture_stop(ports, port_pcap, work)
        complete = complete and port_complete

        with open(rlog, encoding="utf-8", errors="replace") as f:
            log_text = f.read()
        sent = re.findall(r"^\s*Successful packets:\s*([0-9]+)", log_text, re.M)
        failed_pk = re.findall(r"^\s*Failed packets:\s*([0-9]+)", log_text, re.M)
        if not sent:
            ctx.die("cannot read the packets sent from %s" % rlog)
        sent = int(sent[-1])
        flags = []
        if sent != n:
            flags.append("sent %d of %d queries (tcpreplay failed %s)" % (sent, n, failed_pk[-1] if failed_pk else "?"))
        if a1 - a0 != sent:
            flags.append("Listener counted %d answers for %d queries" % (a1 - a0, sent))

        ans = self.dnsstat_report(answers.file, os.path.join(d, "answers.json"), answers.file)
        port = self.dnsstat_report(port_pcap, os.path.join(d, "port.json"),
                                   "the capture of router-s's traffic (%s)" % self.where)
        m = accounting_input(self.count, str(si1 - si0), str(so1 - so0), port_pcap, rmac, port_dropped, w0, w1,
                             self.where, ctx.die, work)
        acct = rules.accounting(m)
        write_json(os.path.join(d, "accounting.json"), acct)
        if not acct["pass"]:
            flags.append("SNMP and capture disagree beyond %s%%" % json_text(acct["tolerance"] * 100))
        captured = ans.get("responses")
        if captured != sent:
            flags.append("the Listener capture holds %s answers for %d queries" % (json_text(captured), sent))
        dropped_ans = answers.stats()[2]
        if dropped_ans not in ("?", "0"):
            flags.append("answer capture dropped %s packets" % dropped_ans)
        if ctx.flag("SIZES_KEEP_PCAPS"):
            os.replace(port_pcap, os.path.join(d, "port.pcap"))
        else:
            os.unlink(port_pcap)
        with open(top_file(self.top, "zones", "build", variant, "variant.json"), encoding="utf-8") as f:
            zone = json.load(f)
        rec = rules.run_record(key, variant, n, sent, pps, a1 - a0, si1 - si0, so1 - so0, acct, int(time.time()) - t0,
                               self.where, flags, zone, ans, port)
        self.runs_done.append(rec)
        self.answers[key], self.ports[key] = ans, port
        msg(rules.progress_line(rec))
        return complete

    def measure_again(self, key, variant, n, trace):
        """One run, measured again (SIZES_CAPTURE_RUNS in all) while a
        capture it stopped was incomplete: the machine's load says nothing
        about the server; the last run's record stays, flagged as it saw it."""
        runs = self.ctx.int("SIZES_CAPTURE_RUNS")
        attempt = 1
        while True:
            complete = self.measure(key, variant, n, trace)
            if complete or attempt >= runs:
                return
            attempt += 1
            self.ctx.warn("a capture was incomplete: measuring this point again (%d of %d)" % (attempt, runs))
            rec = self.runs_done.pop()
            self.answers.pop(rec["key"], None)
            self.ports.pop(rec["key"], None)

    # -------------------------------------------------- outputs
    def variants(self):
        return rules.variants(self.runs_done)

    def write_tables(self):
        """The CSV tables and the figure from the runs' reports."""
        ctx = self.ctx
        vs = self.variants()
        keys = list(vs)
        paper = read_json(top_file(self.top, "analysis", "paper.json"))
        trace = read_json(os.path.join(ctx.dir, "trace", "trace.json"))
        out = {"table2_bytes.csv": rules.table2(vs, paper), "table3_rcodes.csv": rules.table3(vs),
               "table4_no_dnssec.csv": rules.table4(keys, self.answers, self.ports),
               "table5_edns_sizes.csv": rules.table5(trace), "qtypes.csv": rules.qtypes(trace),
               "reply_sizes.csv": rules.reply_sizes(keys, [self.answers[k] for k in keys])}
        for name, text in out.items():
            write_text(os.path.join(ctx.dir, name), text)
        self.plot(keys, out["reply_sizes.csv"])

    def plot(self, keys, csv_text):
        """sizes.png, .svg and .pdf from reply_sizes.csv (sizes.gp: one panel
        per run, the same axes in every panel so the runs compare at a glance);
        none with FIGURES=off (scripts/lib/plot.sh's rule)."""
        figures = os.environ.get("FIGURES") or "on"
        table = settings_rules.read_table(top_file(self.top, "scripts", "lib", "settings.json"))
        entry = [e for e in table["settings"] if e["name"] == "FIGURES"][0]
        bad = settings_rules.value_error(entry, figures)
        if bad:
            raise RunError(bad)
        base = os.path.join(self.ctx.dir, "sizes")
        if figures == "off":
            self.ctx.log("FIGURES=off: no sizes figure")
            return
        binw = self.ctx.int("SIZES_BIN")
        xmax, ymax = rules.plot_axes(csv_text, binw)
        datafile = os.path.join(self.ctx.dir, "reply_sizes.csv")
        gvars = "datafile='%s'; titles='%s'; n=%d; binw=%d; xmax=%s; ymax=%s" % (
            datafile, " ".join(keys), len(keys), binw, xmax, ymax)
        style = top_file(self.top, "scripts", "lib", "style.gp")
        script = folder_file("sizes.gp")
        for term in ("png", "svg", "pdf"):
            gnuplot_figure(script, "analysis/sizes/sizes.gp", gvars, style, base, "sizes", term)

    def summary(self, status, error):
        ctx = self.ctx
        if self.validating:
            return None        # bad settings: the status and error alone
        trace_path = os.path.join(ctx.dir, "trace", "trace.json")
        trace = read_json(trace_path) if os.path.isfile(trace_path) else None
        paper = read_json(top_file(self.top, "analysis", "paper.json"))
        host = self.host.pair(self.testbed_json) if self.testbed_json is not None else {"start": None, "end": None}
        return rules.summary(status, error, self.started, utc_now(), self.settings_json, self.testbed_json, host,
                             self.variants(), trace, paper)

    # -------------------------------------------------- the whole
    def run(self):
        ctx, tb = self.ctx, self.tb
        self.plan()
        self.validating = False
        self.started = utc_now()
        summary = os.path.join(ctx.dir, "summary.json")
        if os.path.exists(summary):
            os.unlink(summary)

        # the profile's testbed (the zone follows per variant); the summary
        # records it as configured
        self.serve("")
        status_text = tb.status_text()
        self.testbed_json = json.loads(status_text)
        self.host.begin(self.testbed_json)
        self.port_points()
        if not os.path.isfile(os.path.join(run_dir(), "testbed.json")):
            tb.record(status_text)

        # one trace for every variant, generated against the unsigned root
        nmax = max(q for _, _, q in self.runs)
        tdir = os.path.join(ctx.dir, "trace")
        os.makedirs(tdir, exist_ok=True)
        seed, profile = ctx.int("SIZES_SEED"), ctx.settings["SIZES_PROFILE"]
        ctx.log("trace: %d queries over IPv%s, profile %s, seed %d, zone zones/build/unsigned/root.zone"
                % (nmax, self.fam.family, profile, seed))
        env = dict(os.environ, FAMILY=self.fam.family, TRACE_V6_SHARE="", TRACE_QUERIES=str(nmax),
                   TRACE_SEED=str(seed), TRACE_PROFILE=profile,
                   TRACE_ZONE=top_file(self.top, "zones", "build", "unsigned", "root.zone"), TRACE_DIR=tdir)
        run_quiet([top_file(self.top, "udpreplay", "make-trace")], "trace generation failed", env=env)
        trace = os.path.join(tdir, "trace.pcap")
        if subprocess.run([self.dnsstat, "--json", "-o", os.path.join(tdir, "trace.json"), trace]).returncode != 0:
            ctx.die("dnsstat failed on the trace")
        digest = sha256(trace)
        self.settings_json = rules.settings_json(
            int(self.fam.family), self.fam.service, ctx.scale, self.variant_list, ctx.settings_summary(), self.runs,
            nmax, seed, profile, digest, os.environ.get("RB_PREFIX", "rb"), self.points)

        pps = ctx.int("SIZES_PPS")
        for i, (key, variant, n) in enumerate(self.runs, 1):
            ctx.check()
            ctx.log("[%d/%d] %s: serving %s, replaying %d queries at %d q/s" % (i, len(self.runs), key, variant, n, pps))
            self.measure_again(key, variant, n, trace)

        self.write_tables()
        vs = self.variants()
        bad = rules.flagged_keys(vs)
        if bad:
            ctx.run.finish("failed", "flagged runs (not every query answered, or SNMP and capture disagree): %s"
                           % ", ".join(bad))
        else:
            ctx.run.finish("ok")
        for line in rules.final_lines(vs):
            msg(line)
        ctx.log("wrote %s (status %s)" % (ctx.dir, "failed" if bad else "ok"))


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run(ctx):
    if os.geteuid() != 0:
        ctx.die("must run as root (network namespaces need CAP_NET_ADMIN)")
    need_tools(NEED_TOOLS)
    need_program(ctx.top, top_file(ctx.top, "analysis", "dnsstat"))
    need_program(ctx.top, top_file(ctx.top, "udpreplay", "build", "tracegen"))
    ctx.sizes = Sizes(ctx)
    ctx.sizes.run()


def summary(ctx, status, error):
    """The summary of what was measured, for every status; interrupted:
    with the tables of the runs measured before."""
    s = getattr(ctx, "sizes", None)
    if s is None:
        return None
    if status == "interrupted":
        if s.runs_done:
            try:
                s.write_tables()
            except Exception:  # noqa: BLE001 (the summary still says what was measured)
                ctx.warn("tables of the measured runs not written")
        error = rules.interrupted_error(s.variants())
    return s.summary(status, error)

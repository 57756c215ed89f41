"""sizes-matrix: `make sizes-matrix`, the DNSSEC sizing matrix
(docs/sizes-matrix.md): zone states (algorithms, NSEC3, a KSK roll, a ZSK
pre-publish) x query profiles (DO shares) x advertised EDNS buffer sizes.
Each cell replays a query trace slowly (every query answered) against the
zone state and reads bytes per query in and out from the switch's SNMP
octet counters of the router's server-VLAN port (as analysis/sizes/run does);
a capture of the answers at the Listener gives the TC=1 share (the TCP
fallback the instance must absorb) and the answer size distribution. Per
zone state the DNSKEY answer is measured with dig. Against links of 100
Mb/s, 1 Gb/s and 10 Gb/s and the server's unshaped UDP ceiling (from the
udp-unshaped experiment of the results directory, when it ran) the rules
(analysis/sizes-matrix/rules.py, the roadmap's roadmap.py) say which ceiling an instance hits first and
the query rate where it turns from query-bound to byte-bound.

  analysis/sizes-matrix/run            run (SCALE, RB_RUN, RB_PREFIX from the environment)
  analysis/sizes-matrix/run --plan     print the cells of the settings and exit
  analysis/sizes-matrix/run --rederive DIR  apply the rules again to a matrix run's
                                   measured cells with the ceiling its results
                                   directory holds now (udp-unshaped made later)
  analysis/sizes-matrix/run --tables DIR    rewrite the tables and figures of a matrix
                                   run (DIR = <run>/sizes-matrix) from its summary.json
  analysis/sizes-matrix/run --ceiling DIR   print the server UDP ceiling the matrix
                                   would read from results directory DIR (JSON)
  analysis/sizes-matrix/run --tcp-capacity DIR  the TCP capacity per CPU it would
                                   read from DIR (JSON)

Its settings are declared in analysis/sizes-matrix/settings.json (listed
below, with their defaults by SCALE=smoke|quick|paper).
Zone states: unsigned, paper (RSASHA256 2048/1024), root (2048/2048),
ecdsap256, ed25519, nsec3, ksk-roll, zsk-prepublish; the roadmap's
alg-prepublish, alg-double (RSA ZSK 1536), alg-double-2048 (its control),
alg-ecdsa-rsaksk and the size models pq-falcon512, pq-mldsa44,
pq-slhdsa128s (docs/sizes-matrix.md, "The root's DNSSEC roadmap"). Profiles: paper-2010,
root-2016, do0, do50, do100 (root-2016 with the DO share forced). EDNS:
trace, 512, 1232, 4096 (every query with an OPT record advertises it).

Writes <run>/sizes-matrix/: summary.json (rootbench.sizes-matrix/1),
cells.csv, bytes_by_zone.csv, tc_by_edns.csv, crossover.csv,
answer_sizes.csv, dnskey.csv, figures bytes_by_zone, tc_by_edns and
crossover (.png/.svg/.pdf), and per cell <cell>/answers.json."""

# The run, by the Python driver (scripts/rootbench/experiment.py): its
# rules (the cells' records, the ceiling analysis, the checks, the
# roadmap, the tables) are rules.py's and roadmap.py's; here what
# measures: the testbed's verbs, the captures, tcpreplay, tracegen and
# dnsstat (C), dig, gnuplot.

import json
import os
import re
import shutil
import subprocess
import sys
import time

from rootbench import settings as settings_rules
from rootbench.capture import Capture
from rootbench.experiment import load_path, sibling
from rootbench.plot import gnuplot_figure
from rootbench.lifecycle import RunError, json_pretty, run_dir, utc_now, write_json, write_text
from rootbench.testbed import HostSpeed, family_parse, read_registry

rules = sibling(__file__, "rules")
roadmap = rules.roadmap
# answer_sizes.csv is the sizes experiment's reply_sizes table, written once
sizes_rules = load_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sizes", "rules.py"))

SCHEMA = rules.SCHEMA
NAME = "sizes-matrix"
# bad settings under a shared run (make bench): a failed summary that says why
BAD_SETTINGS_SUMMARY = True

STATES = ["unsigned", "paper", "root", "ecdsap256", "ed25519", "nsec3", "ksk-roll", "zsk-prepublish",
          "alg-prepublish", "alg-double", "alg-double-2048", "alg-ecdsa-rsaksk", "pq-falcon512", "pq-mldsa44",
          "pq-slhdsa128s"]
PROFILES = ["paper-2010", "root-2016", "do0", "do50", "do100"]
EDNS_SIZES = ["trace", "512", "1232", "4096"]
BASE_STATE, BASE_PROFILE, BASE_EDNS = "root", "root-2016", "trace"

VARIANT_OF = {"unsigned": "unsigned", "paper": "rsasha256-2048-1024", "root": "rsasha256-2048-2048",
              "ecdsap256": "ecdsap256", "ed25519": "ed25519", "nsec3": "nsec3-rsasha256-2048-1024",
              "ksk-roll": "ksk-roll-rsasha256-2048-2048", "zsk-prepublish": "zsk-prepublish-rsasha256-2048-2048",
              "alg-prepublish": "algroll-prepublish", "alg-double": "algroll-double-rsa1536",
              "alg-double-2048": "algroll-double-rsa2048", "alg-ecdsa-rsaksk": "algroll-ecdsa-rsaksk",
              "pq-falcon512": "pqmodel-falcon512", "pq-mldsa44": "pqmodel-mldsa44", "pq-slhdsa128s": "pqmodel-slhdsa128s"}
# tracegen's profile and overrides (udpreplay/profile.c)
PROFILE_ARGS = {"paper-2010": "-p paper-2010", "root-2016": "-p root-2016", "do0": "-p root-2016 -S do=0",
                "do50": "-p root-2016 -S do=0.5", "do100": "-p root-2016 -S edns=1 -S do=1"}
# the override of the advertised buffer (none: as in the trace)
EDNS_ARGS = {"trace": "", "512": "-S sizes=512=1", "1232": "-S sizes=1232=1", "4096": "-S sizes=4096=1"}

NEED_TOOLS = ["gnuplot", "tcpdump", "tcpreplay", "tcprewrite", "capinfos", "dig"]
INT_RE = re.compile(r"^[0-9]+$")
CELL_RE = re.compile(r"^[^:]+:[^:]+:[^:]+$")
USAGE = {"--rederive": "usage: analysis/sizes-matrix/run --rederive DIR (DIR/summary.json of a matrix run)",
         "--tables": "usage: analysis/sizes-matrix/run --tables DIR (DIR/summary.json of a matrix run)"}


def folder_file(*path):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), *path)


def top_file(top, *path):
    return os.path.join(top, *path)


def msg(text):
    """A line on stderr without the program's name (the progress lines)."""
    print(text, file=sys.stderr, flush=True)


def log(text):
    print("sizes-matrix: %s" % text, file=sys.stderr, flush=True)


def fail(text):
    """sizes-matrix: error: TEXT, exit 1 (the modes outside a run)."""
    print("sizes-matrix: error: %s" % text, file=sys.stderr, flush=True)
    sys.exit(1)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def state_variant(state, tlds):
    """The zone variant (docs/zones.md) of a zone state; with MATRIX_TLDS=N
    the growth build of it from a root of N delegations (tlds<N>-<variant>,
    zones/build-zones TLDS=N)."""
    return ("tlds%s-" % tlds if tlds else "") + VARIANT_OF[state]


def capture_max_qps(top):
    """CAPTURE_MAX_QPS of scripts/lib/tcpdump.sh, where it is declared."""
    with open(top_file(top, "scripts", "lib", "tcpdump.sh"), encoding="utf-8") as f:
        return int(re.search(r"^CAPTURE_MAX_QPS=([0-9]+)", f.read(), re.M).group(1))


# ------------------------------------------------------------ the plan

def plan_cells(ctx, die):
    """The cells (STATE:PROFILE:EDNS, grouped by zone state in the order of
    STATES) of the settings."""
    plan = ctx.settings["MATRIX_PLAN"]
    only = roadmap.roadmap_only_states()
    cells = []

    def add_roadmap():
        for s in [ph["state"] for ph in roadmap.ROADMAP_PHASES]:
            for p in (roadmap.MIX_PROFILE, roadmap.DO_PROFILE):
                c = "%s:%s:1232" % (s, p)
                if c not in cells:
                    cells.append(c)

    if plan == "smoke":
        cells = ["root:root-2016:trace", "root:root-2016:512", "unsigned:root-2016:512"]
    elif plan in ("one-factor", "one-factor-roadmap"):
        cells += ["%s:%s:%s" % (s, BASE_PROFILE, BASE_EDNS) for s in STATES if s not in only]
        cells += ["%s:%s:%s" % (BASE_STATE, p, BASE_EDNS) for p in PROFILES if p != BASE_PROFILE]
        for e in EDNS_SIZES:
            if e != BASE_EDNS:
                cells += ["%s:%s:%s" % (BASE_STATE, BASE_PROFILE, e), "unsigned:%s:%s" % (BASE_PROFILE, e)]
        if plan == "one-factor-roadmap":
            add_roadmap()
    elif plan == "roadmap":
        add_roadmap()
    elif plan == "all":
        cells = ["%s:%s:%s" % (s, p, e) for s in STATES for p in PROFILES for e in EDNS_SIZES]
    # one family: the matrix replays IPv4 traces
    family_parse(os.environ.get("FAMILY", ""), NAME, read_registry(ctx.top))
    if ctx.settings.get("MATRIX_CELLS"):
        cells = ctx.settings["MATRIX_CELLS"].split()
    if not cells:
        die("MATRIX_CELLS is empty")
    pps = ctx.int("MATRIX_PPS")
    cap = capture_max_qps(ctx.top)
    if pps > cap:
        print("sizes-matrix: warning: MATRIX_PPS=%d q/s is above %d q/s, the highest rate at which the captures were "
              "measured to stay complete under load (docs/sizes.md, Captures under load)" % (pps, cap),
              file=sys.stderr, flush=True)
        die("refused: MATRIX_PPS=%s" % ctx.settings["MATRIX_PPS"])
    seen = []
    for c in cells:
        if not CELL_RE.match(c):
            die("cell '%s' is not STATE:PROFILE:EDNS" % c)
        s, p, e = c.split(":")
        if s not in VARIANT_OF:
            die("cell '%s': unknown zone state '%s' (known: %s)" % (c, s, " ".join(STATES)))
        if p not in PROFILE_ARGS:
            die("cell '%s': unknown profile '%s' (known: %s)" % (c, p, " ".join(PROFILES)))
        if e not in EDNS_ARGS:
            die("cell '%s': unknown EDNS buffer '%s' (known: %s)" % (c, e, " ".join(EDNS_SIZES)))
        if c in seen:
            die("cell '%s' is listed twice" % c)
        seen.append(c)
    # grouped by zone state (one zone load each), in the order of STATES
    return [c for s in STATES for c in seen if c.split(":")[0] == s]


# ------------------------------------------------------------ what it reads from other experiments

def read_ceiling(path, shown):
    """The server's unshaped UDP ceiling from a udp-unshaped summary
    (rules.py server_ceiling), or not measured without one."""
    if not os.path.isfile(path):
        return rules.ceiling_not_measured(path), True
    try:
        return rules.server_ceiling(read_json(path), shown), False
    except (ValueError, OSError) as e:
        raise RunError("%s\ncannot read %s" % (e, path)) from e


def read_tcp_capacity(path, shown):
    """The TCP capacity per CPU from a tcp summary (roadmap.py tcp_capacity)."""
    if not os.path.isfile(path):
        return roadmap.tcp_capacity(None, None)
    try:
        return roadmap.tcp_capacity(read_json(path), shown)
    except (ValueError, OSError) as e:
        raise RunError("%s\ncannot read %s" % (e, path)) from e


def results_dir_reads(d, rb_run):
    """(ceiling, tcp) the matrix reads from results directory d (shown
    relative when d is the run's own)."""
    f = os.path.join(d, "udp-unshaped", "summary.json")
    ceiling, _ = read_ceiling(f, "udp-unshaped/summary.json" if d == rb_run else f)
    tcp = read_tcp_capacity(os.path.join(d, "tcp", "summary.json"), "tcp/summary.json")
    return ceiling, tcp


def die_plain(text):
    """A RunError's text as the run's error (its first lines as they came)."""
    lines = text.split("\n")
    for line in lines[:-1]:
        print("sizes-matrix: error: %s" % line, file=sys.stderr, flush=True)
    fail(lines[-1])


# ------------------------------------------------------------ the tables and figures

def write_tables(top, d):
    """The #-headed CSV tables (rules.py), answer_sizes.csv (the sizes
    experiment's rule) and the figures, from d/summary.json."""
    s = read_json(os.path.join(d, "summary.json"))
    try:
        tables = rules.tables(s, BASE_PROFILE, BASE_EDNS)
    except (ValueError, KeyError, TypeError) as e:
        raise RunError("cannot write the tables of %s: %s" % (d, e)) from e
    for name, text in tables.items():
        write_text(os.path.join(d, name), text)
    keys = [c.get("key") for c in s["cells"]]
    if keys:
        reports = [read_json(os.path.join(d, k, "answers.json")) for k in keys]
        write_text(os.path.join(d, "answer_sizes.csv"), sizes_rules.reply_sizes(keys, reports))
    else:
        write_text(os.path.join(d, "answer_sizes.csv"), "# size_lo\n")
    plot(top, d, s, tables)


def plot(top, d, s, tables):
    """The four figures from the tables (sizes-matrix.gp); none with
    FIGURES=off (scripts/lib/plot.sh's rule)."""
    figures = os.environ.get("FIGURES") or "on"
    table = settings_rules.read_table(top_file(top, "scripts", "lib", "settings.json"))
    entry = [e for e in table["settings"] if e["name"] == "FIGURES"][0]
    bad = settings_rules.value_error(entry, figures)
    if bad:
        raise RunError(bad)
    zs = re.sub(r"^# idx,edns,?", "", tables["tc_by_edns.csv"].split("\n")[0]).replace(",", " ")
    c = s.get("server_udp_ceiling") or {}
    ceil = "%s queries/s" % rules.to_text(c["qps"]) if rules.truthy(c.get("qps")) else "not measured"
    paper = read_json(top_file(top, "analysis", "paper.json"))
    pu, ps = (rules.to_text(rules.alt(rules.get(paper, "sizes", "tests", t, "bytes_per_query_out"), 0))
              for t in ("unsigned", "signed"))
    style = top_file(top, "scripts", "lib", "style.gp")
    script = folder_file("sizes-matrix.gp")
    for fig in ("bytes_by_zone", "tc_by_edns", "crossover", "roadmap"):
        base = os.path.join(d, fig)
        rows = [line for line in tables[fig + ".csv"].split("\n") if line and not line.startswith("#")]
        if not rows:
            for term in ("png", "svg", "pdf"):
                if os.path.exists(base + "." + term):
                    os.unlink(base + "." + term)
            continue
        if figures == "off":
            log("FIGURES=off: no %s figure" % fig)
            continue
        gvars = ("fig='%s'; datafile='%s.csv'; zs='%s'; ceil='%s'; paper_unsigned=%s; paper_signed=%s; w=1000; h=%d"
                 % (fig, base, zs, ceil, pu, ps, 680 if fig == "crossover" else 560))
        for term in ("png", "svg", "pdf"):
            gnuplot_figure(script, "analysis/sizes-matrix/sizes-matrix.gp", gvars, style, base, fig, term)


# ------------------------------------------------------------ the modes outside a run

def need_gnuplot():
    if shutil.which("gnuplot") is None:
        fail("missing gnuplot: run make deps")


def matrix_summary_of(d, usage, shown):
    """d/summary.json, a matrix's (else the usage, or shown named)."""
    f = os.path.join(d or "", "summary.json")
    if not d or not os.path.isfile(f):
        fail(usage)
    s = read_json(f)
    if not (isinstance(s, dict) and s.get("schema") == SCHEMA):
        fail("%s is not a sizes-matrix summary" % shown)
    return s


def rederive(top, d):
    """The rules applied again to a finished run's measured cells, with the
    server ceiling its results directory holds now (a udp-unshaped run made
    after the matrix); the measured values are left as they are."""
    if not d or not os.path.isfile(os.path.join(d, "summary.json")):
        fail(USAGE["--rederive"])
    d = os.path.abspath(d)
    f = os.path.join(d, "summary.json")
    s = matrix_summary_of(d, USAGE["--rederive"], f)
    run = os.path.dirname(d)
    ceiling, tcp = results_dir_reads(run, run)
    cells = [{k: v for k, v in c.items() if k not in ("tc_share", "answered_share", "links", "breakeven_link_bps")}
             for c in s["cells"]]
    got = rules.derived(cells, rules.LINKS_BPS, ceiling, tcp, s.get("settings"))
    s["server_udp_ceiling"] = ceiling
    s["server_tcp_capacity"] = tcp
    s["cells"], s["checks"], s["roadmap"] = got["cells"], got["checks"], got["roadmap"]
    s["rederived"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write_json(f, s)
    write_tables(top, d)
    log("derived values, tables and figures of %s rewritten" % d)


def parse_args(ctx, args):
    """No argument: the run; the modes (--plan, --rederive, --tables,
    --ceiling, --tcp-capacity) do their work here and exit."""
    if not args:
        return None
    mode, arg = args[0], (args[1] if len(args) > 1 else "")
    try:
        if mode == "--plan":
            for c in plan_cells(ctx, fail):
                print(c)
        elif mode == "--rederive":
            need_gnuplot()
            rederive(ctx.top, arg)
        elif mode == "--tables":
            need_gnuplot()
            matrix_summary_of(arg, USAGE["--tables"], os.path.join(arg, "summary.json"))
            d = os.path.abspath(arg)
            write_tables(ctx.top, d)
            log("tables and figures of %s rewritten" % d)
        elif mode in ("--ceiling", "--tcp-capacity"):
            what = "--tcp-capacity" if mode == "--tcp-capacity" else "--ceiling"
            if not arg or not os.path.isdir(arg):
                fail("usage: analysis/sizes-matrix/run %s RESULTS_DIR (no such directory '%s')" % (what, arg))
            rb_run = os.environ.get("RB_RUN", "")
            if mode == "--ceiling":
                f = os.path.join(arg, "udp-unshaped", "summary.json")
                c, pretty = read_ceiling(f, "udp-unshaped/summary.json" if arg == rb_run else f)
                print(json_pretty(c) if pretty else rules.to_json(c))
            else:
                print(rules.to_json(read_tcp_capacity(os.path.join(arg, "tcp", "summary.json"), "tcp/summary.json")))
        else:
            fail("unknown argument '%s' (usage: analysis/sizes-matrix/run [--plan])" % mode)
    except RunError as e:
        die_plain(str(e))
    sys.exit(0)


# ------------------------------------------------------------ the run

class Matrix:
    """One run: what it measured so far (ctx.matrix)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.top = ctx.top
        self.tb = ctx.testbed
        self.profile = folder_file("profile")
        self.dnsstat = top_file(self.top, "analysis", "dnsstat")
        self.tracegen = top_file(self.top, "udpreplay", "build", "tracegen")
        self.service = "198.18.0.53"
        self.records = []            # the cells measured
        self.settings_json = None
        self.testbed_json = None
        self.ceiling = None
        self.tcp = None
        self.host = HostSpeed(self.tb)
        self.started = ""
        self.validating = True
        self.snmp_prev = None
        self.cells = []
        self.tlds = ""

    # -------------------------------------------------- settings and plan
    def plan(self):
        ctx = self.ctx
        self.tlds = ctx.settings.get("MATRIX_TLDS") or ""
        self.cells = plan_cells(ctx, ctx.die)
        # the profile's testbed, each state only another ZONES: asked before anything starts
        self.tb.check_for(self.profile)
        self.build_zones()

    def variant(self, state):
        return state_variant(state, self.tlds)

    def build_zones(self):
        """Every zone variant of the planned cells, and the unsigned one the
        traces take their names from (up-to-date ones are left)."""
        vs = [self.variant("unsigned")]
        for c in self.cells:
            v = self.variant(c.split(":")[0])
            if v not in vs:
                vs.append(v)
        prefix = "tlds%s-" % self.tlds if self.tlds else ""
        names = [v[len(prefix):] if prefix and v.startswith(prefix) else v for v in vs]
        env = dict(os.environ, TLDS=self.tlds)
        # build-zones names a growth variant without its prefix, TLDS=N set
        p = subprocess.run([top_file(self.top, "zones", "build-zones")] + names, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            tail = "\n".join((p.stdout + p.stderr).rstrip("\n").split("\n")[-2:])
            self.ctx.die("zones/build-zones %s failed: %s" % (" ".join(vs), tail))
        for v in vs:
            if not os.path.isfile(top_file(self.top, "zones", "build", v, "variant.json")):
                self.ctx.die("zone variant '%s' is not built" % v)

    # -------------------------------------------------- the testbed
    def serve(self, variant):
        """The experiment's profile serving VARIANT; nothing else from the environment."""
        self.tb.up_for(self.profile, ["ZONES=%s" % variant])

    def dig(self, *args):
        rc, out, _ = self.tb.run("exec", "player1", "--", "dig", *args, check=False)
        return rc, out

    def check_served(self, variant):
        """The service answers the root SOA, with an RRSIG exactly when
        VARIANT is signed."""
        signed = read_json(top_file(self.top, "zones", "build", variant, "variant.json")).get("signed")
        rc, out = self.dig("+dnssec", "+norec", "+time=2", "+tries=3", "@" + self.service, ".", "SOA")
        if rc != 0:
            self.ctx.die("no answer to '. SOA' from %s after serving %s" % (self.service, variant))
        rrsig = sum(1 for line in out.split("\n") if "\tRRSIG\tSOA" in line)
        if signed is True and rrsig == 0:
            self.ctx.die("%s is signed but '. SOA' came without RRSIG" % variant)
        if signed is False and rrsig > 0:
            self.ctx.die("%s is unsigned but '. SOA' came with an RRSIG" % variant)

    def dnskey(self, variant):
        """The DNSKEY answer (DO=1) over TCP and over UDP at 4096 and 1232
        (rules.py dnskey_record)."""
        q = ["+dnssec", "+norec", "+time=2", "+tries=3"]
        outs = []
        for extra, what in ((["+tcp"], "over TCP"), (["+ignore", "+bufsize=4096"], "(UDP, 4096)"),
                            (["+ignore", "+bufsize=1232"], "(UDP, 1232)")):
            rc, out = self.dig(*(q + extra + ["@" + self.service, ".", "DNSKEY"]))
            if rc != 0:
                self.ctx.die("no answer to '. DNSKEY' %s serving %s" % (what, variant))
            outs.append(out)
        manifest = read_json(top_file(self.top, "zones", "build", variant, "variant.json"))
        try:
            return rules.dnskey_record(outs[0], outs[1], outs[2], manifest)
        except ValueError as e:
            self.ctx.die("cannot read dig's DNSKEY answers serving %s: %s" % (variant, e))

    def probes(self, variant):
        """Each roadmap answer (DO=1) whole over TCP (rules.py
        probes_record); dig's output kept as probes/<variant>/<answer>.txt;
        the DNSKEY answer's size also predicted from the zone file
        (zones/lib/zones.sh root_dnskey_answer_bytes)."""
        d = os.path.join(self.ctx.dir, "probes", variant)
        os.makedirs(d, exist_ok=True)
        outs = {}
        for name, q in rules.ROADMAP_QUERIES:
            qname, qtype = q.split(" ")
            rc, out = self.dig("+dnssec", "+norec", "+tcp", "+time=2", "+tries=3", "@" + self.service, qname, qtype)
            if rc != 0:
                self.ctx.die("no answer to '%s %s' over TCP serving %s" % (qname, qtype, variant))
            out = out.rstrip("\n")
            write_text(os.path.join(d, name + ".txt"), out + "\n")
            outs[name] = out
        script = '. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/zones/lib/zones.sh"; root_dnskey_answer_bytes "$1"'
        p = subprocess.run(["bash", "-c", script, "sizes-matrix", top_file(self.top, "zones", "build", variant, "root.zone")],
                           capture_output=True, text=True)
        if p.returncode != 0 or not INT_RE.match(p.stdout.strip()):
            self.ctx.die("cannot predict the DNSKEY answer's size of %s: %s" % (variant, p.stderr.strip()))
        try:
            return rules.probes_record(outs, variant, int(p.stdout.strip()))
        except ValueError as e:
            self.ctx.die("cannot read dig's answers serving %s: %s" % (variant, e))

    def listener_answers(self):
        try:
            return int(self.tb.counters()["listener"]["dns_answers"]["packets"])
        except (KeyError, TypeError, ValueError) as e:
            raise RunError("the Listener's answer counter is unreadable (scripts/testbed counters): %s" % e) from e

    def settle_answers(self):
        """The Listener's answer counter once it stops (10 s at most)."""
        last, now = -1, None
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

    def trace_for(self, profile, edns):
        """The cell's trace (made once per profile, buffer, query count, seed
        and root size: a trace of other settings is never reused), its names
        from the unsigned root of the zone states."""
        ctx = self.ctx
        n, seed = ctx.int("MATRIX_QUERIES"), ctx.int("MATRIX_SEED")
        d = os.path.join(ctx.dir, "traces", "%s-%s-%d-%d%s" % (profile, edns, n, seed,
                                                               "-tlds%s" % self.tlds if self.tlds else ""))
        if not os.path.isfile(os.path.join(d, "trace.pcap")):
            os.makedirs(d, exist_ok=True)
            args = "%s %s" % (PROFILE_ARGS[profile], EDNS_ARGS[edns])
            argv = [self.tracegen, "-n", str(n), "-s", str(seed)] + args.split() + [
                "-r", "2500", "-c", "10000", "-z", top_file(self.top, "zones", "build", self.variant("unsigned"), "root.zone"),
                "-o", os.path.join(d, "trace.pcap.tmp"), "-q", os.path.join(d, "trace.queries")]
            p = subprocess.run(argv, capture_output=True, text=True)
            if p.returncode != 0:
                ctx.die("tracegen (%s) failed: %s" % (args, "\n".join((p.stdout + p.stderr).rstrip("\n").split("\n")[-2:])))
            os.replace(os.path.join(d, "trace.pcap.tmp"), os.path.join(d, "trace.pcap"))
            if subprocess.run([self.dnsstat, "--json", "-o", os.path.join(d, "trace.json"),
                               os.path.join(d, "trace.pcap")]).returncode != 0:
                ctx.die("dnsstat failed on the trace %s" % d)
            write_text(os.path.join(d, "tracegen.args"), args + "\n")
        return d

    def rewrite(self, trace, out):
        """The trace rewritten for the testbed (udpreplay/lib.sh's
        ur_rewrite_for_testbed); its "kept N ..." line."""
        script = ('. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/scripts/lib/topology.sh"; '
                  '. "$RB_TOP/udpreplay/lib.sh"; ur_rewrite_for_testbed "$@"')
        p = subprocess.run(["bash", "-c", script, "sizes-matrix", trace, out, "player1"], capture_output=True, text=True)
        if p.returncode != 0:
            lines = p.stderr.rstrip("\n").split("\n")
            err = [line for line in lines if ": error: " in line]
            rest = [line for line in lines if line and ": error: " not in line]
            if rest:
                sys.stderr.write("\n".join(rest) + "\n")
            raise RunError(err[-1].split(": error: ", 1)[1] if err else "the trace's rewrite failed")
        return p.stdout

    def replay(self, pcap, pps, n, log_path):
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
        with open(log_path, "w", encoding="utf-8") as f:
            p = self.ctx.run.spawn(argv, group=True, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            return p.wait()

    # -------------------------------------------------- one cell
    def measure(self, cell, dnskey, probes):
        """Replay the cell's trace, read SNMP before and after, capture the
        answers: the cell's record. Returns whether the capture was complete."""
        ctx, tb = self.ctx, self.tb
        state, profile, edns = cell.split(":")
        variant = self.variant(state)
        key = cell.replace(":", "_")
        d = os.path.join(ctx.dir, key)
        os.makedirs(d, exist_ok=True)
        n, pps = ctx.int("MATRIX_QUERIES"), ctx.int("MATRIX_PPS")
        tdir = self.trace_for(profile, edns)
        replay_pcap = os.path.join(ctx.run.work, "replay.pcap")
        fields = self.rewrite(os.path.join(tdir, "trace.pcap"), replay_pcap).split()
        kept = int(fields[1]) if len(fields) > 1 and INT_RE.match(fields[1]) else 0
        if kept < n:
            ctx.die("the rewritten trace has %d queries, fewer than %d" % (kept, n))
        answers = Capture(ctx.run, tb, "answers", "listener", "eth0", os.path.join(d, "answers.pcap"),
                          "udp and src port 53", snaplen=0, warn=ctx.warn)
        if not answers.start():
            ctx.die("cannot start the answer capture at the Listener")
        s0 = self.snmp_prev if self.snmp_prev is not None else self.snmp_both()
        a0 = self.listener_answers()
        t0 = int(time.time())
        rlog = os.path.join(d, "replay.log")
        if self.replay(replay_pcap, pps, n, rlog) != 0:
            ctx.die("tcpreplay failed for %s (see %s)" % (cell, rlog))
        a1 = self.settle_answers()
        s1 = self.snmp_both()
        self.snmp_prev = s1
        flags = []
        complete = answers.stop()
        if not complete:
            flags.append("the answer capture is incomplete")
        with open(rlog, encoding="utf-8", errors="replace") as f:
            sent = re.findall(r"^\s*Successful packets:\s*([0-9]+)", f.read(), re.M)
        if not sent:
            ctx.die("cannot read the packets sent from %s" % rlog)
        sent = int(sent[-1])
        if sent != n:
            flags.append("sent %d of %d queries" % (sent, n))
        if a1 - a0 != sent:
            flags.append("Listener counted %d answers for %d queries" % (a1 - a0, sent))
        if subprocess.run([self.dnsstat, "--json", "--bin", str(ctx.int("MATRIX_BIN")), "-o",
                           os.path.join(d, "answers.json"), os.path.join(d, "answers.pcap")]).returncode != 0:
            ctx.die("dnsstat failed on %s" % os.path.join(d, "answers.pcap"))
        for f in (answers.log, os.path.join(d, "answers.pcap.log")):
            if f and os.path.exists(f):
                os.unlink(f)
        with open(os.path.join(tdir, "tracegen.args"), encoding="utf-8") as f:
            targs = f.read().rstrip("\n")
        m = {"cell": cell, "key": key, "zone_state": state, "zone_variant": variant, "profile": profile, "edns": edns,
             "tracegen": targs, "queries_planned": n, "sent": sent, "pps": pps, "answers": a1 - a0,
             "bytes_in": s1[0] - s0[0], "bytes_out": s1[1] - s0[1], "seconds": int(time.time()) - t0,
             "dnskey": dnskey, "probes": probes, "flags": flags, "trace_dir": tdir}
        rec = rules.cell_record(m, read_json(os.path.join(d, "answers.json")), read_json(os.path.join(tdir, "trace.json")),
                                read_json(top_file(self.top, "zones", "build", variant, "variant.json")))
        self.records.append(rec)
        os.unlink(os.path.join(d, "answers.pcap"))
        msg(rules.progress_line(rec))
        return complete

    def measure_again(self, cell, dnskey, probes):
        """One cell, measured again (MATRIX_CAPTURE_RUNS in all) while its
        capture came back incomplete: the machine's load says nothing about
        the server; the last one's record stays, flagged as it saw it."""
        runs = self.ctx.int("MATRIX_CAPTURE_RUNS")
        attempt = 1
        while True:
            complete = self.measure(cell, dnskey, probes)
            if complete or attempt >= runs:
                return
            attempt += 1
            self.ctx.warn("a capture was incomplete: measuring this point again (%d of %d)" % (attempt, runs))
            self.records.pop()

    # -------------------------------------------------- the summary
    def settings_record(self):
        ctx = self.ctx
        named = bool(ctx.settings.get("MATRIX_CELLS"))
        if named:
            design = "the cells named in MATRIX_CELLS"
        elif ctx.scale == "quick":
            design = ("one factor at a time around the baseline (every zone state at the baseline profile and buffer; "
                      "every profile at the baseline zone and buffer; every forced buffer at the baseline zone and profile, "
                      "and for the unsigned zone), then the roadmap's states at a 1232-byte buffer with the root-2016 mix "
                      "and with every query DO=1")
        elif ctx.scale == "smoke":
            design = "three cells: the baseline, and the root and unsigned zones at a forced 512-byte buffer"
        else:
            design = "every zone state x profile x buffer"
        seed = ctx.int("MATRIX_SEED")
        return {"scale": ctx.scale, "cells": list(self.cells), "queries_per_cell": ctx.int("MATRIX_QUERIES"),
                "pps": ctx.int("MATRIX_PPS"), "seed": seed, "answer_size_bin_bytes": ctx.int("MATRIX_BIN"),
                "testbed_prefix": os.environ.get("RB_PREFIX", "rb"),
                "roadmap_rate_qps": ctx.int("MATRIX_RATE"), "roadmap_tcp_cpus": ctx.int("MATRIX_TCP_CPUS"),
                "baseline": {"zone_state": BASE_STATE, "profile": BASE_PROFILE, "edns": BASE_EDNS},
                "design": design,
                "trace": {"generator": "udpreplay tracegen", "seed": seed,
                          "zone": "zones/build/%s/root.zone" % self.variant("unsigned"),
                          "edns_override": "a forced buffer sets every OPT record's advertised size; queries without "
                                           "OPT (profile share) stay without"},
                "snmp_port": "router-s (the router's server-VLAN port)"}

    def summary(self, status, error):
        if self.validating:
            return None        # bad settings: the status and error alone
        d = rules.derived(self.records, rules.LINKS_BPS, self.ceiling, self.tcp, self.settings_json)
        host = self.host.pair(self.testbed_json) if self.testbed_json is not None else {"start": None, "end": None}
        s = {"schema": SCHEMA, "experiment": "sizes-matrix", "status": status}
        if error:
            s["error"] = error
        s.update({"started": self.started, "finished": utc_now(), "settings": self.settings_json,
                  "testbed": self.testbed_json, "host_speed": host, "server_udp_ceiling": self.ceiling,
                  "server_tcp_capacity": self.tcp, "links_bps": list(rules.LINKS_BPS),
                  "cells": d["cells"], "checks": d["checks"], "roadmap": d["roadmap"],
                  "flagged": [c["cell"] for c in d["cells"] if c.get("flags")]})
        return s

    # -------------------------------------------------- the whole
    def run(self):
        ctx, tb = self.ctx, self.tb
        self.plan()
        self.validating = False
        self.started = utc_now()
        summary = os.path.join(ctx.dir, "summary.json")
        if os.path.exists(summary):
            os.unlink(summary)
        rb_run = run_dir()
        src = ctx.settings.get("MATRIX_CEILING_RUN") or rb_run
        try:
            self.ceiling, self.tcp = results_dir_reads(src, rb_run)
        except RunError as e:
            ctx.die(str(e).split("\n")[-1])
        c = self.ceiling
        log("%d cells of %d queries at %d q/s; server UDP ceiling: %s"
            % (len(self.cells), ctx.int("MATRIX_QUERIES"), ctx.int("MATRIX_PPS"),
               "%s q/s (%s)" % (rules.to_text(c["qps"]), rules.to_text(c.get("source")))
               if rules.truthy(c.get("qps")) else rules.to_text(c.get("status"))))

        self.serve(self.variant(self.cells[0].split(":")[0]))
        status_text = tb.status_text()
        self.testbed_json = json.loads(status_text)
        self.host.begin(self.testbed_json)
        if not os.path.isfile(os.path.join(rb_run, "testbed.json")):
            tb.record(status_text)
        # the manifests (key tags, algorithms, sizes) of the zone states served
        tb.record_zones()
        self.settings_json = self.settings_record()

        prev = None
        dnskey = probes = None
        for i, cell in enumerate(self.cells, 1):
            ctx.check()
            state = cell.split(":")[0]
            if state != prev:
                variant = self.variant(state)
                log("[%d/%d] serving %s (%s)" % (i, len(self.cells), state, variant))
                self.serve(variant)
                self.check_served(variant)
                dnskey = self.dnskey(variant)
                probes = self.probes(variant)
                self.snmp_prev = None
                prev = state
            log("[%d/%d] %s" % (i, len(self.cells), cell))
            self.measure_again(cell, dnskey, probes)

        flagged = [r["cell"] for r in self.records if r["flags"]]
        if flagged:
            ctx.run.finish("failed", "flagged cells (not every query answered): %s" % ", ".join(flagged))
        else:
            ctx.run.finish("ok")
        write_tables(self.top, ctx.dir)
        s = read_json(summary)
        for k, v in s["checks"].items():
            msg("check %s: %s (%s)" % (k, "not measured" if v["pass"] is None else rules.to_text(v["pass"]), v["rule"]))
        log("wrote %s (status %s)" % (ctx.dir, s["status"]))


def run(ctx):
    if os.geteuid() != 0:
        ctx.die("must run as root (network namespaces need CAP_NET_ADMIN)")
    for t in NEED_TOOLS:
        if shutil.which(t) is None:
            raise RunError("missing %s: run make deps" % t)
    for p in (top_file(ctx.top, "analysis", "dnsstat"), top_file(ctx.top, "udpreplay", "build", "tracegen")):
        if not os.access(p, os.X_OK):
            raise RunError("missing %s: run make" % p)
    ctx.matrix = Matrix(ctx)
    ctx.matrix.run()


def summary(ctx, status, error):
    """The summary of what was measured, for every status; interrupted:
    that of the cells measured before, then their tables."""
    m = getattr(ctx, "matrix", None)
    if m is None:
        return None
    if status == "interrupted" and not m.validating:
        error = "interrupted after %d of %d cells" % (len(m.records), len(m.cells))
        s = m.summary(status, error)
        try:
            write_json(os.path.join(ctx.dir, "summary.json"), s)
            write_tables(ctx.top, ctx.dir)
        except Exception:  # noqa: BLE001 (the summary still says what was measured)
            ctx.warn("tables of the measured cells not written")
        return s
    return m.summary(status, error)

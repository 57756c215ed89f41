"""run: make compare-builds A=... B=...: two builds of one DNS server (NSD,
Knot DNS or BIND) compared per query, in one run, with the noise stated
(docs/compare-builds.md).

Each side is a release name (debian12, current), a directory holding a
built server, a source tree the suite builds, or DIR@REF of a git checkout
(scripts/compare-builds/sides.py; a source side is built once with its
COMPARE_CONFIGURE_* and COMPARE_CFLAGS_* and kept in the cache). Both sides
are read and checked, and the testbed asked whether it can run each,
before anything starts. Then COMPARE_PAIRS pairs, the order alternating
(A B, B A, A B, ...), on one testbed with the same zone, queries and
settings, each side measuring:
  cpu-udp, cpu-tcp  the two servers' CPU time (their cgroups' usage_usec)
                    per query they answered (their own counters), under
                    COMPARE_RATE q/s from dnsperf on player1 for
                    COMPARE_SECONDS
  instr-udp         the daemon's instructions per answered query under
                    valgrind's callgrind in server1's namespace, on server1's
                    own address and a port of its own: two runs of
                    COMPARE_CG_QUERIES queries at COMPARE_CG_RATE, the
                    difference of their totals over the difference of
                    their queries (NSD and Knot DNS; BIND: not yet)
Per measure: each pair's ratio B/A, their geometric mean and 95 %
confidence interval (rules.py), a verdict in words.

Results in <run>/compare-builds/: summary.json (rootbench.compare-builds/1),
points.csv (one line per pair, side and measure), sides/<A|B>/ (the
prefix each built side ran as), table.txt (what the terminal shows).
"""

import os
import shutil
import signal
import subprocess
import time

from rootbench import target
from rootbench.experiment import sibling
from rootbench.lifecycle import RunError, utc_now, write_text
from rootbench.testbed import Testbed

rules = sibling(__file__, "rules")
sides_rules = sibling(__file__, "sides")
build_rules = sibling(__file__, "build")

SCHEMA = rules.SCHEMA
NAME = "compare-builds"
ON_SIGNAL = "flag"

MEASURE_KEYS = {"cpu-udp": "cpu_udp", "cpu-tcp": "cpu_tcp", "instr-udp": "instr_udp"}
CG_PORT = 5300
CALLGRIND_KINDS = ("nsd", "knot")
SERVER_ROLES = ("server1", "server2")


def parse_args(ctx, args):
    """No arguments: everything is a setting. The sides are read and
    checked here, before the run's folder exists or a testbed starts."""
    if args:
        raise RunError("unknown argument %s (the sides are settings: A=... B=...; see --help)" % args[0])
    s = ctx.settings
    try:
        a, b = sides_rules.parse_sides(s["A"], s["B"], sides_rules.release_names(ctx.top), os.environ.get("SERVER", ""))
    except sides_rules.SideError as e:
        raise RunError(str(e)) from e
    cg = [w for w in ctx.words("COMPARE_CG_QUERIES")]
    if len(cg) != 2 or not all(w.isdigit() and int(w) > 0 for w in cg) or int(cg[0]) >= int(cg[1]):
        raise RunError("COMPARE_CG_QUERIES=%s: two positive integers, the second larger (the short and the long run)" % s["COMPARE_CG_QUERIES"])
    measures = ctx.words("COMPARE_MEASURES")
    if not measures:
        raise RunError("COMPARE_MEASURES is empty: name one of cpu-udp, cpu-tcp, instr-udp")
    if "instr-udp" in measures and a["kind"] not in CALLGRIND_KINDS:
        raise RunError("COMPARE_MEASURES=%s: instr-udp is measured for NSD and Knot DNS only so far (the sides are %s's): COMPARE_MEASURES=cpu-udp" % (
            s["COMPARE_MEASURES"], sides_rules.KIND_NAMES[a["kind"]]))
    if "instr-udp" in measures and not shutil.which("valgrind"):
        raise RunError("instr-udp needs valgrind (make deps installs it)")
    if not shutil.which("dnsperf"):
        raise RunError("compare-builds needs dnsperf (make deps installs it)")
    queries = s["COMPARE_TRACE"] or os.path.join(ctx.top, "udpreplay", "build", "trace.queries")
    if not os.path.isfile(queries):
        raise RunError("no query list %s: run make trace (or COMPARE_TRACE=FILE)" % queries)
    if os.geteuid() != 0:
        raise RunError("compare-builds runs the testbed: run it as root")
    # the releases asked of the testbed now (a built side once it is built)
    for side in (a, b):
        if side["type"] == "release":
            ctx_check(ctx, side)
    return {"A": a, "B": b, "measures": measures, "cg": (int(cg[0]), int(cg[1])), "queries": queries}


def profile(ctx):
    return os.path.join(ctx.folder, "profile")


def ctx_check(ctx, side):
    """The testbed asked whether it can run the side (nothing touched)."""
    tb = getattr(ctx, "testbed", None) or Testbed(ctx.top, prog=NAME)
    try:
        tb.check_for(profile(ctx), sides_rules.testbed_settings(side))
    except RunError as e:
        raise RunError("%s=%s: %s" % (side["label"], side["spec"], e)) from e


def prepare_side(ctx, side):
    """A built side viewed as a prefix, a source side built (or taken from
    the cache); then the testbed asked whether it can run it."""
    label = side["label"]
    if side["type"] == "dir":
        sides_rules.make_view(side, os.path.join(ctx.dir, "sides", label))
    elif side["type"] in ("source", "git"):
        try:
            build_rules.build(side, ctx.settings["COMPARE_CONFIGURE_" + label], ctx.settings["COMPARE_CFLAGS_" + label], ctx.log)
        except build_rules.BuildError as e:
            raise RunError(str(e)) from e
    if side["type"] != "release":
        ctx_check(ctx, side)


def query_file(ctx, path, n=20000):
    """The trace's first n questions as dnsperf's NAME TYPE lines."""
    out = []
    with open(ctx.options["queries"], encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) >= 2:
                out.append("%s %s\n" % (w[0], w[1]))
            if len(out) >= n:
                break
    write_text(path, "".join(out))
    return path


def cgroup_usage(cgroot):
    total = 0
    for role in SERVER_ROLES:
        with open(os.path.join(cgroot, role, "cpu.stat"), encoding="utf-8") as f:
            total += rules.cpu_usec(f.read())
    return total


def answers(stats):
    return sum(rules.answered(stats.get(r)) for r in SERVER_ROLES)


def dnsperf(ctx, role, argv, timeout):
    """dnsperf run in ROLE (scripts/testbed exec) once the target guard
    admitted its destination (-s) and its source (ROLE's address); its
    output."""
    target.guard(ctx.top, [argv[argv.index("-s") + 1], ctx.role_addr.get(role, "")])
    full = ctx.testbed.argv("exec", role, "--", "timeout", str(int(timeout)), "dnsperf") + argv
    p = subprocess.run(full, capture_output=True, text=True, env=ctx.testbed.env)
    if p.returncode != 0:
        raise RunError("dnsperf in %s failed (exit %d): %s" % (role, p.returncode, (p.stdout + p.stderr).strip()[-300:]))
    return p.stdout


def completed(out):
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("Queries completed:"):
            return int(line.split()[2])
    return None


def measure_cpu(ctx, mode, qfile, cgroot):
    """(us of the servers' CPU per answered query, answered, cpu_us, dnsperf's completed)."""
    rate, secs = ctx.int("COMPARE_RATE"), ctx.int("COMPARE_SECONDS")
    base = ["-s", ctx.service, "-d", qfile, "-Q", str(rate), "-c", "1", "-t", "2"]
    if mode == "tcp":
        base += ["-m", "tcp"]
    dnsperf(ctx, "player1", base + ["-l", "1"], 30)        # warm-up
    st0, cpu0 = ctx.testbed.server_stats(*SERVER_ROLES), cgroup_usage(cgroot)
    out = dnsperf(ctx, "player1", base + ["-l", str(secs)], secs + 30)
    cpu1, st1 = cgroup_usage(cgroot), ctx.testbed.server_stats(*SERVER_ROLES)
    n = answers(st1) - answers(st0)
    cpu = cpu1 - cpu0
    return rules.per_query(cpu, n), n, cpu, completed(out)


def callgrind_conf(kind, conf_text, state_dir, work, addr):
    """server1's configuration for a daemon of its own under callgrind:
    server1's own address only, port CG_PORT, its state in work, no
    control socket where it can go (the testbed's daemon keeps running
    beside it on port 53)."""
    out = []
    for line in conf_text.splitlines():
        s = line.strip()
        if kind == "nsd":
            if s.startswith("ip-address:") and s.split()[1] != addr:
                continue
            if s == "port: 53":
                line = line.replace("53", str(CG_PORT))
            if s == "control-enable: yes":
                line = line.replace("yes", "no")
        elif kind == "knot" and s.startswith("listen: ["):
            line = line[:line.index("listen:")] + "listen: [ %s@%d ]" % (addr, CG_PORT)
        out.append(line.replace(state_dir, work))
    return "\n".join(out) + "\n"


def callgrind_daemon_argv(kind, daemon, conf):
    """The daemon in the foreground (valgrind waits for it), with conf."""
    if kind == "nsd":
        return [daemon, "-d", "-c", conf]
    return [daemon, "-c", conf]


def callgrind_run(ctx, side, n, work, qfile, addr):
    """One daemon under callgrind, asked n queries; (its instructions, completed)."""
    for f in os.listdir(work):
        if f.startswith("cg.") or f == "server.pid":
            os.unlink(os.path.join(work, f))
    kind = side["kind"]
    daemon = (os.path.join(side["prefix"], "sbin", sides_rules.DAEMONS[kind]) if side["type"] != "release"
              else ctx.daemon_of[side["label"]])
    argv = ctx.testbed.argv("exec", "server1", "--", "valgrind", "--tool=callgrind", "--trace-children=yes",
                            "--callgrind-out-file=%s/cg.%%p" % work,
                            *callgrind_daemon_argv(kind, daemon, os.path.join(work, "server.conf")))
    log = open(os.path.join(work, "valgrind.log"), "w", encoding="utf-8")
    proc = ctx.run.spawn(argv, stdout=log, stderr=subprocess.STDOUT, env=ctx.testbed.env, group=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            ctx.check()
            p = subprocess.run(ctx.testbed.argv("exec", "server1", "--", "dig", "+short", "+time=1", "+tries=1",
                                                "-p", str(CG_PORT), "@" + addr, ".", "SOA"),
                               capture_output=True, text=True, env=ctx.testbed.env)
            if p.returncode == 0 and p.stdout.strip():
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RunError("%s under callgrind did not answer within 60 s (%s)" % (daemon, os.path.join(work, "valgrind.log")))
            time.sleep(0.3)
        rate = ctx.int("COMPARE_CG_RATE")
        out = dnsperf(ctx, "server1", ["-s", addr, "-p", str(CG_PORT), "-d", qfile + ".cg", "-Q", str(rate),
                                       "-c", "1", "-t", "2", "-n", str(n // ctx.cg_lines)], n / rate + 60)
    finally:
        try:
            with open(os.path.join(work, "server.pid"), encoding="utf-8") as f:
                os.kill(int(f.read().strip()), signal.SIGTERM)
        except (OSError, ValueError):
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except OSError:
                pass
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    total = 0
    for f in os.listdir(work):
        if f.startswith("cg."):
            with open(os.path.join(work, f), encoding="utf-8", errors="replace") as fh:
                t = rules.callgrind_total(fh.read())
            if t is None:
                raise RunError("callgrind output %s has no total" % f)
            total += t
    return total, completed(out)


def measure_instr(ctx, side, qfile, work):
    os.makedirs(work, exist_ok=True)
    state = os.path.join(ctx.tb_state, "server1")
    with open(os.path.join(state, "server.conf"), encoding="utf-8") as f:
        conf = f.read()
    os.makedirs(os.path.join(work, "db"), exist_ok=True)
    write_text(os.path.join(work, "server.conf"), callgrind_conf(side["kind"], conf, state, work, ctx.server1_addr))
    short, long_ = ctx.options["cg"]
    t_s, n_s = callgrind_run(ctx, side, short, work, qfile, ctx.server1_addr)
    t_l, n_l = callgrind_run(ctx, side, long_, work, qfile, ctx.server1_addr)
    if n_s != short or n_l != long_:
        raise RunError("callgrind runs of %s: %s and %s of %d and %d queries answered (the daemon under callgrind must answer them all: a lower COMPARE_CG_RATE)" % (
            side["label"], n_s, n_l, short, long_))
    return rules.instructions_per_query(t_s, t_l, short, long_), {"short_total": t_s, "long_total": t_l, "short_n": short, "long_n": long_}


def side_up(ctx, side):
    ctx.testbed.up_for(profile(ctx), sides_rules.testbed_settings(side))
    down = ctx.testbed.servers_down(*SERVER_ROLES)
    if down:
        raise RunError("%s=%s: %s not running after up" % (side["label"], side["spec"], ", ".join(down)))


def run(ctx):
    o = ctx.options
    ctx.points = []
    ctx.sides = [o["A"], o["B"]]
    ctx.started = utc_now()
    ctx.t0 = time.monotonic()
    for side in ctx.sides:
        ctx.log("%s: %s" % (side["label"], sides_rules.describe(side)))
        prepare_side(ctx, side)
    ctx.service = "198.18.0.53"
    qfile = query_file(ctx, os.path.join(ctx.run.work, "queries.txt"))
    # callgrind's queries: the first 100 names, each asked n / 100 times
    ctx.cg_lines = 100
    with open(qfile, encoding="utf-8") as f:
        head = f.readlines()[:ctx.cg_lines]
    write_text(qfile + ".cg", "".join(head))
    ctx.daemon_of = {}
    n = ctx.int("COMPARE_PAIRS")
    for i in range(1, n + 1):
        for label in rules.order_of_pair(i):
            side = o[label]
            ctx.check()
            t_side = time.monotonic()
            side_up(ctx, side)
            st = ctx.testbed.status()
            if i == 1 and label == "A":
                ctx.testbed.record()
                ctx.status = st
            side["running"] = st["server"]["release"]
            ctx.daemon_of[label] = st["server"]["program"]
            cgroot = st["cgroups"]
            ctx.tb_state = os.path.join(os.environ.get("RB_STATE_ROOT", "/run/rootbench"), st["prefix"])
            ctx.role_addr = {r["role"]: r.get("ipv4") or "" for r in st["roles"]}
            ctx.server1_addr = ctx.role_addr["server1"]
            for m in o["measures"]:
                ctx.check()
                key = MEASURE_KEYS[m]
                point = {"pair": i, "side": label, "measure": key, "value": None}
                if m in ("cpu-udp", "cpu-tcp"):
                    v, answered, cpu, done = measure_cpu(ctx, m[4:], qfile, cgroot)
                    point.update(value=v, answered=answered, cpu_us=cpu, generator_completed=done)
                    ctx.log("pair %d/%d %s: %s %.3f us of CPU per answered query (%d answered, %d us)" % (
                        i, n, label, m, v or 0, answered, cpu))
                else:
                    v, detail = measure_instr(ctx, side, qfile, os.path.join(ctx.run.work, "cg-" + label))
                    point.update(value=v, **detail)
                    ctx.log("pair %d/%d %s: %s %.0f instructions per answered query" % (i, n, label, m, v))
                ctx.points.append(point)
            ctx.log("pair %d/%d %s: %.0f s" % (i, n, label, time.monotonic() - t_side))
    ctx.log("done in %.0f s" % (time.monotonic() - ctx.t0))


def points_csv(points):
    cols = ["pair", "side", "measure", "value", "answered", "cpu_us", "generator_completed",
            "short_total", "long_total", "short_n", "long_n"]
    lines = ["# compare-builds points: one per pair, side and measure (value: us of CPU or instructions per answered query)",
             ",".join(cols)]
    for p in points:
        lines.append(",".join("" if p.get(c) is None else ("%.6g" % p[c] if isinstance(p[c], float) else str(p[c])) for c in cols))
    return "\n".join(lines) + "\n"


def side_summary(side):
    keep = ("label", "spec", "type", "kind", "release", "dir", "repo", "ref", "commit", "prefix", "build", "running")
    return {k: side[k] for k in keep if side.get(k) is not None}


def summary(ctx, status, error):
    points = getattr(ctx, "points", [])
    measures = []
    for m in ctx.options["measures"] if ctx.options else []:
        key = MEASURE_KEYS[m]
        pts = [p for p in points if p["measure"] == key]
        if pts:
            measures.append(rules.compare_measure(key, pts))
    s = {"schema": SCHEMA, "experiment": NAME, "status": status,
         "settings": ctx.settings_summary(),
         "sides": [side_summary(x) for x in getattr(ctx, "sides", [])],
         "method": rules.METHOD,
         "measures": measures,
         "started": getattr(ctx, "started", None), "finished": utc_now(),
         "seconds": round(time.monotonic() - ctx.t0) if hasattr(ctx, "t0") else None}
    if error:
        s["error"] = error
    write_text(os.path.join(ctx.dir, "points.csv"), points_csv(points))
    if measures:
        lines = rules.table_lines(measures)
        write_text(os.path.join(ctx.dir, "table.txt"), "\n".join(lines) + "\n")
        print("\n".join(lines), flush=True)
    return s

r"""lb-verify: does the load balancer keep every TCP connection on one server?
(paper §4, "TCP loadbalancing"; docs/lb-verify.md)

  scripts/lb/run [--sources N] [--queries M] [--ipv6] [--player P]
                    [--service ADDR]

For each of N source addresses of the player's client block (default all
508: the /23 without the addresses ending in .0 or .255; SCALE=smoke 32,
with M 10 instead of 100), the address is
brought up on the player's loopback, M DNS queries are sent over TCP from
it (one dig process, a new TCP connection per query) and every failure is
counted by cause, then the address is taken down again. Both servers
capture TCP port 53 meanwhile. From the two pcaps: the source addresses
each server saw and their overlap (the paper's criterion), and every TCP
connection whose segments reached both servers (a split connection).

PASS (exit 0) only when every query was answered, no connection was split,
the captures are complete, and, with LB=l3, no source reached both servers.
LB=l4 hashes on the 5-tuple: sources on both servers are expected there.
LB=per-packet is the deliberately broken balancer: it must FAIL.

Testbed: brought to the experiment's profile, scripts/lb/profile, with
LB from the environment (default l3) on top; no other testbed setting is
taken from the environment. From a down testbed it brings one up, and
down again at the end. The LB mode recorded is the one
`testbed status --json` says.

FAMILY=4|6|both (or --ipv6 for 6): the sources and the service address of
that family; IPv6 sources are PREFIX::1.. of the player's /64
(2001:2:0:4::/64), hashed by the router's IPv6 ECMP. Over IPv6 the check
also reports whether the flow label entered the hash: every connection's
SYN carries its own flow label (the kernel's auto_flowlabels: a random
label per socket, read from the captures); a source whose connections
carried different labels yet all reached one server says the label is
not hashed; with sources on both servers and the addresses alone hashed
(l3, l3-flowlabel) it is (summary "flow_label"). LB=l3-flowlabel is the
kernel's default IPv6 policy 0, which hashes the label: a source's
connections spread over both servers while no connection is split, so
sources on both are allowed there, as for l4 (docs/lb-verify.md).

--service ADDR: the address queried (default the testbed's service address,
198.18.0.53, or 2001:2::53 with --ipv6). The target guard admits only
loopback, 198.18.0.0/15, 2001:2::/48 and a lab's own ranges, declared in
RB_ALLOW_RANGES="CIDR ..."; anything else: exit 1 before the first packet.

Results: <run>/lb/{summary.json,report.txt,sources.csv,server1.pcap,server2.pcap},
over IPv6 <run>/lb-v6/
(docs/results.md). Ctrl-C stops cleanly and writes status "interrupted".
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

from rootbench.capture import Capture, own_filter
from rootbench import target
from rootbench.experiment import sibling
from rootbench.jqtext import to_text
from rootbench.lifecycle import Interrupted, RunError, utc_now, write_text
from rootbench.testbed import REFUSAL_LINE, HostSpeed, Testbed, family_parse, tail_lines

rules = sibling(__file__, "rules")

SCHEMA = "rootbench.lb/1"
NAME = "lb"            # <run>/lb, <run>/lb-v6
PROG = "lb-verify"     # its messages, as make's target names it
FAMILY = True
# A Ctrl-C reaches dig itself and ends it at once; the loop ends after it
# and the summary keeps what was measured. A SIGTERM to the run alone
# waits for the running dig (a second or so when the servers answer, at
# most M x 2 s when one is silent).
ON_SIGNAL = "flag"

DIG_OPTS = ["+tcp", "+time=2", "+tries=1", "+noall", "+comments", "+answer"]
QUERY_LINE = rules.QUERY + "\n"
SOURCES_HEADER = "# source," + ",".join(rules.OUTCOMES)
NUMBER = re.compile(r"^[1-9][0-9]*$")
# What the player runs for one source, in one testbed exec: the paper's
# per-address virtual interface (the address on the player's loopback:
# AnyIP routes the whole block there already, the address makes it
# explicit, as the paper did), dig in the foreground (a Ctrl-C reaches it
# and ends it at once), then the address removed and the removal checked
# (three tries: a Ctrl-C can kill `ip` itself). Exit 97: the address could
# not be added (dig not started); 98: it could not be removed.
SOURCE_SH = ('f=$1 a=$2 n=$3; shift 3; ip "$f" addr replace "$a" dev lo $n || exit 97; "$@"; '
             'for i in 1 2 3; do ip addr del "$a" dev lo 2>/dev/null; '
             'ip -o addr show dev lo | grep -qF " $a " || exit 0; done; exit 98')
REMOVE_SH = ('for i in 1 2 3; do ip addr del "$1" dev lo 2>/dev/null; '
             'ip -o addr show dev lo | grep -qF " $1 " || exit 0; done; exit 98')
# (one line each: a lab's exec quotes them for its hosts' shells with printf %q)
# The topology as scripts/lib/topology.sh gives it (a lab's from its
# inventory): the players, the service addresses, the lab's own ranges
# and the player's blocks, in one process.
TOPOLOGY_SH = """. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/scripts/lib/topology.sh"
printf '%s\\n' "${PLAYER_ROLES[*]}" "$SERVICE4" "$SERVICE6" "${RB_ALLOW_RANGES:-}"
player_block4 "$1" || echo; player_block6 "$1" || echo"""


class Options:
    """The command line, checked: sources, queries, player, service (the
    given one, "" for the family's), and the topology."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def usage():
    print(__doc__.strip("\n"), file=sys.stderr, flush=True)
    raise SystemExit(2)


def topology(top, player):
    """{roles, service4, service6, allow, block4, block6} of topology.sh."""
    p = subprocess.run(["bash", "-c", TOPOLOGY_SH, "_", player], capture_output=True, text=True,
                       env=dict(os.environ, RB_TOP=top))
    lines = p.stdout.split("\n")
    if p.returncode != 0 or len(lines) < 6:
        # a lab's inventory refused: its own words
        said = [m.group(1) for m in map(REFUSAL_LINE.match, p.stderr.split("\n")) if m]
        raise RunError(said[-1] if said else "the testbed's topology is unreadable: %s"
                       % (tail_lines(p.stderr, 3, " | ") or "no message"))
    return dict(zip(("roles", "service4", "service6", "allow", "block4", "block6"), lines[:6]),
                roles=lines[0].split())


def target_guard(top, allow, addr):
    """analysis/target-check admits ADDR (rootbench.target.guard), or
    RunError with its refusal."""
    target.guard(top, [addr], allow or "")


def parse_args(ctx, args):
    """The options, checked, and everything a run is refused for before
    anything starts: the target guard on the service address (of each
    family with FAMILY=both), root, the tools, what the testbed lacks."""
    sources, queries = ctx.settings["LB_SOURCE_COUNT"], ctx.settings["LB_QUERIES"]
    player, service = "player1", ""
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--sources", "--queries", "--player", "--service"):
            if i + 1 >= len(args):
                usage()
            v = args[i + 1]
            if a == "--sources":
                sources = v
            elif a == "--queries":
                queries = v
            elif a == "--player":
                player = v
            else:
                service = v
            i += 2
            continue
        if a == "--ipv6":
            os.environ["FAMILY"] = "6"
        elif a in ("-h", "--help"):
            usage()
        else:
            ctx.log("unknown argument '%s'" % a)
            usage()
        i += 1
    if not (NUMBER.match(sources) and int(sources) <= rules.MAX_SOURCES):
        ctx.die("--sources %s: must be 1..%d (the unicast addresses of a /23, as the paper)" % (sources, rules.MAX_SOURCES))
    if not (NUMBER.match(queries) and int(queries) <= 10000):
        ctx.die("--queries %s: must be 1..10000" % queries)
    topo = topology(ctx.top, player)
    if player not in topo["roles"] or not topo["block4"]:
        ctx.die("--player %s: not a player (%s)" % (player, " ".join(topo["roles"])))
    fam = family_parse(os.environ.get("FAMILY", ""))
    # The target guard, before the testbed is touched and anything is sent.
    for f in (("4", "6") if fam == "both" else (fam,)):
        addr = service or (topo["service6"] if f == "6" else topo["service4"])
        target_guard(ctx.top, topo["allow"], addr)
        if f == "4" and ":" in addr:
            ctx.die("--service %s is an IPv6 address: add --ipv6" % addr)
        if f == "6" and ":" not in addr:
            ctx.die("--service %s is not an IPv6 address, but --ipv6 was given" % addr)
    if os.geteuid() != 0:
        ctx.die("must run as root (network namespaces need CAP_NET_ADMIN)")
    for t in ("ip", "dig", "tcpdump"):
        if shutil.which(t) is None:
            ctx.die("missing %s: run make deps" % t)
    # what the run will ask of the testbed, before anything starts
    Testbed(ctx.top, prog=ctx.prog).check_for(os.path.join(ctx.folder, "profile"), ["LB=" + ctx.settings["LB"]])
    return Options(sources=int(sources), queries=int(queries), player=player, service=service, topo=topo)


# ---------------------------------------------------------------- the player

def player_exec(ctx, *argv):
    """testbed exec PLAYER -- ARGV: (exit status, its output and messages)."""
    p = subprocess.run(ctx.testbed.argv("exec", ctx.options.player, "--", *argv), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ctx.testbed.env,
                       encoding="utf-8", errors="replace")
    return p.returncode, p.stdout


def address(ctx, addr):
    return "%s/%d" % (addr, 128 if ctx.ipv6 else 32)


def source_remove(ctx, addr):
    """The address taken off the player's loopback (checked); warned when
    it stays."""
    rc, _ = player_exec(ctx, "sh", "-c", REMOVE_SH, "sh", address(ctx, addr))
    if rc == 0:
        ctx.current = None
    else:
        ctx.warn("could not remove %s from lo on %s" % (addr, ctx.options.player))


def source_add(ctx, addr):
    """The address added (tried again only when a Ctrl-C may have killed
    `ip`); False when it could not be."""
    flag = "-6" if ctx.ipv6 else "-4"
    extra = ["nodad"] if ctx.ipv6 else []
    for _ in range(3):
        if player_exec(ctx, "ip", flag, "addr", "replace", address(ctx, addr), "dev", "lo", *extra)[0] == 0:
            return True
        if not ctx.interrupted:
            break
    return False


def dig_argv(ctx, addr):
    return ctx.dig + ["-b", addr, "@" + ctx.service, "-f", ctx.batch]


def source_measure(ctx, addr):
    """The source's M queries, as OUTCOMES' counts: the address up, dig,
    the address down, in one testbed exec; None when the run was
    interrupted before dig ran. dig's batch mode opens a new TCP
    connection for every line (checked against the captures: connections
    seen >= queries answered); +tcp must be on the command line: dig 9.18
    ignores it on a batch line and silently sends UDP."""
    ctx.current = addr
    rc, out = player_exec(ctx, "sh", "-c", SOURCE_SH, "sh", "-6" if ctx.ipv6 else "-4", address(ctx, addr),
                          "nodad" if ctx.ipv6 else "", *dig_argv(ctx, addr))
    if rc == 97:
        # the address was not added: again, alone, then dig alone
        if not source_add(ctx, addr):
            if ctx.interrupted:
                return None
            ctx.die("cannot add %s to lo on %s" % (addr, ctx.options.player))
        if ctx.interrupted:
            source_remove(ctx, addr)
            return None
        out = player_exec(ctx, *dig_argv(ctx, addr))[1]
        source_remove(ctx, addr)
    elif rc == 0:
        ctx.current = None
    elif rc == 98:
        ctx.warn("could not remove %s from lo on %s" % (addr, ctx.options.player))
    elif not ctx.interrupted:
        # the exec failed before it removed the address
        source_remove(ctx, addr)
    # (a Ctrl-C that ended the exec first leaves the address to the end)
    return rules.dig_outcomes(out, ctx.options.queries)


def stop_all(ctx):
    """At the end, whatever ended the run: the source address in use taken
    down and the captures still running stopped."""
    if getattr(ctx, "current", None):
        source_remove(ctx, ctx.current)
    for c in getattr(ctx, "captures", {}).values():
        if c.running:
            c.stop()


# ---------------------------------------------------------------- the run

def now_ns():
    return time.time_ns()


def router_sysctls(ctx):
    """(policy, fields, auto): the router's IPv6 multipath hash policy and
    fields and the player's auto_flowlabels, as sysctl prints them ("" when
    unread: a lab's router is a device)."""
    rc, out = ctx.testbed.run("exec", "router", "--", "sh", "-c",
                              'p=$(sysctl -n net.ipv6.fib_multipath_hash_policy 2>/dev/null); '
                              'f=$(sysctl -n net.ipv6.fib_multipath_hash_fields 2>/dev/null); '
                              'printf "%s\\n%s\\n" "$p" "$f"', check=False)[:2]
    pol, fields = (out.split("\n") + ["", ""])[:2] if rc == 0 else ("", "")
    rc, out = ctx.testbed.run("exec", ctx.options.player, "--", "sysctl", "-n", "net.ipv6.auto_flowlabels",
                              check=False)[:2]
    auto = out.rstrip("\n") if rc == 0 else ""
    return pol, fields, auto


def run(ctx):
    o = ctx.options
    ctx.ipv6 = ctx.family.family == "6"
    ctx.ip_family = "ipv6" if ctx.ipv6 else "ipv4"
    ctx.service = o.service or (o.topo["service6"] if ctx.ipv6 else o.topo["service4"])
    ctx.current, ctx.captures, ctx.totals = None, {}, None
    ctx.run.at_end(lambda: stop_all(ctx))
    tb = ctx.testbed

    tb.up_for(os.path.join(ctx.folder, "profile"), ["LB=" + ctx.settings["LB"]])
    # (its status is the run's record too)
    ctx.tb_text = tb.status_text()
    ctx.tb_json = json.loads(ctx.tb_text)
    ctx.host_speed = HostSpeed(tb)
    ctx.host_speed.begin(ctx.tb_json)
    ctx.lb = to_text(ctx.tb_json.get("lb"))
    if any(p.get("role", "").startswith("server") and p.get("running") is False
           for p in ctx.tb_json.get("processes", [])):
        ctx.warn("a server daemon of the testbed is not running: its sources will fail (scripts/testbed up restarts it)")

    ctx.block = o.topo["block6"] if ctx.ipv6 else o.topo["block4"]
    sources = (rules.source_list6 if ctx.ipv6 else rules.source_list4)(ctx.block, o.sources)
    if len(sources) != o.sources:
        ctx.die("block %s has fewer than %d usable addresses" % (ctx.block, o.sources))
    ctx.first, ctx.last = sources[0], sources[-1]
    ctx.batch = os.path.join(ctx.run.work, "batch")
    write_text(ctx.batch, QUERY_LINE * o.queries)
    ctx.dig = ["dig", "-6" if ctx.ipv6 else "-4"] + DIG_OPTS

    for f in os.listdir(ctx.dir):
        if f in ("summary.json", "report.txt") or f.endswith((".pcap", ".pcap.log")):
            os.unlink(os.path.join(ctx.dir, f))
    if not os.path.isfile(os.path.join(os.path.dirname(ctx.dir), "testbed.json")):
        tb.record(ctx.tb_text)
    ctx.started, ctx.start_ns = utc_now(), now_ns()
    ctx.log("LB=%s: %d sources x %d TCP queries from %s .. %s (%s), captures on both servers; results in %s"
            % (ctx.lb, o.sources, o.queries, ctx.first, ctx.last, o.player, ctx.dir))

    for s in ("server1", "server2"):
        c = Capture(ctx.run, tb, s, s, "eth0", os.path.join(ctx.dir, s + ".pcap"),
                    own_filter(tb, s, "eth0", "tcp port 53"), warn=ctx.warn)
        ctx.captures[s] = c
        if not c.start():
            ctx.die("cannot capture on %s" % s)

    sums = [0] * len(rules.OUTCOMES)
    rows = [SOURCES_HEADER]
    ctx.measured = ctx.sent = 0
    every = ctx.int("LB_PROGRESS_EVERY")
    for addr in sources:
        if ctx.interrupted:
            break
        c = source_measure(ctx, addr)
        # a source whose dig a Ctrl-C cut short (queries without outcome) is not counted
        if c is None or (ctx.interrupted and c[7] != 0):
            break
        sums = [a + b for a, b in zip(sums, c)]
        rows.append(addr + "," + ",".join(str(x) for x in c))
        ctx.measured += 1
        ctx.sent += o.queries
        if ctx.measured % every == 0 or ctx.measured == o.sources:
            ctx.log("%d/%d sources, %d queries, %d failed, %d s" % (
                ctx.measured, o.sources, ctx.sent, ctx.sent - sums[0], (now_ns() - ctx.start_ns) // 1000000000))

    # A short pause so the last FIN/ACKs reach the captures, then stop them.
    time.sleep(0.3)
    ctx.capture_ok = True
    for s in ("server1", "server2"):
        if not ctx.captures[s].stop():
            ctx.capture_ok = False
    segs = {s: rules.pcap_segments(os.path.join(ctx.dir, s + ".pcap")) for s in ("server1", "server2")}
    ctx.capture = rules.captures(segs)
    ctx.flow = None
    if ctx.ipv6:
        ctx.flow = rules.flow_label(rules.flow_rows(segs), ctx.lb, *router_sysctls(ctx))
    write_text(os.path.join(ctx.dir, "sources.csv"), "\n".join(rows) + "\n")
    ctx.totals = sums

    status = "interrupted" if ctx.interrupted else "ok"
    ctx.run.finish(status)
    if status == "interrupted":
        raise Interrupted("interrupted")
    if ctx.verdict != "PASS":
        raise SystemExit(1)


def summary(ctx, status, error):
    """The summary of the sources measured once the loop has ended (with
    report.txt, also on stdout); before, the status alone."""
    if getattr(ctx, "totals", None) is None:
        return None
    o = ctx.options
    with open(os.path.join(ctx.top, "analysis", "paper.json"), encoding="utf-8") as f:
        paper = json.load(f)["lb"]
    s = rules.summary({
        "status": status, "started": ctx.started, "finished": utc_now(),
        "duration_s": float("%.1f" % ((now_ns() - ctx.start_ns) / 1e9)),
        "lb": ctx.lb, "family": ctx.ip_family, "planned": o.sources, "queries": o.queries,
        "player": o.player, "block": ctx.block, "first": ctx.first, "last": ctx.last, "service": ctx.service,
        "dig": " ".join(DIG_OPTS[1:] + ["-b", "SOURCE", "@" + ctx.service, "-f", "BATCH"]),
        "testbed": ctx.tb_json, "host_speed": ctx.host_speed.pair(ctx.tb_json),
        "measured": ctx.measured, "sent": ctx.sent, "totals": ctx.totals, "capture": ctx.capture,
        "capture_stats": {k: c.stats() for k, c in ctx.captures.items()},
        "capture_ok": ctx.capture_ok, "interrupted": ctx.interrupted, "flow": ctx.flow, "paper": paper})
    ctx.verdict = s["verdict"]
    report = rules.report_text(s)
    write_text(os.path.join(ctx.dir, "report.txt"), report)
    sys.stdout.write(report)
    sys.stdout.flush()
    return s

"""points: one point of the UDP sweep as a record, and its row of
points.csv: the columns (COLUMNS, declared here only), the counts from
two counter snapshots, what each layer lost from the testbed sampler's
summary and series (rootbench.rules.layers), what reached the servers
per millisecond (the point's sample, rootbench.rules.arrivals), and the
point's sample file. udpreplay/udp/measure.sh calls it once per point
(`point`); rules.py reads the rows back (csv_points with COLUMNS).

Numbers are jq's (rootbench.rules.jqlib), printed by rootbench.jqtext, so
that the rows and samples are what the jq wrote.

Run by path: points.py columns | point OPTIONS (see main).
"""

import json
import os
import sys

if __name__ == "__main__":
    # run by path (-I -S): the package rootbench beside it
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from rootbench.jqtext import to_json, to_text  # noqa: E402
from rootbench.lifecycle import RunError, write_text  # noqa: E402
from rootbench.rules import layers as L  # noqa: E402
from rootbench.rules.arrivals import arrivals_point  # noqa: E402
from rootbench.rules.jqlib import (JqError, add, alt, compare, div, each, get, gt, jmax, jround, loads,  # noqa: E402
                                   minus, plus, times)

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SERVERS = ["server1", "server2"]

# Work lost per layer at each point (rootbench.rules.layers), from the
# testbed sampler run around the point.
LOSS_LAYERS = ["generator", "player_kernel", "client_cpu_backlog", "switch", "router", "link", "server_ring",
               "server_cpu_backlog", "accept_queue", "server_socket", "daemon"]
# The counts of the point (counter_cells); reused: 1 for a row kept from an
# interrupted run; settings_id: what the point's result depends on.
COUNTER_COLUMNS = ["lb", "requested_qps", "achieved_qps", "elapsed_s", "sent", "server_queries", "daemon_queries",
                   "answers", "answer_ratio", "answered_qps", "answer_ip_bytes", "stray_packets", "serving",
                   "generator_limited", "reused", "settings_id"]
# Then the loss per layer; the shaped link's tbf queue at its fullest
# during the point (bytes, packets), the busy share of the server and of
# the client CPUs during it (percent, from idle time); arrivals_*: what
# reached the servers per millisecond (rootbench.rules.arrivals): the most
# the arrivals ran ahead of their local mean, the queries the servers'
# rings and sockets refused, those of them in a burst and in a stall of a
# server CPU (empty on a lab); rig_share: the rig's forwarding's share of
# the server CPU's busy time (scripts/lib/charge.sh; empty when not
# measured); and which repetition of the rate the row is.
COLUMNS = (COUNTER_COLUMNS + ["loss_" + l for l in LOSS_LAYERS]
           + ["link_backlog_max", "link_qlen_max", "server_cpu_busy_pct", "client_cpu_busy_pct",
              "arrivals_ahead_max", "arrivals_lost", "arrivals_lost_in_burst", "arrivals_lost_in_stall",
              "rig_share", "rep"])
# The columns the sweep reads back from a row (1-based, as awk numbers them).
COLUMN = {name: i + 1 for i, name in enumerate(COLUMNS)}


def cell(v):
    """A value as a cell of points.csv: a number as jq prints it, a text
    as it is, none as an empty cell."""
    return "" if v is None else to_text(v)


def row_text(cells):
    return ",".join(cell(v) for v in cells)


# ---------------------------------------------------------------- the counts

def _delta(a, b, path):
    def at(x):
        for k in path:
            x = get(x, k)
        return x
    return minus(alt(at(b), 0), alt(at(a), 0))


def counter_cells(lb, rate, before, after, sent, elapsed, achieved, settings_id):
    """The counts of a point from the counter snapshots before and after it
    (the servers' nftables dns_udp_in and their daemons' query counts, the
    Listener's dns_answers): the first 16 columns."""
    s1 = _delta(before, after, ["server1", "dns_udp_in", "packets"])
    s2 = _delta(before, after, ["server2", "dns_udp_in", "packets"])
    q1 = _delta(before, after, ["server1", "daemon_queries"])
    q2 = _delta(before, after, ["server2", "daemon_queries"])
    # The serving server: the one whose nftables counted more; on a tie
    # (both 0 when Knot answers over XDP, which nftables never sees:
    # SERVER_XDP=yes) the one whose daemon counted more.
    if compare([s1, q1], [s2, q2]) >= 0:
        srv = ["server1", s1, s2, q1]
    else:
        srv = ["server2", s2, s1, q2]
    ans = _delta(before, after, ["listener", "dns_answers", "packets"])
    return [lb, rate, achieved, elapsed, sent, srv[1], srv[3], ans,
            jround(times(div(ans, sent), 1e6)) / 1e6 if gt(sent, 0) else 0,
            jround(times(div(ans, elapsed), 10)) / 10 if gt(elapsed, 0) else 0,
            _delta(before, after, ["listener", "dns_answers", "bytes"]), srv[2], srv[0],
            1 if gt(abs(minus(achieved, rate)), times(0.01, rate)) else 0, 0, settings_id]


# ---------------------------------------------------------------- the sampler

def sampled_cells(sample, series, cpus, players):
    """The loss_* columns: what each layer lost during the point (the
    answers' receiver, the Listener, counts with the players), then
    link_backlog_max and link_qlen_max: the shaped link's tbf queue at its
    fullest (router and switch), then the server and client CPUs' busy
    percent over the seconds the load ran (generator_window, also in the
    point's sample as load_window_s; the whole sampled run when the series
    has fewer than three samples of load). The daemon's loss: datagrams its
    socket received but it did not answer."""
    w = L.generator_window(series)

    def mib(k):
        return L.mib(sample, SERVERS, k)
    loss = plus(L.sample_loss(sample, {"players": players + ["listener"], "servers": SERVERS, "cpus": cpus}),
                {"generator": 0,
                 "daemon": jmax([minus(minus(plus(mib("UdpInDatagrams"), mib("Udp6InDatagrams")), mib("UdpOutDatagrams")),
                                       mib("Udp6OutDatagrams")), 0])})
    q = L.qdisc_queue_max(sample, ["router", "switch"])

    def busy(role):
        return alt(alt(L.window_busy_pct(series, w, get(cpus, role)), L.cpu_busy_pct(sample, get(cpus, role))), "")
    return [alt(get(loss, l), 0) for l in LOSS_LAYERS] + [q["backlog_max"], q["qlen_max"], busy("server"), busy("client")]


def arrivals_cells(point_sample):
    """The arrivals_* columns from the point's sample: empty when not
    measured (a lab)."""
    a = get(point_sample, "arrivals")
    if a is None:
        return ["", "", "", ""]
    return [to_text(get(a, k)) for k in ("ahead_max", "lost", "lost_in_burst", "lost_in_stall")]


def point_sample(sample, series, charge, start, arrivals_file, cpus, kxg):
    """The point's sample (samples/<point>.json): the sampler's summary
    with the CPU charge, the load window, the players' start, what reached
    the servers per millisecond (the stalls of the server CPUs only) and,
    with kxdpgun, each player's share, sources and own count."""
    w = L.generator_window(series)
    server_cpus = get(cpus, "server")
    stalls = []
    for st in each(get(sample, "stalls")):
        x = get(st, "cpu")
        if not isinstance(server_cpus, list):
            raise JqError("Cannot determine the index of %s in %s" % (to_json(x), to_json(server_cpus)))
        if any(compare(x, c) == 0 for c in server_cpus):
            stalls.append(st)
    out = dict(sample)
    out.update({"cpu_charge": charge, "load_window_s": w, "start": start,
                "arrivals": arrivals_point((slurp(arrivals_file) if os.path.isfile(arrivals_file) else [None])[0],
                                           w, stalls, SERVERS)})
    if kxg is not None:
        sent = [get(p, "sent") for p in each(kxg)]
        out["kxdpgun"] = {"players": kxg, "sent": None if any(s is None for s in sent) else add(sent)}
    return out


# ---------------------------------------------------------------- files

def slurp(path):
    """The JSON values of a file (jq --slurpfile): [] for an empty one."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    dec = json.JSONDecoder(parse_int=float)
    out, i = [], 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def write_whole(path, text):
    """path written whole (rootbench.lifecycle.write_text: a temporary
    beside it, then renamed); a failure is this tool's error, naming path
    and the space left."""
    try:
        write_text(path, text)
    except RunError as e:
        raise JqError(str(e)) from e


def point(o):
    """The point of the options o (main): its sample written, its row returned."""
    first = slurp(o["sample"])
    if not first:
        raise JqError("no sampler summary in %s" % o["sample"])
    sample = first[0]
    series = slurp(o["series"])
    charge = (slurp(o["charge"]) or [None])[0]
    cpus = loads(o["cpus"])
    kxg = loads(o["kxdpgun"])
    ps = point_sample(sample, series, charge, loads(o["start"]), o["arrivals"], cpus, kxg)
    write_whole(o["sample_out"], to_json(ps) + "\n")
    before, after = (slurp(o["before"]) or [None])[0], (slurp(o["after"]) or [None])[0]
    cells = counter_cells(o["lb"], loads(o["rate"]), before, after, loads(o["sent"]), loads(o["elapsed"]),
                          loads(o["achieved"]), o["settings_id"])
    cells += sampled_cells(sample, series, cpus, [p for p in o["players"].split(" ") if p != ""] if o["players"] else [""])
    return row_text(cells) + "," + ",".join(arrivals_cells(ps)) + "," + o["rig"] + "," + o["rep"]


OPTIONS = ("lb", "rate", "rep", "sent", "elapsed", "achieved", "settings_id", "before", "after", "sample", "series",
           "charge", "arrivals", "start", "cpus", "kxdpgun", "players", "rig", "sample_out")


def main(argv):
    if argv == ["columns"]:
        print(",".join(COLUMNS))
        return 0
    if argv[:1] == ["point"] and len(argv) == 1 + 2 * len(OPTIONS):
        o = {}
        for k, v in zip(argv[1::2], argv[2::2]):
            if not k.startswith("--") or k[2:].replace("-", "_") not in OPTIONS:
                break
            o[k[2:].replace("-", "_")] = v
        if len(o) == len(OPTIONS):
            try:
                print(point(o))
            except (JqError, ValueError, OSError) as e:
                print("udp points: error: %s" % e, file=sys.stderr)
                return 1
            return 0
    print("usage: points.py columns | point %s" % " ".join("--%s V" % k.replace("_", "-") for k in OPTIONS),
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

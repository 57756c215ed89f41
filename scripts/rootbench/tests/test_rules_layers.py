"""rootbench.rules.layers prints what scripts/lib/layers.jq prints: the
losses of a made sampler summary (every counter sample_loss reads), the
load window of scripts/sampler/tests/12-load-window-excludes-lead-and-tail
.test's series with its controls, the first losing layer at the TCP
fixtures' points (tcpbench/sweep/testdata), and edge cases."""

import functools
import glob
import json
import os

from rootbench.rules import layers as L
from rootbench.tests.jqagree import TOP, Case, check_names, run_jq, assert_agree


def series_12(ping_only=False):
    """The 12-load-window test's series: 100 ms samples, a 1 s lead with
    kxdpgun's 3 packets, 2 s of load (server CPU 80 % busy), 1 s of tail."""
    out = []
    for i in range(1, 41):
        rx, busy = (4000, 80) if 10 < i <= 30 else (0, 0)
        if i == 3:
            rx = 3
        out.append({"t": float("%.1f" % (i / 10)), "dev": {"switch": {"player1": {"rx_packets": rx}}},
                    "cpu": {"cpu1": {"busy_ms": busy, "wall_ms": 100}}})
    return [x for x in out if x["dev"]["switch"]["player1"]["rx_packets"] == 3] if ping_only else out


SERIES, PING = series_12(), series_12(True)
MIBS = ["IpInDiscards", "IpOutDiscards", "Ip6InDiscards", "Ip6OutDiscards", "IpExtInNoRoutes", "Ip6InNoRoutes",
        "TcpExtListenDrops", "TcpExtListenOverflows", "TcpExtTCPReqQFullDrop", "TcpExtTCPBacklogDrop",
        "TcpExtTCPRcvQDrop", "UdpRcvbufErrors", "UdpInErrors", "Udp6RcvbufErrors", "Udp6InErrors"]
SUMMARY = {
    "deltas": {r: {k: (n * 7 + j) % 5 for j, k in enumerate(MIBS)} for n, r in
               enumerate(["player1", "player2", "router", "server1", "server2"])},
    "dev": {"player1": {"eth0": {"rx_dropped": 2, "tx_dropped": 1}},
            "player2": {"eth0": {"rx_dropped": None}, "eth1": {"tx_dropped": 4}},
            "switch": {"player1": {"rx_dropped": 1, "tx_dropped": 0}, "server1": {"tx_dropped": 30},
                       "server2": {"rx_dropped": 2, "tx_dropped": 12}},
            "router": {"c": {"rx_dropped": 5, "tx_dropped": 6}}},
    "qdisc": {"router": {"s": {"kind": "tbf", "drops": 400, "backlog_max": 30000, "qlen_max": 20}},
              "switch": {"a": {"kind": "fq_codel", "drops": 3, "backlog_max": 90000, "qlen_max": 90},
                         "b": {"kind": "tbf", "drops": None, "qlen_max": 25}}},
    "cpu": {"cpu0": {"busy_pct": 12.34, "softnet": {"dropped": 3}}, "cpu1": {"busy_pct": 80.05, "softnet": {"dropped": 9}},
            "cpu2": {"busy_pct": 0}},
}
CTX = {"players": ["player1", "player2"], "servers": ["server1", "server2"],
       "cpus": {"client": ["cpu0"], "server": ["cpu1", "cpu2"]}}
EMPTY_CTX = {"players": [], "servers": [], "cpus": {"client": [], "server": []}}


def attack_raw():
    """The attack fixture's flood record (scripts/tests/testdata): a sampler
    summary and two `scripts/testbed counters` readings of a real run."""
    with open(os.path.join(TOP, "scripts", "tests", "testdata", "attack-flood-raw.json")) as f:
        return json.load(f)


ATTACK = attack_raw()


def points():
    out = []
    for f in sorted(glob.glob(os.path.join(TOP, "tcpbench", "sweep", "testdata", "*.json"))):
        with open(f) as fh:
            out.append((os.path.basename(f)[:-5], json.load(fh)["points"]))
    return out


def S(name, call, fn, dot, *args):
    return Case(name, call, fn, dot, *args)


CASES = [
    S("loss-summary", "sample_loss($args[0])", L.sample_loss, SUMMARY, CTX),
    S("loss-attack-fixture", "sample_loss($args[0])", L.sample_loss, ATTACK["sample"], CTX),
    S("loss-switch-only", "sample_loss($args[0])", L.sample_loss, {"dev": {"switch": {"a": {"rx_dropped": 7}, "b": {"tx_dropped": 11}}}}, EMPTY_CTX),
    S("loss-empty-summary", "sample_loss($args[0])", L.sample_loss, {}, CTX),
    S("loss-null-summary", "sample_loss($args[0])", L.sample_loss, None, CTX),
    S("loss-huge", "sample_loss($args[0])", L.sample_loss, {"deltas": {"server1": {"UdpInErrors": 2**60, "UdpRcvbufErrors": 2**60 + 1}}}, CTX),
    S("loss-negative", "sample_loss($args[0])", L.sample_loss, {"dev": {"switch": {"server1": {"tx_dropped": 5}}}}, CTX),
    S("loss-string-counter-error", "sample_loss($args[0])", L.sample_loss, {"deltas": {"player1": {"IpInDiscards": "3"}}}, CTX),
    S("loss-no-ctx-error", "sample_loss($args[0])", L.sample_loss, SUMMARY, None),
    S("mib", "mib($args[0]; $args[1])", L.mib, SUMMARY, ["server1", "server2", "nobody"], "UdpInErrors"),
    S("mib-none", "mib($args[0]; $args[1])", L.mib, SUMMARY, [], "UdpInErrors"),
    S("dev-drops", "dev_drops($args[0])", L.dev_drops, SUMMARY, ["player1", "player2", "switch", "nobody"]),
    S("ring-drops", "ring_drops($args[0])", L.ring_drops, SUMMARY, ["server1", "server2", "nobody"]),
    S("qdisc-drops", "qdisc_drops($args[0])", L.qdisc_drops, SUMMARY, ["router", "switch"]),
    S("qdisc-queue-max", "qdisc_queue_max($args[0])", L.qdisc_queue_max, SUMMARY, ["router", "switch"]),
    S("qdisc-queue-max-none", "qdisc_queue_max($args[0])", L.qdisc_queue_max, SUMMARY, ["player1"]),
    S("cpu-busy", "cpu_busy_pct($args[0])", L.cpu_busy_pct, SUMMARY, ["cpu0", "cpu1", "cpu2", "cpu9"]),
    S("cpu-busy-rounding", "cpu_busy_pct($args[0])", L.cpu_busy_pct, {"cpu": {"a": {"busy_pct": 0.25}, "b": {"busy_pct": 0.1}}}, ["a", "b"]),
    S("cpu-busy-none", "cpu_busy_pct($args[0])", L.cpu_busy_pct, SUMMARY, ["cpu2"]),
    S("softnet", "softnet_drops($args[0])", L.softnet_drops, SUMMARY, ["cpu0", "cpu1", "cpu2"]),
    S("window-12", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, SERIES),
    S("window-12-ping-only", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, PING),
    S("window-empty", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, []),
    S("window-three", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, SERIES[10:13]),
    S("window-two", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, SERIES[10:12]),
    S("window-no-dev", "generator_window($args[0])", lambda _, s: L.generator_window(s), None, [{"t": 1}, {"t": 2}, {"t": 3}]),
    S("load-window-filter", "load_window($args[0]; .on)", lambda _, s: L.load_window(s, lambda x: x.get("on")), None,
      [{"t": 1, "on": True}, {"t": 2, "on": 0}, {"t": 3, "on": None}, {"t": 4, "on": "x"}, {"t": 5, "on": False}, {"t": 6, "on": 1}]),
    S("busy-12", "window_busy_pct($args[0]; generator_window($args[0]); $args[1])",
      lambda _, s, c: L.window_busy_pct(s, L.generator_window(s), c), None, SERIES, ["cpu1"]),
    S("busy-12-ping-only", "window_busy_pct($args[0]; generator_window($args[0]); $args[1])",
      lambda _, s, c: L.window_busy_pct(s, L.generator_window(s), c), None, PING, ["cpu1"]),
    S("busy-12-whole-run", "window_busy_pct($args[0]; {from: 0, to: 4}; $args[1])",
      lambda _, s, c: L.window_busy_pct(s, {"from": 0, "to": 4}, c), None, SERIES, ["cpu1"]),
    S("busy-no-wall", "window_busy_pct($args[0]; {from: 0, to: 4}; $args[1])",
      lambda _, s, c: L.window_busy_pct(s, {"from": 0, "to": 4}, c), None, SERIES, ["cpu7"]),
    S("busy-rounding", "window_busy_pct($args[0]; {from: 0, to: 2}; [\"a\"])",
      lambda _, s: L.window_busy_pct(s, {"from": 0, "to": 2}, ["a"]), None,
      [{"t": 1, "cpu": {"a": {"busy_ms": 1, "wall_ms": 3}}}, {"t": 2, "cpu": {"a": {"busy_ms": 0.0025, "wall_ms": 997}}}]),
    S("add-loss", "add_loss", L.add_loss, [{"link": 1, "router": 2}, {}, {"router": 3, "daemon": 4}]),
    S("add-loss-empty", "add_loss", L.add_loss, []),
    S("add-loss-null-error", "add_loss", L.add_loss, None),
    S("add-loss-null-member-error", "add_loss", L.add_loss, [None]),
    S("layers", "layers", lambda _: L.layers(), None),
    S("nz", "map(nz)", lambda d: [L.nz(x) for x in d], [None, False, 0, 3, "x"]),
] + [S("first-%s-%d" % (name, i), "first_loss_layer($args[0])", L.first_loss_layer, p, below)
     for name, ps in points() for i, (p, below) in enumerate(zip(ps, [None] + ps))] + [
    S("first-" + name, "first_loss_layer($args[0])", L.first_loss_layer, p, below) for name, p, below in [
        ("no-loss", {"attempted": 1000, "loss": {}}, None),
        ("below-0.1-per-1000", {"attempted": 100000, "loss": {"link": 9}}, None),
        ("at-0.1-per-1000", {"attempted": 100000, "loss": {"link": 10}}, None),
        ("not-twice-below", {"attempted": 1000, "loss": {"router": 2}}, {"attempted": 1000, "loss": {"router": 1}}),
        ("twice-below-first-in-order", {"attempted": 1000, "loss": {"daemon": 50, "switch": 3}},
         {"attempted": 1000, "loss": {"switch": 1}}),
        ("below-false", {"attempted": 1000, "loss": {"link": 3}}, False),
        ("no-attempted", {"loss": {"link": 3}}, None),
        ("per-1000-rounding", {"attempted": 3, "loss": {"link": 1}}, {"attempted": 7, "loss": {"link": 0.001}}),
        ("negative-loss", {"attempted": 1000, "loss": {"link": -3}}, None),
        ("later-layer-bad-error", {"attempted": 1000, "loss": {"generator": 5, "daemon": "x"}}, None),
        ("null-point", None, None),
    ]]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("layers", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_the_load_window_is_the_loads_samples_less_the_first_and_last():
    assert L.generator_window(SERIES) == {"from": 1.1, "to": 2.9, "samples": 18}
    assert L.window_busy_pct(SERIES, L.generator_window(SERIES), ["cpu1"]) == 80


def test_controls_the_whole_run_reads_40_and_no_load_has_no_window():
    assert L.window_busy_pct(SERIES, {"from": 0, "to": 4}, ["cpu1"]) == 40
    assert L.generator_window(PING) is None
    assert L.window_busy_pct(PING, L.generator_window(PING), ["cpu1"]) is None


def test_the_switchs_loss_is_its_ports_discards_not_the_routers():
    loss = L.sample_loss({"dev": {"switch": {"a": {"rx_dropped": 7}, "b": {"tx_dropped": 11}}}}, EMPTY_CTX)
    assert (loss["switch"], loss["router"]) == (18, 0)

"""rootbench.rules.probe_sweep prints what scripts/lib/probe-sweep.jq
prints, on scripts/tests/03-probe-sweep.test's fixtures (a probe result,
router and servers counters) with its controls, and edge cases. The
block's judgement (probe.jq's probe_judged: rssac047, queue_knee) is not
this module's: probe_sweep is compared without those two keys."""

import copy
import functools
import json
import os

from rootbench.rules import probe_sweep as PW
from rootbench.tests.jqagree import TOP, Case, check_names, run_jq, assert_agree
from rootbench.tests.test_rules_probe_stats import OTHER, RAW

POINT = "probe_point($args[0]; $args[1]; $args[2]; $args[3])"


def point(name, r, offered, rep, load, proto, message=False):
    return Case("point-" + name, POINT, PW.probe_point, r, offered, rep, load, proto, message=message)


BEFORE = {"router": {"dns_udp_queries": {"packets": 100}, "probe_udp_queries": {"packets": 7}, "probe_tcp_syns": {"packets": 3}}}
AFTER = {"router": {"dns_udp_queries": {"packets": 2100}, "probe_udp_queries": {"packets": 47}, "probe_tcp_syns": {"packets": 3}}}
SB = {"server1": {"probe_udp_in": {"packets": 5}, "probe_tcp_syns": {"packets": 2}},
      "server2": {"probe_udp_in": {"packets": 1}, "probe_tcp_syns": {"packets": 0}}}
SA = {"server1": {"probe_udp_in": {"packets": 30}, "probe_tcp_syns": {"packets": 12}},
      "server2": {"probe_udp_in": {"packets": 16}, "probe_tcp_syns": {"packets": 5}}}
SB_R = dict(SB, router={"probe_udp_queries": {"packets": 1}, "probe_tcp_syns": {"packets": 1}})
SA_R = dict(SA, router={"probe_udp_queries": {"packets": 41}, "probe_tcp_syns": {"packets": 16}})
TCP_ON = copy.deepcopy(RAW)
TCP_ON["tcp"].update(rate=5, sent=10, answered=10, availability=1, correct_fraction=1)
P_2000_2 = PW.probe_point(RAW, 2000, 2, 3960, "udp")
P_2000_1 = PW.probe_point(None, 2000, 1, 4000, "udp")
P_1000_1 = PW.probe_point(RAW, 1000, 1, 1960, "udp")
def attack_raw():
    """The attack fixture's flood record (scripts/tests/testdata): a sampler
    summary and two `scripts/testbed counters` readings of a real run."""
    with open(os.path.join(TOP, "scripts", "tests", "testdata", "attack-flood-raw.json")) as f:
        return json.load(f)


ATTACK = attack_raw()


SWEEP = "probe_sweep($args[0]; $args[1]; $args[2]) | del(.rssac047, .queue_knee)"

CASES = [
    point("udp", RAW, 1000, 1, 1960, "udp"),
    point("tcp-load", RAW, 1000, 1, 1960, "tcp"),
    point("router-counted", dict(RAW, counted_at_router={"udp_queries": 60, "tcp_syns": 0}), 1000, 1, 1940, "udp"),
    point("servers-counted", dict(RAW, counted_at_servers={"udp_queries": 40, "tcp_syns": 0}), 1000, 1, 1960, "udp"),
    point("router-false-servers-kept", dict(RAW, counted_at_router=False, counted_at_servers={"udp_queries": 3}), 1, 1, 1, "udp"),
    point("not-probed", None, 2000, 1, 4000, "udp"),
    point("tcp-on", TCP_ON, 300, 1, 900, "tcp"),
    point("zero-offered", RAW, 0, 1, 0, "udp"),
    point("share-rounding", RAW, 3, 1, 6, "udp"),
    point("other-schema-refused", OTHER, 1, 1, 1, "udp", message=True),
    point("null-proto-error", RAW, 1000, 1, 1960, None),
    Case("router-count", "probe_router_count($args[0]; $args[1])", lambda _, a, b: PW.probe_router_count(a, b), None, BEFORE, AFTER),
    Case("router-count-none", "probe_router_count($args[0]; $args[1])", lambda _, a, b: PW.probe_router_count(a, b), None,
         {"router": {"dns_udp_queries": {"packets": 1}}}, {"router": {}}),
    Case("router-count-no-tcp", "probe_router_count($args[0]; $args[1])", lambda _, a, b: PW.probe_router_count(a, b), None,
         {"router": {"probe_udp_queries": {"packets": 1}}}, {"router": {"probe_udp_queries": {"packets": 4}}}),
    Case("counted-attack-fixture", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None,
         ATTACK["counters"]["before"], ATTACK["counters"]["after"]),
    Case("counted-servers", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None, SB, SA),
    Case("counted-router-kept", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None, SB_R, SA_R),
    Case("counted-nothing", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None,
         {"server1": {}}, {"server1": {}}),
    Case("counted-one-server", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None,
         {"server1": SB["server1"]}, {"server1": SA["server1"]}),
    Case("counted-nulls", "probe_counted($args[0]; $args[1])", lambda _, a, b: PW.probe_counted(a, b), None, None, None),
    Case("servers-count-no-syns", "probe_servers_count($args[0]; $args[1])", lambda _, a, b: PW.probe_servers_count(a, b),
         None, {"server1": {"probe_udp_in": {"packets": 1}}, "server2": {"probe_udp_in": {"packets": 2}}},
         {"server1": {"probe_udp_in": {"packets": 10}}, "server2": {"probe_udp_in": {"packets": 20}}}),
    Case("sent-total", "probe_sent_total", PW.probe_sent_total, RAW),
    Case("sent-total-empty", "probe_sent_total", PW.probe_sent_total, {}),
    Case("where-router", "probe_counted_where", PW.probe_counted_where, {"counted_at_router": {}}),
    Case("where-probe", "probe_counted_where", PW.probe_counted_where, {"counted_at_router": None}),
    Case("queries-probe", "probe_queries", PW.probe_queries, RAW),
    Case("queries-router-empty", "probe_queries", PW.probe_queries, {"counted_at_router": {}}),
    Case("protocol-off", "probe_protocol", PW.probe_protocol, RAW["tcp"]),
    Case("protocol-on", "probe_protocol", PW.probe_protocol, RAW["udp"]),
    Case("protocol-sent-without-rate", "probe_protocol", PW.probe_protocol, {"sent": 3}),
    Case("protocol-rate-false", "probe_protocol", PW.probe_protocol, {"rate": False, "sent": 0}),
    Case("protocol-null", "probe_protocol", PW.probe_protocol, None),
    Case("sweep-fixture", SWEEP, lambda _, i, p, c: PW.probe_sweep(i, p, c, lambda b: b), None, RAW,
         [P_2000_2, P_2000_1, P_1000_1], 1500),
    Case("sweep-no-idle", SWEEP, lambda _, i, p, c: PW.probe_sweep(i, p, c, lambda b: b), None, None, [], None),
    Case("sweep-idle-bare", SWEEP, lambda _, i, p, c: PW.probe_sweep(i, p, c, lambda b: b), None,
         {"schema": "rootbench.probe/1", "timeout_ms": False}, [P_2000_1, P_1000_1, P_2000_1], 0),
    Case("sweep-idle-other-schema", SWEEP, lambda _, i, p, c: PW.probe_sweep(i, p, c, lambda b: b), None, OTHER, [], 1,
         message=True),
    Case("sweep-points-null-error", SWEEP, lambda _, i, p, c: PW.probe_sweep(i, p, c, lambda b: b), None, RAW, None, 1),
]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("probe-sweep", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_a_points_figures_and_the_probes_share_by_rate():
    p = PW.probe_point(RAW, 1000, 1, 1960, "udp")
    assert [p["udp"]["sent"], p["udp"]["availability"], p["tcp"]] == [40, 0.975, None]
    assert [p["probe_queries"], p["probe_counted_by"], p["share"], p["share_all"]] == [40, "probe", 0.019608, 0.019608]


def test_control_a_tcp_load_the_probe_sent_no_tcp():
    p = PW.probe_point(RAW, 1000, 1, 1960, "tcp")
    assert [p["share"], p["share_all"]] == [0, 0.019608]


def test_the_router_count_is_kept_else_the_servers():
    assert PW.probe_router_count(BEFORE, AFTER) == {"udp_queries": 40, "tcp_syns": 0}
    assert PW.probe_counted(SB, SA) == {"counted_at_servers": {"udp_queries": 40, "tcp_syns": 15}}
    assert list(PW.probe_counted(SB_R, SA_R)) == ["counted_at_router"]


def test_the_block_orders_points_and_keeps_one_not_probed():
    b = PW.probe_sweep(RAW, [P_2000_2, P_2000_1, P_1000_1], 1500, lambda b: b)
    assert [[p["offered"], p["rep"]] for p in b["points"]] == [[1000, 1], [2000, 1], [2000, 2]]
    assert [b["points"][1]["udp"], b["points"][1]["share"]] == [None, None]
    assert b["schema"] == "rootbench.probe-sweep/1"

"""rootbench.rules.counters prints what scripts/lib/counters.jq prints, on
scripts/tests/68-lab-counters-keep-the-router-names.test's fixtures (two
walks of the simulated lab's switch, scripts/lab/testdata, read by the
jq's snmp_ports; the hosts' nftables counters written there) with its
variations and controls, and edge cases."""

import copy
import functools
import json
import os
import subprocess

from rootbench.rules import counters as K
from rootbench.rules.jqlib import loads
from rootbench.tests.jqagree import LIB, TOP, Case, check_names, find_jq, run_jq, assert_agree

LAB = {"switch": {"router_port_ifindex": "10"}, "hosts": {
    "player1": {"group": "players", "switch_ifindex": "4"}, "player2": {"group": "players", "switch_ifindex": "5"},
    "listener": {"group": "listeners", "switch_ifindex": "6"},
    "server1": {"group": "servers", "switch_ifindex": "7"}, "server2": {"group": "servers", "switch_ifindex": "8"}}}


def walks():
    """The two walks as the lab reads them (lab-snmp.jq's snmp_ports: not
    this module's, so its output is the input here)."""
    d = os.path.join(TOP, "scripts", "lab", "testdata")
    p = subprocess.run([find_jq(), "-n", "-c", "-L", LIB, "--rawfile", "a", os.path.join(d, "switch-walk-start.txt"),
                        "--rawfile", "b", os.path.join(d, "switch-walk-end.txt"),
                        'include "lab-snmp"; [$a, $b] | map(snmp_ports)'], capture_output=True, text=True, check=True)
    return loads(p.stdout)


P0, P1 = walks()


def pair(p, b):
    return {"packets": p, "bytes": b}


def srv(q, syns, trace, answers):
    return {"dns_udp_in": pair(q, q * 80), "dns_tcp_in": pair(0, 0), "sink": pair(0, 0), "dns_tcp_syns": pair(syns, syns * 60),
            "trace_udp_queries": pair(trace, trace * 80), "dns_udp_answers": pair(answers, answers * 500)}


H0 = {"listener": {"dns_answers": pair(0, 0)}, "server1": srv(0, 0, 0, 0), "server2": srv(0, 0, 0, 0)}
H1 = {"listener": {"dns_answers": pair(30, 15000)}, "server1": srv(60, 7, 20, 40), "server2": srv(40, 5, 10, 30)}


def lab_with(**hosts):
    lab = copy.deepcopy(LAB)
    for h, v in hosts.items():
        lab["hosts"][h].update(v)
    return lab


def attack_raw():
    """The attack fixture's flood record (scripts/tests/testdata): a sampler
    summary and two `scripts/testbed counters` readings of a real run."""
    with open(os.path.join(TOP, "scripts", "tests", "testdata", "attack-flood-raw.json")) as f:
        return json.load(f)


ATTACK = attack_raw()


OLD = copy.deepcopy(H1)
del OLD["server2"]["dns_tcp_syns"]
LC = "lab_counters($args[0]; $args[1])"
CASES = [Case("lab-" + name, LC, K.lab_counters, c, ports, lab) for name, c, ports, lab in [
    ("start", H0, P0, LAB),
    ("end", H1, P1, LAB),
    ("only-player2", H1, P1, lab_with(player1={"group": "probes"})),
    ("unported-player1", H1, P1, lab_with(player1={"switch_ifindex": None})),
    ("no-reading", H1, None, LAB),
    ("server-without-syns", OLD, P1, LAB),
    ("reading-without-player-port", H1, {"5": P1["5"]}, LAB),
    ("numeric-ifindex", H1, P1, lab_with(player1={"switch_ifindex": 4})),
    ("no-players-no-servers", H1, P1, {"switch": {}, "hosts": {"listener": {"group": "listeners"}}}),
    ("null-counters", None, P1, LAB),
    ("empty-reading", {}, {}, LAB),
    ("no-hosts-error", H1, P1, {"switch": {}}),
    ("server-counters-a-number-error", {"server1": 5, "server2": srv(1, 1, 1, 1)}, P1, LAB),
    ("server-counter-a-number-left-out", {"server1": {"dns_tcp_syns": 5}, "server2": srv(1, 1, 1, 1)}, P1, LAB),
]] + [Case("ports-" + name, "lab_switch_ports($args[0]; $args[1])", lambda _, p, l: K.lab_switch_ports(p, l), None, p, l)
      for name, p, l in [
    ("end", P1, LAB),
    ("empty-reading", {}, LAB),
    ("null-reading", None, LAB),
    ("port-with-null-mcast", {"4": {"in_ucast": 1, "in_mcast": None, "in_bcast": 2}}, LAB),
    ("bad-ifindex-error", {"x": {"in_ucast": 1}}, lab_with(player1={"switch_ifindex": "x"})),
]] + [Case("netns-" + name, "counters_netns", K.counters_netns, dot) for name, dot in [
    ("attack-fixture", ATTACK["counters"]["after"]),
    ("router", {"router": {"dns_udp_queries": {"packets": 1, "bytes": 2}}}),
    ("router-words-replaced", {"router": {"counted_by": 1, "x": 2}, "y": 3}),
    ("no-router", {"listener": {}}),
    ("null", None),
    ("router-a-number-error", {"router": 5}),
]] + [Case("sources-%s" % b, "counters_sources($args[0])", lambda _, b: K.counters_sources(b), None, b)
      for b in ["lab", "netns", None, "other"]]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("counters", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def delta(path, a, b):
    for k in path:
        a, b = a[k], b[k]
    return b - a


def test_the_players_ports_count_the_queries():
    c0, c1 = K.lab_counters(H0, P0, LAB), K.lab_counters(H1, P1, LAB)
    assert delta(["router", "dns_udp_queries", "packets"], c0, c1) == 100
    assert delta(["switch_ports", "player1", "in_ucast"], c0, c1) == 100
    assert delta(["router", "dns_udp_queries", "octets"], c0, c1) == 14200
    assert c1["switch_ports"]["router-s"]["ifindex"] == 10
    assert [delta(["router", k, "packets"], c0, c1) for k in ("dns_tcp_syns", "trace_udp_queries", "dns_udp_answers")] \
        == [12, 30, 70]


def test_controls_what_a_lab_cannot_count_is_left_out_and_said():
    c0, c1 = K.lab_counters(H0, P0, LAB), K.lab_counters(H1, P1, LAB)
    assert delta(["switch_ports", "player2", "in_ucast"], c0, c1) == 0
    only2 = lab_with(player1={"group": "probes"})
    assert delta(["router", "dns_udp_queries", "packets"], K.lab_counters(H0, P0, only2), K.lab_counters(H1, P1, only2)) == 0
    unported = K.lab_counters(H1, P1, lab_with(player1={"switch_ifindex": None}))
    assert "dns_udp_queries" not in unported["router"]
    assert "no rb_switch_ifindex in the inventory for player1" in unported["router"]["missing"]["dns_udp_queries"]
    assert sorted(unported["router"]["counted_by"]) == ["dns_tcp_syns", "dns_udp_answers", "trace_udp_queries"]
    assert "SNMP agent did not answer" in K.lab_counters(H1, None, LAB)["router"]["missing"]["dns_udp_queries"]
    old = K.lab_counters(OLD, P1, LAB)["router"]
    assert "dns_tcp_syns" not in old and "make lab-setup" in old["missing"]["dns_tcp_syns"]


def test_netns_counters_get_their_words_and_without_a_router_stay():
    assert K.counters_netns({"listener": {}}) == {"listener": {}}
    assert "counted_by" in K.counters_netns({"router": {}})["router"]

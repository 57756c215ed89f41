"""rootbench.rules.charge prints what scripts/lib/charge.jq prints: the
rig's charge of the UDP fixtures' points (udpreplay/udp/testdata: a rig
on the server, a low share, none measured) and edge cases, the verdicts
with it, the steering rule; and the jq tests' statements and controls
(udpreplay/udp/tests/test_rules.py, tcpbench/sweep/tests/10-rules.test)."""

import csv
import functools
import os

from rootbench.rules import charge as C
from rootbench.tests.jqagree import TOP, Case, check_names, run_jq, assert_agree


def shares(name):
    """A UDP fixture's rig shares as the UDP rules read them (a number, ""
    for a point not measured, null in a file from before the column)."""
    with open(os.path.join(TOP, "udpreplay", "udp", "testdata", name)) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    with open(os.path.join(TOP, "udpreplay", "udp", "testdata", name)) as f:
        head = f.readline().lstrip("# ").strip().split(",")
    if "rig_share" not in head:
        return [None for r in rows]
    i = head.index("rig_share")
    return [float(r[i]) if r[i] else "" for r in rows]


FIXTURES = sorted(f for f in os.listdir(os.path.join(TOP, "udpreplay", "udp", "testdata")) if f.endswith(".csv"))
CAVEAT = {"caveat": "the rig's work", "own": False}
CASES = [Case("charge-fixture-" + f, "rig_charge", C.rig_charge, shares(f)) for f in FIXTURES] + [
    Case("charge-" + name, "rig_charge", C.rig_charge, dot) for name, dot in [
        ("empty", []),
        ("none-measured", ["", None, ""]),
        ("low", [0.01, 0.02, ""]),
        ("at-limit", [0.05, 0.05]),
        ("just-over", [0.0500001]),
        ("high", [0.31, 0.2, 0.4]),
        ("pct-rounding", [0.06049999, 0.06051, 0.0625]),
        ("negative", [-0.1]),
        ("huge", [1e17]),
        ("strings-and-bools-not-numbers", ["0.3", True, 0.01]),
        ("null-input", None),
        ("object-input", {"a": 0.5, "b": 0.01}),
    ]] + [Case("charge-number-error", "rig_charge", C.rig_charge, 5)] + [
    Case("with-" + name, "with_charge($args[0])", C.with_charge, v, ch) for name, v, ch in [
        ("server-caveat", {"caused_by": "server", "summary": "the server stalled"}, CAVEAT),
        ("server-caveat-own-null", {"caused_by": "server", "summary": "s", "server_own": 5}, {"caveat": "c", "own": None}),
        ("server-no-summary", {"caused_by": "server"}, CAVEAT),
        ("server-no-caveat", {"caused_by": "server", "summary": "s"}, {"caveat": None, "own": True}),
        ("rig", {"caused_by": "rig", "summary": "s"}, CAVEAT),
        ("null-verdict", None, CAVEAT),
        ("null-charge", {"caused_by": "server", "summary": "s"}, None),
        ("number-summary-error", {"caused_by": "server", "summary": 5}, CAVEAT),
        ("array-verdict-error", [1], CAVEAT),
    ]] + [
    Case("steer-%s" % s, "receive_on_server_cpu($args[0])", lambda _, s: C.receive_on_server_cpu(s), None, s)
    for s in ["rps", "napi", "none", "rig", "", None]] + [
    Case("limit", "rig_share_limit", lambda _: C.rig_share_limit(), None),
    Case("pct", "map(rig_pct)", lambda d: [C.rig_pct(x) for x in d], [0.05, 0.31, 0.00049, 0.00051, -0.00051, 1e17, 0]),
    Case("pct-null-error", "rig_pct", C.rig_pct, None),
]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("charge", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_a_rig_on_the_server_is_not_the_servers_own():
    ch = C.rig_charge(shares("rig-on-server.csv"))
    assert (ch["max"], ch["own"]) == (0.31, False)
    v = C.with_charge({"caused_by": "server", "summary": "s"}, ch)
    assert v["server_own"] is False and v["summary"].startswith("s; the rig's forwarding")


def test_control_a_low_rig_share_is_the_servers_own():
    ch = C.rig_charge([0.02, 0.01])
    assert (ch["own"], ch["caveat"]) == (True, None)
    assert C.with_charge({"caused_by": "server", "summary": "s"}, ch) == {"caused_by": "server", "summary": "s",
                                                                        "server_own": True}


def test_control_not_measured_is_not_own_and_says_so():
    ch = C.rig_charge(["", ""])
    assert ch["own"] is None and "was not measured" in ch["caveat"]
    assert C.with_charge({"caused_by": "server", "summary": "s"}, ch)["server_own"] is False

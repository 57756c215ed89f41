"""rootbench.rules.arrivals prints what scripts/lib/arrivals.jq prints, on
scripts/sampler/tests/21-arrivals-rule-tells-burst-stall-steady.test's
made series of one server port (late reads, a lumped read, a catch-up, a
stall, a drift, a window: each with its control) and edge cases."""

import functools

from rootbench.rules import arrivals as A
from rootbench.tests.jqagree import Case, check_names, run_jq, assert_agree

N = 2000


def port(offered, dropped, **extra):
    """An arrivals object with one port, as the jq test's port()."""
    return dict({"bins": N, "t0_s": 1, "period_ms": 1, "refused_counter": "RcvbufErrors",
                 "ports": {"server1": {"offered": offered, "dropped": dropped}}}, **extra)


SMOOTH = [10] * N
NONE = [0] * N
GAPS = [20 if i % 10 == 9 else -1 if i % 10 == 8 else 10 for i in range(N)]
LUMPED = [0 if 1000 <= i < 1040 else 410 if i == 1040 else 10 for i in range(N)]
CATCHUP = [0 if 1000 <= i < 1060 else 210 if 1060 <= i < 1063 else 10 for i in range(N)]
DRIFT = [10 + 4 * i // N for i in range(N)]


def dropped_at(k):
    return [10 if k <= i < k + 5 else 0 for i in range(N)]


STALL = [{"start": 1.5, "length_ms": 10}]
POINT = "arrivals_point($args[0]; $args[1]; $args[2]; $args[3])"


def point(name, a, w=None, stalls=(), servers=("server1",)):
    return Case("point-" + name, POINT, lambda _, a, w, s, r: A.arrivals_point(a, w, s, r), None, a, w, list(stalls),
                list(servers))


CASES = [
    point("gaps", port(GAPS, NONE)),
    point("lumped", port(LUMPED, NONE)),
    point("catchup-burst", port(CATCHUP, dropped_at(1061))),
    point("catchup-steady", port(CATCHUP, dropped_at(500))),
    point("stall", port(SMOOTH, dropped_at(502)), stalls=STALL),
    point("stall-a-second-away", port(SMOOTH, dropped_at(1502)), stalls=STALL),
    point("drift", port(DRIFT, NONE)),
    point("window", port(CATCHUP, NONE), w={"from": 1.2, "to": 1.8}),
    point("window-before-start", port(SMOOTH[:50], NONE[:50]), w={"from": 0.5, "to": 1.01}),
    point("window-past-end", port(SMOOTH[:50], NONE[:50], bins=50), w={"from": 1.0205, "to": 9}),
    point("refused-too", dict(port(SMOOTH[:300], dropped_at(100)[:300]),
                              ports={"server1": {"offered": SMOOTH[:300], "dropped": dropped_at(100)[:300],
                                                 "refused": [1, -1, 4] + [0] * 100}})),
    point("two-servers-one-missing", dict(port(CATCHUP, dropped_at(1061)), refused_counter=None),
          servers=["server1", "server2"]),
    point("no-servers", port(SMOOTH, NONE), servers=[]),
    point("short", port([5, -1, -1, 9], [0, 1, -1, 2])),
    point("empty-series", port([], [])),
    point("null", None),
    point("not-an-object", [1, 2]),
    point("no-dropped-error", {"bins": 2, "t0_s": 0, "period_ms": 1, "ports": {"server1": {"offered": [1, 2]}}}),
    Case("spread-gap", "arrivals_spread", A.arrivals_spread, [1, -1, -1, 6, 2, -1]),
    Case("spread-none-unknown", "arrivals_spread", A.arrivals_spread, [1, 2, 3]),
    Case("spread-empty", "arrivals_spread", A.arrivals_spread, []),
    Case("spread-nulls-unknown", "arrivals_spread", A.arrivals_spread, [None, 4, None]),
    Case("spread-thirds", "arrivals_spread", A.arrivals_spread, [-1, -1, 1]),
    Case("spread-null-error", "arrivals_spread", A.arrivals_spread, None),
    Case("local-mean", "arrivals_local_mean", A.arrivals_local_mean, CATCHUP[900:1300]),
    Case("local-mean-short", "arrivals_local_mean", A.arrivals_local_mean, [1, 2, 3.5]),
    Case("local-mean-empty", "arrivals_local_mean", A.arrivals_local_mean, []),
    Case("bins-null-window", "arrivals_bins($args[0]; null)", lambda _, a: A.arrivals_bins(a, None), None, {"bins": 7}),
    Case("bins-window", "arrivals_bins($args[0]; $args[1])", lambda _, a, w: A.arrivals_bins(a, w), None,
         {"bins": 7000, "t0_s": 10, "period_ms": 1}, {"from": 10.5004, "to": 12.9996}),
    Case("bins-negative-zero", "arrivals_bins($args[0]; $args[1])", lambda _, a, w: A.arrivals_bins(a, w), None,
         {"bins": 7000, "t0_s": 10, "period_ms": 1}, {"from": 9.9995, "to": 9.9}),
    Case("bins-no-bins", "arrivals_bins($args[0]; $args[1])", lambda _, a, w: A.arrivals_bins(a, w), None,
         {"t0_s": 10, "period_ms": 2}, {"from": 11, "to": 12}),
    Case("stalled", "arrivals_stalled($args[0]; 495; 20; $args[1])", lambda _, a, s: A.arrivals_stalled(a, 495, 20, s),
         None, {"t0_s": 1, "period_ms": 1}, STALL),
    Case("stalled-none", "arrivals_stalled($args[0]; 0; 3; [])", lambda _, a: A.arrivals_stalled(a, 0, 3, []),
         None, {"t0_s": 1, "period_ms": 1}),
] + [Case("cause-%d" % i, "arrivals_cause", A.arrivals_cause, e) for i, e in enumerate([
    {"lost": 0}, {"lost": 10, "lost_in_burst": 5, "lost_in_stall": 0}, {"lost": 10, "lost_in_burst": 4, "lost_in_stall": 5},
    {"lost": 10, "lost_in_burst": 4, "lost_in_stall": 4}, {"lost": False, "lost_in_burst": 0, "lost_in_stall": 0},
    {"lost": None}, {"lost": -1, "lost_in_burst": 0}])] + [
    Case("merge-" + name, "arrivals_merge", A.arrivals_merge, dot) for name, dot in [
        ("two", [{"ahead_max": 300, "lost": 50, "lost_in_burst": 50, "lost_in_stall": 0, "burst": True},
                 None, {"ahead_max": 20, "lost": 10, "lost_in_burst": 0, "lost_in_stall": 0, "burst": False}]),
        ("none-measured", [None, None]),
        ("empty", []),
        ("burst-one-not-true", [{"ahead_max": 1, "lost": 0, "lost_in_burst": 0, "lost_in_stall": 0, "burst": 1}]),
        ("non-objects-left-out", [1, "x", [2], {"ahead_max": 3, "lost": 4, "lost_in_burst": 0, "lost_in_stall": 4}]),
    ]] + [
    Case("words-" + name, "arrivals_cause_words($args[0])", lambda _, e: A.arrivals_cause_words(e), None, e)
    for name, e in [
        ("none", None),
        ("burst", {"cause": "burst", "lost_in_burst": 50, "lost": 50, "queue_entries": 256, "ahead_max": 400.5}),
        ("stall", {"cause": "stall", "lost_in_stall": 3, "lost": 5}),
        ("steady", {"cause": "steady", "ahead_max": 12}),
        ("nothing-lost", {"cause": "none"}),
        ("missing-figures", {"cause": "burst"}),
    ]] + [Case("constants", "[arrivals_ring_entries, arrivals_local_periods]",
               lambda _: [A.arrivals_ring_entries(), A.arrivals_local_periods()], None)]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("arrivals", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def P(a, w=None, stalls=(), servers=("server1",)):
    return A.arrivals_point(a, w, list(stalls), list(servers))


def test_a_late_read_is_spread_and_no_burst_control_lumped_is_one():
    assert A.arrivals_spread([1, -1, -1, 6, 2, -1]) == [1, 2, 2, 2, 2, 0]
    assert P(port(GAPS, NONE))["burst"] is False
    assert P(port(LUMPED, NONE))["burst"] is True


def test_refused_in_a_catchup_is_the_bursts_control_in_the_smooth_part_steady():
    b = P(port(CATCHUP, dropped_at(1061)))
    assert [b["burst"], b["cause"], b["lost"], b["lost_in_burst"]] == [True, "burst", 50, 50] and b["ahead_max"] >= 256
    assert P(port(CATCHUP, dropped_at(500)))["cause"] == "steady"


def test_refused_in_a_stall_is_the_stalls_control_a_second_away_steady():
    s = P(port(SMOOTH, dropped_at(502)), stalls=STALL)
    assert [s["cause"], s["lost_in_stall"]] == ["stall", 50]
    assert P(port(SMOOTH, dropped_at(1502)), stalls=STALL)["cause"] == "steady"


def test_a_drift_is_no_burst_and_the_window_limits_the_periods():
    assert P(port(DRIFT, NONE))["burst"] is False
    w = P(port(CATCHUP, NONE), w={"from": 1.2, "to": 1.8})
    assert [w["burst"], w["ports"]["server1"]["periods"]] == [False, 600]

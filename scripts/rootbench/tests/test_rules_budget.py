"""rootbench.rules.budget prints what scripts/lib/budget.jq prints: two
snapshots of `scripts/testbed cpu-budget-stat` and their delta, sums of
throttle figures, and edge cases (a server in one snapshot only, no
budget, no throttled period, counters beyond 2^53)."""

import functools

from rootbench.rules import budget as B
from rootbench.tests.jqagree import Case, check_names, run_jq, assert_agree


def snap(**servers):
    return {r: {"periods": p, "throttled_periods": tp, "throttled_us": us} for r, (p, tp, us) in servers.items()}


A = snap(server1=(1000, 10, 50000), server2=(2000, 0, 0))
Bs = snap(server1=(1500, 60, 410000), server2=(2600, 3, 9001))
DELTA = "throttle_delta($args[0]; $args[1])"
CASES = [Case("delta-" + name, DELTA, lambda _, a, b: B.throttle_delta(a, b), None, a, b) for name, a, b in [
    ("two-servers", A, Bs),
    ("no-change", A, A),
    ("a-null", None, Bs),
    ("b-null", A, None),
    ("server-in-one-only", snap(server1=(1, 0, 0)), snap(server2=(5, 1, 7))),
    ("server-null-in-a", {"server1": None, "server2": A["server2"]}, Bs),
    ("empty-snapshots", {}, {}),
    ("keys-sorted", snap(z=(1, 1, 1), a=(2, 2, 2)), snap(z=(10, 4, 101), a=(20, 6, 50))),
    ("rounding-half", snap(s=(0, 0, 0)), snap(s=(4, 4, 10))),
    ("rounding-half-up", snap(s=(0, 0, 0)), snap(s=(4, 4, 14))),
    ("negative", snap(s=(100, 10, 1000)), snap(s=(0, 0, 0))),
    ("huge-counters", snap(s=(2**60, 2**60, 2**62)), snap(s=(2**60 + 1, 2**60 + 3, 2**62 + 1000))),
    ("missing-field-error", {"s": {"periods": 1}}, {"s": {"periods": 2}}),
]] + [Case("add-" + name, "throttle_add", B.throttle_add, dot) for name, dot in [
    ("two", [{"periods": 10, "throttled_periods": 2, "throttled_us": 5}, {"periods": 1, "throttled_periods": 1, "throttled_us": 2}]),
    ("nulls-skipped", [None, {"periods": 10, "throttled_periods": 3, "throttled_us": 1000}, None]),
    ("all-null", [None, None]),
    ("empty", []),
    ("none-throttled", [{"periods": 10, "throttled_periods": 0, "throttled_us": 0}]),
    ("field-missing", [{"periods": 10}]),
    ("object-input", {"x": {"periods": 1, "throttled_periods": 1, "throttled_us": 3}}),
]] + [Case("add-null-error", "throttle_add", B.throttle_add, None)] + [
    Case("mean-" + name, "throttle_mean", B.throttle_mean, dot) for name, dot in [
        ("keeps-order", {"mean_pause_us": 9, "throttled_us": 7, "throttled_periods": 2, "x": 1}),
        ("none", {"throttled_us": 0, "throttled_periods": 0}),
        ("null", None),
        ("negative-half", {"throttled_us": -5, "throttled_periods": 2}),
    ]]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("budget", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_the_delta_sums_the_servers_and_means_the_pause():
    assert B.throttle_delta(A, Bs) == {"periods": 1100, "throttled_periods": 53, "throttled_us": 369001,
                                       "mean_pause_us": 6962}


def test_control_no_server_in_both_snapshots_gives_null():
    assert B.throttle_delta(snap(server1=(1, 0, 0)), snap(server2=(5, 1, 7))) is None
    assert B.throttle_delta(None, Bs) is None

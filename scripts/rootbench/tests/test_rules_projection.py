"""rootbench.rules.projection prints what scripts/lib/projection.jq
prints: the utilisation fit on the TCP rules' cases and edge cases, and
the judgment of every kind of method against every kind of direct figure
(udpreplay/budget-validation/tests/10-rules.test's, tcpbench/sweep's)."""

import functools

from rootbench.rules import projection as P
from rootbench.tests.jqagree import Case, check_names, run_jq, assert_agree

FIT = P.utilisation_fit


def judge(m, d):
    return P.judge(m, d)


CASES = [Case("fit-" + name, "utilisation_fit", FIT, dot) for name, dot in [
    ("one-rate-ratio", [{"x": 1000, "y": 140000}]),
    ("busy-falling-no-demand", [{"x": 1000, "y": 200000}, {"x": 2000, "y": 100000}]),
    ("slope-with-fixed", [{"x": 10000, "y": 500000}, {"x": 20000, "y": 900000}, {"x": 30000, "y": 1300000}]),
    ("slope-noisy", [{"x": 5000, "y": 210000}, {"x": 10000, "y": 395000}, {"x": 15000, "y": 640000},
                     {"x": 20000, "y": 801000}]),
    ("flat-zero-slope", [{"x": 1, "y": 5}, {"x": 2, "y": 5}]),
    ("same-rate-twice-ratio-mean", [{"x": 1000, "y": 100000}, {"x": 1000, "y": 120000}]),
    ("empty", []),
    ("null", None),
    ("one-rate-zero-error", [{"x": 0, "y": 5}]),
    ("negative", [{"x": -1000, "y": -100}, {"x": -2000, "y": -300}]),
    ("huge", [{"x": 1e17, "y": 3e20}, {"x": 2e17, "y": 5e20}]),
    ("fractions", [{"x": 0.1, "y": 0.3}, {"x": 0.2, "y": 0.7}, {"x": 0.3, "y": 0.8}]),
]] + [Case("judge-" + name, "judge($args[0])", judge, m, d) for name, m, d in [
    ("no-figure-why", {"method": "demand", "figure": None, "why": "no slope"}, {"rate": 5000, "kind": "knee"}),
    ("no-figure-no-why", {"method": "demand", "figure": None}, {"rate": 5000, "kind": "knee"}),
    ("no-figure-why-false", {"figure": None, "why": False}, {"rate": 5000}),
    ("no-figure-why-number", {"figure": None, "why": 3}, {"rate": 5000}),
    ("no-direct", {"method": "budget", "figure": 4800}, {"rate": None, "kind": "knee"}),
    ("knee-agrees", {"method": "budget", "figure": 5400}, {"rate": 5000, "kind": "knee"}),
    ("knee-at-limit", {"method": "budget", "figure": 5750}, {"rate": 5000, "kind": "knee"}),
    ("knee-disagrees", {"method": "demand", "figure": 6000}, {"rate": 5000, "kind": "knee"}),
    ("knee-below-disagrees", {"method": "demand", "figure": 4000}, {"rate": 5000, "kind": "knee"}),
    ("bound-below", {"method": "demand", "figure": 4000}, {"rate": 5000, "kind": "bound"}),
    ("bound-not-contradicted", {"method": "demand", "figure": 9000}, {"rate": 5000, "kind": "bound"}),
    ("bound-at-085", {"figure": 4250}, {"rate": 5000, "kind": "bound"}),
    ("ratio-rounding", {"figure": 1}, {"rate": 3, "kind": "knee"}),
    ("ratio-half", {"figure": 1.0005}, {"rate": 1, "kind": "bound"}),
    ("null-method", None, {"rate": 5000, "kind": "knee"}),
    ("null-direct", {"figure": 5000}, None),
    ("zero-rate-error", {"figure": 5000}, {"rate": 0, "kind": "knee"}),
    ("negative", {"figure": -5000}, {"rate": 5000, "kind": "bound"}),
    ("huge", {"figure": 1e300}, {"rate": 1e-300, "kind": "knee"}),
    ("keys-kept-and-replaced", {"ratio": 7, "figure": 5000, "z": 1}, {"rate": 5000, "kind": "knee"}),
    ("string-figure-error", {"figure": "5000"}, {"rate": 5000, "kind": "knee"}),
]] + [Case("agreement-limit", "agreement_limit", lambda d: P.agreement_limit(), None)]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("projection", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_one_rate_is_the_ratio():
    f = FIT([{"x": 1000, "y": 140000}])
    assert (f["method"], f["demand_us"]) == ("ratio", 140)


def test_control_busy_falling_with_the_rate_gives_no_demand():
    assert FIT([{"x": 1000, "y": 200000}, {"x": 2000, "y": 100000}])["demand_us"] is None


def test_a_knee_within_the_limit_may_be_quoted_and_one_beyond_not():
    assert judge({"figure": 5400}, {"rate": 5000, "kind": "knee"})["agrees"] is True
    assert judge({"figure": 6000}, {"rate": 5000, "kind": "knee"})["agrees"] is False


def test_control_below_a_bound_disagrees_above_it_not_validated():
    assert judge({"figure": 4000}, {"rate": 5000, "kind": "bound"})["agrees"] is False
    assert judge({"figure": 9000}, {"rate": 5000, "kind": "bound"})["agrees"] is None

"""rootbench.rules.spread prints what scripts/lib/spread.jq prints, on the
TCP rules' cases (tcpbench/sweep/tests/10-rules.test) and edge cases; and
the jq test's statements, its control among them, hold for the Python."""

import functools

import pytest

from rootbench.rules import spread
from rootbench.tests.jqagree import Case, check_names, python_text, run_jq, assert_agree

F = spread.repeat_spread
CASES = [Case(name, "repeat_spread", F, dot) for name, dot in [
    ("within-5-pct", [10000, 10400, 9900]),
    ("beyond-5-pct", [10000, 11000, 9900]),
    ("empty", []),
    ("all-null", [None, None]),
    ("nulls-left-out", [None, 5000, None, 5200]),
    ("one", [7]),
    ("even-count-upper-middle", [4, 1, 3, 2]),
    ("ties", [5, 5, 5]),
    ("zero-median", [0, 0, 3]),
    ("negative", [-10, -20, -5]),
    ("just-5-pct-not-flagged", [100, 105, 95]),
    ("rounding-half", [1000, 1000.25, 999.75]),
    ("fractions", [0.1, 0.2, 0.3]),
    ("huge", [1e17, 1.2e17, 9e16]),
    ("huge-ints", [10**20 + 1, 10**20, 10**20 + 7]),
    ("tiny", [1e-9, 2e-9]),
    ("object-values", {"a": 3, "b": 1, "c": 2}),
]] + [
    Case("null-input-error", "repeat_spread", F, None),
    Case("number-input-error", "repeat_spread", F, 5),
    Case("string-member-error", "repeat_spread", F, ["a", "b"]),
    Case("booleans", "repeat_spread", F, [True, False]),
]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("spread", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_spread_within_5_pct_is_not_flagged():
    s = F([10000, 10400, 9900])
    assert (s["median"], s["flagged"]) == (10000, False)


def test_control_spread_beyond_5_pct_is_flagged():
    s = F([10000, 11000, 9900])
    assert (s["median"], s["flagged"]) == (10000, True)


def test_control_the_agreement_test_sees_a_difference():
    # a rule that rounds as Python does (half to even) must not pass for the jq's
    case = Case("rounding-half", "repeat_spread",
                lambda d: dict(F(d), spread_pct=round((max(d) - min(d)) * 1000 / sorted(d)[len(d) // 2]) / 10),
                [1000, 1000.25, 999.75])
    assert python_text(case) != jq()["rounding-half"]


def test_control_a_module_that_disagrees_fails_naming_the_case():
    wrong = [Case(c.name, c.call, (lambda d: dict(F(d), n=-1)) if c.name == "one" else c.fn, c.dot) for c in CASES]
    with pytest.raises(AssertionError, match="1 of %d cases disagree:\n  one:" % len(CASES)):
        assert_agree(wrong, jq())

"""rootbench.rules.host_speed prints what scripts/lib/host-speed.jq prints,
on the fixtures' records (analysis/testdata: a TCP sweep, a bench, a DoT
run) and edge cases: a missing part, a lab's null, no start, ties."""

import functools
import json
import os

from rootbench.rules import host_speed
from rootbench.tests.jqagree import TOP, Case, check_names, run_jq, assert_agree

F = host_speed.host_speed_span


def fixture(path):
    with open(os.path.join(TOP, "analysis", "testdata", path)) as f:
        return json.load(f)


TCP = fixture("results-sample/tcp/summary.json")
BENCH = fixture("results-sample/bench.json")
DOT = fixture("dot-sample/summary.json")
S = lambda at, v=1: {"at": at, "v": v}
CASES = [Case(name, "host_speed_span", F, dot) for name, dot in [
    ("fixtures", [TCP, BENCH, DOT]),
    ("fixtures-reversed", [DOT, BENCH, TCP]),
    ("one-part", [TCP]),
    ("a-missing-part", [None, BENCH, None]),
    ("a-lab-null", [{"host_speed": None}, {"host_speed": {"start": None, "end": None}}]),
    ("no-start-timed", [{"host_speed": {"end": S("2024-01-01T00:00:00Z")}}]),
    ("empty", []),
    ("no-at", [{"host_speed": {"start": {"x": 1}, "end": {"x": 2}}}, {"host_speed": {"start": S("a"), "end": S("b")}}]),
    ("ties-first-start-last-end", [{"host_speed": {"start": S("t", 1), "end": S("u", 1)}},
                                   {"host_speed": {"start": S("t", 2), "end": S("u", 2)}}]),
    ("non-objects-skipped", [1, "x", [2], {"host_speed": [3]}, {"host_speed": {"start": 4, "end": "5"}}]),
    ("object-of-parts", {"a": {"host_speed": {"start": S("2"), "end": S("3")}}, "b": {"host_speed": {"start": S("1")}}}),
]] + [Case("null-error", "host_speed_span", F, None)]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("host-speed", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_the_span_is_the_first_start_and_the_last_end():
    span = F([TCP, BENCH, DOT])
    assert (span["start"]["at"], span["end"]["at"]) == ("2024-01-01T00:00:40Z", "2026-12-01T15:25:00Z")


def test_control_no_part_timed_gives_nulls():
    assert F([None, {"host_speed": None}]) == {"start": None, "end": None}

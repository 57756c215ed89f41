"""rootbench.rules.probe_stats prints what scripts/lib/probe-stats.jq
prints, on scripts/tests/03-probe-sweep.test's probe result and the
attack fixture's (analysis/testdata/results-sample/attack), a result of
another schema refused with the jq's words, and edge cases."""

import copy
import functools
import json
import os

import pytest

from rootbench.rules import probe_stats as PS
from rootbench.tests.jqagree import TOP, Case, check_names, run_jq, assert_agree

RAW = {"schema": "rootbench.probe/1", "server": "198.18.0.53", "port": 53, "qname": ".", "qtype": "SOA", "timeout_ms": 4000,
       "expected_serial": 2023010100, "started": 1, "duration_s": 2,
       "udp": {"rate": 20, "sent": 40, "answered": 39, "timeouts": 1, "incorrect": 0, "errors": 0, "late": 0,
               "availability": 0.975, "correct_fraction": 1,
               "latency_ms": {"p50": 0.21, "p90": 0.3, "p99": 1.2, "p999": 1.2, "max": 1.2}},
       "tcp": {"rate": 0, "sent": 0, "answered": 0, "timeouts": 0, "incorrect": 0, "errors": 0, "late": 0,
               "availability": None, "correct_fraction": None,
               "latency_ms": {"p50": None, "p90": None, "p99": None, "p999": None, "max": None}, "connect_failures": 0}}


def attack_probes():
    """Every rbprobe result inside the attack fixture's summary."""
    with open(os.path.join(TOP, "analysis", "testdata", "results-sample", "attack", "summary.json")) as f:
        doc = json.load(f)
    found = []

    def walk(v):
        if isinstance(v, dict):
            if v.get("schema") == "rootbench.probe/1":
                found.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(doc)
    return found


OTHER = dict(copy.deepcopy(RAW), schema="rootbench.probe/0")
CASES = [Case("stats-fixture", "probe_stats", PS.probe_stats, RAW)] + [
    Case("stats-attack-%d" % i, "probe_stats", PS.probe_stats, r) for i, r in enumerate(attack_probes())] + [
    Case("stats-" + name, "probe_stats", PS.probe_stats, dot, message=True) for name, dot in [
        ("null-refused", None), ("other-schema-refused", OTHER), ("no-schema-refused", {"udp": {}}),
        ("array-refused", [1]), ("string-refused", "x"), ("number-schema-refused", {"schema": 1}),
    ]] + [
    Case("stats-no-protocols", "probe_stats", PS.probe_stats, {"schema": "rootbench.probe/1"}),
    Case("stats-protocol-a-number-error", "probe_stats", PS.probe_stats, {"schema": "rootbench.probe/1", "udp": 5}),
    Case("checked-null", "probe_raw_checked", PS.probe_raw_checked, None),
    Case("checked-fixture", "probe_raw_checked", PS.probe_raw_checked, RAW),
    Case("checked-false-refused", "probe_raw_checked", PS.probe_raw_checked, False, message=True),
    Case("protocol-udp", "probe_stats_protocol", PS.probe_stats_protocol, RAW["udp"]),
    Case("protocol-empty", "probe_stats_protocol", PS.probe_stats_protocol, {}),
    Case("protocol-null", "probe_stats_protocol", PS.probe_stats_protocol, None),
    Case("schema", "probe_result_schema", lambda _: PS.probe_result_schema(), None),
]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("probe-stats", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_the_fixtures_figures_are_the_probes():
    s = PS.probe_stats(RAW)
    assert [s["udp"]["sent"], s["udp"]["availability"], s["udp"]["p50_ms"], s["udp"]["p99_ms"]] == [40, 0.975, 0.21, 1.2]


def test_control_another_schema_is_refused_naming_both():
    PS.probe_raw_checked(RAW)
    with pytest.raises(Exception, match="a probe result of schema rootbench.probe/1 was expected; "
                                        "this one's schema is rootbench.probe/0"):
        PS.probe_raw_checked(OTHER)

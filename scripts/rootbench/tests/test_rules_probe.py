"""rootbench.rules.probe (the judgement of a probe block: RSSAC047 and the
queueing knee) prints what scripts/lib/probe.jq's probe_judged prints, on
every probe block stored in the fixtures (the sweeps' and the attack's
series, their judgement taken off and made again) and on each threshold
at its edge with a control just past it (analysis/tests/59-probe-rules
test's cases: a UDP median of 250 ms holds, 251 not; TCP 500 / 501;
availability 0.96 / 0.959; correctness 1 / 0.999; a rate fits only when
every repetition fits; a protocol not probed fails nothing; no points, no
protocol: not judged; nothing answered fails latency and availability;
the knee at exactly 10 x is not past it); a block of another schema, or
none, or with a point without a numeric offered rate, is refused with the
jq's words."""

import copy
import functools
import json
import os

import pytest

from rootbench.rules import probe as PR
from rootbench.rules.jqlib import loads
from rootbench.tests.jqagree import TOP, Case, check_names, python_text, run_jq

FIXTURES = ["analysis/testdata/results-sample/tcp/1p1s/summary.json",
            "analysis/testdata/results-sample/tcp-direct/1p1s/summary.json",
            "analysis/testdata/results-sample/udp-unshaped/summary.json",
            "analysis/testdata/results-sample/attack/summary.json"]


def stored_blocks():
    out = []
    for f in FIXTURES:
        with open(os.path.join(TOP, f)) as h:
            s = json.load(h)
        blocks = [s.get("probe")] + [x.get("probe") for x in s.get("series", [])]
        for i, b in enumerate(x for x in blocks if isinstance(x, dict)):
            b = {k: v for k, v in b.items() if k not in ("rssac047", "queue_knee")}
            out.append(("%s-%d" % (f.split("/")[3], i), b))
    return out


def stats(p50, av, cf=1, sent=30, p99=None):
    return {"sent": sent, "answered": sent, "timeouts": 0, "incorrect": 0, "errors": 0, "availability": av,
            "correct_fraction": cf, "p50_ms": p50, "p90_ms": p50, "p99_ms": p50 if p99 is None else p99, "p999_ms": p50, "max_ms": p50}


def block(points, idle=None):
    return {"schema": "rootbench.probe-sweep/1", "settings": {}, "ceiling": None,
            "idle": idle if idle is not None else {"udp": stats(0.3, 1, p99=1), "tcp": stats(0.5, 1, p99=2)}, "points": points}


def pt(offered, udp, tcp=None, rep=1):
    return {"offered": offered, "rep": rep, "udp": udp, "tcp": tcp}


OK = stats(1, 1)
EDGES = {
    "udp-250-holds": block([pt(1000, stats(250, 1)), pt(2000, stats(251, 1))]),
    "tcp-500-holds": block([pt(1000, OK, stats(500, 1)), pt(2000, OK, stats(501, 1))]),
    "availability-edge": block([pt(1000, stats(1, 0.96)), pt(2000, stats(1, 0.959))]),
    "correctness-edge": block([pt(1000, stats(1, 1, cf=1)), pt(2000, stats(1, 1, cf=0.999))]),
    "reps-all-must-fit": block([pt(3000, OK), pt(1000, OK), pt(1000, stats(300, 1), rep=2)]),
    "reps-control": block([pt(1000, OK), pt(1000, OK, rep=2), pt(2000, OK)]),
    "protocol-not-probed": block([pt(1000, OK, {"sent": 0}), pt(2000, OK, None)]),
    "no-points": block([]),
    "no-protocol": block([pt(1000, None, None)]),
    "nothing-answered": block([pt(1000, OK), pt(2000, stats(None, 0))]),
    "knee-exactly-10x": block([pt(1000, stats(1, 1, p99=10)), pt(2000, stats(1, 1, p99=10.1))]),
    "no-idle": block([pt(1000, OK)], idle={"udp": None, "tcp": None}),
}
BAD = {"another-schema": {"schema": "rootbench.probe-sweep/0"}, "no-schema": {"points": []}, "none": None, "a-list": [1],
       "points-not-a-list": {"schema": "rootbench.probe-sweep/1", "points": 3},
       "offered-not-a-number": block([pt("1000", OK)])}

CASES = ([Case("stored-" + n, "probe_judged(.)", PR.probe_judged, b) for n, b in stored_blocks()]
         + [Case("edge-" + n, "probe_judged(.)", PR.probe_judged, b) for n, b in EDGES.items()]
         + [Case("bad-" + n, "probe_judged(.)", PR.probe_judged, b, message=True) for n, b in BAD.items()]
         + [Case("none-stays-none", "probe_judged(.)", PR.probe_judged, None)])
CASES = [c for c in CASES if c.name != "bad-none"] + [Case("bad-none", "probe_checked(.)", PR.probe_checked, None, message=True)]
check_names(CASES)


@functools.lru_cache(maxsize=None)
def jq_out():
    return run_jq("probe", CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_python_prints_what_the_jq_prints(case):
    assert python_text(case) == jq_out()[case.name]


def test_the_stored_judgements_are_made_again():
    for f in FIXTURES:
        with open(os.path.join(TOP, f)) as h:
            s = loads(h.read())
        for b in [s.get("probe")] + [x.get("probe") for x in s.get("series", [])]:
            if isinstance(b, dict):
                again = PR.probe_judged({k: v for k, v in b.items() if k not in ("rssac047", "queue_knee")})
                assert again["rssac047"] == b["rssac047"] and again["queue_knee"] == b["queue_knee"], f


def test_control_251_ms_fails_where_250_held():
    r = PR.probe_rssac047(EDGES["udp-250-holds"])
    assert [r["held_up_to"], r["first_fail"]["offered"], r["first_fail"]["failed"]] == [1000, 2000, ["udp_latency"]]

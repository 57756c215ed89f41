"""The UDP summary's Python accessors (udpreplay/udp/accessors.py, what the
sizing matrix reads its server ceiling through) give what the jq ones of
rules.jq give on the fixture summary, and name the same schema; control: a
summary of a bumped schema is refused by both, naming both schemas."""

import copy
import json
import os
import subprocess

import pytest

from rootbench.experiment import sibling

acc = sibling(__file__, "../accessors")
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
FIXTURE = os.path.join(TOP, "analysis", "testdata", "results-sample", "udp-unshaped", "summary.json")
NAMES = ["udp_ceiling_qps", "udp_ceiling_low_qps", "udp_ceiling_high_qps", "udp_ceiling_text", "udp_verdict",
         "udp_testbed"]


def jq_acc(expr, summary):
    p = subprocess.run(["jq", "-c", "-L", TOP, 'import "udpreplay/udp/rules" as udp; ' + expr],
                       input=json.dumps(summary), capture_output=True, text=True, cwd=TOP)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def summary():
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)


def test_the_accessors_agree_with_the_jq_ones_on_the_fixture(summary):
    rc, out, err = jq_acc("[" + ", ".join("udp::%s(.)" % n for n in NAMES) + ", udp::udp_schema]", summary)
    assert rc == 0, err
    assert json.loads(out) == [getattr(acc, n)(summary) for n in NAMES] + [acc.UDP_SCHEMA]


def test_control_a_bumped_schema_is_refused_by_both_naming_both(summary):
    bumped = copy.deepcopy(summary)
    bumped["schema"] = "rootbench.udp/2"
    rc, _, err = jq_acc("udp::udp_ceiling_qps(.)", bumped)
    assert rc != 0
    with pytest.raises(acc.SchemaError) as e:
        acc.udp_ceiling_qps(bumped)
    assert str(e.value) in err
    assert "this one's schema is rootbench.udp/2" in str(e.value)

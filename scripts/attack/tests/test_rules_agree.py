"""What the report reads of the attack's rules is written twice while the
run still judges its steps with rules.jq: the schema and the check of a
summary (rules.py) must agree with rules.jq's on the stored fixture
summary, and both refuse another summary with the same message.
Control: a summary of another schema is refused by both."""

import json
import os
import subprocess

import pytest

from rootbench.experiment import sibling

rules = sibling(__file__, "../rules")
FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(os.path.dirname(FOLDER))
FIXTURE = os.path.join(TOP, "analysis/testdata/results-sample/attack/summary.json")


def jq_rules(expr, doc):
    """expr of rules.jq on doc: (exit status, output, error)."""
    p = subprocess.run(["jq", "-c", "-L", FOLDER, "-L", os.path.join(TOP, "scripts/lib"), 'include "rules"; ' + expr],
                       input=json.dumps(doc), capture_output=True, text=True)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def test_the_schema_is_rules_jq_s():
    assert json.dumps(rules.attack_schema()) == jq_rules("attack_schema", None)[1]


def test_both_accept_the_fixture_summary_unchanged():
    doc = json.load(open(FIXTURE))
    assert rules.attack_summary_checked(doc) is doc
    rc, out, _ = jq_rules("attack_summary_checked(.) == .", doc)
    assert (rc, out) == (0, "true")


@pytest.mark.parametrize("doc", [{"schema": "rootbench.udp/1"}, {"status": "ok"}, [1], None])
def test_control_both_refuse_another_summary_with_the_same_words(doc):
    rc, _, err = jq_rules("attack_summary_checked(.)", doc)
    assert rc != 0
    with pytest.raises(ValueError) as e:
        rules.attack_summary_checked(doc)
    assert str(e.value) in err

"""The attack summary's schema is written twice while the run still
writes its summary with rules.jq: the report's (rules.py) must be the one
rules.jq's attack_judged writes. The report's check of a summary accepts
the stored fixture summary and refuses another, naming its schema (or its
type). Control: summaries of another schema, none or not an object are
each refused."""

import json
import os
import subprocess

import pytest

from rootbench.experiment import sibling

rules = sibling(__file__, "../rules")
FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(os.path.dirname(FOLDER))
FIXTURE = os.path.join(TOP, "analysis/testdata/results-sample/attack/summary.json")


def jq_rules(expr):
    """expr of rules.jq, as JSON."""
    out = subprocess.run(["jq", "-n", "-c", "-L", FOLDER, "-L", os.path.join(TOP, "scripts/lib"), 'include "rules"; ' + expr],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_the_schema_is_the_one_rules_jq_writes():
    assert rules.attack_schema() == jq_rules("attack_schema")
    assert jq_rules('attack_judged({}; []; []; "ok") | .schema') == rules.attack_schema()


def test_the_fixture_summary_is_accepted_unchanged():
    with open(FIXTURE) as f:
        doc = json.load(f)
    assert doc["schema"] == rules.attack_schema()
    assert rules.attack_summary_checked(doc) is doc


@pytest.mark.parametrize("doc, had", [({"schema": "rootbench.udp/1"}, "rootbench.udp/1"), ({"status": "ok"}, "object"),
                                      ([1], "array"), (None, "null")])
def test_control_another_summary_is_refused_naming_what_it_is(doc, had):
    with pytest.raises(ValueError, match="an attack summary of schema rootbench.attack/1 .* was expected; this one's schema is %s$" % had):
        rules.attack_summary_checked(doc)

"""The roadmap's states are written twice while the report's former
section (section.jq, still read by the report's jq tests) reads them from
roadmap.jq: that copy must be roadmap.py's list (the run's and the rules'),
in the same order, with the same states only the roadmap measures.
Control: a roadmap.jq whose list differs (one state more shared) is told
apart."""

import json
import os
import subprocess

from rootbench.experiment import sibling

roadmap = sibling(__file__, "../roadmap")
FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def jq_roadmap(folder, expr):
    """expr of roadmap.jq in folder, as JSON."""
    out = subprocess.run(["jq", "-n", "-c", "-L", folder, 'include "roadmap"; ' + expr],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_the_report_holds_roadmap_jq_s_states_in_its_order():
    assert roadmap.ROADMAP_PHASES == jq_roadmap(FOLDER, "roadmap_phases")


def test_the_states_only_the_roadmap_measures_agree():
    assert roadmap.roadmap_only_states() == jq_roadmap(FOLDER, "roadmap_only_states")
    assert "root" not in roadmap.roadmap_only_states() and "alg-double" in roadmap.roadmap_only_states()


def test_control_a_roadmap_jq_that_differs_is_told_apart(tmp_path):
    text = open(os.path.join(FOLDER, "roadmap.jq")).read()
    changed = text.replace('{state: "alg-double", kind: "roll",', '{state: "alg-double", kind: "roll", shared: true,')
    assert changed != text
    (tmp_path / "roadmap.jq").write_text(changed)
    assert roadmap.roadmap_only_states() != jq_roadmap(str(tmp_path), "roadmap_only_states")

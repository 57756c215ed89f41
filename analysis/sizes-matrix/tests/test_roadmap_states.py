"""The roadmap's states are written twice while the run still plans its
cells with roadmap.jq: the report's copy (roadmap.py) must be the same list,
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
    # roadmap.jq imports the TCP sweep's rules (and they scripts/lib's)
    # from two folders up: the copy sits where the original does
    copy = tmp_path / "analysis" / "sizes-matrix"
    copy.mkdir(parents=True)
    (copy / "roadmap.jq").write_text(changed)
    top = os.path.dirname(os.path.dirname(FOLDER))
    for d in ("tcpbench", "scripts"):
        os.symlink(os.path.join(top, d), tmp_path / d)
    assert roadmap.roadmap_only_states() != jq_roadmap(str(copy), "roadmap_only_states")

"""Every registered experiment's section.py (in its folder) exports the
section interface (section and findings, and those of family_rows,
family_note, per_cpu_rows, headline, latency_rows it has something for,
each taking the bundle and the registry entry), and each function renders on the stored fixtures
(analysis/testdata/results-sample, dot-sample and sections-sample, every
IPv4 run copied as its IPv6 run) without an error: the section opens with
the experiment's id (or, placed in the capacity per CPU, is not empty), an
experiment of the Findings' order says something, an experiment run over
IPv6 has rows to compare, a "verdict" headline has its card, an experiment
whose fixture holds a probe block has its latency row; an experiment the
fixtures do not hold is named as never rendered.
Negative controls: a folder whose section.py lacks findings, a "verdict"
headline whose section.py has no headline, one whose latency_rows has no
row for its probe, one whose section fails, and an experiment with no
fixture are each named."""

import json
import os
import re
import shutil
import subprocess

import pytest

from rootbench.experiment import load_path
from rootbench.report.sections import section_call

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REGISTRY = os.path.join(TOP, "scripts/lib/experiments.json")
TD = os.path.join(TOP, "analysis/testdata")
INTERFACE = ["section", "findings", "family_rows", "family_note", "per_cpu_rows", "headline", "latency_rows"]


@pytest.fixture(scope="module")
def registry():
    with open(REGISTRY) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory, registry):
    """The fixture run's bundle (analysis/report --bundle), as the report
    tests make it."""
    run = tmp_path_factory.mktemp("sections") / "run"
    shutil.copytree(os.path.join(TD, "results-sample"), run)
    os.makedirs(run / "dot")
    for f in ("summary.json", "bytes.csv"):
        shutil.copy(os.path.join(TD, "dot-sample", f), run / "dot")
    shutil.copytree(os.path.join(TD, "sections-sample"), run, dirs_exist_ok=True)
    os.remove(run / "README.md")
    for e in registry["experiments"]:
        if e.get("v6") and (run / e["name"]).is_dir():
            shutil.copytree(run / e["name"], run / (e["name"] + "-v6"))
    out = subprocess.run([os.path.join(TOP, "analysis/report"), "--bundle", str(run)], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def _str_list(x):
    return isinstance(x, list) and all(isinstance(s, str) for s in x)


def _rows(x, keys):
    return isinstance(x, list) and all(isinstance(r, dict) and all(k in r for k in keys) for r in x)


def section_problems(reg, root, b):
    """What is wrong with each registered experiment's section (its
    folder's section.py found under root), rendered on the bundle b; []
    when all is right."""
    order = (reg.get("report_order") or {}).get("findings") or []
    out = []
    for e in reg["experiments"]:
        n, folder = e["name"], e["folder"]
        x = b["exps"].get(n) or {}
        if x.get("summary") is None:
            out.append("%s: no fixture: its section is never rendered" % n)
            continue
        try:
            s = load_path(os.path.join(root, folder, "section.py"))
            got = {fn: section_call(s, fn, b, e) for fn in INTERFACE}
        except Exception as err:  # any failure of the section is the finding
            out.append("%s: %s/section.py fails: %s: %s" % (n, folder, type(err).__name__, err))
            continue
        sec = got["section"]
        if not isinstance(sec, str) or sec == "":
            out.append("%s: no section" % n)
        elif e.get("place") is None and '<section id="%s">' % n not in sec:
            out.append("%s: its section lacks its id" % n)
        fs = got["findings"]
        if not isinstance(fs, list) or any(not isinstance(f, dict) or not isinstance(f.get("short"), str) or not _str_list(f.get("more"))
                                           for f in fs):
            out.append("%s: findings is not a list of findings (short, more)" % n)
        elif not fs and n in order:
            out.append("%s: no Findings sentence on its fixture" % n)
        if not isinstance(got["family_rows"], str):
            out.append("%s: family_rows is not HTML" % n)
        elif e.get("v6") is True and got["family_rows"] == "":
            out.append("%s: no IPv4 / IPv6 rows" % n)
        if not isinstance(got["family_note"], str):
            out.append("%s: family_note is not HTML" % n)
        if not _rows(got["per_cpu_rows"], ("s", "f", "path", "fig", "unit", "name")):
            out.append("%s: per_cpu_rows is not a list of rows" % n)
        if not isinstance(got["headline"], str):
            out.append("%s: headline is not HTML" % n)
        elif e.get("headline") == "verdict" and got["headline"] == "":
            out.append("%s: no verdict card" % n)
        probes = [d.get("probe") for d in [x.get("summary")] + [(v or {}).get("summary") for v in (x.get("subs") or {}).values()]
                  if isinstance(d, dict)]
        if not _rows(got["latency_rows"], ("name", "s", "f", "path", "unit")):
            out.append("%s: latency_rows is not a list of rows" % n)
        elif not got["latency_rows"] and any(isinstance(p, dict) for p in probes):
            out.append("%s: a probe block but no latency row" % n)
    return out


def test_every_registered_section_renders_through_the_interface(registry, bundle):
    assert section_problems(registry, TOP, bundle) == []


def _udp_copy(tmp_path, edit):
    """A copy of the UDP folder's section.py, edited, as the folder udp-copy
    under tmp_path."""
    d = tmp_path / "udp-copy"
    d.mkdir(exist_ok=True)
    with open(os.path.join(TOP, "udpreplay/udp/section.py")) as f:
        text = f.read()
    changed = edit(text)
    assert changed != text
    (d / "section.py").write_text(changed)
    return str(tmp_path)


def _one(reg, i, **change):
    return dict(reg, experiments=[dict(reg["experiments"][i], **change)])


def test_control_a_section_without_findings_is_named(registry, bundle, tmp_path):
    root = _udp_copy(tmp_path, lambda t: t.replace("\ndef findings(b, e):", "\ndef findings_gone(b, e):"))
    out = section_problems(_one(registry, 0, folder="udp-copy"), root, bundle)
    assert len(out) == 1 and re.match(r"udp: udp-copy/section.py fails: AttributeError: findings", out[0]), out


def test_control_a_verdict_headline_without_its_function_is_named(registry, bundle, tmp_path):
    lb = [i for i, e in enumerate(registry["experiments"]) if e["name"] == "lb"][0]
    d = tmp_path / "lb-copy"
    d.mkdir()
    with open(os.path.join(TOP, "scripts/lb/section.py")) as f:
        text = f.read()
    changed = text.replace("\ndef headline(b, e):", "\ndef headline_gone(b, e):")
    assert changed != text
    (d / "section.py").write_text(changed)
    out = section_problems(_one(registry, lb, folder="lb-copy"), str(tmp_path), bundle)
    assert out == ["lb: no verdict card"], out


def test_control_latency_rows_without_the_probe_s_row_is_named(registry, bundle, tmp_path):
    root = _udp_copy(tmp_path, lambda t: t.replace("def latency_rows(b, e):\n", "def latency_rows(b, e):\n    return []\n", 1))
    assert section_problems(_one(registry, 1, folder="udp-copy"), root, bundle) == ["udp-unshaped: a probe block but no latency row"]


def test_control_a_failing_section_is_named(registry, bundle, tmp_path):
    root = _udp_copy(tmp_path, lambda t: t.replace("def section(b, e):\n", "def section(b, e):\n    raise ValueError(\"broken on purpose\")\n", 1))
    assert section_problems(_one(registry, 0, folder="udp-copy"), root, bundle) == [
        "udp: udp-copy/section.py fails: ValueError: broken on purpose"]


def test_control_an_experiment_without_fixture_is_named_never_rendered(registry, bundle):
    assert section_problems(_one(registry, 1, name="toy"), TOP, bundle) == ["toy: no fixture: its section is never rendered"]

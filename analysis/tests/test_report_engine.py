"""The report's engine (rootbench.report) on the stored fixtures:
- the page and the Findings (page.py, findings.py) name no experiment of
  the registry (no name as a string, a field or in a function's name; a
  testbed.json field of the same name, its balancer "lb" read by val, tv
  or tb, is not the experiment): each experiment's part is its folder's
  section.py; control: a branch for one experiment, and a function named
  after one, are each named;
- the style of both pages is analysis/report.css, split by its "@page"
  lines (css_for, on a fixture text: a line goes to its page only, a
  "both" line to both, a comment to none) and inlined whole;
- the numbers are jq's text: fixed rounds half away from zero with
  exactly its decimals, shown scales, @html escapes as jq did;
- probe.py's readers of a probe block agree with scripts/lib/probe.jq,
  whose rules the sweeps' summary writers still run, on every stored
  probe block (control: a block of another schema is refused by both)."""

import json
import os
import re
import shutil
import subprocess

import pytest

from rootbench.report import lib, probe

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REG = os.path.join(TOP, "scripts/lib/experiments.json")


def named_experiments(reg, files):
    """The lines of each file (comments aside) that name an experiment of
    reg in code: as a string, a field or a part of a function's name."""
    with open(reg) as f:
        names = [e["name"] for e in json.load(f)["experiments"]]
    out = []
    for path in files:
        with open(path) as f:
            lines = f.read().split("\n")
        for n in names:
            u = n.replace("-", "_")
            pat = re.compile(r'"%s"|\.%s\b|\b([a-z0-9]+_)*%s(_[a-z0-9]+)*\(' % (re.escape(n), re.escape(n), re.escape(u)))
            for i, line in enumerate(lines, 1):
                code = re.sub(r"^\s*#.*$", "", line)
                # a testbed.json field (its balancer "lb") is not the experiment
                code = re.sub(r'"testbed\.json", \[[^]]*\]', "", code)
                code = re.sub(r"\btv\(src, [^)]*\)", "", code)
                code = re.sub(r"\btb\([^)]*\)", "", code)
                if pat.search(code):
                    out.append("%s: %s: %d: %s" % (os.path.basename(path), n, i, line.strip()))
    return out


ENGINE = [os.path.join(TOP, "scripts/rootbench/report", f) for f in ("page.py", "findings.py")]


def test_the_page_and_the_findings_name_no_experiment():
    assert named_experiments(REG, ENGINE) == []


def test_control_a_branch_for_one_experiment_is_named(tmp_path):
    page, findings = tmp_path / "page.py", tmp_path / "findings.py"
    text = open(ENGINE[0]).read()
    page.write_text(text.replace("def per_cpu_section(b, S):\n",
                                 "def per_cpu_section(b, S):\n    if b[\"exps\"][\"udp-unshaped\"][\"summary\"] is None:\n        return \"\"\n", 1))
    findings.write_text(open(ENGINE[1]).read() + "\n    out += lb_card(b)\n")
    out = named_experiments(REG, [str(page), str(findings)])
    assert len(out) == 2, out
    assert out[0].startswith("page.py: udp-unshaped: ") and out[1].startswith("findings.py: lb: ")


CSS_FIXTURE = "/* a comment\n over two lines */\n@page report\n  a{x:1}\n@page data\nb{y:2}\n@page both\nc{z:3} /* c */\n"


def test_the_report_s_style_is_its_page_s_lines_and_both():
    assert lib.css_for(CSS_FIXTURE, "report") == "a{x:1}c{z:3}"


def test_control_the_data_page_s_style_lacks_the_report_s_line():
    assert lib.css_for(CSS_FIXTURE, "data") == "b{y:2}c{z:3}"


def test_both_pages_inline_analysis_report_css(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(os.path.join(TOP, "analysis/testdata/results-sample"), str(run))
    subprocess.run([os.path.join(TOP, "analysis/report"), str(run)], check=True, capture_output=True)
    css = open(os.path.join(TOP, "analysis/report.css")).read()
    for page, name in (("report", "report.html"), ("data", "report-data.html")):
        got = re.search(r"<style>([^<]*)</style>", (run / name).read_text()).group(1)
        assert got == lib.css_for(css, page), name


@pytest.mark.parametrize("x,n,scale,want", [
    (2.5, 0, None, "3"), (-2.5, 0, None, "-3"), (0.125, 2, None, "0.13"), (1.005, 2, None, "1.00"), (-0.004, 2, None, "0.00"),
    (0.31, 1, 100, "31.0"), (25974, None, None, "25974"), (1e17, None, None, "1e+17"), (0.1 + 0.2, None, None, "0.30000000000000004"),
    (3.0, None, None, "3"), (448.6, 1, None, "448.6"), ("x", 2, None, "x"), (True, None, None, "true")])
def test_numbers_are_shown_as_jq_showed_them(x, n, scale, want):
    assert lib.shown(x, n, scale) == want


def test_text_is_escaped_as_jq_s_html():
    assert lib.esc("<a href='x'>\"&\"\n") == "&lt;a href=&" + "apos;x&" + "apos;&gt;&quot;&amp;&quot;&#10;"


def test_a_value_is_tagged_with_its_file_and_path_and_a_missing_one_as_not_measured():
    doc = {"a": {"b-c": [1.25]}}
    assert lib.val(doc, "x/summary.json", ["a", "b-c", 0], 1, None) == \
        '<span class="v" data-src="x/summary.json:.a[&quot;b-c&quot;][0]" data-round="1">1.3</span>'
    assert lib.val(doc, "x/summary.json", ["a", "z"]) == '<span class="nm" data-nm="x/summary.json:.a.z">not measured</span>'


def _probe_blocks():
    """Every stored probe block: the fixtures' summaries (and their configurations')."""
    out = []
    for d, _, files in os.walk(os.path.join(TOP, "analysis/testdata")):
        if "summary.json" in files:
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
            for p in [s.get("probe")] + [c.get("probe") for c in (s.get("series") or []) if isinstance(c, dict)]:
                if isinstance(p, dict):
                    out.append((os.path.relpath(d, TOP), p))
    return out


def _jq(expr, block):
    r = subprocess.run(["jq", "-c", "-L", os.path.join(TOP, "scripts/lib"), 'include "probe"; ' + expr],
                       input=json.dumps(block), capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else ("error", r.stderr)


def test_there_are_stored_probe_blocks():
    assert len(_probe_blocks()) >= 3


@pytest.mark.parametrize("where,block", _probe_blocks())
def test_probe_py_reads_a_block_as_probe_jq_does(where, block):
    assert probe.probe_share_max_at(block) == _jq("probe_share_max_at(.)", block)
    for x in ("udp", "tcp"):
        assert probe.probe_median_max_at(block, x) == _jq("probe_median_max_at(.; \"%s\")" % x, block)
    assert probe.probe_share_flagged(block, {"share_max": 0.01}) == _jq("probe_share_flagged(.; {share_max: 0.01})", block)
    for n in _jq("probe_threshold_names", block):
        assert probe.probe_threshold_label(n) == _jq("probe_threshold_label(\"%s\")" % n, block)
    assert probe.probe_schema() == _jq("probe_schema", block)


def test_control_a_block_of_another_schema_is_refused_by_both():
    block = dict(_probe_blocks()[0][1], schema="rootbench.probe-sweep/0")
    with pytest.raises(lib.JqError) as e:
        probe.probe_share_max_at(block)
    got = _jq("probe_share_max_at(.)", block)
    assert got[0] == "error" and str(e.value) in got[1]


# jq 1.7.1's own words for texts it refuses (jq -n '$t | try fromjson catch .',
# the text it parsed removed), and what it accepts that Python's json does not.
JQ_PARSE = [
    ('{"status": "ok", truncated\n', {"err": "Invalid literal at line 2, column 0"}),
    ('{"a":1} x', {"err": "Invalid numeric literal at EOF at line 1, column 9"}),
    ("1 2", {"err": "Unexpected extra JSON values"}),
    ("[1,]", {"err": "Expected another array element at line 1, column 4"}),
    ('{"a":1', {"err": "Unfinished JSON term at EOF at line 1, column 6"}),
    ('"abc', {"err": "Unfinished string at EOF at line 1, column 4"}),
    ("", {"err": "Expected JSON value"}),
    ("nan", {"ok": None}), ("+1", {"ok": 1}), ("0012", {"ok": 12}),
]


@pytest.mark.parametrize("text,want", JQ_PARSE)
def test_a_text_is_read_as_jq_s_fromjson_read_it(text, want):
    from rootbench.report import bundle
    got = bundle.parsed(text)
    if got.get("ok") != got.get("ok"):  # NaN: jq's null
        got = {"ok": None}
    assert got == want


def test_a_summary_that_is_not_json_says_so_in_jq_s_words():
    from rootbench.report import bundle
    assert bundle.summary_of('{"status": "ok", truncated\n') == {
        "summary": None, "summary_error": "parse error: Invalid literal at line 2, column 0"}

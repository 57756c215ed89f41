"""The report's first section, Findings: a few sentences a manager can
read, made from the same results as the rest of the page. Each sentence
appears only when its experiment ran (its folder's section.py findings),
and every number in it is a tagged value (data-src) that
analysis/report-check verifies. An experiment that did not run or failed
is named in the last sentence, never described from nothing. Tested
against the fixture results (analysis/tests/53-findings.test)."""

from rootbench.jqtext import join_text, to_text
from rootbench.report.lib import at, in_order, ok, val


def finding_missing(b, names):
    """What this run does not say: experiments absent, failed or interrupted."""
    out = []
    for k, what in names:
        e = (b.get("exps") or {}).get(k)
        if e is None or ok(e):
            continue
        s = e.get("summary")
        if s is None:
            st = "not run"
        else:
            st = val(s, e.get("file"), ["status"]) + (": " + val(s, e.get("file"), ["error"]) if at(s, ["status"]) == "skipped" else "")
        out.append(to_text(what) + " (" + st + ")")
    return ["Not measured in this run, so not summarised here: " + "; ".join(out) + "."] if out else []


def finding_item(f):
    """A finding as a list item: its short sentence, the rest one click
    away (a finding given as a string is shown whole)."""
    if isinstance(f, dict):
        return '<li><details class="finding"><summary>' + f["short"] + "</summary><p>" + join_text(f["more"], " ") + "</p></details></li>"
    return "<li>" + f + "</li>"


def findings_section(b, names, of):
    """The section. of(entry): an experiment's findings, taken in the
    registry's report_order.findings."""
    fs = [x for e in in_order(b["registry"], at(b, ["order", "findings"]) or []) for x in of(e)] + finding_missing(b, names)
    return ('<section id="findings"><h2>Findings</h2><ul class="findings">'
            + "".join(finding_item(x) for x in fs)
            + "</ul><p><small>Each sentence is read from the results below (hover a number for its file and path; click a sentence for how it was "
            + "found); the sections that follow give the evidence.</small></p></section>")

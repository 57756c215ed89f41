"""The toy's section of the report, through the section interface
(rootbench.report.sections)."""

from rootbench.jqtext import to_text
from rootbench.report.lib import alt, get, num, ok, status_badge, status_text, val


def section(b, e):
    x = b["exps"].get(e["name"])
    s = get(x, "summary")
    return ('<section id="%s"><h2>%s %s</h2>' % (to_text(e["name"]), to_text(alt(e.get("heading"), e.get("title"))), status_badge(x))
            + status_text(x, "the toy")
            + ("<p>The toy counted " + val(s, x["file"], ["counted"]) + " points.</p>" if num(get(s, "counted")) else "")
            + "</section>")


def findings(b, e):
    x = b["exps"].get(e["name"])
    return ["The toy counted " + val(x["summary"], x["file"], ["counted"]) + " points."] if ok(x) else []

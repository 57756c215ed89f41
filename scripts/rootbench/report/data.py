"""report-data.html, the page beside report.html that holds what the
report itself only links: every value of every summary (a field the report
does not know yet is still shown, and still checked), every CSV table of
the run, the testbed's and each zone variant's values. Same bundle, same
tagging and the same checker (analysis/report-check) as the report."""

from rootbench.report.lib import at, css_for, esc, fixture_banner, status_badge, tables, truthy, values_table


def exp_data(key, title, e):
    """One experiment's values and tables."""
    out = '<section id="%s"><h2>%s %s</h2>' % (esc(key), esc(title), status_badge(e))
    if e.get("summary") is None:
        out += '<p class="nm">No summary in this results directory.</p>'
    else:
        out += values_table(e["summary"], e["file"], ["testbed"])
        for k, v in (e.get("subs") or {}).items():
            if at(v, ["summary"]) is not None:
                out += "<h3>%s</h3>" % esc(k) + values_table(v["summary"], "%s/%s/summary.json" % (key, k), ["testbed"])
    if len(e.get("tables") or []) > 0:
        out += "<h3>Tables</h3>" + tables(e, [])
    return out + "</section>"


def data_page_html(b, css):
    out = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>rootbench report: every value</title><style>'
           + css_for(css, "data") + "</style></head><body>\n"
           + "<h1>rootbench report: every value and table</h1>\n"
           + fixture_banner(b)
           + '<p>Results directory <code class="meta">%s</code>. The report (<a href="report.html">report.html</a>) shows the figures and one table ' % esc(b["run"])
           + "per question; this page holds the rest: each summary's every value and each CSV table, all read from the files of the results directory and checked as "
           + "the report is.</p>\n"
           + '<section id="testbed"><h2>Testbed</h2>'
           + ('<p class="nm">No testbed.json in this results directory.</p>' if b.get("testbed") is None
              else values_table(b["testbed"], "testbed.json", []))
           + "".join('<h3>Zone variant <code class="meta">%s</code></h3>' % esc(k) + values_table(v, "zones/%s.json" % k, [])
                     for k, v in (b.get("zones") or {}).items())
           + "</section>\n")
    for r in b["registry"]:
        for k in [r["name"]] + ([r["name"] + "-v6"] if truthy(r.get("v6")) else []):
            e = b["exps"].get(k)
            if not truthy(at(e, ["dir_exists"])):
                continue
            out += exp_data(k, r["title"] + (" (IPv6)" if k != r["name"] else ""), e) + "\n"
    return out + "</body></html>"

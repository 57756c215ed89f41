"""The capacity-per-CPU method's validation: its section of the report,
through the section interface at the end of this file
(rootbench.report.sections; every value is tagged for
analysis/report-check)."""

from rootbench.jqtext import truthy
from rootbench.report.lib import get, head_row, val


def budget_validation(v):
    """Whether a figure per CPU scales to a whole CPU, as measured with
    these results (udpreplay/budget-validation/run: the unshaped UDP
    ceiling per CPU at several budgets), or that it was not measured."""
    s, f = get(v, "summary"), get(v, "file")
    out = "<p><b>Validation across budgets.</b> "
    if s is None:
        return (out + "Not measured with these results: <code>make udp-budget-validation RB_RUN=&lt;this directory&gt;</code> measures the unshaped UDP ceiling per CPU at "
                + "several budgets, repetitions interleaved; the figures above hold for a whole CPU only if those agree (docs/methodology.md).</p>")
    out += ("The unshaped UDP ceiling per CPU at the budgets below, %s repetitions each, interleaved " % val(s, f, ["settings", "reps"])
            + "(udpreplay/budget-validation/run%s): " % (", %s: from the runs measured" % val(s, f, ["status"]) if get(s, "status") != "ok" else "")
            + val(s, f, ["rule"]) + ". The spread of the medians is " + val(s, f, ["spread_pct"]) + " % against a goal of " + val(s, f, ["goal_pct"]) + " %"
            + ("." if truthy(get(s, "validated")) else "; the figures above are this budget's, not a whole CPU's.") + "</p>"
            + ("<p>Why: " + val(s, f, ["cost_note"]) + ".</p>" if get(s, "cost_note") is not None else "")
            + '<table class="cmp">' + head_row(["server CPU budget", "runs", "answers/s per CPU: min", "median", "max",
                                               "daemons' CPU per answered query at the ceiling (median, µs)"]))
    bb = get(s, "by_budget")
    for i in range(len(bb) if bb is not None else 0):
        out += ("<tr><td>%s</td>" % ("none (a whole CPU)" if get(bb, i, "budget") is None else val(s, f, ["by_budget", i, "budget"]))
                + "<td>%s</td>" % val(s, f, ["by_budget", i, "runs"])
                + "<td>%s</td><td>%s</td>" % (val(s, f, ["by_budget", i, "qps_per_cpu", "min"], 0, None), val(s, f, ["by_budget", i, "qps_per_cpu", "median"], 0, None))
                + "<td>%s</td>" % val(s, f, ["by_budget", i, "qps_per_cpu", "max"], 0, None)
                + "<td>%s</td></tr>" % val(s, f, ["by_budget", i, "daemon_us_per_query", "ceiling", "median"]))
    return out + "</table>"


# ------------------------------------------------------------ the section interface
# (rootbench.report.sections; e: the experiment's registry entry)

def section(b, e):
    """Its section goes in the capacity per CPU (registry: place
    "per-cpu"), before the figures whose scaling to a whole CPU it judges."""
    x = b["exps"].get(e["name"])
    return budget_validation(x if x is not None else {})


def findings(b, e):
    return []

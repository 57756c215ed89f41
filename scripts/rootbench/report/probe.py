"""The report's part of a sweep's probe (docs/latency.md): the row of the
table "Latency and availability (RSSAC047)", the line a sweep's section
shows, the Findings sentence. It reads what the sweep's summary stored
under probe (the block, and the rules' results probe.rssac047 and
probe.queue_knee, scripts/lib/probe.jq), every number tagged for
analysis/report-check.

The sweeps' summary writers still judge the probe in jq
(scripts/lib/probe.jq); the few of its functions the report reads a block
with (its schema, the thresholds' names, where the share and the median
were largest) are restated here under their jq names, and
analysis/tests/test_report_probe.py checks the two agree on the fixtures.
"""

from rootbench.jqtext import to_text
from rootbench.report.lib import JqError, alt, at, esc, gt, head_row, max_by, num, val

# ------------------------------------------------------------ probe.jq's, for reading a block

PROBE_SCHEMA = "rootbench.probe-sweep/1"


def probe_schema():
    return PROBE_SCHEMA


def probe_checked(p):
    """p when it is a probe block of this schema; else the error naming
    both schemas, so a reader older than the block stops."""
    if isinstance(p, dict) and p.get("schema") == PROBE_SCHEMA:
        pts = p.get("points")
        if not isinstance(pts, list) and pts is not None:
            raise JqError("a probe block's points must be a list (scripts/lib/probe.jq)")
        bad = sum(1 for x in pts or [] if not num(at(x, ["offered"])))
        if bad > 0:
            raise JqError("%d probe point(s) without a numeric offered rate (scripts/lib/probe.jq)" % bad)
        return p
    if isinstance(p, dict):
        what = to_text(p.get("schema") if p.get("schema") not in (None, False) else "none")
    elif p is None:
        what = "none: no probe block (PROBE=off?)"
    else:
        what = "none: not a probe block"
    raise JqError("a probe block of schema %s (scripts/lib/probe.jq) was expected; this one's schema is %s: read it with the rules of its version"
                  % (PROBE_SCHEMA, what))


_LABELS = {"udp_latency": "UDP median latency", "tcp_latency": "TCP median latency", "udp_availability": "UDP availability",
           "tcp_availability": "TCP availability", "correctness": "correctness"}


def probe_threshold_label(name):
    """A threshold's name in words, without its value (the report tags the value itself)."""
    if isinstance(name, str) and name in _LABELS:
        return _LABELS[name]
    raise JqError("no threshold %s (scripts/lib/probe.jq probe_threshold_names)" % to_text(name))


def probe_share_max_at(p):
    """The point where the probe's share of the load was largest: {index,
    offered, share}, or None."""
    p = probe_checked(p)
    rows = [{"index": i, "offered": x.get("offered"), "share": x.get("share")}
            for i, x in enumerate(p.get("points") or []) if num(x.get("share"))]
    return max_by(rows, lambda r: r["share"])


def probe_share_max(p):
    r = probe_share_max_at(p)
    return r["share"] if r is not None else None


def probe_share_flagged(p, thr):
    """The probe's share exceeded its limit thr["share_max"] at some point."""
    return gt(alt(probe_share_max(p), 0), at(thr, ["share_max"]))


def probe_median_max_at(p, x):
    """The point where protocol x's median was highest: {index, offered,
    p50_ms}, or None when it answered nothing."""
    p = probe_checked(p)
    rows = [{"index": i, "offered": pt.get("offered"), "p50_ms": pt[x]["p50_ms"]}
            for i, pt in enumerate(p.get("points") or []) if num(at(pt, [x, "p50_ms"]))]
    return max_by(rows, lambda r: r["p50_ms"])


# ------------------------------------------------------------ the report's

def rssac047_name():
    """Names, not measurements (class "meta": analysis/report-check reads
    no number in them): the advisory's, and the statistic's."""
    return '<span class="meta">RSSAC047</span>'


def p99_name():
    return '<span class="meta">p99</span>'


def probe_other_schema(s, f, path):
    """A probe block this report cannot read (another schema) in words, or
    "" when it can, or there is none."""
    p = at(s, path)
    if isinstance(p, dict) and p.get("schema") != PROBE_SCHEMA:
        return "a probe block of schema " + val(s, f, path + ["schema"]) + ", not " + esc(PROBE_SCHEMA) + ": not read by this report"
    return ""


def latency_row(name, s, f, unit):
    """A row of the table (a sweep's latency_rows): where the probe block lies, the offered load's unit."""
    return {"name": name, "s": s, "f": f, "path": ["probe"], "unit": unit}


def probe_rate(s, f, path, unit):
    """An offered rate at path, with its unit."""
    return val(s, f, path, 0, None) + " " + to_text(unit)


def probe_failed_text(s, f, pp):
    """The thresholds that failed first, in words."""
    lst = at(s, pp + ["rssac047", "first_fail", "failed"])
    if not isinstance(lst, list):
        return ""
    return ", ".join(esc(probe_threshold_label(x)) for x in lst)


def probe_knee_cell(r, x):
    """The queueing knee of protocol x, or why none."""
    q = r["path"] + ["queue_knee", x]
    if num(at(r["s"], q + ["offered"])):
        return probe_rate(r["s"], r["f"], q + ["offered"], r["unit"])
    if at(r["s"], q + ["measured"]) is True:
        return "none within the sweep"
    return val(r["s"], r["f"], q + ["offered"])


def probe_table_row(r):
    """One sweep's row."""
    s, f, p = r["s"], r["f"], r["path"]
    q = p + ["rssac047"]
    name = esc(r["name"])
    if not isinstance(at(s, p), dict):
        return '<tr><th>%s</th><td colspan="6">probe %s</td></tr>' % (name, val(s, f, p))
    other = probe_other_schema(s, f, p)
    if other != "":
        return '<tr><th>%s</th><td colspan="6">%s</td></tr>' % (name, other)
    sh = probe_share_max_at(at(s, p))
    out = "<tr><th>%s</th><td>" % name
    if at(s, q + ["held_to_highest"]) is True:
        out += "the highest load, " + probe_rate(s, f, q + ["highest"], r["unit"])
    else:
        out += probe_rate(s, f, q + ["held_up_to"], r["unit"])
    out += "</td><td>"
    if isinstance(at(s, q + ["first_fail"]), dict):
        out += probe_rate(s, f, q + ["first_fail", "offered"], r["unit"]) + ": " + probe_failed_text(s, f, p)
    elif at(s, q + ["held_to_highest"]) is True:
        out += "none"
    else:
        out += val(s, f, q + ["first_fail"])
    out += ("</td><td>UDP " + probe_knee_cell(r, "udp") + "<br>TCP " + probe_knee_cell(r, "tcp")
            + "</td><td>UDP " + val(s, f, p + ["idle", "udp", "p50_ms"], 2, None) + " ms<br>TCP "
            + val(s, f, p + ["idle", "tcp", "p50_ms"], 2, None) + " ms"
            + "</td><td>")
    if sh is None:
        out += val(s, f, p + ["points"])
    else:
        out += (val(s, f, p + ["points", sh["index"], "share"], 2, 100) + " % (at "
                + probe_rate(s, f, p + ["points", sh["index"], "offered"], r["unit"]) + ")")
        smax = at(s, q + ["thresholds", "probe_share_max"])
        if num(smax) and probe_share_flagged(at(s, p), {"share_max": smax}):
            out += (' <b class="err">over ' + val(s, f, q + ["thresholds", "probe_share_max"], 0, 100)
                    + " %: the probe added to the load</b>")
    return out + "</td></tr>"


def probe_thresholds_text(r):
    """RSSAC047's thresholds as the first measured row holds them."""
    t = r["path"] + ["rssac047", "thresholds"]
    s, f = r["s"], r["f"]
    return (rssac047_name() + "'s thresholds for one root server identifier (" + val(s, f, t + ["source"])
            + "): the median latency of the answered queries at most "
            + val(s, f, t + ["udp_latency_ms"]) + " ms over UDP and " + val(s, f, t + ["tcp_latency_ms"]) + " ms over TCP (TCP timed from the start of "
            + "the connection), availability (answered within " + val(s, f, t + ["timeout_ms"], 0, 0.001) + " s / sent) at least "
            + val(s, f, t + ["availability_min"], 0, 100) + " %, correctness " + val(s, f, t + ["correctness_min"], 0, 100) + " %")


def latency_table(rows):
    """The table "Latency and availability (RSSAC047)" of every sweep's
    rows, "" when no sweep has a row."""
    if len(rows) == 0:
        return ""
    m = next((r for r in rows if isinstance(at(r["s"], r["path"] + ["rssac047", "thresholds"]), dict)), None)
    rn = rssac047_name()
    return ('<section id="latency"><h2>Latency and availability (' + rn + ")</h2>"
            + "<p><b>What is measured.</b> During every point of a capacity sweep a probe of its own on the client network (the probe role) asks "
            + "<code>. SOA</code> over UDP and over TCP at a low fixed rate, as " + rn + "'s vantage points do, and records each answer's "
            + "latency, whether it came within the timeout and whether it was correct. It is one LAN hop from the instance, with no Internet path: what it sees is "
            + "the instance's own contribution to what a root server's clients see (docs/latency.md). "
            + ("" if m is None else probe_thresholds_text(m) + ". ")
            + "The queueing knee, rootbench's own mark and not " + rn + "'s, is the first load at which the probe's " + p99_name()
            + " latency exceeds "
            + ("a multiple of its idle one" if m is None else val(m["s"], m["f"], m["path"] + ["queue_knee", "factor"]) + " times its idle one")
            + ": queues fill there, usually well before " + rn + "'s line.</p>"
            + '<table class="cmp">' + head_row(["sweep", rn + " held up to (offered)", "first failure (offered: which threshold)",
                                                "queueing knee (" + p99_name() + " past its idle factor)", "idle median latency",
                                                "the probe's largest share of the load (its rate)"])
            + "".join(probe_table_row(r) for r in rows) + "</table></section>")


def probe_section_text(s, f, unit):
    """A sweep section's line on its probe."""
    rn = rssac047_name()
    if not isinstance(at(s, ["probe"]), dict):
        return "<p><b>Latency (" + rn + ").</b> Probe " + val(s, f, ["probe"]) + " in this sweep.</p>"
    other = probe_other_schema(s, f, ["probe"])
    if other != "":
        return "<p><b>Latency (" + rn + ").</b> " + other + ".</p>"
    return ("<p><b>Latency (" + rn + ").</b> " + val(s, f, ["probe", "rssac047", "words"]) + ". Queueing knee: "
            + val(s, f, ["probe", "queue_knee", "words"]) + ". The latency figure shows the probe's median and " + p99_name()
            + " against the offered load (every sweep: <a href=\"#latency\">Latency and availability</a>).</p>")


def _judged(s, bt):
    p = at(s, ["probe"])
    return isinstance(p, dict) and p.get("schema") == PROBE_SCHEMA and at(s, bt + ["measured"]) is True


def probe_short(s, f, x, unit):
    """What a client saw, as a clause of a Finding's short sentence (a
    leading "; "): up to which load the probe's latency kept RSSAC047's
    threshold; "" without a probe."""
    bt = ["probe", "rssac047", "by_threshold", "%s_latency" % to_text(x)]
    rn = rssac047_name()
    if not _judged(s, bt):
        return ""
    if at(s, bt + ["first_fail"]) is None:
        return "; a client's latency kept " + rn + " to the highest load, " + probe_rate(s, f, ["probe", "rssac047", "highest"], unit)
    if at(s, bt + ["held_up_to"]) is None:
        return "; a client's latency failed " + rn + " at every load"
    return "; a client's latency kept " + rn + " up to " + probe_rate(s, f, bt + ["held_up_to"], unit)


def probe_finding(s, f, x, unit):
    """The Findings sentences of a sweep's probe for protocol x (the
    sweep's own), after the sweep's own sentence (a leading space); ""
    without a probe."""
    x = to_text(x)
    bt = ["probe", "rssac047", "by_threshold", "%s_latency" % x]
    rn = rssac047_name()
    if not _judged(s, bt):
        return ""
    pr = s["probe"]
    mx = probe_median_max_at(pr, x)
    out = (" The instance keeps " + rn + "'s " + x.upper() + " latency (median at most "
           + val(s, f, ["probe", "rssac047", "thresholds", "%s_latency_ms" % x]) + " ms) ")
    if at(s, bt + ["first_fail"]) is None:
        out += "up to the highest load, " + probe_rate(s, f, ["probe", "rssac047", "highest"], unit)
    elif at(s, bt + ["held_up_to"]) is None:
        out += "at no load: it failed already at " + probe_rate(s, f, bt + ["first_fail"], unit)
    else:
        out += "up to " + probe_rate(s, f, bt + ["held_up_to"], unit)
    if mx is not None:
        ceiling = pr.get("ceiling")
        if num(ceiling) and gt(mx["offered"], ceiling):
            out += "; past the ceiling (" + probe_rate(s, f, ["probe", "ceiling"], unit) + ") the median reaches "
        else:
            out += "; its median reaches at most "
        out += (val(s, f, ["probe", "points", mx["index"], x, "p50_ms"], 2 if mx["p50_ms"] < 10 else 0, None) + " ms (at "
                + probe_rate(s, f, ["probe", "points", mx["index"], "offered"], unit) + ")")
    out += ". "
    if at(pr, ["rssac047", "held_to_highest"]) is True:
        out += "Every " + rn + " threshold held up to the highest load."
    elif isinstance(at(pr, ["rssac047", "first_fail"]), dict):
        out += ("The first " + rn + " threshold to fail: " + probe_failed_text(s, f, ["probe"]) + " at "
                + probe_rate(s, f, ["probe", "rssac047", "first_fail", "offered"], unit) + ".")
    return out


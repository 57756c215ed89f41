"""TCP capacity and the TCP limits: its section of the report and its
Findings sentences, through the section interface at the end of this file
(rootbench.report's sections). Every value is tagged for
analysis/report-check."""

from rootbench.jqtext import to_text, truthy
from rootbench.report import lib as L
from rootbench.report import probe as P

# The configurations of a sweep, in the order the report shows them.
CONFIGS = ["1p1s", "2p1s", "2p2s"]


def _g(x, *path):
    """jq's x.a.b[0]: null through null, an error through another type
    (a summary the page cannot read stops the page)."""
    return L.get(x, *path)


def _positive(x):
    """jq's (x // 0) > 0: a number above 0, or any string, array or object
    (jq orders those above every number)."""
    if x is None or isinstance(x, bool):
        return False
    return x > 0 if L.num(x) else True


def tcp_per_cpu(s, f):
    """The knee per CPU of the server under a CPU budget (rules' per_cpu),
    with what it rests on, or why there is none."""
    pc = ["per_cpu"]
    if L.num(_g(s, "per_cpu", "conn_per_cpu")):
        out = ("<p><b>Per CPU of the server.</b> " + L.val(s, f, pc + ["conn_per_cpu"], 0, None)
               + " connections/s per CPU: the handled rate, " + L.val(s, f, pc + ["handled_rate"], 0, None)
               + "/s at " + L.val(s, f, pc + ["at_rate"], 0, None) + "/s offered (the knee: " + L.val(s, f, pc + ["knee_rate"], 0, None)
               + "/s), over the server CPU's busy share while the load ran, " + L.val(s, f, pc + ["server_cpu_busy_pct"], 1, None)
               + " % (the daemon and its kernel work)")
        if L.num(_g(s, "per_cpu", "budget")):
            out += ("; the daemons were limited to " + L.val(s, f, pc + ["budget"]) + " CPU each and used "
                    + L.val(s, f, pc + ["daemon_cpu_pct"], 1, None)
                    + " % of a CPU; a whole CPU's figure is this projection, not a measurement")
        out += ". The generator's CPU was " + L.val(s, f, pc + ["client_cpu_busy_pct"], 1, None) + " % busy there"
        if _g(s, "per_cpu", "generator_headroom_ok") is False:
            out += ' (<b class="err">less than 30 % headroom: the rig was near its own limit</b>)'
        out += "."
        if L.num(_g(s, "per_cpu", "demand_per_cpu")):
            out += (" Cross-check (utilisation law, below the knee): " + L.val(s, f, pc + ["demand_us"], 1, None)
                    + " µs of server CPU per connection, " + L.val(s, f, pc + ["demand_per_cpu"], 0, None)
                    + " connections/s per CPU; measured / that: " + L.val(s, f, pc + ["demand_ratio"]) + ".")
        return out + "</p>"
    if L.num(_g(s, "per_cpu", "budget")):
        return ("<p><b>Per CPU of the server.</b> The daemons were limited to " + L.val(s, f, pc + ["budget"])
                + " CPU each; no per-CPU figure: " + L.val(s, f, pc + ["rule"]) + ".</p>")
    return ""


def tcp_verdict(s, f):
    """Where a configuration lost its first work, in words, with the counter
    that proves it; the Little's-law prediction beside the measured knee;
    the spread over repetitions."""
    v = _g(s, "verdict")
    if not isinstance(v, dict):
        return ""
    out = "<h4>Verdict: where the work was lost</h4><p>" + L.val(s, f, ["verdict", "summary"]) + ". "
    if truthy(v.get("evidence")):
        out += "Evidence: " + L.val(s, f, ["verdict", "evidence"]) + ". "
    if v.get("knee") is True:
        if v.get("server_capacity") is True and v.get("server_own") is False:
            out += "This knee is where the <b>server CPU</b> ran out, but that CPU also did the rig's work: not the server's own capacity."
        elif v.get("server_capacity") is True:
            out += "This knee is the <b>server's capacity</b> on this testbed."
        elif v.get("mechanism") == "queue":
            out += ("This knee is the server's, but <b>not</b> its CPU's capacity: "
                    + L.val(s, f, ["verdict", "layer"]) + " overflowed with the server CPU to spare.")
        else:
            out += ("This knee is <b>not</b> the server's capacity: it was caused by " + L.val(s, f, ["verdict", "caused_by"]) + ", layer "
                    + L.val(s, f, ["verdict", "layer"]) + ".")
    out += "</p>"
    out += L.rig_charge_text(s, f, ["rig_charge"])
    out += tcp_per_cpu(s, f)
    if isinstance(_g(s, "prediction", "predicted"), dict):
        pr = ["prediction"]
        out += ("<p>Predicted knee (Little's law, from what was measured below the knee): "
                + L.val(s, f, pr + ["predicted", "total"]) + " connections/s, by "
                + L.val(s, f, pr + ["predicted", "mechanism"]) + " ("
                + L.val(s, f, pr + ["predicted", "because"]) + "); measured: "
                + L.val(s, f, pr + ["measured"]) + "; measured / predicted "
                + L.val(s, f, pr + ["ratio"]) + ".</p>")
    n = _g(s, "repetitions", "fail_0_1pct", "n")
    if _positive(n if truthy(n) else 0):
        r = ["repetitions", "fail_0_1pct"]
        out += ("<p>The 0.1 % crossing over " + L.val(s, f, r + ["n"]) + " repetitions: min "
                + L.val(s, f, r + ["min"]) + ", median " + L.val(s, f, r + ["median"])
                + ", max " + L.val(s, f, r + ["max"]) + " connections/s (spread "
                + L.val(s, f, r + ["spread_pct"]) + " % of the median)")
        if truthy(_g(s, "repetitions", "fail_0_1pct", "flagged")):
            out += ' <b class="err">FLAGGED: the knee moves more than 5 % between repetitions; not averaged away</b>'
        out += ".</p>"
    return out


def figs_under(e, prefix):
    """The figures of e whose file starts with prefix, as full-width
    figures. The jq section meant to leave out the configurations' own
    figures here (a list of prefixes not to show), but its parameter $not
    hid jq's not, so every figure under prefix was shown: the pages keep
    showing them all until a change of the pages says otherwise."""
    figs = [g for g in e.get("figures") or [] if g["png"].startswith(prefix)]
    if not figs:
        return ""
    return '<div class="figs">' + "".join(L.figure(g) for g in figs) + "</div>"


def _sub_summary(subs, c):
    s = _g(subs, c, "summary")
    return s if truthy(s) else None


def tcp_table(b, key, subs):
    """The section's question, one row per configuration: where connections
    began to fail, the most answered, who set the knee, and the paper's."""
    p = b.get("paper")
    out = ('<table class="cmp"><caption>How many TCP connections per second, and what set the limit</caption>'
           "<tr><th>configuration</th><th>0.1 % of connections fail at, conn/s</th><th>highest answered, conn/s</th><th>what set the limit</th>"
           "<th>paper " + L.val(p, "paper.json", ["tcp", "section"]) + ": 0.1 % fail</th><th>paper: highest</th></tr>")
    for c in CONFIGS:
        s = _sub_summary(subs, c)
        f = "%s/%s/summary.json" % (to_text(key), c)
        if s is None:
            continue
        out += ("<tr><th>%s</th><td>%s</td><td>%s</td>" % (L.esc(c), L.val(s, f, ["fail_0_1pct_qps"], 0, None), L.val(s, f, ["max_qps"], 0, None))
                + "<td>%s</td>" % L.val(s, f, ["verdict", "summary"])
                + "<td>%s</td>" % (L.val(p, "paper.json", ["tcp", c, "fail_0_1pct_qps"]) if truthy(_g(p, "tcp", c, "fail_0_1pct_qps")) else "")
                + "<td>%s</td></tr>" % (L.val(p, "paper.json", ["tcp", c, "max_qps"]) if truthy(_g(p, "tcp", c, "max_qps")) else ""))
    return out + "</table>"


def _tcp_config(b, key, e, subs, c):
    """One configuration's part of the TCP section."""
    p = b.get("paper")
    s = _sub_summary(subs, c)
    f = "%s/%s/summary.json" % (to_text(key), c)
    out = "<h3>%s</h3>" % L.esc(c)
    if s is None:
        return out + '<p class="err">No results for configuration %s.</p>' % L.esc(c)
    out += L.status_text({"summary": s, "summary_error": None, "file": f, "dir_exists": True, "target": "tcp"}, "this configuration")
    out += figs_under(e, "%s/%s/%s." % (key, c, c))
    out += tcp_verdict(s, f)
    out += figs_under(e, "%s/%s/latency." % (key, c))
    out += P.probe_section_text(s, f, "connections/s")
    # A crossing that is absent was not reached: say below which rate, and
    # whether the generator, not the server, ended the sweep.
    for k, name in [["fail_0_1pct", "0.1%"], ["fail_1pct", "1%"]]:
        if truthy(_g(s, k, "not_reached")) and _g(s, k, "below") is not None:
            out += "<p>No valid rate up to %s q/s made %s of the connections fail" % (L.val(s, f, [k, "below"]), name)
            glp = _g(s, "generator_limited_points")
            if _positive(glp if truthy(glp) else 0):
                out += ("; above it the generator could not keep its schedule (generator-limited points: %s), so this "
                        "run has no server result there.</p>" % L.val(s, f, ["generator_limited_points"]))
            else:
                out += ".</p>"
    out += "<details><summary>%s beside the paper, and where the work was lost</summary>" % L.esc(c)
    # A configuration the rig limited is no server figure: beside the
    # paper's server it gets no ratio (the paper's values stay in the
    # section's table above).
    cb = _g(s, "verdict", "caused_by")
    same = (cb if truthy(cb) else None) == "server"

    def prow(what, k):
        return L.cmp_row(what + ("" if same else " (the rig limited this configuration: no ratio to the paper's server)"),
                         s, f, [k], 0, None, p, ["tcp", c, k] if same and truthy(_g(p, "tcp", c, k)) else None, None)

    out += L.cmp_head(L.val(p, "paper.json", ["tcp", c, "section"]))
    out += prow("rate where 0.1% of connections fail, q/s", "fail_0_1pct_qps")
    out += prow("rate where 1% of connections fail, q/s", "fail_1pct_qps")
    out += prow("highest answered rate, q/s", "max_qps")
    out += prow("collapse, q/s", "collapse_qps")
    if c == "2p2s":
        out += ("<tr><th>highest answered rate vs 1p1s</th><td>"
                + L.calc("ratio", L.ref(s, f, ["max_qps"]), L.ref(_g(subs, "1p1s", "summary"), "%s/1p1s/summary.json" % to_text(key), ["max_qps"]),
                         2, None)
                + "</td><td>%s</td><td></td><td></td></tr>" % L.val(p, "paper.json", ["tcp", "2p2s", "factor_vs_1p1s"]))
    out += "</table>"
    out += figs_under(e, "%s/%s/" % (key, c))
    return out + "</details>"


def tcp_section(b, key, title):
    e = b["exps"][key]
    p = b.get("paper")
    subs = e.get("subs") if truthy(e.get("subs")) else {}
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), L.esc(title), L.status_badge(e))
    out += L.status_text(e, "the TCP experiment")
    if e.get("summary") is not None:
        out += L.generator_text(e["summary"], e.get("file"), ["settings", "generator", "name"], ["settings", "generator", "version"])
    out += figs_under(e, "%s/" % key)
    if len(subs) > 0:
        out += tcp_table(b, key, subs)
    out += ("<details><summary>What is measured</summary><p>An open-loop generator opens TCP connections at a fixed rate, each sending one "
            "query and waiting for the answer, with a timeout; a connection not completed in time fails. For each rate the fraction of failed "
            "connections is recorded. Three configurations separate the causes: one player and one server (1p1s), two players and one server "
            "(2p1s: if the curve does not move, the players are not the limit), two players and two servers in pairs (2p2s: if the total "
            "doubles, the network is not the limit). A point where the generator could not keep its schedule is marked invalid and is not a "
            "server result. On this testbed every layer's counters are sampled at every point (generator, players, switch, router, link, "
            "server kernel, server daemon), and each configuration gets a verdict: the layer that lost the first work, the counter that shows "
            "it, and whether the server or the rig caused it; a knee the rig caused is never shown as the server's capacity. The paper ("
            + L.val(p, "paper.json", ["tcp", "section"]) + ") reports the rates where one per mille and one percent of connections fail and the "
            "rate where the server collapses.</p></details>")
    out += "".join(_tcp_config(b, key, e, subs, c) for c in CONFIGS)
    s = e.get("summary")
    if truthy(s):
        lab = _g(b, "labels", s.get("experiment")) if isinstance(s.get("experiment"), str) else None
        out += L.settings_table(s, e.get("file"), lab if truthy(lab) else {})
    out += L.more_link("tcp", e)
    return out + "</section>"


def tcp_limits_section(b, key, heading):
    """tcp-limits (make tcp-limits): how tcp-count and the backlog move the
    knee."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    if s is None:
        return ""
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), L.status_badge(e))
    out += L.figures(e)
    out += ("<p><b>What is measured.</b> The 1p1s TCP sweep once per combination of NSD's tcp-count and the servers' listen backlog. Each "
            "combination's knee is set beside the knee Little's law predicts from what was measured below it (the longest server stall against "
            "the backlog, the time a connection holds a tcp-count slot, the server CPU per connection); the figure puts predicted against "
            "measured.</p>")
    out += L.status_text(e, "the tcp-limits experiment")
    out += '<table class="csv">' + L.head_row(["tcp-count", "backlog", "knee (0.1 % failed)", "predicted", "predicted by", "verdict"])
    combos = s.get("combinations")
    for i in range(len(combos if truthy(combos) else [])):
        c = ["combinations", i]
        out += ("<tr><td>%s</td><td>%s</td><td>" % (L.val(s, f, c + ["tcp_count"]), L.val(s, f, c + ["backlog"]))
                + "%s</td><td>%s</td><td>" % (L.val(s, f, c + ["knee"]), L.val(s, f, c + ["predicted"]))
                + "%s</td><td>%s</td></tr>" % (L.val(s, f, c + ["predicted_by"]), L.val(s, f, c + ["verdict"])))
    out += "</table>"
    out += L.more_link(key, e)
    return out + "</section>"


def _kxdpgun(e):
    name = _g(e, "summary", "settings", "generator", "name")
    return (name if truthy(name) else None) == "kxdpgun"


def finding_tcp(b, key):
    """TCP: per configuration, the most answered and the verdict in words;
    a configuration with no valid point says only its verdict."""
    e = b["exps"][key]
    subs = e.get("subs") if truthy(e.get("subs")) else {}
    if e.get("summary") is None:
        return []
    out = []
    for c in CONFIGS:
        s = _sub_summary(subs, c)
        f = "%s/%s/summary.json" % (to_text(key), c)
        vs = _g(s, "verdict", "summary")
        if not (s is not None and (L.num(_g(s, "max_qps")) or truthy(vs))):
            continue
        t = "Over TCP" + (" (the load from kxdpgun)" if _kxdpgun(e) else "")
        t += " with " + (L.val(s, f, ["title"]) if truthy(s.get("title")) else L.esc(c))
        if L.num(s.get("max_qps")):
            t += ", at most " + L.val(s, f, ["max_qps"], 0, None) + " connections/s were answered"
        else:
            t += ", no rate was measured validly"
        if truthy(vs):
            t += "; " + L.val(s, f, ["verdict", "summary"])
        if _g(s, "verdict", "server_capacity") is True and _g(s, "verdict", "server_own") is False:
            t += " (the server CPU's limit, with the rig's work on it)."
        elif _g(s, "verdict", "server_capacity") is True:
            t += " (the servers' capacity on this testbed)."
        else:
            t += "."
        if L.num(_g(s, "per_cpu", "conn_per_cpu")):
            t += (" Per CPU of the server that is " + L.val(s, f, ["per_cpu", "conn_per_cpu"], 0, None)
                  + " connections/s (the knee over the server CPU's " + L.val(s, f, ["per_cpu", "server_cpu_busy_pct"], 1, None) + " % busy")
            if L.num(_g(s, "per_cpu", "budget")):
                t += (", the daemons limited to " + L.val(s, f, ["per_cpu", "budget"])
                      + " CPU each; a whole CPU's figure is this projection, not a measurement).")
            else:
                t += ")."
        t += P.probe_finding(s, f, "tcp", "connections/s")
        out.append(t)
    return out


# ------------------------------------------------------------ the section interface
# (e: the experiment's registry entry: a TCP sweep, or with variant
# "limits" the sweeps against tcp-count and the backlog)

def _title(e):
    h = e.get("heading")
    return h if truthy(h) else e.get("title")


def section(b, e):
    if e.get("variant") == "limits":
        return tcp_limits_section(b, e["name"], _title(e))
    return tcp_section(b, e["name"], _title(e))


def tcp_short(b, key):
    """The Finding's short sentence: the most answered per configuration,
    who set a knee, what a client saw (the first configuration's probe)."""
    e = b["exps"][key]
    subs = e.get("subs") if truthy(e.get("subs")) else {}
    rows = []
    for c in CONFIGS:
        s = _sub_summary(subs, c)
        f = "%s/%s/summary.json" % (to_text(key), c)
        if s is None or not L.num(s.get("max_qps")):
            continue
        v = _g(s, "verdict")
        cb = _g(v, "caused_by")
        t = L.val(s, f, ["max_qps"], 0, None) + " (" + L.esc(c)
        if _g(v, "knee") is True and truthy(cb):
            t += ", its knee set by the " + L.val(s, f, ["verdict", "caused_by"])
        elif _g(v, "knee") is False:
            t += ", no knee: a bound"
        rows.append({"c": c, "s": s, "f": f, "t": t + ")"})
    gen = " (kxdpgun)" if _kxdpgun(e) else ""
    if not rows:
        return "Over TCP" + gen + ": no rate was measured validly."
    return ("Over TCP" + gen + ": at most " + ", ".join(r["t"] for r in rows) + " connections/s answered"
            + P.probe_short(rows[0]["s"], rows[0]["f"], "tcp", "connections/s") + ".")


def findings(b, e):
    if e.get("variant") == "limits":
        return []
    sentences = finding_tcp(b, e["name"])
    return [L.finding(tcp_short(b, e["name"]), sentences)] if sentences else []


def family_rows(b, e):
    """The status, then each configuration's figures as the top summary
    holds them (configs.<config>) over IPv4 and IPv6."""
    e4, e6 = L.fam_pair(b, e)
    out = L.fam_row("status", e4, e6, ["status"], None, None)
    c4, c6 = _g(e4, "summary", "configs"), _g(e6, "summary", "configs")
    c4 = c4 if truthy(c4) else {}
    c6 = c6 if truthy(c6) else {}
    if isinstance(c4, dict) and isinstance(c6, dict):
        for c in sorted(c4):
            if c not in c6:
                continue
            out += (L.fam_row("%s: 0.1 %% failed at, conn/s" % c, e4, e6, ["configs", c, "fail_0_1pct_qps"], 0, None)
                    + L.fam_row("%s: 1 %% failed at, conn/s" % c, e4, e6, ["configs", c, "fail_1pct_qps"], 0, None)
                    + L.fam_row("%s: most handled, conn/s" % c, e4, e6, ["configs", c, "max_qps"], 0, None)
                    + L.fam_row("%s: verdict" % c, e4, e6, ["configs", c, "verdict", "summary"], None, None))
    return out


def per_cpu_rows(b, e):
    """A row per configuration whose summary holds a figure per CPU (or why
    none), the generator named when it is kxdpgun."""
    if e.get("variant") == "limits":
        return []
    x = b["exps"][e["name"]]
    what = "TCP (kxdpgun)" if _kxdpgun(x) else "TCP"
    rows = []
    for c in CONFIGS:
        sub = _g(x, "subs", c)
        if not truthy(sub) or _g(sub, "summary", "per_cpu") is None:
            continue
        rows.append({"name": "%s, %s" % (what, c), "s": sub.get("summary"), "f": "%s/%s/summary.json" % (to_text(e["name"]), c),
                     "path": ["per_cpu"], "fig": "conn_per_cpu", "unit": "connections/s"})
    return rows


def latency_rows(b, e):
    """A row per configuration of "Latency and availability (RSSAC047)"."""
    if e.get("variant") == "limits":
        return []
    x = b["exps"][e["name"]]
    if x.get("summary") is None:
        return []
    short = e.get("short")
    name = to_text(short if truthy(short) else e["name"])
    rows = []
    for c in CONFIGS:
        s = _sub_summary(x.get("subs"), c)
        if s is not None:
            rows.append(P.latency_row("%s, %s" % (name, c), s, "%s/%s/summary.json" % (to_text(e["name"]), c), "connections/s"))
    return rows

"""The servers compared (make compare-servers): its section of the report
and its Findings sentences through the section interface at the end of
this file (rootbench.report.sections; every value is tagged for
analysis/report-check). Each value comes from compare/summary.json, which
copies it from that server's own summary."""

from rootbench.jqtext import number_text, to_text, truthy
from rootbench.report.lib import (alt, esc, finding, get, getpath, gt, head_row, JqError, more_link, nm, num, status_badge,
                                  status_text, val)


def _items(x):
    """jq's to_entries[] as (key, value): an object's keys, an array's indices."""
    if isinstance(x, dict):
        return list(x.items())
    if isinstance(x, list):
        return list(enumerate(x))
    raise JqError("%s has no keys" % to_text(x))


def _iter(x):
    """jq's .[]: an error on a value that is no array or object."""
    if isinstance(x, dict):
        return list(x.values())
    if isinstance(x, list):
        return x
    raise JqError("Cannot iterate over %s" % to_text(x))


def _n_pos(x):
    return gt(alt(get(x, "n"), 0), 0)


def spread_words(s, f, path, round_):
    """A spread (median, range, n) held at path of s in words, flagged when
    it moved; None when it holds no value."""
    v = getpath(s, path)
    if alt(get(v, "n"), 0) == 0:
        return None
    return ("%s <small>(%s&ndash;" % (val(s, f, path + ["median"], round_, None), val(s, f, path + ["min"], round_, None))
            + "%s, n = %s)</small>" % (val(s, f, path + ["max"], round_, None), val(s, f, path + ["n"]))
            + (" <b>moved &gt;5 %</b>" if truthy(get(v, "flagged")) else ""))


def row_name(s, f, i):
    """A row's server name and, when recorded, its release."""
    return val(s, f, ["servers", i, "name"]) + (" " + val(s, f, ["servers", i, "release_name"])
                                               if get(s, "servers", i, "release_name") is not None else "")


def row_dirs(row):
    """A row's repetition folders (a summary of rootbench.compare/1 has
    none: servers/<kind>/r<N>)."""
    d = get(row, "dirs")
    if truthy(d):
        return d
    out, r = [], 1
    while r < row["repetitions"] + 1:
        out.append("servers/%s/r%s" % (to_text(row.get("server")), number_text(r)))
        r += 1
    return out


def spread_cell(s, f, path, round_):
    """A spread in words, or not measured."""
    return alt(spread_words(s, f, path, round_), nm())


def _bound(w):
    return nm() if w is None else "&ge; " + w + " (a bound)"


def releases_section(s, f):
    """Per kind, each release beside the first, figure by figure: the
    medians with their ranges, the ratio with the range of ratios the two
    spreads allow, and the words of rules.jq's change."""
    changes = get(s, "changes")
    if alt(changes, []) == []:
        return ""
    out = ("<h3>Releases side by side</h3><p>Per server, each release beside " + val(s, f, ["releases", 0]) + ": the median over the repetitions with its "
           + "range, and the ratio of the medians with the lowest and highest ratio the two ranges allow. Where the ranges overlap the change is "
           + "<b>within the spread</b>: this run cannot tell the releases apart there. A sweep the rig ended first has a bound, not a knee, and no ratio.</p>")
    for c, ch in _items(changes):
        servers = _items(s["servers"])
        bi = next((k for k, v in servers if get(v, "server") == get(ch, "server") and get(v, "release_name") == get(ch, "base")), None)
        ri = next((k for k, v in servers if get(v, "server") == get(ch, "server") and get(v, "release_name") == get(ch, "release")), None)
        out += ('<h4>%s and %s</h4><table class="cmp">' % (row_name(s, f, bi), row_name(s, f, ri))
                + head_row(["figure", val(s, f, ["changes", c, "base"]), val(s, f, ["changes", c, "release"]), "ratio", "ratio's range", "change"]))
        for j, g in _items(ch["figures"]):
            gp = g["path"]

            def cell(i):
                if gp[0:2] == ["dot", "full"] or gp[0:2] == ["dot", "resume"] or (gp[0] if gp else None) == "tcp_direct":
                    w = spread_words(s, f, ["servers", i] + gp, 0)
                    return w if truthy(w) else _bound(spread_words(s, f, ["servers", i] + gp[0:-1] + ["bound"], 0))
                return spread_cell(s, f, ["servers", i] + gp, 1)
            fp = ["changes", c, "figures", j]
            out += ("<tr><th>%s (%s)</th>" % (val(s, f, fp + ["label"]), val(s, f, fp + ["unit"]))
                    + "<td>%s</td><td>%s</td>" % (cell(bi), cell(ri))
                    + "<td>%s</td>" % val(s, f, fp + ["ratio"], 2, None)
                    + "<td>%s</td>" % (nm() if get(g, "ratio_low") is None
                                       else val(s, f, fp + ["ratio_low"], 2, None) + "&ndash;" + val(s, f, fp + ["ratio_high"], 2, None))
                    + "<td>%s</td></tr>" % val(s, f, fp + ["words"]))
        out += "</table>"
    return out


def _hs_cells(s, f, i, d, base, kind):
    """The full and the resumed handshakes/s (the knee, or a bound) with their verdicts."""
    out = ""
    for k in ["full", "resume"]:
        w = spread_words(s, f, ["servers", i] + base + [k, "knee_0_1pct"], 0)
        out += ("<td>" + (w if truthy(w) else _bound(spread_words(s, f, ["servers", i] + base + [k, "bound"], 0)))
                + "</td><td>" + "; ".join(val(s, f, ["servers", i] + base + [k, "verdicts", key])
                                          for key, _ in _items(get(d, k, "verdicts"))) + "</td>")
    return out


def dot_rows(s, f):
    """DoT per server and release: handshakes/s full and resumed (the knee,
    or a bound where the rig ended the sweep first) with the verdicts, and
    bytes per query; "not available" with the reason where the release
    serves no DoT."""
    if all(get(x, "dot") is None for x in _iter(s.get("servers"))):
        return ""
    out = ("<h3>DNS over TLS</h3><p>The DoT experiment (docs/dot.md) in each repetition: TLS handshakes/s where 0.1 % of connections failed, a full "
           + "handshake per connection and a resumed one, configuration 1p1s; where the rig ended the sweep first, the most the server handled "
           + '(a bound, not its capacity). Bytes on the wire per query, both directions, one query a connection.</p><table class="cmp">'
           + head_row(["server", "full handshakes/s", "verdicts", "resumed handshakes/s", "verdicts", "bytes per query: UDP", "TCP", "DoT full", "DoT resumed"]))
    for i, row in _items(s["servers"]):
        d = get(row, "dot")
        if d is None:
            continue
        out += "<tr><th>%s</th>" % row_name(s, f, i)
        if get(d, "available") is False:
            out += '<td colspan="8">not available: %s</td></tr>' % val(s, f, ["servers", i, "dot", "reason"])
        else:
            out += (_hs_cells(s, f, i, d, ["dot"], "dot")
                    + "".join("<td>%s</td>" % spread_cell(s, f, ["servers", i, "dot", "bytes_per_query", k], 1)
                              for k in ["udp", "tcp_1", "tls_full_1", "tls_resume_1"])
                    + "</tr>")
    return out + "</table>"


def doq_rows(s, f):
    """DNS over QUIC per server and release that ran the DoT step's DoQ
    sweeps (Knot 3.4): handshakes/s full and resumed with 0-RTT (the knee,
    or a bound), the verdicts, and bytes per query; the others named with
    the step's reason."""
    if all(get(x, "dot", "doq") is None for x in _iter(s.get("servers"))):
        return ""
    out = ("<h3>DNS over QUIC</h3><p>The same step's DoQ sweeps (docs/dot.md, kxdpgun, one QUIC connection and one query each): handshakes/s "
           + "where 0.1 % of connections failed, a full handshake and a resumed one with 0-RTT, configuration 1p1s; where the rig ended the sweep "
           + 'first, the most the server handled (a bound, not its capacity). Bytes on the wire per query, both directions.</p><table class="cmp">'
           + head_row(["server", "full handshakes/s", "verdicts", "resumed handshakes/s", "verdicts", "bytes per query: DoQ full", "DoQ resumed",
                       "DoQ, connections kept"]))
    for i, row in _items(s["servers"]):
        d = get(row, "dot")
        if d is None or get(d, "available") is False:
            continue
        out += "<tr><th>%s</th>" % row_name(s, f, i)
        if get(d, "doq") is None:
            out += ('<td colspan="7">not measured%s</td></tr>'
                    % (": " + val(s, f, ["servers", i, "dot", "doq_skipped"]) if truthy(get(d, "doq_skipped")) else ""))
        else:
            out += (_hs_cells(s, f, i, d["doq"], ["dot", "doq"], "doq")
                    + "".join("<td>%s</td>" % spread_cell(s, f, ["servers", i, "dot", "bytes_per_query", k], 1)
                              for k in ["quic_full_1", "quic_resume_1", "quic_reuse"])
                    + "</tr>")
    return out + "</table>"


def _statuses(s, f, i, row, k):
    return "/".join(val(s, f, ["servers", i, k, "statuses", key]) for key, _ in _items(get(row, k, "statuses")))


def compare_section(b, key, heading):
    e = b["exps"].get(key)
    s, f = get(e, "summary"), get(e, "file")
    if not truthy(get(e, "dir_exists")):
        return ""
    out = ('<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), status_badge(e))
           + "<p><b>What is measured.</b> The same experiments against each server software, and each release of it, in turn, on the same testbed, zones "
           + "and traces: the UDP ceiling on an unshaped link, bytes per query on the unsigned and the paper's signed zone (from the switch's SNMP "
           + "counters), the TCP sweep 1p1s with tcpbench and with kxdpgun, each with the verdict on its knee, and DNS over TLS where the release "
           + "serves it (and DNS over QUIC where it serves that); the servers take turns, repetition by repetition; each row's release is the one "
           + "its run's testbed recorded. A knee the verdict "
           + "does not attribute to the server is the rig's, not the server's capacity. The servers' settings side by side, and what each adds to an "
           + "answer: docs/servers.md. Each server's full report: "
           + " · ".join("%s " % row_name(s, f, i) + " ".join('<a href="%s/report.html">r%d</a>' % (esc(d), n + 1) for n, (_, d) in enumerate(_items(row_dirs(row))))
                        for i, row in _items(alt(get(s, "servers"), [])))
           + ".</p>"
           + status_text(e, "the comparison of servers"))
    if s is not None:
        out += ("<p>Each figure is the median over the repetitions, with the lowest and the highest beside it; a figure that moved more than 5 % from its median is "
                + "marked <b>moved &gt;5 %</b>, not averaged away.</p>"
                + '<table class="cmp">' + head_row(["server", "release", "version", "listen backlog", "minimal responses", "repetitions",
                                                   "UDP ceiling unshaped (answers/s)",
                                                   "UDP ceiling's range, sent q/s (lowest held, highest first failure)", "TCP knee, 0.1 % failed (conn/s)",
                                                   "bytes per query out, unsigned", "signed",
                                                   "growth", "server CPU budget", "UDP answers/s per CPU (projection)", "TCP conn/s per CPU (projection)"]))
        for i, row in _items(s["servers"]):
            def fig(path, round_):
                return alt(spread_words(s, f, ["servers", i] + path, round_), nm())
            sv = ["servers", i]
            out += ("<tr><th>%s</th><td>%s</td>" % (val(s, f, sv + ["name"]), val(s, f, sv + ["release_name"]))
                    + "<td>%s</td>" % val(s, f, sv + ["version"])
                    + "<td>%s</td><td>%s</td>" % (val(s, f, sv + ["listen_backlog"]), val(s, f, sv + ["minimal_responses"]))
                    + "<td>%s</td>" % val(s, f, sv + ["repetitions"])
                    + "<td>%s</td>" % fig(["udp", "ceiling_qps"], None)
                    + "<td>%s</td>" % (val(s, f, sv + ["udp", "ceiling_low_qps", "min"], 0, None) + "&ndash;"
                                       + val(s, f, sv + ["udp", "ceiling_high_qps", "max"], 0, None)
                                       if _n_pos(get(row, "udp", "ceiling_low_qps")) and _n_pos(get(row, "udp", "ceiling_high_qps")) else nm())
                    + "<td>%s</td>" % fig(["tcp", "knee_0_1pct"], None)
                    + "<td>%s</td>" % fig(["sizes", "bytes_per_query_out_unsigned"], None)
                    + "<td>%s</td>" % fig(["sizes", "bytes_per_query_out_signed"], None)
                    + "<td>%s</td>" % fig(["sizes", "growth_vs_unsigned"], 3)
                    + "<td>%s</td>" % val(s, f, sv + ["cpu_budget"])
                    + "<td>%s</td>" % fig(["udp", "qps_per_cpu"], None)
                    + "<td>%s</td></tr>" % fig(["tcp", "conn_per_cpu"], None))
        out += ("</table>"
                + releases_section(s, f)
                + dot_rows(s, f) + doq_rows(s, f)
                + "<h3>TCP verdicts</h3><p>Where each server's TCP sweep lost its first work, per repetition. Only a knee the verdict gives to the server is the "
                + "server's capacity; a knee of the rig (the generator, a stall from outside, the players) says what this machine could measure, not what the "
                + "server can do.</p><ul>")
        for i, row in _items(s["servers"]):
            for j, _ in _items(get(row, "tcp", "verdicts")):
                out += ("<li>%s, repetition %s: %s (server's capacity: " % (row_name(s, f, i), number_text(j + 1), val(s, f, ["servers", i, "tcp", "verdicts", j]))
                        + "%s; the server's own work alone: " % val(s, f, ["servers", i, "tcp", "server_capacity", j])
                        + "%s)</li>" % val(s, f, ["servers", i, "tcp", "server_own", j]))
        out += "</ul>"
        if any(get(x, "tcp_direct") is not None for x in _iter(s["servers"])):
            out += ("<h3>TCP with kxdpgun: the server's own capacity, or a bound</h3><p>The TCP sweep 1p1s again with kxdpgun as the generator (a third of "
                    + "tcpbench's CPU per connection) and the rig's forwarding off the server CPU where the profile allows: the knee where 0.1 % of connections "
                    + "failed, or, where the rig gave out first, the most the server was seen to handle (a bound, not its capacity).</p><ul>")
            for i, row in _items(s["servers"]):
                if get(row, "tcp_direct") is None:
                    continue
                k = spread_words(s, f, ["servers", i, "tcp_direct", "knee_0_1pct"], 0)
                bd = spread_words(s, f, ["servers", i, "tcp_direct", "bound"], 0)
                if k is not None:
                    w = "knee " + k + " connections/s" + ("; in other repetitions at least " + bd + " connections/s (a bound)" if bd is not None else "")
                elif bd is not None:
                    w = "at least " + bd + " connections/s (a bound, not the capacity)"
                else:
                    w = nm()
                out += ("<li>%s: " % row_name(s, f, i) + w + "; "
                        + "; ".join(val(s, f, ["servers", i, "tcp_direct", "verdicts", key]) for key, _ in _items(get(row, "tcp_direct", "verdicts")))
                        + "</li>")
            out += "</ul>"
        parts = []
        for i, row in _items(s["servers"]):
            p = ("%s: UDP " % row_name(s, f, i) + _statuses(s, f, i, row, "udp") + ", sizes " + _statuses(s, f, i, row, "sizes")
                 + ", TCP " + _statuses(s, f, i, row, "tcp"))
            if get(row, "tcp_direct") is not None:
                p += ", TCP with kxdpgun " + _statuses(s, f, i, row, "tcp_direct")
            if get(row, "dot") is not None:
                p += ", DoT " + _statuses(s, f, i, row, "dot")
            parts.append(p)
        out += ("<p>Status of each server's experiments, per repetition: " + "; ".join(parts) + ".</p>"
                + "<p>The answer codes and answer sizes of each server's sizes run are copied from its results to the data page: differences in bytes per query come "
                + "from what each server puts in an answer's authority and additional sections (docs/servers.md).</p>"
                + more_link(key, e))
    return out + "</section>"


def finding_releases(s, f):
    """Per server, what changed from the first release to each other one,
    figure by figure, in rules.jq's words (the ratio of the medians where
    both releases have one)."""
    out = []
    for c, ch in _items(alt(get(s, "changes"), [])):
        ri = next((k for k, v in _items(s["servers"])
                   if get(v, "server") == get(ch, "server") and get(v, "release_name") == get(ch, "release")), None)
        figs = []
        for j, g in _items(ch["figures"]):
            fp = ["changes", c, "figures", j]
            figs.append(val(s, f, fp + ["label"])
                        + (" " + val(s, f, fp + ["words"]) if get(g, "ratio") is None
                           else " &times;" + val(s, f, fp + ["ratio"], 2, None) + " (" + val(s, f, fp + ["words"]) + ")"))
        out.append(row_name(s, f, ri) + " against " + val(s, f, ["changes", c, "base"]) + ": " + ", ".join(figs) + ".")
    return out


def finding_dot(s, f):
    """DoT handshakes/s per server and release that ran the step (full,
    resumed), a bound where the rig ended the sweep, or why not available."""
    out = []
    for i, row in _items(s["servers"]):
        d = get(row, "dot")
        if d is None:
            continue
        if get(d, "available") is False:
            w = "not available (" + val(s, f, ["servers", i, "dot", "reason"]) + ")"
        else:
            ws = []
            for k in ["full", "resume"]:
                if _n_pos(get(d, k, "knee_0_1pct")):
                    ws.append(val(s, f, ["servers", i, "dot", k, "knee_0_1pct", "median"], 0, None))
                elif _n_pos(get(d, k, "bound")):
                    ws.append("&ge; " + val(s, f, ["servers", i, "dot", k, "bound", "median"], 0, None) + " (a bound)")
                elif any(x == "ok" for x in _iter(alt(get(d, k, "status"), []))):
                    ws.append("no figure (see its verdict)")
                else:
                    ws.append("not measured")
            w = " and ".join(ws)
        out.append(row_name(s, f, i) + " " + w)
    return [] if not out else ["DoT handshakes/s, full and resumed (1p1s, medians): " + "; ".join(out) + "."]


def _any_is(x, v):
    return any(y is v for y in _iter(x))


def finding_compare(b, key):
    """Servers compared: each server's median UDP ceiling, TCP knee (and
    whether it is the server's) and signed bytes per query."""
    e = b["exps"].get(key)
    s, f = get(e, "summary"), get(e, "file")
    servers = get(s, "servers")
    if not (isinstance(servers, list) and len(servers) > 0):
        return []

    def each(what):
        return ", ".join(row_name(s, f, i) + " " + what(i) for i, _ in _items(servers))

    def udp(i):
        return (val(s, f, ["servers", i, "udp", "ceiling_qps", "median"], 0, None)
                + (" (not shown to be the server's own: the rig's share of the server CPU above its limit or not measured)"
                   if _any_is(alt(get(servers, i, "udp", "server_own"), []), False) else ""))

    def tcp(i):
        t = get(servers, i, "tcp")
        if not num(get(t, "knee_0_1pct", "median")):
            return "none (" + val(s, f, ["servers", i, "tcp", "verdicts", 0]) + ")"
        cap = _any_is(get(t, "server_capacity"), True)
        if cap and _any_is(get(t, "server_own"), True):
            w = " (the server's capacity)"
        elif cap:
            w = " (the server CPU's limit, not shown to be the server's own work alone)"
        else:
            w = " (not shown to be the server's capacity)"
        return val(s, f, ["servers", i, "tcp", "knee_0_1pct", "median"], 0, None) + " connections/s" + w
    return (["Servers compared on the same testbed (repetitions: " + each(lambda i: val(s, f, ["servers", i, "repetitions"]))
             + "), median UDP ceiling: " + each(udp) + " queries/s.",
             "Median TCP rate where 0.1 % of connections first failed: " + each(tcp) + ".",
             "Median bytes per query out, unsigned and signed: "
             + each(lambda i: val(s, f, ["servers", i, "sizes", "bytes_per_query_out_unsigned", "median"], 1, None) + " and "
                    + val(s, f, ["servers", i, "sizes", "bytes_per_query_out_signed", "median"], 1, None)) + "."]
            + finding_releases(s, f) + finding_dot(s, f))


# ------------------------------------------------------------ the section interface
# (rootbench.report.sections; e: the experiment's registry entry)

def section(b, e):
    return compare_section(b, e["name"], alt(e.get("heading"), e.get("title")))


def findings(b, e):
    """The comparison as one Finding: the median UDP ceilings in short."""
    x = b["exps"].get(e["name"])
    s, f = get(x, "summary"), get(x, "file")
    more = finding_compare(b, e["name"])
    if not more:
        return []
    return [finding("Servers compared, median UDP ceiling: "
                    + ", ".join(row_name(s, f, i) + " " + val(s, f, ["servers", i, "udp", "ceiling_qps", "median"], 0, None)
                                for i, _ in _items(s["servers"])) + " queries/s.", more)]

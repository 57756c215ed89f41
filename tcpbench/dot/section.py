"""DNS over TLS and QUIC (make dot): handshakes/s and bytes on the wire
per query; its section of the report through the section interface at the
end of this file (rootbench.report.sections; every value is tagged for
analysis/report-check)."""

from rootbench.jqtext import to_text
from rootbench.report.lib import alt, calc, esc, figures, get, head_row, more_link, ref, status_badge, status_text, truthy, val

# the summary's sweeps and their names
DOT_SWEEPS = [["full", "DoT, full handshakes"], ["resume", "DoT, resumed"], ["doq", "DoQ, full handshakes"], ["doq_resume", "DoQ, resumed (0-RTT)"]]


def _keys(x):
    return sorted(alt(x, {}), key=lambda k: k.encode())


def dot_sweeps():
    return DOT_SWEEPS


def dot_section(b, key, heading):
    e = b["exps"].get(key)
    s, f = get(e, "summary"), get(e, "file")
    if not truthy(get(e, "dir_exists")):
        return ""
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), status_badge(e)) + status_text(e, "the DoT experiment")
    if s is not None:
        out += (figures(e)
                + "<h3>Handshakes per second</h3>"
                + '<table class="cmp">' + head_row(["configuration", "handshakes", "0.1% of connections fail, handshakes/s", "1% fail", "highest answered",
                                                   "plain TCP, 0.1% fail, conn/s", "over TCP", "verdict", "server's capacity", "server CPU budget",
                                                   "per CPU (projection), handshakes/s"]))
        for k, name in DOT_SWEEPS:
            for c in _keys(get(s, k, "configs")):
                cp = [k, "configs", c]
                out += ("<tr><th>%s</th><td>%s</td>" % (esc(c), name)
                        + "<td>%s</td>" % val(s, f, cp + ["knee_0_1pct"], 0, None)
                        + "<td>%s</td>" % val(s, f, cp + ["knee_1pct"], 0, None)
                        + "<td>%s</td>" % val(s, f, cp + ["max_handled"], 0, None)
                        + "<td>%s</td>" % val(s, f, ["tcp_reference", c, "knee_0_1pct"], 0, None)
                        + "<td>%s</td>" % calc("ratio", ref(s, f, cp + ["knee_0_1pct"]), ref(s, f, ["tcp_reference", c, "knee_0_1pct"]), 2, None)
                        + "<td>%s</td>" % val(s, f, cp + ["verdict"])
                        + "<td>%s</td>" % val(s, f, cp + ["server_capacity"])
                        + "<td>%s</td>" % val(s, f, cp + ["budget"])
                        + "<td>%s</td></tr>" % val(s, f, cp + ["handshakes_per_cpu"], 0, None))
        out += "</table>"
        if get(s, "doq_skipped") is not None:
            out += "<p>DNS over QUIC not measured: " + val(s, f, ["doq_skipped"]) + ".</p>"
        elif get(s, "doq") is not None or get(s, "doq_resume") is not None:
            gens = []
            for k, w in [["doq", "full"], ["doq_resume", "resumed"]]:
                if get(s, k) is None:
                    continue
                ks = _keys(get(s, k, "configs"))
                if not ks:
                    continue
                gens.append("%s: " % w + val(s, f, [k, "configs", ks[0], "generator", "version"]))
            out += ("<p>DNS over QUIC is sent by Knot's kxdpgun through AF_XDP (" + ", ".join(gens)
                    + "): a QUIC connection per query, counted at the router (datagrams led by an Initial packet, a bound) and at Knot's own count of "
                    + "queries over QUIC; it measures no latency.</p>")
        out += ("<p>A knee the verdict does not give to the server is the rig's: on this machine the generator makes its side of every handshake on the client CPU, "
                + "so a generator-limited sweep says what the rig could offer, not what the server can do. Under a server CPU budget (SERVER_CPU) the server is "
                + "made the bottleneck; its handshakes per CPU are the handled rate at the knee over the server CPU's busy share then (docs/tcp.md), a projection "
                + "to a whole CPU, not a measurement. Each sweep's points and verdict evidence: the data page and <code>dot/full</code>, <code>dot/resume</code>, "
                + "<code>dot/doq</code>, <code>dot/doq-resume</code>.</p>"
                + "<h3>Bytes on the wire per query</h3>")
        cases = get(s, "bytes", "cases")
        if not isinstance(cases, list):
            out += '<p class="nm">The bytes were not measured in this run.</p>'
        else:
            out += ("<p>Server " + val(s, f, ["bytes", "server", "name"]) + " " + val(s, f, ["bytes", "server", "version"]) + "; "
                    + val(s, f, ["bytes", "settings", "rate_qps"]) + " queries/s for " + val(s, f, ["bytes", "settings", "seconds"]) + " s per case, "
                    + val(s, f, ["bytes", "settings", "queries_per_conn_N"])
                    + " queries per connection in the cases marked so; per query = octets of both directions over the queries the daemon counted; what the port "
                    + "carried with nothing sent: " + val(s, f, ["bytes", "idle_octets"]) + " octets.</p>"
                    + '<table class="cmp">' + head_row(["case", "transport", "queries per connection", "resumed", "queries at the server", "toward the server",
                                                       "toward the client", "total per query", "vs UDP", "vs TCP, one per connection"]))
            for i in range(len(cases)):
                c = ["bytes", "cases", i]
                out += ("<tr><th>%s</th><td>%s</td>" % (val(s, f, c + ["case"]), val(s, f, c + ["transport"]))
                        + "<td>%s</td><td>%s</td>" % (val(s, f, c + ["queries_per_conn"]), val(s, f, c + ["resume"]))
                        + "<td>%s</td>" % val(s, f, c + ["daemon_queries"])
                        + "<td>%s</td>" % val(s, f, c + ["per_query", "in"], 1, None)
                        + "<td>%s</td>" % val(s, f, c + ["per_query", "out"], 1, None)
                        + "<td>%s</td>" % val(s, f, c + ["per_query", "total"], 1, None)
                        + "<td>%s</td>" % val(s, f, c + ["vs_udp"], 2, None)
                        + "<td>%s</td></tr>" % val(s, f, c + ["vs_tcp"], 2, None))
            out += "</table>"
    return (out
            + "<details><summary>What is measured</summary><p>The TCP capacity sweep with DNS over TLS: each connection makes one TLS handshake, verified against the "
            + "testbed's own CA, and sends one query; x is the offered rate of handshakes. The same search, the same counters of every layer and the same verdict "
            + "rules as the TCP experiment say where the first work was lost and whether the server or the rig caused it. It runs once with a full handshake per "
            + "connection and once with session resumption. Beside it, the bytes on the wire per query over UDP, plain TCP and DoT, from the switch's SNMP octet "
            + "counters at a fixed modest rate, with one or several queries per connection: what TLS adds to every query. With Knot DNS 3.4 the same sweep and "
            + "bytes over DNS over QUIC (QUIC over UDP, sent by kxdpgun): a full handshake per connection, and resumed with the query as 0-RTT data.</p></details>"
            + more_link(key, e)
            + "</section>")


# ------------------------------------------------------------ the section interface
# (rootbench.report.sections; e: the experiment's registry entry)

def section(b, e):
    return dot_section(b, e["name"], alt(e.get("heading"), e.get("title")))


def findings(b, e):
    return []


def per_cpu_rows(b, e):
    """A row per configuration with a CPU budget, full handshakes and resumed."""
    x = b["exps"].get(e["name"])
    d = get(x, "summary")
    if d is None:
        return []
    return [{"name": "%s, %s" % (w, c), "s": d, "f": x["file"], "path": [k, "configs", c], "fig": "handshakes_per_cpu",
             "unit": "handshakes/s", "budget_key": "budget", "rule_key": "per_cpu_rule"}
            for k, w in DOT_SWEEPS for c in _keys(get(d, k, "configs")) if get(d, k, "configs", c, "budget") is not None]


def latency_rows(b, e):
    """A row per configuration, full handshakes and resumed, with the
    probe's block of that sweep (rootbench.report.probe)."""
    x = b["exps"].get(e["name"])
    d = get(x, "summary")
    if d is None:
        return []
    return [{"name": "%s, %s" % (w, c), "s": d, "f": x["file"], "path": [k, "configs", c, "probe"], "unit": "handshakes/s"}
            for k, w in DOT_SWEEPS for c in _keys(get(d, k, "configs"))]

"""The DNSSEC sizing matrix: its section of the report (and the roadmap
measured with it) and its Findings sentences, through the section interface
at the end of this file (rootbench.report's sections). Every value is
tagged for analysis/report-check."""

import re

from rootbench.experiment import sibling
from rootbench.jqtext import to_text, truthy
from rootbench.report import lib as L


# the roadmap's states (this folder's roadmap.py)
roadmap = sibling(__file__, "roadmap")

ROADMAP_PNG = re.compile(r"(^|/)roadmap[.]png$")


def _g(x, *path):
    """jq's x.a.b[0]: null through null, an error through another type
    (a summary the page cannot read stops the page)."""
    return L.get(x, *path)


def _first_index(xs, keep):
    """The index of the first element of xs that keep accepts, or None."""
    for i, x in enumerate(xs or []):
        if keep(x):
            return i
    return None


def _order(x):
    """The place of a value in jq's order of values (null, false, true,
    numbers, strings, arrays, objects), for comparing numbers and null."""
    if x is None:
        return (0, 0)
    if x is False:
        return (1, 0)
    if x is True:
        return (2, 0)
    if L.num(x):
        return (3, x)
    raise ValueError("the report compares answer sizes that are numbers or null, not %r" % (x,))


def _max_by_index(xs, key):
    """jq's max_by: of the largest, the last."""
    best = None
    for i, x in enumerate(xs):
        if best is None or _order(key(x)) >= _order(key(xs[best])):
            best = i
    return best


def _checks_row(s, f, k, check):
    v = _g(check, "value")
    if isinstance(v, dict):
        value = ", ".join("%s: %s" % (L.esc(j), L.val(s, f, ["checks", k, "value", j])) for j in v)
    else:
        value = L.val(s, f, ["checks", k, "value"])
    return "<tr><th>%s</th><td>%s</td><td>" % (L.val(s, f, ["checks", k, "rule"]), L.val(s, f, ["checks", k, "pass"])) + value + "</td></tr>"


def _cell_row(s, f, i, cell):
    c = ["cells", i]
    out = ("<tr><td>%s</td><td>%s</td><td>" % (L.val(s, f, c + ["cell"]), L.val(s, f, c + ["bytes_per_query_in"], 1, None))
           + "%s</td>" % L.val(s, f, c + ["bytes_per_query_out"], 1, None)
           + "<td>%s</td>" % L.val(s, f, c + ["tc_share"], 2, 100)
           + "<td>%s / %s / " % (L.val(s, f, c + ["answer_bytes", "mean"], 1, None), L.val(s, f, c + ["answer_bytes", "median"]))
           + "%s</td>" % L.val(s, f, c + ["answer_bytes", "max"])
           + "<td>%s" % L.val(s, f, c + ["dnskey", "bytes"])
           + ("%s</td>" % (" (over UDP: truncated, " + L.val(s, f, c + ["dnskey", "udp_4096", "bytes"]) + " bytes)"
                           if _g(cell, "dnskey", "udp_4096", "tc") is True else "")))
    links = _g(cell, "links") or []
    for l in range(len(links)):
        q = c + ["links", l]
        out += ("<td>%s" % L.val(s, f, q + ["first_ceiling"])
                + "%s; " % (", " + L.val(s, f, q + ["first_ceiling_qps"]) if _g(links, l, "first_ceiling_qps") is not None else "")
                + "%s</td>" % (L.val(s, f, q + ["crossover_qps"]) if _g(links, l, "crossover_qps") is not None else "never"))
    return out + "</tr>"


def sizes_matrix_section(b, key, heading):
    """The DNSSEC sizing matrix (analysis/sizes-matrix/run): per cell bytes
    per query, TC share, answer sizes, the DNSKEY answer, and against each
    link speed which ceiling an instance hits first."""
    e = b["exps"][key]
    s, f, p = e.get("summary"), e.get("file"), b.get("paper")
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), L.status_badge(e))
    out += L.status_text(e, "the sizing matrix")
    # a failed run may hold no cells, checks or links: nothing to tabulate
    if s is None or not isinstance(s.get("cells"), list):
        return out + "</section>"
    out += L.figures(dict(e, figures=[g for g in e.get("figures") or [] if not ROADMAP_PNG.search(g["png"])]))
    out += ("<p>Design: %s; %s queries per cell at " % (L.val(s, f, ["settings", "design"]), L.val(s, f, ["settings", "queries_per_cell"]))
            + "%s queries/s.</p>" % L.val(s, f, ["settings", "pps"]))
    if L.num(_g(s, "testbed", "server", "udp_answer_max")):
        out += ("<p>The servers answer over UDP up to " + L.val(s, f, ["testbed", "server", "udp_answer_max"])
                + " bytes (<code>SERVER_EDNS_SIZE</code>): a larger answer comes truncated whatever the query advertises, so a cell's EDNS "
                "buffer above that acts as that size.</p>")
    out += "<p>The server's unshaped UDP ceiling: "
    ceil = _g(s, "server_udp_ceiling")
    if _g(ceil, "qps") is not None:
        out += L.val(s, f, ["server_udp_ceiling", "qps"]) + " queries/s"
        rt = L.range_text(s, f, ["server_udp_ceiling", "low_qps"], ["server_udp_ceiling", "high_qps"])
        if rt != "":
            out += " answered, " + rt
        out += " (from " + L.val(s, f, ["server_udp_ceiling", "source"])
        if truthy(_g(ceil, "zone")):
            out += ", serving the zone " + L.val(s, f, ["server_udp_ceiling", "zone"])
        if truthy(_g(ceil, "caused_by")):
            out += "; its verdict blames the " + L.val(s, f, ["server_udp_ceiling", "caused_by"])
        out += ")"
    else:
        out += L.val(s, f, ["server_udp_ceiling", "qps"])
        if _g(ceil, "status") != "not measured":
            out += " (" + L.val(s, f, ["server_udp_ceiling", "status"]) + ")"
    if truthy(_g(ceil, "note")):
        out += "; " + L.val(s, f, ["server_udp_ceiling", "note"])
    out += ".</p>"
    out += '<details><summary>Checks</summary><table class="kv">'
    checks = L.alt(s.get("checks"), {})
    out += "".join(_checks_row(s, f, k, checks[k]) for k in checks)
    out += "</table></details>"
    cells = s["cells"]
    i = _first_index(cells, lambda c: _g(c, "zone_state") == "paper")
    if i is not None:
        out += ("<h4>The paper's zone state</h4>" + L.cmp_head(L.val(p, "paper.json", ["sizes", "section"]))
                + L.cmp_row("bytes per query out, cell " + L.val(s, f, ["cells", i, "cell"]), s, f, ["cells", i, "bytes_per_query_out"], 1, None,
                            p, ["sizes", "tests", "signed", "bytes_per_query_out"], "the paper's own traffic mix")
                + "</table>")
    out += ('<h3>Cells</h3><table class="csv"><caption>One row per cell: bytes on the wire, truncation, answer sizes and which ceiling an '
            "instance meets first at each link speed (the cells of the states only the roadmap measures are in its section below, and all "
            "of them on the data page)</caption><tr><th>cell (zone state : profile : EDNS buffer)</th><th>bytes/query in</th><th>bytes/query "
            "out</th><th>TC share, %</th><th>answer bytes mean / median / max</th><th>DNSKEY answer, bytes</th>")
    for l in range(len(L.alt(s.get("links_bps"), []))):
        out += "<th>%s Mb/s: first ceiling, at queries/s; byte-bound above</th>" % L.val(s, f, ["links_bps", l], 0, 0.000001)
    out += "</tr>"
    only = roadmap.roadmap_only_states()
    out += "".join(_cell_row(s, f, i, c) for i, c in enumerate(cells) if _g(c, "zone_state") not in only)
    out += "</table>"
    out += ("<details><summary>What is measured</summary><p>Each cell serves one zone state (signing algorithm and key sizes, NSEC or NSEC3, "
            "a KSK roll with two KSKs signing the DNSKEY set, a ZSK pre-published) and replays one query profile (the DO share of the paper's "
            "traffic, of a root server's more recent traffic, or forced) with the advertised EDNS buffer as the profile has it or forced to one "
            "size, slowly enough that every query is answered. The switch's SNMP octet counters on the router's server-side port give bytes "
            "per query in and out; a capture of the answers gives the share truncated (TC=1: each such query comes back over TCP) and the "
            "answer sizes; dig gives the DNSKEY answer of each zone state, whole over TCP and whether it fits a UDP answer. The rules "
            "(analysis/sizes-matrix/rules.py) add the Ethernet overhead per frame to the SNMP bytes, divide each link speed by the result to "
            "get the query rate that fills the link, and compare it with the server's unshaped UDP ceiling from this run: the lower one is hit "
            "first; where the link's is lower, that rate is where the instance turns from query-bound to byte-bound. The paper ("
            + L.val(p, "paper.json", ["sizes", "section"]) + ") measured one signed zone with one traffic mix.</p></details>")
    out += L.settings_table(s, f, L.alt(_g(b, "labels", key), {})) + L.more_link(key, e)
    return out + "</section>"


def roadmap_section(b, key):
    """The root's DNSSEC roadmap (the sizing matrix's roadmap states,
    roadmap.py): each state's answers against 1232 bytes, the TC shares they
    cause and the TCP they ask for. Empty when the matrix measured no
    roadmap state."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    rm = _g(s, "roadmap")
    if not isinstance(rm, dict):
        return ""
    r = ["roadmap"]
    phases = rm.get("phases")
    rows = [i for i, ph in enumerate(phases) if truthy(_g(ph, "measured"))]
    sac = rm.get("sac133")
    lim = L.val(s, f, r + ["limit_bytes"])
    mix = L.val(s, f, r + ["mix_profile"])
    tcpm = L.num(_g(rm, "tcp", "conn_per_cpu"))
    d = _first_index(phases, lambda ph: _g(ph, "state") == "alg-double")
    c = _first_index(phases, lambda ph: _g(ph, "state") == "alg-double-2048")

    def bytes_cell(i, j):
        n = _g(phases, i, "answers", j, "bytes")
        # jq's n > limit: a number is above null and the booleans too
        limit = rm.get("limit_bytes")
        over = L.num(n) and (limit is None or isinstance(limit, bool) or (L.num(limit) and n > limit))
        return "<td>" + L.val(s, f, r + ["phases", i, "answers", j, "bytes"], 0, None) + (" <b>over</b>" if over else "") + "</td>"

    def fits_text(k):
        if _g(sac, k) is None:
            return "not measured"
        return ", ".join(
            L.val(s, f, r + ["sac133", k, "answers", j, "answer"]) + " " + L.val(s, f, r + ["sac133", k, "answers", j, "bytes"]) + " bytes ("
            + ("fits, margin " if truthy(_g(a, "fits")) else "<b>does not fit</b>, margin ")
            + L.val(s, f, r + ["sac133", k, "answers", j, "margin"]) + ")"
            for j, a in enumerate(sac[k]["answers"]))

    def label_of(i):
        return "not measured" if i is None else L.val(s, f, r + ["phases", i, "label"])

    out = ('<section id="roadmap"><h2>The root\'s DNSSEC roadmap: the algorithm roll to ECDSA and post-quantum signature sizes %s</h2>'
           % L.status_badge(e))
    figs = [L.figure(g) for g in e.get("figures") or [] if ROADMAP_PNG.search(g["png"])]
    if figs:
        out += '<div class="figs">' + "".join(figs) + "</div>"
    out += ("<p><b>The premise of cutting the RSA ZSK</b> (" + L.val(s, f, r + ["sac133", "rule"]) + "). " + label_of(d) + ": "
            + fits_text("double_1536") + ". " + label_of(c) + ": " + fits_text("control_2048") + ".</p>")
    out += ('<table class="csv"><caption>Each zone state in the roll\'s order, then the control and the post-quantum size models (size models, '
            "not valid signatures): each answer's size in bytes (DO=1, the whole DNS message over TCP; <b>over</b>: larger than " + lim
            + " bytes), the share of answers truncated (TC) with every query advertising " + lim
            + " bytes, each such query retried over TCP; bytes per query out from the switch's SNMP counters (" + mix
            + " mix); the TCP connections per second the truncated answers make at "
            + L.val(s, f, ["settings", "roadmap_rate_qps"], 0, None) + " queries/s</caption>"
            + "<tr><th>zone state</th><th>priming</th><th>DNSKEY</th><th>referral</th><th>NXDOMAIN</th><th>TC, " + mix
            + " mix, %</th><th>TC, all DO=1, %</th><th>B/query out</th><th>TCP conn./s</th>"
            + ("<th>CPUs for them</th>" if tcpm else "") + "</tr>")
    for i in rows:
        pp = r + ["phases", i]
        ph = phases[i]
        out += "<tr><td>" + L.val(s, f, pp + ["label"])
        if _g(ph, "kind") == "model":
            out += '<br><small class="nm">not a valid signature'
            if _g(ph, "size_model") is not None:
                out += ("; key " + L.val(s, f, pp + ["size_model", "key_bytes"]) + " B, signature "
                        + L.val(s, f, pp + ["size_model", "signature_bytes"]) + " B")
            out += "</small>"
        out += "</td>"
        out += "".join(bytes_cell(i, j) for j in range(4))
        out += ("<td>" + L.val(s, f, pp + ["tc_share_mix"], 1, 100) + "</td><td>" + L.val(s, f, pp + ["tc_share_do100"], 1, 100) + "</td>"
                + "<td>" + L.val(s, f, pp + ["bytes_per_query_out_mix"], 1, None) + "</td>"
                + "<td>" + L.val(s, f, pp + ["tcp_conn_needed"], 0, None) + "</td>")
        if not tcpm:
            pass
        elif _g(ph, "tcp_cpus_needed") is None:
            out += '<td class="nm">–</td>'
        else:
            out += ("<td>" + L.val(s, f, pp + ["tcp_cpus_needed"])
                    + (" (has them)" if truthy(_g(ph, "tcp_has_them")) else " (<b>does not have them</b>)") + "</td>")
        out += "</tr>"
    out += "</table>"
    out += "<p>TCP capacity per CPU of the server: "
    if tcpm:
        out += (L.val(s, f, r + ["tcp", "conn_per_cpu"], 0, None) + " connections/s (" + L.val(s, f, r + ["tcp", "source"]) + "), against "
                + L.val(s, f, r + ["tcp", "instance_cpus"]) + " CPU(s) an instance's servers have for TCP (<code>MATRIX_TCP_CPUS</code>)")
    else:
        out += (L.val(s, f, r + ["tcp", "status"]) + (": " + L.val(s, f, r + ["tcp", "note"]) if truthy(_g(rm, "tcp", "note")) else "")
                + "; the connections needed are stated, not compared")
    out += ". " + L.val(s, f, r + ["tcp", "rule"]) + ".</p>"
    out += ("<details><summary>What is measured</summary><p>Each state is a zone variant (docs/zones.md) built from the same key cache as "
            "today's (what each holds: docs/sizes-matrix.md and the data page); docs/sizes-matrix.md maps them to the public roll plan as far "
            "as its text allows. The size models carry a private algorithm number and keys and signatures as long as each standard specifies; "
            "validators refuse them; they answer how many bytes, nothing else. The four answers come from dig on a player (DO=1, over TCP so "
            "they are whole). The truncated shares come from replaying the " + mix + " query mix")
    if L.num(rm.get("mix_do_share")):
        out += (" (DO=1 in " + L.val(s, f, r + ["mix_do_share"], 1, 100)
                + " % of its queries, the latest share in this suite's data)")
    out += (" and the same mix with every query DO=1, every query with an OPT record advertising " + lim
            + " bytes, with the answers captured at the Listener; bytes per query come from the switch's SNMP counters. The answers' sizes "
            "depend on the names asked (www.example.com. for the referral, www.example. for the NXDOMAIN) and on the server's "
            "additional-section policy.</p></details>")
    out += L.more_link(key, e)
    return out + "</section>"


def _roll_measured(rm):
    return any(_g(ph, "kind") == "roll" and truthy(_g(ph, "measured")) for ph in rm["phases"])


def roadmap_findings(b, key):
    """Which phase of the roll first crosses 1232 bytes and with which
    answers, what the 2048-bit control does, and the TCP share each size
    model forces."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    r = ["roadmap"]
    rm = _g(s, "roadmap")
    if not isinstance(rm, dict):
        return []
    out = []
    if rm.get("first_crossing") is not None:
        answers = rm["first_crossing"]["answers"]
        out.append("In the algorithm roll, the first state whose answers outgrow " + L.val(s, f, r + ["limit_bytes"]) + ' bytes is "'
                   + L.val(s, f, r + ["first_crossing", "label"]) + '", with its '
                   + " and ".join(L.val(s, f, r + ["first_crossing", "answers", k]) for k in range(len(answers))) + " answer(s).")
    elif _roll_measured(rm):
        t = "No measured state of the algorithm roll sends an answer over " + L.val(s, f, r + ["limit_bytes"]) + " bytes"
        if _g(rm, "sac133", "double_1536") is not None:
            answers = rm["sac133"]["double_1536"]["answers"]
            j = _max_by_index(answers, lambda a: _g(a, "bytes"))
            t += (" (double-signed, the largest is " + L.val(s, f, r + ["sac133", "double_1536", "answers", j, "answer"]) + ", "
                  + L.val(s, f, r + ["sac133", "double_1536", "answers", j, "bytes"]) + " bytes)")
        out.append(t + ".")
    cc = rm.get("control_crossing")
    if cc is not None and len(cc.get("answers") or []) > 0:
        t = ("The control, " + L.val(s, f, r + ["control_crossing", "label"]) + ", would push the "
             + " and ".join(L.val(s, f, r + ["control_crossing", "answers", k]) for k in range(len(cc["answers"])))
             + " answers over " + L.val(s, f, r + ["limit_bytes"]) + " bytes")
        i = _first_index(rm["phases"], lambda ph: _g(ph, "state") == "alg-double-2048")
        if not (i is None or _g(rm, "phases", i, "tc_share_mix") is None):
            t += (" and truncate " + L.val(s, f, r + ["phases", i, "tc_share_mix"], 1, 100) + " % of the " + L.val(s, f, r + ["mix_profile"])
                  + " mix's answers at that buffer")
        out.append(t + ".")
    models = rm.get("models") or []
    if len(models) > 0:
        out.append("Post-quantum signature sizes (size models, not valid signatures) would truncate "
                   + ", ".join(L.val(s, f, r + ["models", k, "tc_share_mix"], 1, 100) + " % (" + L.val(s, f, r + ["models", k, "label"]) + ")"
                               for k in range(len(models)))
                   + " of the " + L.val(s, f, r + ["mix_profile"]) + " mix's answers at a " + L.val(s, f, r + ["limit_bytes"])
                   + "-byte buffer, each one a TCP retry.")
    return out


def finding_matrix(b, key):
    """Sizes matrix: the key-roll DNSKEY answer and truncation at 512 bytes,
    then where the root-like zone turns the instance byte-bound."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    if not (L.ok(e) and isinstance(_g(s, "checks"), dict)):
        return []
    cells = s.get("cells")
    j = _first_index(cells, lambda c: _g(c, "zone_state") == "root" and _g(c, "edns") == "512")
    u = _first_index(cells, lambda c: _g(c, "zone_state") == "unsigned" and _g(c, "edns") == "512")
    out = []
    if L.num(_g(s, "checks", "ksk_roll_dnskey", "value")):
        short = "A KSK roll grows the DNSKEY answer to " + L.val(s, f, ["checks", "ksk_roll_dnskey", "value"]) + " bytes"
        if j is not None and u is not None:
            short += "; " + L.val(s, f, ["cells", j, "tc_share"], 1, 100) + " % of answers are truncated at " + L.val(s, f, ["cells", j, "edns"]) + " bytes"
        more = ("During a KSK roll the DNSKEY answer grows to " + L.val(s, f, ["checks", "ksk_roll_dnskey", "value"])
                + " bytes (steady state: " + L.val(s, f, ["checks", "steady_dnskey", "value"]) + ")")
        if j is not None and u is not None:
            more += ("; resolvers that advertise a " + L.val(s, f, ["cells", j, "edns"]) + "-byte buffer get "
                     + L.val(s, f, ["cells", j, "tc_share"], 1, 100) + " % of the root zone's answers truncated (unsigned: "
                     + L.val(s, f, ["cells", u, "tc_share"], 1, 100) + " %), each one a retry over TCP the instance must absorb")
        out.append(L.finding(short + ".", [more + "."]))
    roots = [k for k, c in enumerate(cells or []) if _g(c, "zone_state") == "root"]
    pick = [k for k in roots if _g(cells, k, "edns") == "trace"] + roots
    i = pick[0] if pick else None
    if i is None or not L.num(_g(cells, i, "links", 0, "link_qps")):
        return out
    link_qps = cells[i]["links"][0]["link_qps"]
    ceiling = _g(s, "server_udp_ceiling", "qps")
    short = ("A " + L.val(s, f, ["cells", i, "links", 0, "link_bps"], 0, 0.000001) + " Mbit/s link is full at "
             + L.val(s, f, ["cells", i, "links", 0, "link_qps"], 0, None) + " queries/s of the root's zone")
    if not L.num(ceiling):
        pass
    elif link_qps < ceiling:
        short += ", before the servers' UDP ceiling"
    else:
        short += ", after the servers' UDP ceiling"
    more = ("Serving the root's zone (" + L.val(s, f, ["cells", i, "cell"]) + "), a "
            + L.val(s, f, ["cells", i, "links", 0, "link_bps"], 0, 0.000001) + " Mbit/s link is full at "
            + L.val(s, f, ["cells", i, "links", 0, "link_qps"], 0, None) + " queries/s")
    if L.num(ceiling):
        below = link_qps < ceiling
        more += ((", below" if below else ", not below") + " the servers' UDP ceiling of "
                 + L.val(s, f, ["server_udp_ceiling", "qps"], 0, None) + " queries/s")
        rt = L.range_text(s, f, ["server_udp_ceiling", "low_qps"], ["server_udp_ceiling", "high_qps"])
        if rt != "":
            more += " (" + rt + ")"
        more += (": the link is hit first up to about " if below else ": the servers are hit first; a link slower than about ")
        more += L.val(s, f, ["cells", i, "breakeven_link_bps"], 0, 0.000001) + " Mbit/s" + ("." if below else " would be hit first.")
    elif L.num(_g(s, "server_udp_ceiling", "budget")):
        more += (" (the servers' UDP ceiling of this run was " + L.val(s, f, ["server_udp_ceiling", "status"])
                 + ", so which limit comes first is not said).")
    else:
        more += " (the servers' UDP ceiling was not measured in this run, so which limit comes first is not said)."
    out.append(L.finding(short + ".", [more]))
    return out


# ------------------------------------------------------------ the section interface
# (e: the experiment's registry entry)

def section(b, e):
    """The matrix, then the roadmap measured with it."""
    h = e.get("heading")
    return sizes_matrix_section(b, e["name"], h if truthy(h) else e.get("title")) + "\n" + roadmap_section(b, e["name"])


def roadmap_short(s, f):
    """The roadmap's Finding in one short sentence: where the algorithm roll
    first outgrows the limit."""
    r = ["roadmap"]
    rm = s["roadmap"]
    if rm.get("first_crossing") is not None:
        return ("In the algorithm roll, answers first outgrow " + L.val(s, f, r + ["limit_bytes"]) + ' bytes at "'
                + L.val(s, f, r + ["first_crossing", "label"]) + '".')
    if _roll_measured(rm):
        return "No measured state of the algorithm roll outgrows " + L.val(s, f, r + ["limit_bytes"]) + " bytes."
    return "What the roadmap's states would send against a " + L.val(s, f, r + ["limit_bytes"]) + "-byte buffer."


def findings(b, e):
    x = b["exps"][e["name"]]
    rf = roadmap_findings(b, e["name"])
    return finding_matrix(b, e["name"]) + ([L.finding(roadmap_short(x["summary"], x.get("file")), rf)] if rf else [])

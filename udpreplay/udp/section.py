"""The UDP ceiling (shaped and unshaped): its section of the report and its
Findings sentences, through the section interface at the end of this file
(rootbench.report's sections: section, findings, family_rows, family_note,
per_cpu_rows, headline, latency_rows, each taking the bundle b and the
registry entry e). Every value is tagged for analysis/report-check."""

from rootbench.jqtext import to_text, truthy
from rootbench.report import lib as L
from rootbench.report import probe as P


def _g(x, *path):
    """jq's x.a.b[0]: null through null, an error through another type
    (a summary the page cannot read stops the page)."""
    return L.get(x, *path)


def physics_text(s, f):
    """The physics check (is the ceiling what the link carries?) in words."""
    c = _g(s, "physics_check")
    if not isinstance(c, dict):
        return "<p><b>Physics check.</b> %s</p>" % L.nm()
    if c.get("applicable") is False:
        return "<p><b>Physics check.</b> Not applicable: " + L.val(s, f, ["physics_check", "reason"]) + ".</p>"
    out = "<p><b>Physics check: is the ceiling what the link carries?</b> "
    if L.num(c.get("measured_bps")):
        out += ("At the ceiling the answers needed " + L.val(s, f, ["physics_check", "measured_bps"], 0, None)
                + " bit/s on the wire, against a link of " + L.val(s, f, ["physics_check", "expected_bps"], 0, None) + " bit/s")
    elif L.num(c.get("expected_ceiling_qps")):
        out += "The link carries " + L.val(s, f, ["physics_check", "expected_ceiling_qps"], 0, None) + " answers/s of the mean size"
    if L.num(c.get("ratio")):
        out += " (measured / expected " + L.val(s, f, ["physics_check", "ratio"], 3, None) + ")"
    if c.get("link_limited") is True:
        out += ": <b>the link, not the servers, set the ceiling</b>"
    elif c.get("link_limited") is False:
        out += ": the link did not set the ceiling"
    if isinstance(c.get("note"), str):
        out += "; " + L.val(s, f, ["physics_check", "note"])
    if isinstance(c.get("rule"), str):
        out += " <small>(rule: " + L.val(s, f, ["physics_check", "rule"]) + ")</small>"
    return out + ".</p>"


def udp_section(b, key, title, note):
    e = b["exps"][key]
    s, f, p = e.get("summary"), e.get("file"), b.get("paper")
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(title), L.status_badge(e))
    out += L.status_text(e, "the UDP experiment")
    if s is not None:
        out += L.figures(e)
    if note != "":
        out += "<p><b>This run.</b> %s</p>" % to_text(note)
    if s is not None:
        out += L.generator_text(s, f, ["settings", "generator"], ["settings", "generator_version"])
    rt = L.range_text(s, f, ["ceiling_low_qps"], ["ceiling_high_qps"])
    if rt != "":
        out += ("<p><b>The ceiling.</b> " + rt
                + ": every repetition answered its share up to the lower rate, at least one fell short at the higher")
        if L.num(_g(s, "repetitions_max")):
            out += " (up to " + L.val(s, f, ["repetitions_max"]) + " repetitions per rate)"
        nonmono = _g(s, "non_monotonic")
        if isinstance(nonmono, list) and len(nonmono) > 0:
            out += ("; <b>not monotonic</b>: every repetition held again at "
                    + ", ".join(L.val(s, f, ["non_monotonic", i]) for i in range(len(nonmono)))
                    + " queries/s, above the first failure (shown, not taken as the ceiling)")
        out += ".</p>"
    if isinstance(_g(s, "verdict"), dict):
        out += "<p><b>Where the answers were lost.</b> %s</p>" % L.val(s, f, ["verdict", "summary"])
    if s is not None:
        out += P.probe_section_text(s, f, "q/s")
    if not (s is None or s.get("link_bps") is not None):
        out += L.rig_charge_text(s, f, ["rig_charge"])
    if L.num(_g(s, "per_cpu", "qps_per_cpu")):
        out += ("<p><b>Per CPU of the server.</b> " + L.val(s, f, ["per_cpu", "qps_per_cpu"], 0, None)
                + " answers/s per CPU: the ceiling over the server CPU's busy share there, "
                + L.val(s, f, ["per_cpu", "server_cpu_busy_pct"], 1, None)
                + " % (the daemon and its kernel receive path)")
        if L.num(_g(s, "per_cpu", "budget")):
            out += ("; the daemons were limited to " + L.val(s, f, ["per_cpu", "budget"])
                    + " CPU each (a whole CPU is a projection)")
        out += ".</p>"
    elif L.num(_g(s, "per_cpu", "budget")):
        out += ("<p><b>Per CPU of the server.</b> The daemons were limited to " + L.val(s, f, ["per_cpu", "budget"])
                + " CPU each; no per-CPU figure: " + L.val(s, f, ["per_cpu", "rule"]) + ".</p>")
    if s is None:
        return out + "</section>"
    out += physics_text(s, f)
    out += L.cmp_head(L.val(p, "paper.json", ["udp", "section"]))
    out += L.cmp_row("ceiling, answered q/s (paper: Juniper)", s, f, ["ceiling_qps"], 0, None, p, ["udp", "ceiling_qps", "juniper"], None)
    out += L.cmp_row("ceiling, answered q/s (paper: Cisco)", s, f, ["ceiling_qps"], 0, None, p, ["udp", "ceiling_qps", "cisco"], None)
    out += L.cmp_row("link rate, bit/s", s, f, ["link_bps"], 0, None, p, ["udp", "link_bps"], None)
    out += L.cmp_row("mean answer on the wire, bytes (paper: Table 2 unsigned, out per query)", s, f, ["mean_answer_wire_bytes"], 1, None,
                     p, ["sizes", "tests", "unsigned", "bytes_per_query_out"], None)
    out += "</table>"
    out += ("<details><summary>What is measured</summary><p>The players replay DNS queries over UDP at a rising rate towards the service address; "
            "the answers go to the Listener, which only counts them. For each offered rate the fraction answered is recorded. The <em>ceiling</em> "
            "is the highest answered rate; the <em>critical points</em> are the steps where the answered fraction falls. The paper ("
            + L.val(p, "paper.json", ["udp", "section"]) + ") found its instance limited by its network link of "
            + L.val(p, "paper.json", ["udp", "link_bps"]) + " bit/s, not by the servers: the answered rate stopped "
            "growing where answers of the average size filled the link. The physics check compares our ceiling with the link rate divided by "
            "the average answer size on the wire; if they agree, this run too was limited by the link, and the servers' own capacity is above "
            "it.</p></details>")
    out += ('<details><summary>Critical points, this run and the paper\'s</summary><div class="pair"><table class="csv"><caption>this '
            "run</caption>" + L.head_row(["sent q/s (achieved)", "repetition", "answered q/s", "answered fraction",
                                           "the rig's share of the server CPU, %"]))
    cps = s.get("critical_points")
    if isinstance(cps, list) and len(cps) > 0:
        for i in range(len(cps)):
            cp = ["critical_points", i]
            out += ("<tr><td>%s</td><td>%s</td><td>" % (L.val(s, f, cp + ["achieved_qps"], 1, None), L.val(s, f, cp + ["rep"]))
                    + "%s</td><td>" % L.val(s, f, cp + ["answered_qps"], 1, None)
                    + "%s</td><td>%s" % (L.val(s, f, cp + ["answer_ratio"], 6, None), L.val(s, f, cp + ["rig_share"], 1, 100))
                    + (" <b>rig's work: not the server's own</b>" if _g(cps, i, "rig_over_limit") is True else "")
                    + "</td></tr>")
    else:
        out += '<tr><td colspan="5">%s</td></tr>' % L.nm()
    out += '</table><table class="csv"><caption>paper, Table 1 (router hashing)</caption><tr><th>offered q/s</th><th>answered fraction</th></tr>'
    for i in range(len(_g(p, "udp", "critical_points") or [])):
        out += ("<tr><td>%s</td><td>" % L.val(p, "paper.json", ["udp", "critical_points", i, "offered_qps"], 1, None)
                + "%s</td></tr>" % L.val(p, "paper.json", ["udp", "critical_points", i, "ratio"], 6, None))
    out += "</table></div></details>"
    lab = _g(b, "labels", s.get("experiment")) if isinstance(s.get("experiment"), str) else None
    out += L.settings_table(s, f, lab if truthy(lab) else {}) + L.more_link(key, e)
    return out + "</section>"


def udp_no_ceiling(s, f, where):
    """A sweep that ended without a ceiling (the generator limited it, or
    every rate was answered): what was answered in full, a bound, never the
    capacity."""
    return ("Over UDP " + where + " no ceiling was reached (" + L.val(s, f, ["ceiling"]) + "): the instance answered at least "
            + L.val(s, f, ["by_lb", 0, "max_good_answered_qps"], 0, None) + " queries/s in full, a lower bound, not its capacity.")


def finding_udp_unshaped(b, key):
    """UDP unshaped: the ceiling and what stopped it (the verdict in words)."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    if L.ok(e) and L.num(_g(s, "ceiling_qps")):
        t = "Over UDP the instance"
        if L.num(_g(s, "testbed", "server", "cpu_budget", "budget")):
            t += ", its servers limited to " + L.val(s, f, ["testbed", "server", "cpu_budget", "budget"]) + " CPU each,"
        t += " answered up to " + L.val(s, f, ["ceiling_qps"], 0, None) + " queries/s with no link shaping"
        rt = L.range_text(s, f, ["ceiling_low_qps"], ["ceiling_high_qps"])
        if rt != "":
            t += " (its ceiling lies " + rt + ")"
        vs = _g(s, "verdict", "summary")
        t += ("; what stopped it: " + L.val(s, f, ["verdict", "summary"]) + ".") if truthy(vs) else "."
        t += L.limit_owner(s, f, ["verdict"])
        t += L.per_cpu_sentence(s, f)
        return [t]
    if L.ok(e):
        return [udp_no_ceiling(s, f, "with no link shaping")]
    return []


def finding_udp_shaped(b, key):
    """UDP shaped as in the paper: the ceiling, the answer size, the paper's."""
    e = b["exps"][key]
    s, f, p = e.get("summary"), e.get("file"), b.get("paper")
    if L.ok(e) and L.num(_g(s, "ceiling_qps")):
        t = ("With the router&ndash;server link shaped to " + L.val(s, f, ["link_bps"], 0, 0.000001)
             + " Mbit/s as in the paper, the ceiling was " + L.val(s, f, ["ceiling_qps"], 0, None) + " queries/s")
        rt = L.range_text(s, f, ["ceiling_low_qps"], ["ceiling_high_qps"])
        if rt != "":
            t += " (" + rt + ")"
        t += " at " + L.val(s, f, ["mean_answer_wire_bytes"], 0, None) + " bytes per answer on the wire"
        if _g(s, "physics_check", "link_limited") is True:
            t += ", which is what the link carries: the link, not the servers, set it"
        elif L.num(_g(s, "physics_check", "ratio")):
            t += " (measured / what the link carries: " + L.val(s, f, ["physics_check", "ratio"], 2, None) + ")"
        t += (" (the paper: " + L.val(p, "paper.json", ["udp", "ceiling_qps", "juniper"]) + " and "
              + L.val(p, "paper.json", ["udp", "ceiling_qps", "cisco"]) + " queries/s).")
        return [t]
    if L.ok(e):
        return [udp_no_ceiling(s, f, "on the link shaped to " + L.val(s, f, ["link_bps"], 0, 0.000001) + " Mbit/s as in the paper,")]
    return []


# ------------------------------------------------------------ the section interface
# (e: the experiment's registry entry, whose variant says whether the link
# was shaped)

def udp_note(variant):
    """What the run's link means for its ceiling, in words."""
    if variant == "shaped":
        return ("The router&ndash;server link is shaped to the paper's link rate (see the link rate below), so this is the ceiling"
                " of an instance whose link limits it, as the paper's did.")
    if variant == "unshaped":
        return ("No link shaping: the ceiling here is where the servers (or the rig) break when the link does not. Compare it with"
                " the shaped ceiling above: the difference is the headroom the servers have over the paper's link.")
    return ""


def _title(e):
    h = e.get("heading")
    return h if truthy(h) else e.get("title")


def section(b, e):
    return udp_section(b, e["name"], _title(e), udp_note(e.get("variant")))


def udp_short(x, variant):
    """The Finding's short sentence: the ceiling, what set it, and what a
    client saw."""
    s, f = x.get("summary"), x.get("file")
    v = _g(s, "verdict")
    cb, mech = _g(v, "caused_by"), _g(v, "mechanism")
    if not L.num(_g(s, "ceiling_qps")):
        t = ("Over UDP" + (", unshaped" if variant == "unshaped" else " on the paper's " + L.val(s, f, ["link_bps"], 0, 0.000001) + " Mbit/s link")
             + ": no ceiling reached; at least " + L.val(s, f, ["by_lb", 0, "max_good_answered_qps"], 0, None) + " queries/s answered (a bound)")
    elif variant == "unshaped":
        t = "Over UDP, unshaped: up to " + L.val(s, f, ["ceiling_qps"], 0, None) + " queries/s answered"
        if cb == "server" and (mech == "queue" or mech == "burst"):
            t += ", where a server's queue overflowed with its CPU to spare (not its CPU's capacity)"
        elif mech == "burst":
            t += ", where the generator's burst overflowed a server's queue (not the servers' capacity)"
        elif mech == "stall":
            t += ", where a stall of the server CPU overflowed its queue (not the servers' capacity)"
        elif cb == "server" and _g(v, "server_own") is not False:
            t += ", the servers' own limit"
        elif cb == "server":
            t += ", where the server CPU ran out (the rig's work on it included)"
        elif truthy(cb):
            t += ", set by the " + L.val(s, f, ["verdict", "caused_by"]) + ", not the servers"
    else:
        t = ("Over UDP on the paper's " + L.val(s, f, ["link_bps"], 0, 0.000001) + " Mbit/s link: "
             + L.val(s, f, ["ceiling_qps"], 0, None) + " queries/s")
        if _g(s, "physics_check", "link_limited") is True:
            t += ", all the link carries"
    return t + P.probe_short(s, f, "udp", "q/s") + "."


def findings(b, e):
    x = b["exps"][e["name"]]
    if e.get("variant") == "unshaped":
        sentences = finding_udp_unshaped(b, e["name"])
    else:
        sentences = finding_udp_shaped(b, e["name"])
    return [L.finding(udp_short(x, e.get("variant")), [t + P.probe_finding(x.get("summary"), x.get("file"), "udp", "q/s")])
            for t in sentences]


def family_rows(b, e):
    e4, e6 = L.fam_pair(b, e)
    return (L.fam_row("status", e4, e6, ["status"], None, None)
            + L.fam_row("ceiling, answered q/s", e4, e6, ["ceiling_qps"], 0, None)
            + L.fam_row("most answered q/s at ratio above the threshold", e4, e6, ["by_lb", 0, "max_good_answered_qps"], 0, None)
            + L.fam_row("mean answer on the wire, bytes", e4, e6, ["mean_answer_wire_bytes"], 1, None)
            + L.fam_row("layer that lost the first answers", e4, e6, ["verdict", "layer"], None, None))


def per_cpu_rows(b, e):
    """Only the unshaped ceiling has a figure per CPU: a shaped link's
    ceiling is the link's."""
    x = b["exps"][e["name"]]
    if e.get("variant") == "unshaped" and _g(x, "summary", "per_cpu") is not None:
        return [{"name": "UDP, %s" % to_text(e.get("variant")), "s": x["summary"], "f": x.get("file"), "path": ["per_cpu"],
                 "fig": "qps_per_cpu", "unit": "answers/s"}]
    return []


def latency_rows(b, e):
    """The sweep's row of "Latency and availability (RSSAC047)"."""
    x = b["exps"][e["name"]]
    if x.get("summary") is None:
        return []
    short = e.get("short")
    return [P.latency_row(short if truthy(short) else e["name"], x["summary"], x.get("file"), "q/s")]

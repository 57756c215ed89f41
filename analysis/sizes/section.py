"""Response sizes: its section of the report and its Findings sentences,
through the section interface at the end of this file (rootbench.report's
sections). Every value is tagged for analysis/report-check."""

import re

from rootbench.jqtext import to_text, truthy
from rootbench.report import lib as L


def _g(x, *path):
    """jq's x.a.b[0]: null through null, an error through another type
    (a summary the page cannot read stops the page)."""
    return L.get(x, *path)


def size_variants(s):
    """The summary's variants, an object {name: {...}} or an array
    [{name|variant: ...}], as [{name, path}]."""
    vs = _g(s, "variants")
    if isinstance(vs, dict):
        return [{"name": k, "path": ["variants", k]} for k in vs]
    if isinstance(vs, list):
        out = []
        for i, v in enumerate(vs):
            name = _g(v, "name")
            if not truthy(name):
                name = _g(v, "variant")
            if not truthy(name):
                name = to_text(i)
            out.append({"name": name, "path": ["variants", i]})
        return out
    return []


def paper_size_key(name):
    """The paper's test a variant compares with, or None."""
    if re.search("unsigned", name):
        return "unsigned"
    if re.search("300", name):
        return "signed_300k"
    if re.search("signed", name):
        return "signed"
    return None


def sizes_table(s, f, p):
    """One row per zone variant: bytes per query in and out, the growth over
    unsigned, and the paper's where it has the variant (its column empty
    otherwise)."""
    vs = size_variants(s)
    if not vs:
        return "<p>Per-variant bytes: %s</p>" % L.nm()
    out = ('<table class="cmp"><caption>Bytes per query on the wire (SNMP, the router\'s server port), by zone variant</caption>'
           "<tr><th>zone variant</th><th>queries</th><th>bytes per query in</th><th>bytes per query out</th><th>growth of answers vs unsigned</th>"
           "<th>paper %s: out per query</th><th>ratio this run / paper</th></tr>" % L.val(p, "paper.json", ["sizes", "section"]))
    for v in vs:
        k = paper_size_key(v["name"])
        vp = v["path"]
        out += ('<tr><th><code class="meta">%s</code></th>' % L.esc(v["name"])
                + "<td>%s</td>" % L.val(s, f, vp + ["queries"])
                + "<td>%s</td>" % L.val(s, f, vp + ["bytes_per_query_in"], 1, None)
                + "<td>%s</td>" % L.val(s, f, vp + ["bytes_per_query_out"], 1, None)
                + "<td>%s</td>" % ("+" + L.val(s, f, vp + ["growth_vs_unsigned"], 1, 100) + " %"
                                   if L.num(L.at(s, vp + ["growth_vs_unsigned"])) else ""))
        if k is None:
            out += "<td></td><td></td>"
        else:
            pp = ["sizes", "tests", k, "bytes_per_query_out"]
            out += ("<td>%s</td>" % L.val(p, "paper.json", pp, 1, None)
                    + "<td>%s</td>" % L.calc("ratio", L.ref(s, f, vp + ["bytes_per_query_out"]), L.ref(p, "paper.json", pp), 2, None))
        out += "</tr>"
    return out + "</table>"


def _paper_share(p, q, key, round_):
    """A share of one of the paper's rows in percent, or "" when it has none."""
    return L.val(p, "paper.json", q + [key], round_, 100) + "%" if truthy(L.at(p, q + [key])) else ""


def sizes_section(b, key, heading):
    e = b["exps"][key]
    s, f, p = e.get("summary"), e.get("file"), b.get("paper")
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), L.status_badge(e))
    out += L.status_text(e, "the sizes experiment")
    if s is None:
        return out + "</section>"
    out += L.figures(e)
    out += sizes_table(s, f, p)
    if L.num(_g(p, "sizes", "growth_vs_unsigned")):
        out += ("<p>The paper's answers grew by " + L.val(p, "paper.json", ["sizes", "growth_vs_unsigned"], 0, 100)
                + " % when the zone was signed.</p>")
    out += ("<details><summary>What is measured</summary><p>The same query set is sent slowly (so every query is answered) once to servers "
            "with the unsigned root zone and once with a DNSSEC-signed one. The switch's SNMP octet counters on the router's server-side port "
            "give the bytes on the wire in both directions; divided by the number of queries they give bytes per query. The growth of the "
            "answers is what signing costs in bandwidth. The paper (" + L.val(p, "paper.json", ["sizes", "section"]) + ") found less growth "
            "than expected, because many queries, especially those answered NXDOMAIN, do not ask for DNSSEC records (no OPT record or DO bit "
            "clear), so their answers do not grow; the tables of response codes, DO/OPT shares and advertised EDNS sizes (the data page) test "
            "that explanation on this run's query set.</p></details>")
    out += "<details><summary>Each variant beside the paper, in bytes</summary>"
    for v in size_variants(s):
        k = paper_size_key(v["name"])
        vp = v["path"]

        def paper(field):
            return ["sizes", "tests", k, field] if truthy(k) else None

        out += ('<h4>Variant <code class="meta">%s</code></h4>' % L.esc(v["name"]) + L.cmp_head(L.val(p, "paper.json", ["sizes", "section"]))
                + L.cmp_row("queries", s, f, vp + ["queries"], None, None, p, paper("queries"), None)
                + L.cmp_row("bytes in (queries, SNMP)", s, f, vp + ["bytes_in"], None, None, p, paper("bytes_in"), None)
                + L.cmp_row("bytes out (answers, SNMP)", s, f, vp + ["bytes_out"], None, None, p, paper("bytes_out"), None)
                + L.cmp_row("bytes per query in", s, f, vp + ["bytes_per_query_in"], 1, None, p, paper("bytes_per_query_in"), None)
                + L.cmp_row("bytes per query out", s, f, vp + ["bytes_per_query_out"], 1, None, p, paper("bytes_per_query_out"), None))
        if k is not None and k != "unsigned":
            out += L.cmp_row("growth of answers vs unsigned, %", s, f, vp + ["growth_vs_unsigned"], 1, 100, p,
                             ["sizes", "growth_vs_unsigned"], None)
        out += "</table>"
    out += "</details>"
    out += ('<details><summary>The paper\'s tables (response codes, queries without DNSSEC, EDNS sizes)</summary><div class="pair">'
            '<table class="csv"><caption>%s</caption>' % L.val(p, "paper.json", ["sizes", "rcodes", "section"])
            + L.head_row(["rcode", "", "unsigned", "share", "signed", "share"]))
    for i in range(len(_g(p, "sizes", "rcodes", "rows"))):
        q = ["sizes", "rcodes", "rows", i]
        out += ("<tr><td>%s</td><td>%s</td><td>" % (L.val(p, "paper.json", q + ["code"]), L.val(p, "paper.json", q + ["name"]))
                + "%s</td><td>" % L.val(p, "paper.json", q + ["unsigned"])
                + "%s</td><td>" % _paper_share(p, q, "unsigned_share", 1)
                + "%s</td><td>" % L.val(p, "paper.json", q + ["signed"])
                + "%s</td></tr>" % _paper_share(p, q, "signed_share", 1))
    out += ('<tr><th colspan="2">total</th><td>%s</td><td></td><td>' % L.val(p, "paper.json", ["sizes", "rcodes", "total", "unsigned"])
            + "%s</td><td></td></tr></table>" % L.val(p, "paper.json", ["sizes", "rcodes", "total", "signed"]))
    out += ('<table class="csv"><caption>%s</caption>' % L.val(p, "paper.json", ["sizes", "no_dnssec", "section"])
            + "<tr><td>NXDOMAIN</td><td>%s%%</td></tr>" % L.val(p, "paper.json", ["sizes", "no_dnssec", "nxdomain"], 0, 100)
            + "<tr><td>NOERROR</td><td>%s%%</td></tr>" % L.val(p, "paper.json", ["sizes", "no_dnssec", "noerror"], 0, 100)
            + "<tr><td>overall</td><td>%s%%</td></tr></table>" % L.val(p, "paper.json", ["sizes", "no_dnssec", "overall"], 0, 100))
    out += ('<table class="csv"><caption>%s</caption>' % L.val(p, "paper.json", ["sizes", "edns_sizes", "section"])
            + L.head_row(["EDNS size", "count", "share"]))
    for i in range(len(_g(p, "sizes", "edns_sizes", "rows"))):
        q = ["sizes", "edns_sizes", "rows", i]
        out += ("<tr><td>%s</td><td>%s</td><td>" % (L.val(p, "paper.json", q + ["size"]), L.val(p, "paper.json", q + ["count"]))
                + "%s</td></tr>" % _paper_share(p, q, "share", 0))
    out += "</table></div></details>"
    lab = _g(b, "labels", s.get("experiment")) if isinstance(s.get("experiment"), str) else None
    out += L.settings_table(s, f, lab if truthy(lab) else {}) + L.more_link(key, e)
    return out + "</section>"


def finding_sizes(b, key):
    """Sizes: the paper's signing against unsigned, then every other
    variant, in one sentence."""
    e = b["exps"][key]
    s, f, p = e.get("summary"), e.get("file"), b.get("paper")
    if not (L.ok(e) and L.num(_g(s, "variants", "unsigned", "bytes_per_query_out"))
            and L.num(_g(s, "variants", "signed", "bytes_per_query_out"))):
        return []
    others = [L.val(s, f, ["variants", k, "zone_variant"]) + " +" + L.val(s, f, ["variants", k, "growth_vs_unsigned"], 1, 100) + " %"
              for k, v in s["variants"].items()
              if k != "unsigned" and k != "signed" and L.num(_g(v, "growth_vs_unsigned"))]
    t = "Signing the zone as the paper did"
    if truthy(_g(s, "variants", "signed", "zone_variant")):
        t += " (" + L.val(s, f, ["variants", "signed", "zone_variant"]) + ")"
    t += (" raised the bytes sent per query from " + L.val(s, f, ["variants", "unsigned", "bytes_per_query_out"], 1, None)
          + " to " + L.val(s, f, ["variants", "signed", "bytes_per_query_out"], 1, None)
          + " (+" + L.val(s, f, ["variants", "signed", "growth_vs_unsigned"], 1, 100) + " %; the paper: +"
          + L.val(p, "paper.json", ["sizes", "growth_vs_unsigned"], 0, 100) + " %), so a link carries that many fewer answers per second")
    if others:
        t += "; other signings: " + ", ".join(others)
    return [t + "."]


# ------------------------------------------------------------ the section interface
# (e: the experiment's registry entry)

def section(b, e):
    h = e.get("heading")
    return sizes_section(b, e["name"], h if truthy(h) else e.get("title"))


def findings(b, e):
    """The growth signing brings, in short, before the sentence."""
    x = b["exps"][e["name"]]
    s, f = x.get("summary"), x.get("file")
    return [L.finding("Signing as the paper did makes each answer " + L.val(s, f, ["variants", "signed", "growth_vs_unsigned"], 1, 100)
                      + " % larger in bytes (the paper: " + L.val(b.get("paper"), "paper.json", ["sizes", "growth_vs_unsigned"], 0, 100) + " %).",
                      [t])
            for t in finding_sizes(b, e["name"])]


def family_rows(b, e):
    e4, e6 = L.fam_pair(b, e)
    out = L.fam_row("status", e4, e6, ["status"], None, None)
    v4, v6 = _g(e4, "summary", "variants"), _g(e6, "summary", "variants")
    v4 = v4 if truthy(v4) else {}
    v6 = v6 if truthy(v6) else {}
    for v in v4:
        if v not in v6:
            continue
        name = '<code class="meta">%s</code>' % L.esc(v)
        out += (L.fam_row(name + ": bytes per query in", e4, e6, ["variants", v, "bytes_per_query_in"], 1, None)
                + L.fam_row(name + ": bytes per query out", e4, e6, ["variants", v, "bytes_per_query_out"], 1, None)
                + L.fam_row(name + ": growth of answers vs unsigned, %", e4, e6, ["variants", v, "growth_vs_unsigned"], 1, 100))
    return out

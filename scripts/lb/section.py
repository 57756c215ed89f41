"""TCP load-balancer stickiness: its section of the report and its
Findings sentences through the section interface at the end of this file
(rootbench.report.sections; every value is tagged for
analysis/report-check)."""

from rootbench.jqtext import to_text
from rootbench.report.lib import (alt, cmp_head, cmp_row, esc, fam_pair, fam_row, figures, finding, get, in_object, more_link,
                                  ok, settings_table, status_badge, status_text, val)


def _keys(x):
    return sorted(x, key=lambda k: k.encode())


def lb_section(b, key, heading):
    e = b["exps"].get(key)
    s, f, p = get(e, "summary"), get(e, "file"), b.get("paper")
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), status_badge(e)) + status_text(e, "the load-balancer check")
    if s is None:
        return out + "</section>"
    out += ((figures(e) if len(e.get("figures") or []) > 0 else "")
            + cmp_head(val(p, "paper.json", ["lb", "section"]))
            + "<tr><th>verdict</th><td>%s</td><td></td><td></td><td></td></tr>" % val(s, f, ["verdict"])
            + cmp_row("client source addresses", s, f, ["sources"], None, None, p, ["lb", "sources"], None)
            + cmp_row("TCP queries", s, f, ["queries"], None, None, p, None, None)
            # rootbench.lb/1 holds these as objects ({total, refused, ...},
            # {count, sample}): the figure is their total or count
            + cmp_row("failed queries", s, f, in_object(["failed"], s, "total"), None, None, p, ["lb", "failed"], None)
            + cmp_row("sources seen by both servers (overlap)", s, f, in_object(["overlap_sources"], s, "count"), None, None, p,
                      ["lb", "overlap_sources"], None)
            + cmp_row("connections split across servers", s, f, in_object(["split_connections"], s, "count"), None, None, p,
                      ["lb", "split_connections"], None))
    ps = get(s, "per_server")
    if isinstance(ps, dict):
        for k in _keys(ps):
            sub = ["per_server", k] + (["sources"] if isinstance(ps[k], dict) else [])
            out += (cmp_row("sources on %s (paper: Juniper)" % k, s, f, sub, None, None, p, ["lb", "per_server", "juniper", k], None)
                    + cmp_row("sources on %s (paper: Cisco)" % k, s, f, sub, None, None, p, ["lb", "per_server", "cisco", k], None))
    out += ("</table>"
            + "<details><summary>What is measured</summary><p>DNS over TCP needs every packet of a connection to reach the same server; a balancer that splits a "
            + "connection breaks it. Many client source addresses each make TCP queries; both servers record which sources reached them. The verdict is "
            + "<em>pass</em> only when every query succeeded, no source reached both servers (overlap) and no connection was split. The paper ("
            + "%s) found both routers sticky and the sources shared about evenly between the two servers. A per-packet " % val(p, "paper.json", ["lb", "section"])
            + "balancer, which must fail this check, is its negative control.</p></details>"
            + "".join('<p>Text report: <a href="%s"><code>%s</code></a></p>' % (esc(t), esc(t)) for t in e.get("texts") or [])
            + settings_table(s, f, alt((b.get("labels") or {}).get(get(s, "experiment")), {})) + more_link(key, e)
            + "</section>")
    return out


def lb_card(b, key):
    """The verdict as the report's first screen shows it (the experiment
    has no figure): pass or fail, and the counts that decide it."""
    e = b["exps"].get(key)
    s, f = get(e, "summary"), get(e, "file")
    v = get(s, "verdict")
    if v is None or v is False:
        return ""
    return ('<div class="card %s"><div class="verdict">Load balancer: ' % ("pass" if v.lower() == "pass" else "fail")
            + val(s, f, ["verdict"]) + "</div>"
            + "<p>Does every TCP connection stay on one server? Of " + val(s, f, ["sources"]) + " client sources, "
            + val(s, f, in_object(["overlap_sources"], s, "count")) + " reached both servers; "
            + val(s, f, in_object(["split_connections"], s, "count")) + " connections were split; "
            + val(s, f, in_object(["failed"], s, "total")) + " queries failed.</p></div>")


def finding_lb(b, key):
    """LB: the stickiness verdict and the three figures that decide it."""
    e = b["exps"].get(key)
    s, f = get(e, "summary"), get(e, "file")
    v = get(s, "verdict")
    if not (ok(e) and v is not None and v is not False):
        return []
    return ["The load balancer's stickiness check gave " + val(s, f, ["verdict"])
            + ("" if v.lower() == "pass" else " (every TCP connection must stay on one server: DNS over TCP breaks through this balancer)")
            + ": of " + val(s, f, ["sources"]) + " client sources, "
            + val(s, f, in_object(["overlap_sources"], s, "count")) + " reached both servers, "
            + val(s, f, in_object(["split_connections"], s, "count")) + " TCP connections were split across servers and "
            + val(s, f, in_object(["failed"], s, "total")) + " queries failed."]


# ------------------------------------------------------------ the section interface
# (rootbench.report.sections; e: the experiment's registry entry)

def section(b, e):
    return lb_section(b, e["name"], alt(e.get("heading"), e.get("title")))


def findings(b, e):
    """The verdict and the split connections, in short, before the sentence."""
    x = b["exps"].get(e["name"])
    s, f = get(x, "summary"), get(x, "file")
    return [finding("The load balancer's stickiness: " + val(s, f, ["verdict"]) + ", "
                    + val(s, f, in_object(["split_connections"], s, "count")) + " TCP connections split across servers.", [t])
            for t in finding_lb(b, e["name"])]


def family_rows(b, e):
    e4, e6 = fam_pair(b, e)
    rows = [("verdict", ["verdict"]), ("balancer", ["lb"]), ("client source addresses", ["sources"]), ("TCP queries", ["queries"]),
            ("failed queries", ["failed", "total"]), ("sources seen by both servers", ["overlap_sources", "count"]),
            ("connections split across servers", ["split_connections", "count"]),
            ("router IPv6 hash policy (net.ipv6.fib_multipath_hash_policy)", ["flow_label", "router_hash_policy"]),
            ("sources whose connections carried several flow labels", ["flow_label", "sources_with_several_labels"]),
            ("of them on both servers", ["flow_label", "of_them_on_both_servers"]),
            ("connections whose flow label changed", ["flow_label", "connections_label_changed"]),
            ("flow label in the hash (measured)", ["flow_label", "measured_in_hash"])]
    return "".join(fam_row(w, e4, e6, p, None, None) for w, p in rows)


def family_note(b, e):
    """What IPv6 adds for the balancer, the flow label, and what the IPv6
    run found of it."""
    e6 = fam_pair(b, e)[1]
    out = "<p>IPv6 adds the flow label: whether the router hashes it decides whether one source's connections can reach both servers (docs/lb-verify.md).</p>"
    fl = get(e6, "summary", "flow_label", "finding")
    if fl is not None and fl is not False:
        out += "<p>Flow label: %s</p>" % val(e6["summary"], e6["file"], ["flow_label", "finding"])
    return out


def headline(b, e):
    return lb_card(b, e["name"])

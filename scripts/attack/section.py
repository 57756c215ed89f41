"""Under attack: its section of the report and its Findings sentences,
through the section interface at the end of this file (rootbench.report's
sections). Every value is tagged for analysis/report-check. It reads the
summary (scripts/attack/rules.py's attack_judged) only."""


from rootbench.experiment import sibling
from rootbench.jqtext import to_text, truthy
from rootbench.report import lib as L
from rootbench.report import probe as P


# the summary's schema (this folder's rules.py)
rules = sibling(__file__, "rules")

KIND_WORDS = {"random-subdomain": "random-subdomain flood", "reflection-dnskey": "DNSKEY reflection", "reflection-any": "ANY reflection",
              "syn-flood": "SYN flood", "conn-hold": "connection hold"}
SERVER_NAMES = {"nsd": "NSD", "knot": "Knot DNS", "bind": "BIND 9"}


def _g(x, *path):
    """jq's x.a.b[0]: null through null, an error through another type
    (a summary the page cannot read stops the page)."""
    return L.get(x, *path)


def _order(x):
    """A value's place in jq's order (null, false, true, numbers, strings),
    for sorting and grouping by a server's name or a rate."""
    if x is None:
        return (0, 0)
    if x is False:
        return (1, 0)
    if x is True:
        return (2, 0)
    if L.num(x):
        return (3, x)
    if isinstance(x, str):
        return (4, x)
    raise ValueError("the attack summary sorts by names and rates, not %r" % (x,))


def attack_kind_words(k):
    w = KIND_WORDS.get(k) if isinstance(k, str) else None
    return w if truthy(w) else k


def attack_server_name(k):
    w = SERVER_NAMES.get(k) if isinstance(k, str) else None
    return w if truthy(w) else k


def attack_step_cells(s, f, i, j):
    """The cells of step j of series i."""
    p = ["series", i, "steps", j]
    x = _g(s, "series", i, "protocol")
    return [L.val(s, f, p + ["requested_rate"], 0, None),
            L.val(s, f, p + ["achieved_rate"], 0, None)
            + (" <small>(generator-limited)</small>" if truthy(_g(s, "series", i, "steps", j, "generator_limited")) else ""),
            L.val(s, f, p + ["answered_rate"], 0, None), L.val(s, f, p + ["amplification"], 1, None),
            L.val(s, f, p + ["legit", x, "availability"], 3, None), L.val(s, f, p + ["legit", x, "p50_ms"], 2, None),
            L.val(s, f, p + ["legit", x, "p99_ms"], 2, None),
            L.val(s, f, p + ["collateral", "full_share"], 3, None), L.val(s, f, p + ["collateral", "slipped"], 0, None),
            L.val(s, f, p + ["background", "answered_share"], 3, None), L.val(s, f, p + ["server_cpu_pct"], 1, None)]


def attack_table(s, f):
    """One row per series (server, defences, attack): where the legitimate
    client held RSSAC047, and its highest step's figures."""
    out = ('<table class="cmp">'
           + L.head_row(["server", "defences", "attack", "legitimate client: " + P.rssac047_name() + " held up to, attack/s", "first failure",
                         "highest step: asked, /s", "counted at the router, /s", "attack answered, /s", "amplification, bytes out / in",
                         "legitimate availability", "legitimate median, ms", "legitimate " + P.p99_name() + ", ms",
                         "collateral client answered in full", "collateral slipped (TC)", "background answered", "server CPU, %"]))
    series = s.get("series")
    for i, ser in enumerate(series if truthy(series) else []):
        j = len(ser.get("steps") or []) - 1
        out += ("<tr><th>" + L.val(s, f, ["series", i, "server"]) + "</th><td>" + L.val(s, f, ["series", i, "defence_name"]) + "</td><td>"
                + L.val(s, f, ["series", i, "kind"]) + "</td><td>")
        probe = ser.get("probe")
        if probe is None:
            out += L.nm()
        elif truthy(_g(probe, "rssac047", "held_to_highest")):
            out += "held to the highest, " + L.val(s, f, ["series", i, "probe", "rssac047", "highest"], 0, None)
        else:
            out += L.val(s, f, ["series", i, "probe", "rssac047", "held_up_to"], 0, None)
        out += "</td><td>"
        if not truthy(_g(probe, "rssac047", "first_fail")):
            out += "none"
        else:
            out += (L.val(s, f, ["series", i, "probe", "rssac047", "first_fail", "offered"], 0, None) + "/s: "
                    + P.probe_failed_text(s, f, ["series", i, "probe"]))
        out += "</td>" + "".join("<td>%s</td>" % c for c in attack_step_cells(s, f, i, j)) + "</tr>"
    return out + "</table>"


def attack_section(b, key, heading):
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    if not truthy(e.get("dir_exists")):
        return ""
    out = '<section id="%s"><h2>%s %s</h2>' % (to_text(key), to_text(heading), L.status_badge(e))
    out += L.status_text(e, "the attack experiment")
    if s is not None:
        rules.attack_summary_checked(s)
        out += L.figures(e)
        out += attack_table(s, f)
        out += ("<p>Each step is one flood from the testbed's own ranges (kxdpgun), bounded in time and count, while the legitimate client (the "
                + P.rssac047_name() + " probe, UDP and TCP <code>. SOA</code> at " + L.val(s, f, ["settings", "probe_udp_rate"])
                + " queries/s each) measures what is left: it is judged in the attack's protocol, at the attack rate the router counted. With "
                "the defences on the servers run response rate limiting (" + L.val(s, f, ["settings", "rrl_rate"])
                + " answers/s per prefix, slip " + L.val(s, f, ["settings", "rrl_slip"])
                + '), SYN cookies and a short TCP idle timeout. The collateral client asks from inside the victims\' <span class="meta">/24</span>, '
                "the prefix RRL counts them by; "
                "the background is the root trace from one address (as one busy resolver, which RRL limits too), answered share at the "
                "Listener.</p>")
        out += ("<p>Every step's figures (the attack asked and counted, answered, amplified; the legitimate, collateral and background "
                "clients; the server CPU; the servers' SYN counters): the data page.</p>")
    out += ("<details><summary>What is measured</summary><p>Random-subdomain floods (NXDOMAIN with NSEC proofs on the signed root) come from a "
            "player's own block; reflections (<code>. DNSKEY</code>, <code>. ANY</code>) from spoofed victim addresses whose answers the router "
            "delivers to the sink, which counts them; amplification is the switch's octets out on the sink's port over the octets in on the "
            "attacker's. SYN floods and held connections load the servers' TCP. Nothing leaves the testbed's ranges "
            "(docs/attack.md).</p></details>")
    out += L.more_link(key, e)
    return out + "</section>"


def attack_held_clause(s, f, p, x, d):
    """Where the legitimate client held under one attack (effect x at path p)
    with the defences d ("on"/"off")."""
    out = to_text(attack_kind_words(x.get("kind"))) + " "
    if truthy(_g(x, "held_to_highest", d)):
        return out + "to the highest rate, " + L.val(s, f, p + ["held_up_to", d], 0, None) + "/s"
    if _g(x, "held_up_to", d) is None:
        return out + "at no rate"
    return out + "up to " + L.val(s, f, p + ["held_up_to", d], 0, None) + "/s"


def attack_findings(b, key):
    """One sentence per server: where its legitimate client held RSSAC047
    under each attack with the defences on and off, whether SYN cookies
    brought its TCP back, and the amplification of a DNSKEY reflection
    without and with RRL."""
    e = b["exps"][key]
    s, f = e.get("summary"), e.get("file")
    schema = _g(s, "schema")
    if s is None or (schema if truthy(schema) else None) != rules.attack_schema():
        return []
    effects = s.get("effects")
    entries = list(enumerate(effects if truthy(effects) else []))
    groups = []
    for k, x in sorted(entries, key=lambda kx: _order(_g(kx[1], "server"))):
        if groups and _order(_g(groups[-1][0][1], "server")) == _order(_g(x, "server")):
            groups[-1].append((k, x))
        else:
            groups.append([(k, x)])
    amplification = s.get("amplification")
    out = []
    for xs in groups:
        srv = _g(xs[0][1], "server")
        amp = [(k, a) for k, a in enumerate(amplification if truthy(amplification) else [])
               if _g(a, "server") == srv and _g(a, "kind") == "reflection-dnskey" and L.num(_g(a, "median"))]
        syn = next(((k, x) for k, x in xs if _g(x, "kind") == "syn-flood"), None)

        def least(d):
            held = [kx for kx in xs if _g(kx[1], "held_up_to", d) is None]
            k, x = (held + sorted(xs, key=lambda kx: _order(_g(kx[1], "held_up_to", d))))[0]
            if _g(x, "held_up_to", d) is None:
                return "no rate"
            return L.val(s, f, ["effects", k, "held_up_to", d], 0, None) + "/s"

        name = to_text(attack_server_name(srv))
        short = ("Under attack, " + name + "'s legitimate client kept " + P.rssac047_name() + "'s thresholds up to "
                 + least("on") + " of every attack with the defences on, " + least("off") + " without.")
        more = ("Under attack, " + name + "'s legitimate client kept " + P.rssac047_name() + "'s thresholds with the defences on under "
                + ", ".join(attack_held_clause(s, f, ["effects", k], x, "on") for k, x in xs)
                + "; without them under " + ", ".join(attack_held_clause(s, f, ["effects", k], x, "off") for k, x in xs))
        if syn is not None:
            recovered = _g(syn[1], "recovered")
            if recovered is True:
                more += ("; SYN cookies brought its TCP availability back to at least "
                         + L.val(s, f, ["effects", syn[0], "availability_min"]))
            elif recovered is False:
                more += "; SYN cookies did not bring its TCP availability back to " + L.val(s, f, ["effects", syn[0], "availability_min"])
        if not amp:
            more += "."
        else:
            more += ("; a DNSKEY reflection was amplified "
                     + ", ".join(L.val(s, f, ["amplification", k, "median"], 1, None) + " times in bytes "
                                 + ("with RRL" if _g(a, "defence") == "on" else "without RRL") for k, a in amp) + ".")
        out.append(L.finding(short, [more]))
    return out


# ------------------------------------------------------------ the section interface
# (e: the experiment's registry entry)

def section(b, e):
    h = e.get("heading")
    return attack_section(b, e["name"], h if truthy(h) else e.get("title"))


def findings(b, e):
    return attack_findings(b, e["name"])


def latency_rows(b, e):
    """A row per series: the legitimate client against the attack rate."""
    x = b["exps"][e["name"]]
    d = x.get("summary")
    if d is None:
        return []
    series = d.get("series")
    return [{"name": "under attack: %s, %s, defences %s" % (to_text(_g(ser, "server")), to_text(_g(ser, "kind")), to_text(_g(ser, "defence"))),
             "s": d, "f": x.get("file"), "path": ["series", i, "probe"], "unit": "attack packets/s"}
            for i, ser in enumerate(series if truthy(series) else []) if _g(ser, "probe") is not None]

"""The building blocks of the report (rootbench.report.page, .findings,
.data and every experiment's section.py use them): escaping, number
formatting, and val, which shows a value of a results file tagged with its
source (data-src) for analysis/report-check to verify. No number is typed
here.

Each function keeps the name and argument order of the jq it replaced, so
that the pages stay byte-identical: jq 1.6's number text (jqtext), its
round (half away from zero), its @html, its truth (only null and false are
false: 0 and "" are true) and its paths(scalars) (a null or false leaf is
not a path).
"""

import math
import re

from rootbench.jqtext import number_text, to_json, to_text, truthy


class JqError(Exception):
    """What stopped a jq page: the report dies with it."""


def num(x):
    """jq's type "number" (a bool is not one, though Python says so)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def jtype(x):
    """jq's type name of a JSON value."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if num(x):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    return "object"


def alt(a, b):
    """jq's a // b: a unless it is null or false."""
    return a if truthy(a) else b


def jround(x):
    """jq 1.6's round (C's): half away from zero."""
    a = abs(x)
    r = math.floor(a)
    if a - r >= 0.5:
        r += 1
    return math.copysign(float(r), x)


# ------------------------------------------------------------ formatting

_HTML = str.maketrans({"<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&" + "apos;", '"': "&quot;", "\n": "&#10;"})


def esc(x):
    """tostring | @html, a newline as &#10;."""
    return to_text(x).translate(_HTML)


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def pathstr(path):
    """A path (list of keys and indices) as a jq expression (.a.b[0]["x-y"])."""
    out = "".join("[%s]" % number_text(k) if num(k)
                  else "." + k if _IDENT.fullmatch(k)
                  else "[%s]" % to_json(k) for k in path)
    return out if out.startswith(".") else "." + out


def fixed(x, n):
    """x rounded to n decimals, as text with exactly n decimals."""
    if n is None or n == 0:
        return to_text(jround(x) if n == 0 else x)
    neg = x < 0
    i = number_text(jround((-x if neg else x) * math.pow(10, n)))
    p = "0" * max((n + 1) - len(i), 0) + i
    return ("-" if neg and re.search("[1-9]", p) else "") + p[:len(p) - n] + "." + p[len(p) - n:]


def shown(x, round_, scale):
    if num(x):
        return fixed(x * alt(scale, 1), round_)
    return to_text(x)


def attrs(round_, scale):
    return ((' data-round="%s"' % to_text(round_)) if round_ is not None else "") \
        + ((' data-scale="%s"' % to_text(scale)) if scale is not None else "")


def nm():
    return '<span class="nm">not measured</span>'


def at(doc, path):
    """The value at path, or None where the path leads through something
    that is not an object (string key) or array (number index)."""
    for k in path:
        if isinstance(doc, dict) and isinstance(k, str):
            doc = doc.get(k)
        elif isinstance(doc, list) and num(k):
            k = int(math.floor(k))
            doc = doc[k] if -len(doc) <= k < len(doc) else None
        else:
            doc = None
    return doc


def get(x, *path):
    """jq's .a.b[0]: null through null, an error through a value of another
    type (a summary the page cannot read stops the page, as jq's did)."""
    for k in path:
        if x is None:
            continue
        if isinstance(x, dict) and isinstance(k, str):
            x = x.get(k)
        elif isinstance(x, list) and num(k):
            k = int(math.floor(k))
            x = x[k] if -len(x) <= k < len(x) else None
        else:
            raise JqError("Cannot index %s with %s" % (jtype(x), to_json(k)))
    return x


def getpath(doc, path):
    """jq's getpath: null through null, an error through a value of another type."""
    for k in path:
        if doc is None:
            return None
        if isinstance(doc, dict) and isinstance(k, str):
            doc = doc.get(k)
        elif isinstance(doc, list) and num(k):
            k = int(math.floor(k))
            doc = doc[k] if -len(doc) <= k < len(doc) else None
        else:
            raise JqError("Cannot index %s with %s" % (jtype(doc), to_json(k)))
    return doc


def val(doc, file, path, round_=None, scale=None):
    """The value at path of doc (loaded from file), tagged with its source."""
    v = at(doc, path)
    if v is None or isinstance(v, (dict, list)):
        # where the value would have come from: report-check verifies that
        # the file indeed holds none there
        if file is None:
            return nm()
        return '<span class="nm" data-nm="%s:%s">not measured</span>' % (to_text(file), esc(pathstr(path)))
    return '<span class="v" data-src="%s:%s"%s>%s</span>' % (
        to_text(file), esc(pathstr(path)), attrs(round_, scale), esc(shown(v, round_, scale)))


def calc(kind, a, b, round_, scale):
    """Ours against another value (the paper's, or another of ours); a, b: ref()s."""
    x = at(a["doc"], a["path"])
    y = at(b["doc"], b["path"])
    if not num(x) or not num(y) or (kind == "ratio" and y == 0):
        return '<span class="nm">–</span>'
    r = x / y if kind == "ratio" else x - y
    return ('<span class="v calc" data-calc="%s" data-a="%s:%s" data-b="%s:%s"'
            % (to_text(kind), to_text(a["file"]), esc(pathstr(a["path"])), to_text(b["file"]), esc(pathstr(b["path"])))
            + attrs(round_, scale) + ">"
            + ("+" if kind == "diff" and r > 0 else "")
            + esc(shown(r, round_, scale)) + "</span>")


def ref(doc, file, path):
    return {"doc": doc, "file": file, "path": path}


def range_text(doc, file, low, high):
    """A UDP ceiling's range of sent rates in words (every repetition held
    up to low, one failed at high), or "" when the summary holds none."""
    if num(at(doc, low)) and num(at(doc, high)):
        return "between " + val(doc, file, low, 0, None) + " and " + val(doc, file, high, 0, None) + " queries/s sent"
    return ""


def in_object(p, doc, key):
    """The path p, or key under it when doc holds an object there (a figure
    kept as {count, sample} in newer schemas). jq: p | in_object($doc; $key)."""
    return p + [key] if isinstance(at(doc, p), dict) else p


# ------------------------------------------------------------ building blocks

_COMMENT = re.compile(r"/\*[^*]*\*+([^/*][^*]*\*+)*/")


def css_for(css, page):
    """The style of page ("report" or "data") from the text of
    analysis/report.css: comments dropped, then the lines under
    "@page PAGE" and "@page both", joined without their newlines.
    jq: css | css_for($page)."""
    cur, out = None, ""
    for line in _COMMENT.sub("", css).split("\n"):
        line = re.sub(r"\s+$", "", re.sub(r"^\s+", "", line))
        if line == "":
            continue
        if line.startswith("@page "):
            cur = line[6:]
        elif cur == page or cur == "both":
            out += line
    return out


def fixture_banner(b):
    """Hand-written test data, said loudly on both pages."""
    if truthy(b.get("fixture")):
        return ('<p class="fixture">TEST FIXTURE: these results were written by hand for testing the report generator. They are NOT '
                "measurements.</p>\n")
    return ""


def status_badge(e):
    s = at(e, ["summary"])
    if s is None:
        if truthy(at(e, ["dir_exists"])):
            return '<span class="st missing">no summary.json</span>'
        return '<span class="st missing">not run</span>'
    st = alt(at(s, ["status"]), "unknown")
    return '<span class="st %s">%s</span>' % (esc(st), val(s, e.get("file"), ["status"]))


def status_text(e, what):
    s, f = at(e, ["summary"]), at(e, ["file"])
    if at(e, ["summary_error"]) is not None:
        return '<p class="err">The summary of this experiment is not valid JSON: <code>%s</code></p>' % esc(e["summary_error"])
    if s is None:
        return ('<p class="err">No results: ' + to_text(what) + " did not run in this results directory"
                + (" (its directory exists but holds no summary.json)" if truthy(at(e, ["dir_exists"])) else "")
                + ". Run it alone with <code>make %s RB_RUN=&lt;this directory&gt;</code> or run <code>make bench</code>.</p>"
                % esc(at(e, ["target"])))
    st = at(s, ["status"])
    if st == "failed":
        return '<p class="err">This experiment FAILED; what it reported:</p><pre class="err">%s</pre>' % val(s, f, ["error"])
    if st == "skipped":
        return '<p class="err">Not run on this testbed: %s</p>' % val(s, f, ["error"])
    if st == "interrupted":
        return ('<p class="err">Interrupted before it finished: the values below are what was measured until then.</p>'
                + ('<pre class="err">%s</pre>' % val(s, f, ["error"]) if truthy(at(s, ["error"])) else ""))
    return ""


def cmp_row(what, doc, file, path, round_, scale, pdoc, ppath, pnote):
    """One row "what | ours | paper | ours/paper | ours-paper"."""
    out = "<tr><th>%s</th><td>%s</td>" % (to_text(what), val(doc, file, path, round_, scale))
    if ppath is None:
        out += '<td class="nm">–</td><td></td><td></td>'
    else:
        out += ("<td>" + val(pdoc, "paper.json", ppath, round_, scale)
                + (" <small>(%s)</small>" % esc(pnote) if truthy(pnote) else "") + "</td>"
                + "<td>" + calc("ratio", ref(doc, file, path), ref(pdoc, "paper.json", ppath), 2, None) + "</td>"
                + "<td>" + calc("diff", ref(doc, file, path), ref(pdoc, "paper.json", ppath), round_, scale) + "</td>")
    return out + "</tr>"


def cmp_head(cite):
    return ('<table class="cmp"><tr><th></th><th>this run</th><th>paper %s</th><th>ratio this run / paper</th><th>difference</th></tr>'
            % to_text(cite))


def figure(fig):
    """One figure (a PNG, with its SVG/PDF linked), full width."""
    png = esc(at(fig, ["png"]))
    return ('<figure><a href="%s"><img src="%s" alt="%s"></a><figcaption><code>%s</code>' % (png, png, png, png)
            + (' · <a href="%s">SVG</a>' % esc(fig["svg"]) if truthy(at(fig, ["svg"])) else "")
            + (' · <a href="%s">PDF</a>' % esc(fig["pdf"]) if truthy(at(fig, ["pdf"])) else "")
            + "</figcaption></figure>")


def figures(e):
    """Every PNG found, one under the other, full width (a section opens with them)."""
    figs = at(e, ["figures"]) or []
    if len(figs) == 0:
        return '<p class="nm">No figures in this experiment\'s directory.</p>'
    return '<div class="figs">' + "".join(figure(x) for x in figs) + "</div>"


def data_page():
    """The page beside the report that holds every value of every summary
    and every table of the run (rootbench.report.data), checked by
    analysis/report-check as the report is."""
    return "report-data.html"


def more_link(key, e):
    """The way to everything the section does not show: the experiment's
    part of the data page, and its files."""
    out = '<p class="more">Every value and table of this experiment: <a href="%s#%s">the data page</a>' % (data_page(), esc(key))
    if at(e, ["summary"]) is not None:
        out += (', or its files (<a href="%s"><code>%s</code></a>' % (esc(e["file"]), esc(e["file"]))
                + "".join(', <a href="%s"><code>%s</code></a>' % (esc(t["file"]), esc(t["file"])) for t in e.get("tables") or [])
                + ")")
    return out + ".</p>"


def csv_table(t):
    """A table file as HTML, every cell tagged with FILE#ROW,COL."""
    f = esc(t["file"])
    out = '<h4><a href="%s"><code>%s</code></a></h4>' % (f, f)
    if gt(t.get("nrows"), t.get("limit")):
        return out + '<p><span class="v" data-src="%s#rows">%s</span> rows; too long to show here, see the file.</p>' % (f, to_text(t["nrows"]))
    return (out + '<table class="csv"><tr>' + "".join('<th class="meta">%s</th>' % esc(h) for h in t["header"]) + "</tr>"
            + "".join("<tr>" + "".join('<td><span class="v" data-src="%s#%d,%d">%s</span></td>' % (f, r + 1, c + 1, esc(v))
                                       for c, v in enumerate(row)) + "</tr>"
                      for r, row in enumerate(t["rows"]))
            + "</table>")


def tables(e, skip):
    return "".join(csv_table(t) for t in e.get("tables") or [] if t.get("name") not in skip)


def leaf_paths(doc):
    """jq's paths(scalars): the path of every leaf but a null or false one,
    depth first in the keys' order."""
    out = []

    def walk(v, p):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, p + [k])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, p + [i])
        elif p and v is not None and v is not False:
            out.append(p)
    walk(doc, [])
    return out


def values_table(doc, file, exclude):
    """Every scalar of a summary (but the keys in exclude), so a field the
    report does not know yet is still shown, and still checked."""
    ps = [p for p in leaf_paths(doc) if p[0] not in exclude]
    if not ps:
        return ""
    return ('<details><summary>All values in <code class="meta">%s</code></summary><table class="all">' % esc(file)
            + "".join('<tr><th><code class="meta">%s</code></th><td>%s</td></tr>' % (esc(pathstr(p)), val(doc, file, p)) for p in ps)
            + "</table></details>")


def _lab(lab, key):
    return lab.get(key) if isinstance(lab, dict) else None


def setting_value(doc, file, path, lab):
    """The setting at path (["settings", KEY]) in words: a scalar with its
    unit, a list joined, an object's leaves named by their labels (KEY.SUB
    in analysis/labels.json) or keys."""
    v = getpath(doc, path)
    lk = alt(_lab(lab, ".".join(to_text(k) for k in path[1:])), {})
    if v is None:
        return to_text(alt(at(lk, ["none"]), "none"))
    if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
        return ", ".join(val(doc, file, path + [i]) for i in range(len(v)))
    if isinstance(v, (list, dict)):
        parts = []
        for p in leaf_paths(v):
            name = alt(at(_lab(lab, ".".join(to_text(k) for k in path[1:] + p)), ["label"]), " ".join(to_text(k) for k in p))
            parts.append("%s: %s" % (esc(name), val(doc, file, path + p)))
        return "<br>".join(parts)
    unit = at(lk, ["unit"])
    return val(doc, file, path) + (" " + esc(unit) if truthy(unit) else "")


def settings_table(doc, file, lab):
    """An experiment's settings, one row per setting, named in words by lab
    (analysis/labels.json of its experiment) with the JSON key beside it; a
    setting without words is marked class="nolabel", which
    analysis/report-check rejects."""
    st = at(doc, ["settings"])
    if not isinstance(st, dict):
        return ""
    rows = ""
    for k in st:
        name = at(_lab(lab, k), ["label"])
        if truthy(name):
            rows += '<tr><th>%s <small><code class="meta">%s</code></small></th>' % (esc(name), esc(k))
        else:
            rows += '<tr class="nolabel"><th><code class="meta">%s</code> (no words for this setting in analysis/labels.json)</th>' % esc(k)
        rows += "<td>%s</td></tr>" % setting_value(doc, file, ["settings", k], lab)
    return '<details><summary>Settings</summary><table class="all settings">' + rows + "</table></details>"


def finding(short, more):
    """One Finding (rootbench.report.findings) as a manager reads it first:
    short, one short sentence (how many, where it breaks, why, what a
    client saw), and more, the sentences behind it (a list), folded under it."""
    return {"short": short, "more": more}


def ok(e):
    """The experiment ran and finished (interrupted results are partial:
    they are shown in their section, not summarised here)."""
    return at(e, ["summary", "status"]) == "ok"


def limit_owner(s, f, path):
    """"the servers' own limit" when the verdict at path blames the server,
    else says the rig set it."""
    v = getpath(s, path)
    if not isinstance(v, dict):
        return ""
    cb, mech = v.get("caused_by"), v.get("mechanism")
    if cb == "server" and v.get("server_own") is False:
        return (" The server CPU ran out, but the figure is not shown to be the servers' own: the rig's share of that CPU was above its"
                " limit or not measured (above).")
    if cb == "server" and mech in ("queue", "burst"):
        return (" The servers lost it, but with their CPU to spare (" + val(s, f, path + ["server_cpu_busy_pct"], 1, None)
                + " % busy): a queue overflowed, so this is where their queues overflow, not their CPU's capacity.")
    if cb == "generator" and mech == "burst":
        return (" The servers lost it in a burst the generator sent (" + val(s, f, path + ["arrivals", "lost_in_burst"], 0, None) + " of the "
                + val(s, f, path + ["arrivals", "lost"], 0, None)
                + " queries lost came while the arrivals ran a receive ring ahead of their local mean rate): "
                + "the generator's limit, not the servers' capacity.")
    if cb == "host" and mech == "stall":
        return (" The servers lost it while their CPU stalled (" + val(s, f, path + ["arrivals", "lost_in_stall"], 0, None) + " of the "
                + val(s, f, path + ["arrivals", "lost"], 0, None) + " queries lost): the host's stall, not the servers' capacity.")
    if cb == "server":
        return " This is the servers' own limit."
    return " This limit is the test rig's (" + val(s, f, path + ["caused_by"]) + "), not the servers' capacity."


def generator_text(s, f, name, version):
    """Which generator made the load, and what that means for the figure
    (kxdpgun: counted at the router and the daemons, no latency; tcpreplay
    and tcpbench: the paper's)."""
    g = getpath(s, name)
    if not isinstance(g, str):
        return ""
    return ("<p><b>Generator.</b> " + val(s, f, name)
            + (" (" + val(s, f, version) + ")" if isinstance(getpath(s, version), str) else "")
            + (": Knot DNS's generator, sending through AF_XDP at about a third of the paper's generators' CPU per query; what it sent is "
               "counted at the router, what was answered at the server daemons, and its own summary only checked against them; it measures no latency"
               if g == "kxdpgun" else ": the paper's generator")
            + ".</p>")


def rig_charge_text(s, f, path):
    """The rig's share of the server CPU at the points that set the figure
    (scripts/lib/charge.jq, at path), in words; "" when the summary has none."""
    c = getpath(s, path)
    if not isinstance(c, dict):
        return ""
    if alt(c.get("measured_points"), 0) == 0:
        return ("<p><b>The server CPU's work.</b> The rig's share of the server CPU was " + nm()
                + " (CPU_CHARGE): the figure may include the rig's forwarding of the answers.</p>")
    return ("<p><b>The server CPU's work.</b> At the points that set the figure the rig's forwarding (the switch's bridge, the router) took up to "
            + val(s, f, path + ["max"], 1, 100) + " % of the server CPU's busy time (median " + val(s, f, path + ["median"], 1, 100)
            + " %; perf's call graphs on the server CPU)"
            + (": <b>above " + val(s, f, path + ["limit"], 0, 100) + " %, so the figure includes the rig's work and is not the server's own</b>"
               if c.get("own") is False else
               ": at most " + val(s, f, path + ["limit"], 0, 100) + " %, the figure is the server's own")
            + ".</p>")


def per_cpu_sentence(s, f):
    """The ceiling per CPU of the server, when the summary has one (the
    server limited, its receive path on its CPU), with the daemons' budget:
    a budgeted rate is never the unbudgeted server's."""
    if not num(at(s, ["per_cpu", "qps_per_cpu"])):
        return ""
    return (" Per CPU of the server that is " + val(s, f, ["per_cpu", "qps_per_cpu"], 0, None)
            + " answers/s (the ceiling over the server CPU's " + val(s, f, ["per_cpu", "server_cpu_busy_pct"], 1, None) + " % busy"
            + (", the daemons limited to " + val(s, f, ["per_cpu", "budget"])
               + " CPU each; a whole CPU's figure is this projection, not a measurement)."
               if num(at(s, ["per_cpu", "budget"])) else ")."))


# ------------------------------------------------------------ IPv4 beside IPv6

def fam_pair(b, e):
    """The IPv4 and IPv6 runs of the registry entry e (<name>/ and <name>-v6/ of the bundle)."""
    exps = at(b, ["exps"]) or {}
    return [exps.get(e["name"]), exps.get(e["name"] + "-v6")]


def fam_row(what, e4, e6, path, round_, scale):
    """One figure of an experiment over IPv4 (e4) and IPv6 (e6), with the
    ratio IPv6 / IPv4 and the difference when both are numbers."""
    s4, f4, s6, f6 = at(e4, ["summary"]), at(e4, ["file"]), at(e6, ["summary"]), at(e6, ["file"])
    return ("<tr><th>%s</th><td>%s</td><td>%s</td>" % (to_text(what), val(s4, f4, path, round_, scale), val(s6, f6, path, round_, scale))
            + "<td>%s</td>" % calc("ratio", ref(s6, f6, path), ref(s4, f4, path), 3, None)
            + "<td>%s</td></tr>" % calc("diff", ref(s6, f6, path), ref(s4, f4, path), round_, scale))


def fam_head():
    return '<table class="cmp"><tr><th></th><th>IPv4</th><th>IPv6</th><th>ratio IPv6 / IPv4</th><th>difference</th></tr>'


def in_order(entries, names):
    """The registry entries, those named in names first in that order, then
    the others in the registry's order."""
    return ([x for n in names for x in entries if x.get("name") == n]
            + [x for x in entries if x.get("name") not in names])


# ------------------------------------------------------------ rows
# Small pieces the pages' tables are built from (HTML given, not escaped).

def kv_row(name, value, *note):
    """A row of a key-value table; kv_row(name, value, note) with a third
    cell (the paper's, or "")."""
    if not note:
        return "<tr><th>%s</th><td>%s</td></tr>" % (to_text(name), to_text(value))
    return "<tr><th>%s</th><td>%s</td><td>%s</td></tr>" % (to_text(name), to_text(value), to_text(note[0]))


def head_row(names):
    return "<tr>" + "".join("<th>%s</th>" % to_text(n) for n in names) + "</tr>"


def cells_row(cells):
    return "<tr>" + "".join("<td>%s</td>" % to_text(c) for c in cells) + "</tr>"


def paper_note(text):
    """A third cell's note, what the paper had."""
    return "<small>paper: %s</small>" % to_text(text)


# ------------------------------------------------------------ jq's order

def _rank(x):
    return ["null", "boolean", "number", "string", "array", "object"].index(jtype(x))


def cmp(a, b):
    """jq's order of two values: null < false < true < numbers < strings <
    arrays < objects; -1, 0, 1."""
    ra, rb = _rank(a), _rank(b)
    if ra != rb or ra == 0:
        return (ra > rb) - (ra < rb)
    if ra == 1 or ra == 2:
        return (a > b) - (a < b)
    if ra == 3:
        # jq compares strings by their UTF-8 bytes
        x, y = a.encode(), b.encode()
        return (x > y) - (x < y)
    if ra == 4:
        for x, y in zip(a, b):
            c = cmp(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    ka, kb = sorted(a, key=str.encode), sorted(b, key=str.encode)
    c = cmp(ka, kb)
    if c:
        return c
    for k in ka:
        c = cmp(a[k], b[k])
        if c:
            return c
    return 0


def gt(a, b):
    """jq's a > b, over any two values."""
    return cmp(a, b) > 0


def max_by(items, key):
    """jq's max_by: the last of the largest by key, None when empty."""
    best, bk, first = None, None, True
    for x in items:
        k = key(x)
        if first or cmp(k, bk) >= 0:
            best, bk, first = x, k, False
    return best


def pretty(value, indent=0):
    """jq's pretty output (two spaces), numbers and strings as jq writes them."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        return "{\n" + ",\n".join(pad + to_json(k) + ": " + pretty(v, indent + 1) for k, v in value.items()) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(pad + pretty(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return to_json(value)

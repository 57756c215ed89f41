"""analysis/report-check: verify a results directory's report.html, and
the data page report-data.html beside it, against its files.

What must hold (exit 1 and a list of every violation otherwise):
 - report.html exists and is not empty; everything below holds for it and
   for report-data.html when that exists;
 - every local file the page shows or links (img src, a href) exists and
   is not empty;
 - every value tagged data-src="FILE:JQPATH" equals that value of FILE
   (numbers within the rounding the tag declares with data-round/-scale;
   strings exactly); data-src="FILE#ROW,COL" equals that cell of the CSV
   table FILE, data-src="FILE#rows" its number of data rows;
 - every derived value (data-calc="ratio|diff" of data-a and data-b)
   equals the ratio/difference recomputed from the files;
 - a value shown as "not measured" (data-nm="FILE:JQPATH") is indeed
   absent there: FILE holds null or nothing at that path;
 - no section of the page repeats: section ids are unique, no h2/h3
   heading repeats within a section, no h4 within its h3;
 - every setting is named in words: no row marked class="nolabel";
 - no number of two or more digits appears in the page's text outside
   those tags (and those marked class="meta": directory name, time):
   nothing is typed into the page.
Prints "report-check: N values, M files verified" when all hold (both
pages together). The page is read as the shell tools of the first
checker read it (a page is one line to the tag and number searches, a
line each to the link and setting searches), so that what is counted and
said stays the same.
"""

import os
import re
import sys

from rootbench.jqtext import number_text, to_json, to_number, to_text
from rootbench.report.bundle import parsed

PROG = "report-check"
# the only data-src paths looked up (plain paths: .a.b[0]["x-y"])
PATH_RE = re.compile(r'\A(\.|(\.[A-Za-z_][A-Za-z0-9_]*|\.?\[[0-9]+\]|\.?\["[^"\\]*"\])+)\Z')
PLAIN_RE = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]|\["([^"\\]*)"\]')
TAG_RE = re.compile(r'<span [^>]*data-(src|calc)="[^"]*"[^>]*>[^<]*</span>')
HEAD_RE = re.compile(r'<h[2-4][^>]*>[^<]*(<[^/][^>]*>[^<]*</[a-z]+>[^<]*)*</h[2-4]>')


def _read(p):
    with open(p, encoding="utf-8", errors="surrogateescape") as fh:
        return fh.read()


def _sorted_unique(xs):
    return sorted(set(xs))


def html_decode(s):
    for a, b in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"), ("&" + "apos;", "'"), ("&#10;", "\n"), ("&amp;", "&")):
        s = s.replace(a, b)
    return s


def dec(s):
    """Undo the page's escaping (lib.esc)."""
    if "&" not in s:
        return s
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    s = re.sub("&#39;|&" + "apos;", "'", s)
    return s.replace("&#10;", "\n").replace("&#9;", "\t").replace("&amp;", "&")


def _attr(s, name):
    m = re.search(" " + name + '="[^"]*"', s)
    if not m:
        return "-"
    v = m.group(0)[len(name) + 3:-1]
    return v if v != "" else "-"


def tagged_elements(page):
    """One list of fields per tagged span: src calc a b round scale text
    (empty attributes as "-", empty text as "<empty>")."""
    out = []
    for m in TAG_RE.finditer(page.replace("\n", "\r")):
        t = m.group(0)
        i = t.index(">")
        op, text = t[:i + 1], t[i + 1:][:-len("</span>")]
        text = text.replace("\t", "\t#9;")
        line = "\t".join([_attr(op, "data-src"), _attr(op, "data-calc"), _attr(op, "data-a"), _attr(op, "data-b"),
                          _attr(op, "data-round"), _attr(op, "data-scale"), text if text != "" else "<empty>"])
        out.append(line)
    return out


def _lines(text):
    ls = text.split("\n")
    return ls[:-1] if ls and ls[-1] == "" else ls


def csv_cells(run, files, problem, page):
    cells = {}
    for f in files:
        if f == "":
            continue
        p = os.path.join(run, f)
        if not os.path.isfile(p):
            problem("%s reads %s, which is missing" % (page, f))
            continue
        n = 0
        for line in _lines(_read(p)):
            if line.startswith("#") or line == "":
                continue
            n += 1
            for c, v in enumerate(line.split(","), 1):
                cells["%s#%d,%d" % (f, n, c)] = v
        cells["%s#rows" % f] = "%d" % n
    return cells


def _getpath(doc, path):
    """jq's getpath, None where it would fail."""
    for k in path:
        if doc is None:
            return None
        if isinstance(doc, dict) and isinstance(k, str):
            doc = doc.get(k)
        elif isinstance(doc, list) and isinstance(k, (int, float)) and not isinstance(k, bool):
            k = int(k)
            doc = doc[k] if -len(doc) <= k < len(doc) else None
        else:
            return None
    return doc


def plain_path(p):
    out = []
    for m in PLAIN_RE.finditer(p):
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(float(m.group(2)))
        else:
            out.append(m.group(3))
    return out


def ref_file(r):
    return r.split(":")[0]


def ref_path(r):
    return re.sub(r"^[^:]*:", "", r, count=1)


def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def shown_ok(shown, v, round_, scale):
    """The text shown is the value, at its rounding and scale (a number
    within half a unit of the last digit)."""
    if _num(v):
        t = shown[1:] if shown.startswith("+") else shown
        try:
            s = to_number(t)
        except ValueError:
            s = None
        x = v * (1 if scale == "-" else to_number(scale))
        eps = 1e-9 * max(abs(x), 1)
        tol = eps if round_ == "-" else 0.5 * 10.0 ** -to_number(round_) + eps
        return s is not None and abs(s - x) <= tol
    return to_text(v) == shown


def page_problems(page, run, elements, refs, nmrefs, cells):
    files = _sorted_unique([ref_file(r) for r in refs + nmrefs])
    docs = {}
    for f in files:
        p = os.path.join(run, f)
        if os.path.isfile(p):
            v = parsed(_read(p)).get("ok")
            docs[f] = {"exists": True, "doc": None if v is False else v}
        else:
            docs[f] = {"exists": False, "doc": None}
    nm = [r for r in nmrefs if docs[ref_file(r)]["exists"]]

    def impure(rs):
        return ["%s: not a plain jq path" % r for r in rs if not PATH_RE.search(dec(ref_path(r)))]

    def unreadable(rs):
        return ["%s reads %s, which is missing or not JSON" % (page, f) for f in _sorted_unique(ref_file(r) for r in rs)
                if docs[f]["doc"] is None]

    def lookup(rs):
        out = {}
        for r in rs:
            p = dec(ref_path(r))
            if not PATH_RE.search(p):
                continue
            d = docs[ref_file(r)]["doc"]
            if d is None:
                continue
            out[r] = _getpath(d, plain_path(p))
        return out
    out = impure(refs) + unreadable(refs)
    j = lookup(refs)
    for line in elements:
        fs = line.split("\t")
        src, calc, a, b, round_, scale = fs[:6]
        shown = "" if fs[6] == "<empty>" else dec(fs[6])
        if calc != "-":
            x, y = j.get(a), j.get(b)
            if not _num(x) or not _num(y):
                out.append("%s of %s and %s: not two numbers in the files" % (calc, a, b))
                continue
            v = x / y if calc == "ratio" else x - y
            if not shown_ok(shown, v, round_, scale):
                out.append("%s of %s and %s shown as '%s', computed %s" % (calc, a, b, shown, number_text(v)))
        elif "#" in src:
            if src not in cells:
                out.append("%s: no such cell in the file" % src)
            elif cells[src] != shown:
                out.append("%s shown as '%s', file has '%s'" % (src, shown, cells[src]))
        else:
            v = j.get(src)
            if v is None:
                out.append("%s: no such value in the file" % src)
            elif not shown_ok(shown, v, round_, scale):
                out.append("%s shown as '%s', file has %s" % (src, shown, to_json(v)))
    out += impure(nm) + unreadable(nm)
    for k, v in lookup(nm).items():
        if v is not None:
            out.append("%s holds %s but the page shows it as not measured" % (k, to_json(v)[0:80]))
    return out


def check_sections(text):
    """No section id twice, no h2/h3 heading twice in a section, no h4
    twice under one h3."""
    out, seen = [], {}
    for sec in text.replace("\n", " ").replace("<section ", "\n<section ").split("\n"):
        if not sec.startswith("<section "):
            continue
        m = re.search(r'id="[^"]*"', sec)
        sid = m.group(0)[4:-1] if m else ""
        seen[sid] = seen.get(sid, 0) + 1
        if seen[sid] > 1:
            out.append("section %s appears twice" % sid)
        h, sub3 = {}, ""
        for m in HEAD_RE.finditer(sec):
            t = m.group(0)
            # an h4 belongs to the h3 above it (each configuration has its
            # own "Verdict"): unique within that h3
            if t.startswith("<h3"):
                sub3 = t
            k = sub3 + t if t.startswith("<h4") else t
            h[k] = h.get(k, 0) + 1
            if h[k] > 1:
                out.append("section %s: heading %s%s appears twice" % (sid, t, " under " + sub3 if t.startswith("<h4") and sub3 != "" else ""))
    return out


def stray_numbers(text):
    """Every number of two or more digits in the page's text outside the
    tags (grep -oE '.{0,30}[0-9]{2,}.{0,10}', leftmost-longest)."""
    s = text.replace("\n", " ")
    s = re.sub(r"<style>[^<]*</style>", "", s, count=1)
    s = re.sub(r'<span [^>]*data-(src|calc)="[^"]*"[^>]*>[^<]*</span>', "", s)
    s = re.sub(r'<[a-z]+ class="meta"[^>]*>[^<]*</[a-z]+>', "", s)
    s = re.sub(r"<[^>]*>", "", s)
    s = re.sub(r"&[a-z]+;|&#[0-9]+;", " ", s)
    n = len(s)
    run = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        run[i] = run[i + 1] + 1 if "0" <= s[i] <= "9" else 0
    out, i = [], 0
    while i < n:
        # the first start from which a digit pair lies within 30 characters
        best = -1
        for a in range(0, 31):
            if i + a < n and run[i + a] >= 2:
                best = max(best, min(i + a + run[i + a] + 10, n))
        if best < 0:
            i += 1
            continue
        out.append(s[i:best])
        i = best
    return out


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.split("\n\n")[0].split(": ", 1)[1])
        return 0
    if not argv or argv[0] == "":
        sys.stderr.write("%s: usage: report-check RESULTS_DIR\n" % PROG)
        return 1
    run = argv[0]
    if not (os.path.isfile(os.path.join(run, "report.html")) and os.path.getsize(os.path.join(run, "report.html")) > 0):
        sys.stderr.write("%s: error: no report.html in %s\n" % (PROG, run))
        return 1
    problems = [0]

    def problem(msg):
        sys.stderr.write("%s: %s\n" % (PROG, msg))
        problems[0] += 1
    checked_values = checked_files = 0
    # The report, and the data page beside it when there is one (the
    # report's links to it are checked as every link is).
    pages = ["report.html"] + (["report-data.html"] if os.path.lexists(os.path.join(run, "report-data.html")) else [])
    for page in pages:
        text = _read(os.path.join(run, page))
        # values
        els = tagged_elements(text)
        checked_values += len(els)
        fields = [e.split("\t") for e in els]
        refs = _sorted_unique([x for f in fields for x in ([f[0]] if f[0] != "-" and "#" not in f[0] else [])
                               + ([f[2]] if f[2] != "-" else []) + ([f[3]] if f[3] != "-" else [])])
        csvrefs = _sorted_unique([f[0].split("#")[0] for f in fields if f[0] != "-" and "#" in f[0]])
        nmrefs = _sorted_unique(m.group(0)[9:-1] for m in re.finditer(r'data-nm="[^"]*"', text.replace("\n", "\r")))
        cells = csv_cells(run, csvrefs, problem, page)
        for p in page_problems(page, run, els, refs, nmrefs, cells):
            for line in p.split("\n"):
                problem(line)
        # sections
        for p in check_sections(text):
            problem(p)
        # settings' words
        lines = text.split("\n")
        for k in _sorted_unique(m.group(0).rsplit(">", 1)[1] for line in lines
                                for m in re.finditer(r'<tr class="nolabel"><th><code class="meta">[^<]*', line)):
            problem("setting %s has no words in analysis/labels.json: the page shows its JSON key" % k)
        # files
        links = _sorted_unique(re.sub(r'"$', "", re.sub(r'^ (src|href)="', "", m.group(0)))
                               for line in lines for m in re.finditer(r' (src|href)="[^"]*"', line))
        for f in [x for link in links for x in _lines(html_decode(link) + "\n")]:
            if f.startswith(("http:", "https:", "#", "mailto:")):
                continue
            f = f.split("#")[0]
            checked_files += 1
            p = os.path.join(run, f)
            try:
                okf = os.stat(p).st_size > 0
            except OSError:
                okf = False
            if not okf:
                problem("%s shows %s, which is missing or empty" % (page, f))
        # numbers typed in
        for line in stray_numbers(text):
            problem("number not read from the results: ...%s..." % line)
    if checked_values == 0:
        problem("no tagged value at all in the page")
    if problems[0] > 0:
        sys.stderr.write("%s: %d problems in %s (%s)\n" % (PROG, problems[0], run, " ".join(pages)))
        return 1
    print("%s: %d values, %d files verified" % (PROG, checked_values, checked_files))
    return 0

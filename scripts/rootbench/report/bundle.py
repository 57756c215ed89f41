"""The bundle the pages are rendered from: everything a results directory
holds for the report, read once (every experiment of the registry and its
IPv6 run: summary, figures, CSV tables, texts, the summaries of its
subdirectories; the testbed, the bench, the zone manifests, the paper's
values, the settings' words and the registry)."""

import json
import os

from rootbench.report.jqparse import fromjson

CSV_ROW_LIMIT = 40


def _const(name):
    raise ValueError("not JSON for jq: " + name)


def parsed(text):
    """A text's JSON as {"ok": value} or {"err": jq's message}, as jq's
    fromjson reads it (what jq's --rawfile gave it: invalid UTF-8 as
    U+FFFD). Python's json reads what both read; a text it refuses (not
    JSON, or NaN, several values) goes through jqparse, jq's own parser,
    so that what is accepted and the message stay jq's."""
    try:
        return {"ok": json.loads(text, parse_constant=_const)}
    except (ValueError, RecursionError):
        pass
    return fromjson(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode("utf-8"))


def blank(text):
    return text.strip(" \t\r\n") == ""


def json_or_null(text):
    """A file's JSON, or None when it is empty, not JSON, null or false."""
    v = parsed(text).get("ok")
    return None if v is False else v


def summary_of(text):
    """{summary, summary_error} of an experiment's summary.json text."""
    if blank(text):
        return {"summary": None, "summary_error": None}
    p = parsed(text)
    if "ok" in p:
        return {"summary": p["ok"], "summary_error": None}
    return {"summary": None, "summary_error": "parse error: " + p["err"]}


def table(f, name, text, limit):
    """A CSV table as the report shows it."""
    lines = [x for x in text.split("\n") if len(x) > 0]
    head = next((x for x in lines if x.startswith("#")), "")
    head = head[1:].lstrip(" ") if head.startswith("#") else head
    header = head.split(",") if head != "" else []
    rows = [x.split(",") for x in lines if not x.startswith("#")]
    return {"file": f, "name": name, "header": header, "rows": [] if len(rows) > limit else rows,
            "nrows": len(rows), "limit": limit}


def _read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        return fh.read()


def _files(top, suffix):
    """find TOP -name '*SUFFIX' -type f | sort"""
    out = []
    for d, dirs, names in os.walk(top):
        for n in names:
            p = os.path.join(d, n)
            if n.endswith(suffix) and os.path.isfile(p) and not os.path.islink(p):
                out.append(p)
    return sorted(out)


def _nonempty(p):
    return os.path.isfile(p) and os.path.getsize(p) > 0


def experiment(run, name, target, limit):
    """One experiment's part of the bundle."""
    d = os.path.join(run, name)
    if not os.path.isdir(d):
        return {"file": name + "/summary.json", "target": target, "dir_exists": False, "summary": None, "summary_error": None,
                "figures": [], "tables": [], "texts": [], "subs": {}}
    s = os.path.join(d, "summary.json")
    sm = summary_of(_read(s)) if os.path.isfile(s) else {"summary": None, "summary_error": None}
    rel = lambda p: os.path.relpath(p, run)
    figs = []
    for f in _files(d, ".png"):
        base = f[:-4]
        figs.append({"png": rel(f), "svg": rel(base) + ".svg" if _nonempty(base + ".svg") else None,
                     "pdf": rel(base) + ".pdf" if _nonempty(base + ".pdf") else None})
    subs = {}
    for k in sorted(os.listdir(d)):
        p = os.path.join(d, k, "summary.json")
        if os.path.isdir(os.path.join(d, k)) and os.path.isfile(p) and not os.path.islink(p):
            subs[k] = p
    subs = {k: {"summary": json_or_null(_read(subs[k]))} for k in sorted(subs, key=lambda k: subs[k])}
    return {"file": name + "/summary.json", "target": target, "dir_exists": True, "summary": sm["summary"],
            "summary_error": sm["summary_error"], "figures": figs,
            "tables": [table(rel(f), os.path.relpath(f, d), _read(f), limit) for f in _files(d, ".csv")],
            "texts": [rel(f) for f in _files(d, ".txt")], "subs": subs}


def is_fixture(run):
    """Hand-written test data (a FIXTURE file, or a testbed or summary
    saying fixture: true), which the page must say loudly; as jq -e read
    them: a file missing or not JSON makes it not a fixture."""
    if os.path.lexists(os.path.join(run, "FIXTURE")):
        return True
    files = [os.path.join(run, "testbed.json")] + sorted(
        os.path.join(run, n, "summary.json") for n in os.listdir(run)
        if not n.startswith(".") and os.path.exists(os.path.join(run, n, "summary.json")))
    if len(files) == 1:
        return False
    found = False
    for f in files:
        try:
            t = _read(f)
        except OSError:
            return False
        if blank(t):
            continue
        p = parsed(t)
        if "ok" not in p:
            return False
        v = p["ok"]
        if isinstance(v, dict) and v.get("fixture") is True:
            found = True
    return found


def bundle(top, run, paper_file, generated):
    """The bundle of the results directory run (an absolute path)."""
    with open(os.path.join(top, "scripts/lib/experiments.json")) as fh:
        registry = json.load(fh)
    with open(paper_file) as fh:
        paper = json.load(fh)
    with open(os.path.join(top, "analysis/labels.json")) as fh:
        labels = json.load(fh)
    exps = {}
    names = [(e["name"], e["target"]) for e in registry["experiments"]] \
        + [(e["name"] + "-v6", e["target"]) for e in registry["experiments"] if e.get("v6")]
    for n, t in names:
        exps[n] = experiment(run, n, t, CSV_ROW_LIMIT)

    def one(n):
        p = os.path.join(run, n + ".json")
        return json_or_null(_read(p)) if _nonempty(p) else None
    zones = {}
    zd = os.path.join(run, "zones")
    if os.path.isdir(zd):
        for n in sorted(x for x in os.listdir(zd) if x.endswith(".json") and not x.startswith(".")):
            p = os.path.join(zd, n)
            if not os.path.isfile(p):
                continue
            t = _read(p)
            if blank(t):
                continue
            v = parsed(t)
            if "ok" in v:
                zones[n[:-5]] = v["ok"]
    return {"run": os.path.basename(run), "generated": generated, "fixture": is_fixture(run),
            "testbed": one("testbed"), "bench": one("bench"), "zones": zones,
            "paper": paper, "labels": labels, "registry": registry["experiments"], "order": registry.get("report_order") or {},
            "exps": exps}

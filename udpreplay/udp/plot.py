"""udp-plot: Figures 2/3 of the paper from a UDP run's points.csv:
  udp-answered.{png,svg}  answers/s received by the Listener vs queries/s sent
  udp-ratio.{png,svg}     answer ratio vs queries/s sent
  udp-latency.{png,svg}   the probe's latency vs queries/s offered, when the
                          summary has a probe block (scripts/lib/probe-plot.sh)
One curve per LB mode; generator-limited points drawn apart (open grey
marks, labelled) and never as server results.

  udpreplay/udp/plot results/<run>/udp
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

if __name__ == "__main__":
    # run by path (-I -S): the package rootbench beside it
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from rootbench import settings as settings_rules  # noqa: E402
from rootbench.jqtext import to_text  # noqa: E402
from rootbench.plot import gnuplot_figure  # noqa: E402
from rootbench.lifecycle import RunError  # noqa: E402
from rootbench.experiment import load_path  # noqa: E402

points = load_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "points.py"))

PROG = "udp-plot"
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
FORMATS = ("png", "svg", "pdf")
# points.csv's columns the split reads (1-based, as udp.gp names them:
# udpreplay/udp/points.py declares them)
COL_LB, COL_ACHIEVED, COL_GENLIM = (points.COLUMN[c] for c in ("lb", "achieved_qps", "generator_limited"))
LATENCY_TITLE = "How long does a client wait, as RSSAC047 measures it?"


def log(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr, flush=True)


def _general_numeric(s):
    """sort -g's key of a field: its leading number, -inf for none."""
    m = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", s)
    return float(m.group(0)) if m else float("-inf")


def split_points(text, folder):
    """folder/<lb>.csv (valid points) and folder/<lb>-gen.csv
    (generator-limited), rows as in points.csv, by LB and then by achieved
    rate (sort -t, -k1,1 -k3,3g, the whole row last); every LB's two files
    written, empty ones too. Returns the LB modes in that order."""
    rows = [r for r in text.split("\n") if r and not r.startswith("#")]

    def field(r, i):
        f = r.split(",")
        return f[i - 1] if i <= len(f) else ""
    rows.sort(key=lambda r: (field(r, COL_LB).encode(), _general_numeric(field(r, COL_ACHIEVED)), r.encode()))
    out, lbs = {}, []
    for r in rows:
        lb = field(r, COL_LB)
        if lb not in lbs:
            lbs.append(lb)
        name = lb + ("-gen" if field(r, COL_GENLIM) == "1" else "")
        out.setdefault(name, []).append(r)
    for lb in lbs:
        for name in (lb, lb + "-gen"):
            with open(os.path.join(folder, name + ".csv"), "w", encoding="utf-8") as f:
                f.write("".join(r + "\n" for r in out.get(name, [])))
    return lbs


def summary_fields(path):
    """(link, wire, thr, ceil, gen) from the summary as gnuplot is given them;
    each its default when the summary is missing or not an object."""
    try:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
    except (OSError, ValueError):
        s = None
    if not isinstance(s, dict):
        return "0", "0", "0.998", "0", ""
    settings = s.get("settings")
    settings = settings if isinstance(settings, dict) else {}

    def field(v, default):
        return to_text(default if v is None or v is False else v)
    gen = field(settings.get("generator"), "")
    return (field(s.get("link_bps"), 0), field(s.get("mean_answer_wire_bytes"), 0),
            field(settings.get("threshold"), 0.998), field(s.get("ceiling_qps"), 0),
            re.sub(r"[^A-Za-z0-9._-]", "", gen))


def paper_ceilings(link):
    """The paper's ceilings ([(who, q/s)]) when the link is shaped to the
    paper's rate (analysis/paper.json), else none."""
    with open(os.path.join(TOP, "analysis", "paper.json"), encoding="utf-8") as f:
        udp = json.load(f)["udp"]
    try:
        same = float(link) == udp.get("link_bps")
    except ValueError:
        return []
    if not same:
        return []
    return [(k, to_text(v)) for k, v in udp["ceiling_qps"].items()]


def figures_wanted():
    """False with FIGURES=off; a FIGURES its table does not allow refused
    (scripts/lib/plot.sh's rule)."""
    figures = os.environ.get("FIGURES") or "on"
    table = settings_rules.read_table(os.path.join(TOP, "scripts", "lib", "settings.json"))
    entry = [e for e in table["settings"] if e["name"] == "FIGURES"][0]
    bad = settings_rules.value_error(entry, figures)
    if bad:
        raise RunError(bad)
    return figures != "off"


def render(script, out, gvars):
    """out.png, .svg and .pdf from the gnuplot script given gvars (as
    plot_render of scripts/lib/plot.sh: each written whole, gnuplot's
    warnings of an empty series dropped)."""
    style = os.path.join(TOP, "scripts", "lib", "style.gp")
    name = os.path.basename(out)
    for term in FORMATS:
        gnuplot_figure(script, os.path.relpath(script, TOP), gvars, style, out, name, term)


def probe_plot(summary, out):
    """The probe's latency figure (scripts/lib/probe-plot.sh, the TCP
    sweep's too), when the summary has a probe block."""
    sh = ('. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/scripts/lib/plot.sh"; . "$RB_TOP/scripts/lib/probe-plot.sh"; '
          'probe_plot "$@"')
    p = subprocess.run(["bash", "-c", sh, "_", summary, out, LATENCY_TITLE, "q/s"],
                       env=dict(os.environ, RB_TOP=TOP, RB_PROG=PROG))
    if p.returncode != 0:
        raise SystemExit(p.returncode)


def plot(exp):
    """The figures of the run in folder exp."""
    points = exp + "/points.csv"
    if not (os.path.isfile(points) and os.path.getsize(points) > 0):
        raise RunError("no points in %s" % points)
    if shutil.which("gnuplot") is None:
        raise RunError("missing gnuplot: run make deps")
    with open(points, encoding="utf-8") as f:
        text = f.read()
    work = tempfile.mkdtemp(prefix="rb-udp-plot.", dir="/tmp")
    try:
        lbs = split_points(text, work)
        if not lbs:
            raise RunError("no points in %s" % points)
        summary = exp + "/summary.json"
        link, wire, thr, ceil, gen = summary_fields(summary)
        paper = paper_ceilings(link)
        wanted = figures_wanted()
        for fig in ("answered", "ratio"):
            if not wanted:
                log("FIGURES=off: no udp-%s figure" % fig)
                continue
            render(os.path.join(HERE, "udp.gp"), os.path.join(exp, "udp-" + fig),
                   "fig='%s'; dir='%s'; lbs='%s'; link=%s; wire=%s; thr=%s; ceil=%s; gen='%s'; paper='%s'; paper_who='%s'" % (
                       fig, work, "".join(lb + " " for lb in lbs), link, wire, thr, ceil, gen,
                       " ".join(v for _, v in paper), " ".join(k for k, _ in paper)))
        probe_plot(summary, os.path.join(exp, "udp-latency"))
        latency = os.path.join(exp, "udp-latency.png")
        log("figures in %s: udp-answered.{png,svg,pdf} udp-ratio.{png,svg,pdf}%s" % (
            exp, " udp-latency.{png,svg,pdf}" if os.path.isfile(latency) and os.path.getsize(latency) > 0 else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip("\n"))
        return 0
    try:
        if len(argv) != 1:
            raise RunError("usage: udpreplay/udp/plot RESULTS/udp")
        plot(argv[0])
    except RunError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

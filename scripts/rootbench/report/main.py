"""analysis/report: write report.html into a results directory
(docs/results.md), and beside it report-data.html, every value and table
the report links; --bundle prints the bundle the pages are rendered from."""

import datetime
import json
import os
import shutil
import sys

from rootbench.report import bundle as B
from rootbench.report import data, page
from rootbench.report.sections import Sections

PROG = "report"


def die(msg):
    sys.stderr.write("%s: error: %s\n" % (PROG, msg))
    sys.exit(1)


def main(argv, top):
    bundle_only = False
    if argv and argv[0] == "--bundle":
        bundle_only = True
        argv = argv[1:]
        if len(argv) != 1:
            die("--bundle needs a results directory")
    run = argv[0] if argv else os.environ.get("RESULTS") or os.path.join(top, "results/latest")
    if not os.path.isdir(run):
        die("no results directory '%s' (run make bench, or make report RESULTS=dir)" % run)
    run = os.path.realpath(run)
    paper = os.environ.get("RB_PAPER") or os.path.join(top, "analysis/paper.json")
    try:
        with open(paper) as fh:
            json.load(fh)
    except (OSError, ValueError):
        die("paper values %s missing or not JSON" % paper)
    try:
        with open(os.path.join(top, "analysis/labels.json")) as fh:
            if not isinstance(json.load(fh), dict):
                raise ValueError
    except (OSError, ValueError):
        die("the settings' words analysis/labels.json are missing or not JSON")
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    b = B.bundle(top, run, paper, generated)
    if bundle_only:
        from rootbench.report.lib import pretty
        sys.stdout.write(pretty(b) + "\n")
        return 0
    tmp = "%s/paper.json.tmp.%d" % (run, os.getpid())
    shutil.copyfile(paper, tmp)
    os.replace(tmp, os.path.join(run, "paper.json"))
    with open(os.path.join(top, "analysis/report.css")) as fh:
        css = fh.read()
    try:
        S = Sections(top, b["registry"])
    except (ValueError, SyntaxError, ImportError) as e:
        die("loading the sections from scripts/lib/experiments.json failed: %s" % e)
    try:
        html = page.page(b, css, S) + "\n"
    except Exception as e:  # a summary the page cannot read: said, and no page written
        sys.stderr.write("%s: %s: %s\n" % (PROG, type(e).__name__, e))
        die("rendering the report failed")
    try:
        dhtml = data.data_page_html(b, css) + "\n"
    except Exception as e:  # a summary the page cannot read: said, and no page written
        sys.stderr.write("%s: %s: %s\n" % (PROG, type(e).__name__, e))
        die("rendering the data page failed")
    # the data page first: the report links it
    for name, text in (("report-data.html", dhtml), ("report.html", html)):
        tmp = os.path.join(run, ".%s.tmp.%d" % (name, os.getpid()))
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
        os.replace(tmp, os.path.join(run, name))
    sys.stderr.write("%s: wrote %s/report.html (%d KiB) and report-data.html (every value and table)\n"
                     % (PROG, run, os.path.getsize(os.path.join(run, "report.html")) // 1024))
    return 0

"""One figure drawn by gnuplot, the same for every experiment: the script
gets its variables, the suite's style (scripts/lib/style.gp), a temporary
output and the terminal; the figure replaces OUT.TERM only when gnuplot
succeeded and wrote something; gnuplot's own warnings are passed on
(without its "no valid points" notes, which an empty series gives)."""

import os
import subprocess
import sys

from rootbench.lifecycle import RunError


def gnuplot_figure(script, source, gvars, style, out, name, term):
    """OUT.TERM drawn by SCRIPT (named SOURCE in errors) with gnuplot's
    variables GVARS; NAME.TERM is the figure's name in errors. RunError
    when gnuplot fails or writes nothing (the temporary removed)."""
    tmp = "%s.%s.tmp" % (out, term)
    p = subprocess.run(["gnuplot", "-e", "%s; style='%s'; outfile='%s'; fmt='%s'" % (gvars, style, tmp, term), script],
                       capture_output=True, text=True)
    if p.returncode != 0:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise RunError("gnuplot (%s.%s from %s) failed: %s" % (name, term, source, "\n".join(p.stderr.rstrip("\n").split("\n")[-3:])))
    noise = [line for line in p.stderr.split("\n") if line and "Skipping data file with no valid points" not in line]
    if noise:
        sys.stderr.write("\n".join(noise) + "\n")
    if not (os.path.exists(tmp) and os.path.getsize(tmp) > 0):
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise RunError("gnuplot wrote no %s.%s" % (name, term))
    os.replace(tmp, "%s.%s" % (out, term))

"""The agreement of a Python rule module with the jq library it was ported
from: every case runs through the jq (one jq process for all of a
module's cases) and through the Python function, on the same JSON input,
and the two must print the same text (jq -c's; Python's by
rootbench.jqtext), or both fail.

jq is the suite's own, as scripts/lib/common.sh finds it: the built
scripts/jq/build/bin/jq when there (the main checkout's when this is a
worktree without one), else the jq on PATH."""

import json
import os
import shutil
import subprocess

from rootbench import jqtext
from rootbench.rules import jqlib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LIB = os.path.join(TOP, "scripts", "lib")


def find_jq():
    built = os.path.join(TOP, "scripts", "jq", "build", "bin", "jq")
    if os.access(built, os.X_OK):
        return built
    # a git worktree: its main checkout's build
    try:
        common = subprocess.run(["git", "-C", TOP, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        main = os.path.join(os.path.dirname(common), "scripts", "jq", "build", "bin", "jq")
        if os.access(main, os.X_OK):
            return main
    except (OSError, subprocess.CalledProcessError):
        pass
    return shutil.which("jq")


class Case:
    """One call: jq's text `call` (on `.`, with `$args`: the arguments as
    an array) and Python's fn(dot, *args), on the JSON text of dot and args."""

    def __init__(self, name, call, fn, dot, *args, raw=None):
        self.name, self.call, self.fn, self.dot, self.args = name, call, fn, dot, list(args)
        # raw: the input's JSON text as written (numbers Python's json would not write)
        self.text = raw if raw is not None else json.dumps([dot, self.args])

    def __repr__(self):
        return self.name


def run_jq(module, cases):
    """jq's outputs of every case, one process: {case name: [lines]} (a
    line "ERROR" where jq stopped with an error)."""
    jq = find_jq()
    assert jq, "no jq"
    branches = "\n  ".join("%s $i == %d then (try [$i, (%s)] catch \"\\($i) ERROR\")"
                           % ("if" if i == 0 else "elif", i, c.call) for i, c in enumerate(cases))
    prog = 'include "%s";\n.[0] as $i | .[1] as $in | $in[1] as $args | $in[0] |\n  %s\n  else error("no case") end' % (
        module, branches)
    stdin = "".join("[%d,%s]\n" % (i, c.text) for i, c in enumerate(cases))
    p = subprocess.run([jq, "-c", "-L", LIB, prog], input=stdin, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = {c.name: [] for c in cases}
    for line in p.stdout.splitlines():
        if line.startswith('"'):
            i = int(json.loads(line).split()[0])
            out[cases[i].name].append("ERROR")
        else:
            v = json.loads(line)
            out[cases[v[0]].name].append(line[len("[%d," % v[0]):-1])
    return out


def python_text(case):
    """Python's output text of a case (the jq's text of its value), or ERROR."""
    dot, args = jqlib.loads(case.text)
    try:
        value = case.fn(dot, *args)
    except (jqlib.JqError, TypeError, ValueError, ZeroDivisionError, KeyError, IndexError, AttributeError):
        return ["ERROR"]
    return [jqtext.to_json(value)]


def check_names(cases):
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, "case names repeat: %s" % sorted(dup)

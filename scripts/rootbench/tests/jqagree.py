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

    def __init__(self, name, call, fn, dot, *args, raw=None, message=False):
        self.name, self.call, self.fn, self.dot, self.args = name, call, fn, dot, list(args)
        # message: an error's message must be the jq's too (a rule's own error("..."))
        self.message = message
        # raw: the input's JSON text as written (numbers Python's json would not write)
        self.text = raw if raw is not None else json.dumps([dot, self.args])

    def __repr__(self):
        return self.name


def run_jq(module, cases):
    """jq's outputs of every case, one process: {case name: [lines]} (a
    line "ERROR" where jq stopped with an error, "ERROR: message" for a
    case that compares messages)."""
    jq = find_jq()
    assert jq, "no jq"
    # the suite's jq is 1.7 (make deps); 1.6 writes numbers otherwise (17 digits)
    version = subprocess.run([jq, "--version"], capture_output=True, text=True).stdout.strip()
    assert version.startswith("jq-1.7"), "%s is %s, not the suite's jq 1.7 (make deps builds it)" % (jq, version)
    # one branch per distinct call (many cases share one), chosen by its index
    calls = list(dict.fromkeys(c.call for c in cases))
    branches = "\n  ".join("%s $c == %d then (try [$i, (%s)] catch \"\\($i) ERROR \\(tostring)\")"
                           % ("if" if k == 0 else "elif", k, call) for k, call in enumerate(calls))
    # module None: jq's builtins only (jqlib's own agreement)
    prog = '%s.[0] as $i | .[1] as $c | .[2] as $in | $in[1] as $args | $in[0] |\n  %s\n  else error("no case") end' % (
        'include "%s";\n' % module if module else "", branches)
    stdin = "".join("[%d,%d,%s]\n" % (i, calls.index(c.call), c.text) for i, c in enumerate(cases))
    p = subprocess.run([jq, "-c", "-L", LIB, prog], input=stdin, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = {c.name: [] for c in cases}
    for line in p.stdout.splitlines():
        if line.startswith('"'):
            i, _, message = json.loads(line).split(" ", 2)
            i = int(i)
            out[cases[i].name].append("ERROR: " + message if cases[i].message else "ERROR")
        else:
            v = json.loads(line)
            out[cases[v[0]].name].append(line[len("[%d," % v[0]):-1])
    return out


def python_text(case):
    """Python's output text of a case (the jq's text of its value), or ERROR."""
    dot, args = jqlib.loads(case.text)
    try:
        value = case.fn(dot, *args)
    except (jqlib.JqError, TypeError, ValueError, ZeroDivisionError, KeyError, IndexError, AttributeError) as e:
        return ["ERROR: %s" % e if case.message else "ERROR"]
    return [jqtext.to_json(value)]


def check_names(cases):
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, "case names repeat: %s" % sorted(dup)


def disagreements(cases, jq_out):
    """The cases where Python's text is not the jq's: [(name, python, jq)]
    (all of a module's cases in one test: a test item each costs more
    than the case)."""
    return [(c.name, p, jq_out[c.name]) for c in cases for p in [python_text(c)] if p != jq_out[c.name]]


def assert_agree(cases, jq_out):
    bad = disagreements(cases, jq_out)
    assert not bad, "%d of %d cases disagree:\n" % (len(bad), len(cases)) + "\n".join(
        "  %s:\n    python %s\n    jq     %s" % b for b in bad)

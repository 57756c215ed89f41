"""The rules take JSON as Python's json module reads it, too (integers as
int): every agreement case of the test_rules_*.py files gives the same
text from plain json.loads as from jqlib.loads (every number a double, as
jq has it), except the cases beyond 2^53, where only doubles round as
jq's do (a counter delta of 2^60 + 3 less 2^60 is 0 in jq)."""

import glob
import importlib.util
import json
import os

import pytest

from rootbench import jqtext
from rootbench.tests.jqagree import python_text

HERE = os.path.dirname(os.path.abspath(__file__))
# integers beyond 2^53: Python's exact arithmetic is not jq's there
EXACT_ONLY = {"delta-huge-counters", "loss-huge", "shares-rate-2-63"}


def modules():
    out = []
    for path in sorted(glob.glob(os.path.join(HERE, "test_rules_*.py"))):
        name = os.path.basename(path)[:-3]
        if name != "test_rules_plain_json":
            out.append(pytest.param(path, id=name[len("test_rules_"):]))
    return out


def plain_text(case):
    dot, args = json.loads(case.text)
    try:
        return [jqtext.to_json(case.fn(dot, *args))]
    except Exception:
        return ["ERROR"]


@pytest.mark.parametrize("path", modules())
def test_plain_json_gives_the_same_text(path):
    spec = importlib.util.spec_from_file_location("plain_json_" + os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    bad = []
    for case in mod.CASES:
        if case.name in EXACT_ONLY:
            continue
        doubles = python_text(case)
        expect = ["ERROR"] if doubles[0].startswith("ERROR") else doubles
        if plain_text(case) != expect:
            bad.append("%s: %s, with doubles %s" % (case.name, plain_text(case), expect))
    assert not bad, "\n".join(bad)

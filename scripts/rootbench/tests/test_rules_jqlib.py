"""rootbench.rules.jqlib does what jq 1.7's builtins do, on the edge cases
where Python's own differ: round half away from zero, floor and ceil
keeping -0, jq's order across types (sort, unique, min, max, their _by
forms and ties), add and + (null the identity, objects merged), - of
arrays, * of strings and objects, % truncated and clamped, / by zero,
//, .[] of an object, indexing and slicing with fractions and negatives,
length, keys, to_entries, split, test, tonumber, and jq's number text of
the results (rootbench.jqtext)."""

import functools
import math

from rootbench.rules import jqlib as J
from rootbench.tests.jqagree import Case, assert_agree, check_names, run_jq

NUMS = [2.5, -2.5, 0.5, -0.5, 1.5, 0.49999999999999994, -0.49999999999999994, 2.675, 1e300, -0.0, 0, 1e17 + 0.5,
        4503599627370497.5, -1e-300, 7]
MIXED = [{"b": 1}, [2], "b", 3, True, None, False, "a", [1, 3], {"a": 2}, {"a": 1, "b": 0}, -1, [1], {"a": 1}, 3.0]
OBJS = [{"a": 2, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 0}, {"b": 5}, {"a": None, "b": 9}, {"a": "x", "b": 3}]


def M(name, jq, fn, dot):
    return Case(name, jq, lambda d: fn(d), dot)


CASES = [
    M("round", "map(round)", lambda d: [J.jround(x) for x in d], NUMS),
    M("floor", "map(floor)", lambda d: [J.jfloor(x) for x in d], NUMS),
    M("ceil", "map(ceil)", lambda d: [J.jceil(x) for x in d], NUMS),
    M("round-null-error", "round", J.jround, None),
    M("sort-mixed", "sort", J.jsort, MIXED),
    M("unique-mixed", "unique", J.unique, MIXED),
    M("min-mixed", "min", J.jmin, MIXED),
    M("max-mixed", "max", J.jmax, MIXED),
    M("min-empty", "min", J.jmin, []),
    M("max-zeros-last", "[max, min] | map(tostring)", lambda d: [J.jqtext.to_text(J.jmax(d)), J.jqtext.to_text(J.jmin(d))],
      [0, -0.0, 0.0]),
    M("min-by-ties-first", "min_by(.a)", lambda d: J.min_by(d, lambda x: J.get(x, "a")), OBJS),
    M("max-by-ties-last", "max_by(.a)", lambda d: J.max_by(d, lambda x: J.get(x, "a")), OBJS),
    M("sort-by-two", "sort_by(.a, .b)", lambda d: J.sort_by(d, lambda x: J.get(x, "a"), lambda x: J.get(x, "b")), OBJS),
    M("group-by", "group_by(.a)", lambda d: J.group_by(d, lambda x: J.get(x, "a")), OBJS),
    M("unique-by", "unique_by(.a)", lambda d: J.unique_by(d, lambda x: J.get(x, "a")), OBJS),
    M("sort-by-object-error", "sort_by(.a)", lambda d: J.sort_by(d, lambda x: J.get(x, "a")), {"x": {"a": 1}}),
    M("add-numbers", "add", J.add, [1, 2.5, None, -3]),
    M("add-strings", "add", J.add, ["a", None, "b"]),
    M("add-arrays", "add", J.add, [[1], [], [2, [3]]]),
    M("add-objects", "add", J.add, [{"a": 1, "b": 2}, {"c": 3, "a": 4}]),
    M("add-empty", "add", J.add, []),
    M("add-nulls", "add", J.add, [None, None]),
    M("add-object-values", "add", J.add, {"x": 1, "y": 2}),
    M("add-mixed-error", "add", J.add, [1, "a"]),
    M("add-bool-error", "add", J.add, [True, 1]),
    M("minus-arrays", ".[0] - .[1]", lambda d: J.minus(d[0], d[1]), [[1, 2, 3, 2, {"a": 1}], [2, {"a": 1}]]),
    M("minus-null-error", ".[0] - .[1]", lambda d: J.minus(d[0], d[1]), [None, 1]),
    M("times-strings", 'map("ab" * .)', lambda d: [J.times("ab", x) for x in d], [0, 0.5, 1, 2.7, -1, -0.5, 3]),
    M("times-number-string", '3 * "x"', lambda d: J.times(3, "x"), None),
    M("times-objects-deep", ".[0] * .[1]", lambda d: J.times(d[0], d[1]),
      [{"a": {"b": 1, "c": 2}, "e": {"f": 1}}, {"a": {"b": 3}, "d": 4, "e": 5}]),
    M("times-null-error", "null * 2", lambda d: J.times(None, 2), None),
    M("mod", "map(.[0] % .[1])", lambda d: [J.mod(a, b) for a, b in d],
      [[5.5, 2], [-7, 2], [7, -2], [1e20, 3], [-1e20, 7], [5, -1], [-6, 3], [-1e19, 7], [-9.2e18, 7],
       [-9223372036854775808, 7], [-1e20, 2], [0.5, 3], [-0.5, 3], [7, 2.9], [2 ** 63, 7], [9.3e18, 7]]),
    M("mod-zero-error", ".[0] % .[1]", lambda d: J.mod(d[0], d[1]), [5, 0.5]),
    M("mod-string-error", ".[0] % .[1]", lambda d: J.mod(d[0], d[1]), ["5", 2]),
    M("div", "map(.[0] / .[1])", lambda d: [J.div(a, b) for a, b in d], [[1, 3], [-1, 3], [1e308, 1e-10], [0, -5]]),
    M("div-zero-error", ".[0] / .[1]", lambda d: J.div(d[0], d[1]), [1, 0]),
    M("div-strings-error", ".[0] / .[1]", lambda d: J.div(d[0], d[1]), ["a,b", ","]),
    M("alt", "map(. // \"d\")", lambda d: [J.alt(x, "d") for x in d], [None, False, 0, "", [], True]),
    M("each-object", "[.[]]", J.each, {"b": 1, "a": 2}),
    M("each-null-error", "[.[]]", J.each, None),
    M("index", "[.[1.7], .[-1], .[-9], .[9]]", lambda d: [J.get(d, 1.7), J.get(d, -1), J.get(d, -9), J.get(d, 9)], [1, 2, 3]),
    M("index-null", "[.a, .[0]]", lambda d: [J.get(d, "a"), J.get(d, 0)], None),
    M("index-number-error", ".a", lambda d: J.get(d, "a"), 5),
    M("index-opt", "[.[] | .a?]", lambda d: [x for v in d for x in J.index_opt(v, "a")], [{"a": 1}, 5, None, "s", {"b": 2}]),
    M("slice", "[.[1.5:2.5], .[-2:], .[:-5], .[2:1], .[null:2]]",
      lambda d: [J.jslice(d, 1.5, 2.5), J.jslice(d, -2, None), J.jslice(d, None, -5), J.jslice(d, 2, 1),
                 J.jslice(d, None, 2)], [1, 2, 3, 4]),
    M("slice-string", "[.[1:], .[-1:], .[:1.5]]", lambda d: [J.jslice(d, 1, None), J.jslice(d, -1, None), J.jslice(d, None, 1.5)],
      "abc"),
    M("slice-null", ".[1:2]", lambda d: J.jslice(d, 1, 2), None),
    M("length", "map(length)", lambda d: [J.length(x) for x in d], [None, -3.5, "héllo", [1, 2], {"a": 1}, 0]),
    M("length-bool-error", "length", J.length, True),
    M("keys", "[keys, to_entries]", lambda d: [J.keys(d), J.to_entries(d)], {"b": 1, "a": 2, "A": 3, "é": 4}),
    M("keys-array", "keys", J.keys, ["x", "y"]),
    M("to-entries-null-error", "to_entries", J.to_entries, None),
    M("split", 'map(split("::"))', lambda d: [J.jsplit(x, "::") for x in d], ["", "::", "a::", "a::b::c", "x"]),
    M("test", 'map(test("^[0-9]{1,3}$"))', lambda d: [J.test(x, "^[0-9]{1,3}$") for x in d],
      ["12\n", "12\nab", "ab\n12", "1a", "123", "1234", ""]),
    M("tonumber", "map(tonumber)", lambda d: [J.tonumber(x) for x in d], ["3.", ".5", "+1", " 3", "1e400", "-0", 5, "1e-400"]),
    M("tonumber-bad-error", "tonumber", J.tonumber, "0x10"),
    M("tonumber-null-error", "tonumber", J.tonumber, None),
    M("tostring", "map(tostring)", lambda d: [J.jqtext.to_text(x) for x in d],
      [0.1 + 0.2, 1e17, 1e-5, 100, -0.0, 1e16, 123456789012345680000, 1.5e-7, "s", [1, None], {"a": 1.0}]),
    M("compare", "[.[0] < .[1], .[0] == .[1], .[2] > .[3], .[4] >= .[5]]",
      lambda d: [J.lt(d[0], d[1]), J.eq(d[0], d[1]), J.gt(d[2], d[3]), J.ge(d[4], d[5])], [False, 0, "a", 99, None, False]),
    M("setpath", ".a = 1 | .b = 2", lambda d: J.setpath(J.setpath(d, "a", 1), "b", 2), {"b": 0, "c": 3}),
    M("setpath-null", ".a = 1", lambda d: J.setpath(d, "a", 1), None),
]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq(None, CASES)


def test_jqlib_does_what_jq_does():
    assert_agree(CASES, jq())


def test_control_pythons_own_round_and_modulo_are_not_jqs():
    assert round(2.5) != J.jround(2.5) and (-7) % 2 != J.mod(-7, 2)
    assert math.copysign(1, J.jceil(-0.5)) < 0

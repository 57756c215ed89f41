"""jq's semantics where Python's differ, for the rules ported from jq.

Numbers: jq's are doubles; loads() reads JSON as jq does (every number a
float), so that sums and differences of big counters round as jq's do.
round is C's (half away from zero, not Python's half to even); ordering
is jq's across types (null < false < true < numbers < strings < arrays <
objects); add is jq's `+` (null the identity, objects merged, arrays and
strings joined, anything else an error: Python's True + 1 is not jq's);
alt is `//` (false and null alike); each is `.[]` (an object's values).
"""

import functools
import json
import math
import re

from rootbench import jqtext
from rootbench.jqtext import truthy  # noqa: F401 (jq's if, for the rules)


class JqError(Exception):
    """What jq would stop with (jq: error ...)."""


def loads(text):
    """JSON text -> Python values with every number a double, as jq has it."""
    return json.loads(text, parse_int=float)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def jround(x):
    """jq's round: C's round(), half away from zero (2.5 -> 3, -2.5 -> -3)."""
    if not is_number(x):
        raise JqError("%s (%s) number required" % (type_name(x), json.dumps(x)))
    if math.isinf(x) or math.isnan(x):
        return x
    f = math.floor(abs(x))
    r = f + 1 if abs(x) - f >= 0.5 else f
    return math.copysign(r, x)


def jfloor(x):
    """jq's floor: a double (C's floor: floor(-0.0) and floor(0.5) are
    -0 and 0, signs kept); index a list with int() of it."""
    if not is_number(x):
        raise JqError("%s number required" % type_name(x))
    if not math.isfinite(x):
        return x
    r = float(math.floor(x))
    return math.copysign(0.0, x) if r == 0 else r


def jceil(x):
    """jq's ceil: a double (C's ceil: ceil(-0.5) is -0, printed "-0")."""
    if not is_number(x):
        raise JqError("%s number required" % type_name(x))
    if not math.isfinite(x):
        return x
    r = float(math.ceil(x))
    return math.copysign(0.0, x) if r == 0 else r


_RANK = {"null": 0, "boolean": 1, "number": 3, "string": 4, "array": 5, "object": 6}


def compare(a, b):
    """jq's order of two values: -1, 0 or 1."""
    ta, tb = type_name(a), type_name(b)
    ra = 2 if a is True else _RANK[ta]
    rb = 2 if b is True else _RANK[tb]
    if ra != rb:
        return -1 if ra < rb else 1
    if ta == "number" or ta == "string":
        return (a > b) - (a < b)
    if ta == "array":
        for x, y in zip(a, b):
            c = compare(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    if ta == "object":
        c = compare(sorted(a), sorted(b))
        if c:
            return c
        for k in sorted(a):
            c = compare(a[k], b[k])
            if c:
                return c
        return 0
    return 0


sort_key = functools.cmp_to_key(compare)


def jsort(xs):
    """jq's sort (stable, jq's order)."""
    return sorted(xs, key=sort_key)


def unique(xs):
    out = []
    for x in jsort(xs):
        if not out or compare(out[-1], x) != 0:
            out.append(x)
    return out


_NUM = (int, float)   # exactly: bool is not a number in jq


def lt(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return a < b
    return compare(a, b) < 0


def le(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return a <= b
    return compare(a, b) <= 0


def gt(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return a > b
    return compare(a, b) > 0


def ge(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return a >= b
    return compare(a, b) >= 0


def eq(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return a == b
    return compare(a, b) == 0


def jmin(xs):
    """jq's min: null for none, the first of the least."""
    if len(xs) == 2 and type(xs[0]) in _NUM and type(xs[1]) in _NUM:
        return xs[1] if xs[1] < xs[0] else xs[0]
    return min_by(xs, lambda x: x)


def jmax(xs):
    """jq's max: null for none, the last of the greatest."""
    if len(xs) == 2 and type(xs[0]) in _NUM and type(xs[1]) in _NUM:
        return xs[1] if xs[1] >= xs[0] else xs[0]
    return max_by(xs, lambda x: x)


def min_by(xs, f):
    best = None
    for i, x in enumerate(xs):
        k = f(x)
        if i == 0 or compare(k, bk) < 0:
            best, bk = x, k
    return best


def max_by(xs, f):
    best = None
    for i, x in enumerate(xs):
        k = f(x)
        if i == 0 or compare(k, bk) >= 0:
            best, bk = x, k
    return best


def plus(a, b):
    """jq's a + b."""
    if type(a) in _NUM and type(b) in _NUM:
        return a + b
    if a is None:
        return b
    if b is None:
        return a
    ta, tb = type_name(a), type_name(b)
    if ta == tb and ta in ("number", "string", "array"):
        return a + b
    if ta == tb == "object":
        return {**a, **b}
    raise JqError("%s and %s cannot be added" % (ta, tb))


def minus(a, b):
    """jq's a - b (numbers; an array less the elements of another)."""
    if type(a) in _NUM and type(b) in _NUM:
        return a - b
    ta, tb = type_name(a), type_name(b)
    if ta == tb == "number":
        return a - b
    if ta == tb == "array":
        return [x for x in a if not any(eq(x, y) for y in b)]
    raise JqError("%s and %s cannot be subtracted" % (ta, tb))


def times(a, b):
    """jq 1.7's a * b: numbers; a string times a number n >= 0 repeated
    int(n) times ("" for 0 to 1, null for n < 0); objects merged deeply."""
    if is_number(a) and is_number(b):
        return a * b
    if isinstance(a, str) and is_number(b) or is_number(a) and isinstance(b, str):
        text, n = (a, b) if isinstance(a, str) else (b, a)
        return None if n < 0 or math.isnan(n) else text * int(min(n, 2 ** 31 - 1))
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = times(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
        return out
    raise JqError("%s and %s cannot be multiplied" % (type_name(a), type_name(b)))


def div(a, b):
    """jq's a / b: numbers (a zero divisor an error); a string by a
    string is split."""
    if isinstance(a, str) and isinstance(b, str):
        return jsplit(a, b)
    if is_number(a) and is_number(b):
        if b == 0:
            raise JqError("cannot be divided because the divisor is zero")
        return a / b
    raise JqError("%s and %s cannot be divided" % (type_name(a), type_name(b)))


def add(xs):
    """jq's add: the values summed with +, null for none."""
    acc = None
    for x in each(xs):
        acc = plus(acc, x)
    return acc


def alt(a, b):
    """jq's a // b for one value a: b when a is null or false."""
    return b if a is None or a is False else a


def each(v):
    """jq's .[]: an array's elements, an object's values."""
    if isinstance(v, list):
        return v
    if isinstance(v, dict):
        return list(v.values())
    raise JqError("Cannot iterate over %s" % type_name(v))


def get(v, k):
    """jq's .k / .[k]: null from null or a missing key."""
    if v is None:
        return None
    if isinstance(k, str):
        if isinstance(v, dict):
            return v.get(k)
        raise JqError("Cannot index %s with \"%s\"" % (type_name(v), k))
    if isinstance(v, list) and is_number(k):
        i = math.floor(k)
        if i < 0:
            i += len(v)
        return v[i] if 0 <= i < len(v) else None
    raise JqError("Cannot index %s with %s" % (type_name(v), type_name(k)))


def get_opt(v, k):
    """jq's .[k]?: null where .[k] would be an error."""
    try:
        return get(v, k)
    except JqError:
        return None


def length(v):
    """jq's length: of null 0, of a number its absolute value."""
    if v is None:
        return 0
    if isinstance(v, bool):
        raise JqError("boolean (%s) has no length" % json.dumps(v))
    if is_number(v):
        return abs(v)
    return len(v)


def keys(v):
    """jq's keys: an object's keys sorted, an array's indices."""
    if isinstance(v, dict):
        return sorted(v)
    if isinstance(v, list):
        return list(range(len(v)))
    raise JqError("%s has no keys" % type_name(v))


def setpath(v, k, value):
    """jq's .k = value: a copy of the object (or of null: a new one)."""
    if v is None:
        return {k: value}
    if not isinstance(v, dict):
        raise JqError("Cannot index %s with \"%s\"" % (type_name(v), k))
    out = dict(v)
    out[k] = value
    return out


def index_opt(v, k):
    """jq's .[k]? at the end of a path, inside [...]: [] where .[k] is an
    error (the element left out), else [.[k]]. Only the last index is
    optional: $c[.][$n][$k]? still stops when $c[.][$n] cannot be indexed."""
    try:
        return [get(v, k)]
    except JqError:
        return []


def tonumber(v):
    """jq's tonumber: a number as it is, a string read as jq reads it."""
    if is_number(v):
        return v
    if isinstance(v, str):
        try:
            return jqtext.to_number(v)
        except ValueError as e:
            raise JqError(str(e))
    raise JqError("%s cannot be parsed as a number" % type_name(v))


def to_entries(v):
    """jq's to_entries: an object's keys in their order (not sorted)."""
    if not isinstance(v, dict):
        keys(v)   # jq's error for what has no keys
        raise JqError("Cannot index %s with \"key\"" % type_name(v))
    return [{"key": k, "value": x} for k, x in v.items()]


def jslice(v, lo, hi):
    """jq's .[lo:hi] of an array or string (null: null): negative indices
    from the end, clamped, a fractional end rounded up."""
    if v is None:
        return None
    if not isinstance(v, (list, str)):
        raise JqError("Cannot index %s with object" % type_name(v))
    n = len(v)
    lo = 0 if lo is None else lo
    hi = n if hi is None else hi
    if not (is_number(lo) and is_number(hi)):
        raise JqError("Start and end indices of an array slice must be numbers")
    lo = lo + n if lo < 0 else lo
    hi = hi + n if hi < 0 else hi
    lo = min(max(lo, 0), n)
    hi = min(max(hi, 0), n)
    hi = max(hi, lo)
    return v[int(lo):math.ceil(hi)]


def jrange(lo, hi):
    """jq's range(lo; hi): lo, lo + 1, ... while below hi."""
    if not (is_number(lo) and is_number(hi)):
        raise JqError("Range bounds must be numeric")
    k = lo
    while k < hi:
        yield k
        k += 1


def _dtoi(n):
    """jq 1.7's double -> intmax_t for %: clamped, 2^63 itself wrapping as
    the C cast does on x86-64."""
    if n < -2.0 ** 63:
        return -2 ** 63
    if n > 2.0 ** 63:
        return 2 ** 63 - 1
    if n == 2.0 ** 63:
        return -2 ** 63
    return int(n)


def _cmod(x, y):
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def mod(a, b):
    """jq 1.7's a % b: both truncated to 64-bit integers (clamped), C's
    remainder (the dividend's sign), an integer: -7 % 2 is -1, -1e20 % 7
    is -1 (the dividend clamped to -2^63). (jq folds a % of two literals
    differently, at compile time; the rules' operands are data.)"""
    if not (is_number(a) and is_number(b)):
        raise JqError("%s and %s cannot be divided (remainder)" % (type_name(a), type_name(b)))
    if math.isnan(a) or math.isnan(b):
        return float("nan")
    bi = _dtoi(b)
    if bi == 0:
        raise JqError("cannot be divided (remainder) because the divisor is zero")
    return 0.0 if bi == -1 else float(_cmod(_dtoi(a), bi))


def jsplit(s, sep):
    """jq's split(sep) of a string: "" gives []."""
    if not isinstance(s, str) or not isinstance(sep, str):
        raise JqError("split input and separator must be strings")
    return [] if s == "" else s.split(sep)


def test(s, regex):
    """jq's test(regex) for the plain patterns the rules use (Oniguruma's
    Perl syntax reads them as Python's re does: $ also before a final
    newline)."""
    if not isinstance(s, str):
        raise JqError("%s cannot be matched, as it is not a string" % type_name(s))
    return re.search(regex, s) is not None


def sort_by(xs, *fs):
    """jq's sort_by(f; g; ...): stable, by [f, g, ...] in jq's order."""
    if not isinstance(xs, list):
        raise JqError("Cannot index %s with number" % type_name(xs))
    return sorted(xs, key=lambda x: sort_key([f(x) for f in fs]))


def group_by(xs, f):
    """jq's group_by(f): sorted by f (stably), runs of equal f grouped."""
    out, last = [], None
    for x in sort_by(xs, f):
        k = f(x)
        if out and compare(k, last) == 0:
            out[-1].append(x)
        else:
            out.append([x])
        last = k
    return out


def unique_by(xs, f):
    """jq's unique_by(f): the first of each group_by(f) group."""
    return [g[0] for g in group_by(xs, f)]

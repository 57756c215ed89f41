"""jq's text of JSON values, so that what Python prints is what jq printed.

The settings rules were jq's; their messages, --help lines and doc tables
quote numbers and values as jq 1.7 writes them (1e+17, 0.5, ["x","y"]),
and summary.settings is jq's compact JSON. These functions give the same
text: number_text (a double's shortest form, jq's exponent rule),
to_json (tojson, compact), to_text (tostring, and string interpolation),
to_number (tonumber), join_text (join) and truthy (jq's if).
"""

import json
import math
import re

DOUBLE_MAX = 1.7976931348623157e308
NUMBER_RE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def truthy(value):
    """jq's truth: everything but null and false (0 and "" are true)."""
    return value is not None and value is not False


def number_text(x):
    """A number as jq writes it: the shortest digits that read back the same
    double, in exponent form when the point is 4 or more places left of them
    or more than 15 places right of the last digit (1e-05, 1e+17)."""
    x = float(x)
    if math.isnan(x):
        return "null"
    if math.isinf(x):
        x = math.copysign(DOUBLE_MAX, x)
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    both = whole + frac
    significant = both.lstrip("0")
    # the place of the point, counted from the first significant digit
    point = len(whole) + int(exp or 0) - (len(both) - len(significant))
    digits = significant.rstrip("0")
    if point <= -4 or point > len(digits) + 15:
        e = point - 1
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return "%s%se%s%02d" % (sign, body, "-" if e < 0 else "+", abs(e))
    if point <= 0:
        return sign + "0." + "0" * -point + digits
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return sign + digits[:point] + "." + digits[point:]


def string_json(s):
    """A string as jq quotes it: JSON with non-ASCII kept, DEL escaped."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def to_json(value):
    """jq's tojson (and -c output): compact, keys in their order."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, str):
        return string_json(value)
    if isinstance(value, list):
        return "[" + ",".join(to_json(v) for v in value) + "]"
    return "{" + ",".join(string_json(k) + ":" + to_json(v) for k, v in value.items()) + "}"


def json_pretty(value, indent=""):
    """JSON as `jq .` prints it: two spaces a level, keys in their order,
    numbers as jq writes them, [] and {} when empty."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{\n" + ",\n".join(inner + string_json(k) + ": " + json_pretty(v, inner)
                                   for k, v in value.items()) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + json_pretty(v, inner) for v in value) + "\n" + indent + "]"
    return to_json(value)


def to_text(value):
    """jq's tostring, as string interpolation uses it: a string as it is,
    anything else as its JSON."""
    return value if isinstance(value, str) else to_json(value)


def join_text(values, sep):
    """jq 1.7's join: null as nothing, strings as they are, others as JSON."""
    return sep.join("" if v is None else to_text(v) for v in values)


def to_number(s):
    """jq's tonumber of a string: a JSON number (with spaces around, a
    leading + or point, or a trailing point); ValueError otherwise."""
    t = s.strip(" \t\n\r")
    if t == "nan":
        return None
    if t in ("inf", "-inf"):
        return math.copysign(DOUBLE_MAX, -1.0 if t[0] == "-" else 1.0)
    if not NUMBER_RE.fullmatch(t):
        raise ValueError("cannot be parsed as a number: %s" % s)
    x = float(t)
    return math.copysign(DOUBLE_MAX, x) if math.isinf(x) else x

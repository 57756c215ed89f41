#!/usr/bin/python3
"""settings: the rules of a settings table (docs/development.md, "A setting").

A table is a JSON file with "settings": a list of entries
  {name, type, default, unit, help}
and optionally values (enum, list), min and max (int, number),
default_text (a default the script computes: how), old (the former name,
still read, with a warning) and summary (the summary.settings field that
records it). A default is a scalar, or one per SCALE ({"smoke": ..,
"quick": .., "paper": ..}); by_variant: {VARIANT: default} gives a
registry variant (a name of experiments.json) a default of its own.
Everything a script needs of its table comes from here: the values
(resolve_values), the check of one value (value_error), the --help lines
(help_lines), the doc page's table (doc_table), what summary.settings
records (summary_fields) and a table's own checks (table_problems).
Pure functions; the command line at the end (main) is what
scripts/lib/settings.sh, scripts/settings-guard and scripts/settings-doc
call. Fixture test: scripts/tests/01-settings.test.
"""

import json
import re
import sys

if __name__ == "__main__":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rootbench.jqtext import join_text, to_json, to_number, to_text, truthy  # noqa: E402

SCALE_NAMES = ("smoke", "quick", "paper")
TYPES = ("int", "number", "enum", "bool", "list", "cidr", "rate", "step", "path", "string")
# jq's order of values of different types, for min and max
TYPE_RANK = {type(None): 0, bool: 1, int: 3, float: 3, str: 4, list: 5, dict: 6}
LIST_SPLIT = re.compile("[ ,]+")
INT_RE = re.compile(r"^-?(0|[1-9][0-9]*)$")
NUMBER_RE = re.compile(r"^([0-9]+(\.[0-9]*)?|\.[0-9]+)$")
CIDR_RE = re.compile(r"^([0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*/[0-9]{1,3})$")
RATE_RE = re.compile(r"^(none|[0-9]+(\.[0-9]+)?([kmgt]?bit|[kmgt]?bps))$")
STEP_ADD_RE = re.compile(r"^[1-9][0-9]*$")
STEP_MUL_RE = re.compile(r"^\*[0-9]+(\.[0-9]+)?$")
NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


class SettingsError(Exception):
    """A table the rules cannot read (an unknown type, a value not a number)."""


def read_table(path):
    """The table at path, parsed; SettingsError when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SettingsError("settings table %s not read: %s" % (path, e)) from e


def is_scaled(default):
    """Whether a default is one per SCALE (an object of SCALE names only)."""
    return isinstance(default, dict) and len(default) > 0 and set(default) <= set(SCALE_NAMES)


def default_of(e, scale, variants):
    """The entry's default at SCALE for the first of variants that has its
    own, as a string ("" when none: computed by the script, or empty by
    design)."""
    by_variant = e.get("by_variant")
    d = e.get("default")
    for v in variants:
        own = by_variant.get(v) if isinstance(by_variant, dict) else None
        if truthy(own):
            d = own
            break
    if is_scaled(d):
        d = d.get(scale)
    if d is None:
        return ""
    return d if isinstance(d, str) else to_json(d)


def type_text(e):
    """The type and what it allows, for messages and help: "an integer
    >= 1", "one of search, linear", ..."""
    lo = e.get("min") if truthy(e.get("min")) else None
    hi = e.get("max") if truthy(e.get("max")) else None
    if lo is not None and hi is not None:
        span = " from %s to %s" % (to_text(lo), to_text(hi))
    elif lo is not None:
        span = " >= %s" % to_text(lo)
    elif hi is not None:
        span = " <= %s" % to_text(hi)
    else:
        span = ""
    t = e.get("type")
    if t == "int":
        return "an integer" + span
    if t == "number":
        return "a number" + span
    if t == "enum":
        return "one of " + join_text(list_of(e, "values"), ", ")
    if t == "bool":
        return "0 or 1"
    if t == "list":
        values = e.get("values")
        return "a list (spaces or commas)" + (" of " + join_text(values, ", ") if truthy(values) else "")
    if t == "cidr":
        return "an address block (CIDR: 198.18.0.2/32, 2001:2::/64)"
    if t == "rate":
        return "a tc rate (100mbit, 1gbit) or none"
    if t == "step":
        return "a positive integer (added per point) or *F with F from 1.1 to 10 (multiplied)"
    if t == "path":
        return "a file path"
    pattern = e.get("pattern")
    return "a string" + (" matching " + to_text(pattern) if truthy(pattern) else "")


def list_of(e, field):
    """The entry's field that must be a list (an enum's values)."""
    values = e.get(field)
    if not isinstance(values, list):
        raise SettingsError("%s: its %s are no list" % (to_text(e.get("name")), field))
    return values


def at_least(x, bound):
    """jq's x >= bound, across types (a number is above null and booleans,
    below strings)."""
    rx, rb = TYPE_RANK.get(type(x), 6), TYPE_RANK.get(type(bound), 6)
    if bound is True:
        rb = 2
    return x >= bound if rx == rb else rx > rb


def in_range(e, x):
    """Whether the number x lies within the entry's min and max."""
    lo, hi = e.get("min"), e.get("max")
    return (lo is None or at_least(x, lo)) and (hi is None or not at_least(x, hi) or x == hi)


def is_member(word, values):
    """Whether the string word is one of values (jq's index on a list)."""
    return isinstance(values, list) and any(isinstance(v, str) and v == word for v in values)


def value_fits(e, s):
    """Whether the string s is a value of the entry's type."""
    t = e.get("type")
    if t == "int":
        return bool(INT_RE.search(s)) and in_range(e, to_number(s))
    if t == "number":
        return bool(NUMBER_RE.search(s)) and in_range(e, to_number(s))
    if t == "enum":
        return is_member(s, e.get("values"))
    if t == "bool":
        return s in ("0", "1")
    if t == "list":
        values = e.get("values")
        return values is None or all(is_member(w, values) for w in LIST_SPLIT.split(s) if w != "")
    if t == "cidr":
        return bool(CIDR_RE.search(s))
    if t == "rate":
        return bool(RATE_RE.search(s))
    if t == "step":
        if STEP_ADD_RE.search(s):
            return True
        return bool(STEP_MUL_RE.search(s)) and 1.1 <= to_number(s[1:]) <= 10
    if t in ("path", "string"):
        pattern = e.get("pattern")
        return pattern is None or bool(re.search(pattern, s))
    raise SettingsError("%s: unknown type %s" % (to_text(e.get("name")), to_text(t)))


def value_error(e, v):
    """Why the string v is not a value of the entry, naming the setting,
    its type and what it allows; None when it is."""
    s = to_text(v)
    if value_fits(e, s):
        return None
    unit = e.get("unit")
    return "%s=%s: must be %s (%s%s)" % (
        to_text(e.get("name")), s, type_text(e), to_text(e.get("type")),
        ", " + to_text(unit) if truthy(unit) else "")


def pairs_of(args):
    """NAME=VALUE strings as a dict (the last of a name wins)."""
    given = {}
    for a in args:
        name, eq, value = a.partition("=")
        if not eq or not name:
            raise SettingsError("not NAME=VALUE: %s" % a)
        given[name] = value
    return given


def resolve_values(t, given, scale, variants):
    """Each entry's value: the user's (given: NAME -> string; an empty
    string counts as unset, as ${X:-default}), else its old name's (with a
    warning naming the new), else its default. (values, warnings, errors)."""
    values, warnings, errors = {}, [], []
    for e in t["settings"]:
        name, old = e["name"], e.get("old")
        new_v = given.get(name) or ""
        old_v = (given.get(old) or "") if truthy(old) else ""
        if new_v != "":
            v = new_v
        elif old_v != "":
            v = old_v
            warnings.append("%s is now %s (the old name works for one more release)" % (to_text(old), to_text(name)))
        else:
            v = default_of(e, scale, variants)
            values[name] = v
            continue
        err = value_error(e, v)
        if err is not None:
            errors.append(err)
        values[name] = v
    return values, warnings, errors


def table_names(t):
    """The names a script may be given, new and old."""
    names = []
    for e in t["settings"]:
        names.append(e["name"])
        if truthy(e.get("old")):
            names.append(e["old"])
    return names


def default_text(e):
    """The default as --help and the doc table say it: computed (its
    default_text), by SCALE, or one value; then each variant's own."""
    if truthy(e.get("default_text")):
        return e["default_text"]

    def one(d):
        if is_scaled(d):
            return ", ".join("%s %s" % (k, to_text(v)) for k, v in d.items())
        return "empty" if d is None or d == "" else to_text(d)

    by_variant = e.get("by_variant")
    own = by_variant.items() if isinstance(by_variant, dict) else ()
    return one(e.get("default")) + "".join("; %s: %s" % (k, one(v)) for k, v in own)


def help_lines(t):
    """The --help part, two lines a setting."""
    source = t.get("file") if truthy(t.get("file")) else "the settings table"
    yield "Settings (environment or make variables; from %s):" % to_text(source)
    for e in t["settings"]:
        unit, old = e.get("unit"), e.get("old")
        yield "  %s%s: %s" % (to_text(e["name"]), " (%s)" % to_text(unit) if truthy(unit) else "", to_text(e.get("help")))
        yield "      %s; default: %s%s" % (type_text(e), to_text(default_text(e)), "; was " + to_text(old) if truthy(old) else "")


def cell(text):
    """A Markdown table's cell: its bars escaped."""
    if not isinstance(text, str):
        raise SettingsError("not a string: %s" % to_json(text))
    return text.replace("|", "\\|")


def doc_table(t):
    """The doc page's Markdown table."""
    yield "| setting | type | default | unit | what |"
    yield "|---|---|---|---|---|"
    for e in t["settings"]:
        unit, old = e.get("unit"), e.get("old")
        yield "| `%s`%s | %s | %s | %s | %s |" % (
            to_text(e["name"]), " (was `%s`)" % to_text(old) if truthy(old) else "",
            cell(type_text(e)), cell(default_text(e)), to_text(unit) if truthy(unit) else "", cell(e.get("help")))


def summary_value(e, v):
    """One value as summary.settings records it: int and number as numbers,
    bool as true/false, a step as a number when it is one, list as a list,
    "" as null."""
    t = e.get("type")
    if v is None or v == "":
        return None
    if t in ("int", "number"):
        try:
            return to_number(v)
        except ValueError as err:
            raise SettingsError("%s=%s: %s" % (e["name"], v, err)) from err
    if t == "bool":
        return v == "1"
    if t == "step":
        try:
            return to_number(v)
        except ValueError:
            return v
    if t == "list":
        return [w for w in LIST_SPLIT.split(v) if w != ""]
    return v


def summary_fields(t, values):
    """The fields summary.settings records (entries with "summary"), typed."""
    return {e["summary"]: summary_value(e, values.get(e["name"]))
            for e in t["settings"] if truthy(e.get("summary"))}


def sort_key(value):
    """jq's sort order of scalars: null, false, true, numbers, strings."""
    if value is None or isinstance(value, bool):
        return (0 if value is None else 1 + value, 0)
    return (3, value) if isinstance(value, (int, float)) else (4, to_text(value))


def table_problems(t, scales):
    """What is wrong with a table, one line each (nothing when it is
    right): a name that is no variable name, a name or old name given
    twice, an unknown type, an enum without values, no help, a per-SCALE
    default whose keys are not the SCALE names, a default (at any scale,
    for any variant) its own type refuses."""
    names = sorted(table_names(t), key=sort_key)
    for i, n in enumerate(names):
        if names.count(n) > 1 and names.index(n) == i:
            yield "%s declared twice" % to_text(n)
    for e in t["settings"]:
        name = to_text(e["name"])
        if not (isinstance(e["name"], str) and NAME_RE.search(e["name"])):
            yield "%s: not a variable name" % name
        if e.get("type") not in TYPES:
            yield "%s: unknown type %s" % (name, to_text(e.get("type")))
        if e.get("type") == "enum" and len(e.get("values") or ()) == 0:
            yield "%s: an enum without values" % name
        if (e.get("help") if truthy(e.get("help")) else "") == "":
            yield "%s: no help" % name
        by_variant = e.get("by_variant") if truthy(e.get("by_variant")) else {}
        own = list(by_variant.values()) if isinstance(by_variant, dict) else list(by_variant)
        for d in [e.get("default")] + own:
            if isinstance(d, dict) and set(d) != set(scales):
                yield "%s: a default by SCALE must give %s, not %s" % (name, ", ".join(scales), ", ".join(sorted(d)))
        variants = [None] + (sorted(by_variant) if isinstance(by_variant, dict) else list(range(len(by_variant))))
        for s in scales:
            for v in variants:
                d = default_of(e, s, [] if v is None else [v])
                err = value_error(e, d) if d != "" else None
                if err is not None:
                    yield "%s: its default at %s%s is refused: %s" % (name, s, " (%s)" % to_text(v) if truthy(v) else "", err)


def edit_distance(a, b):
    """Levenshtein's distance between two names (insertions, deletions and
    substitutions of one character)."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a):
        row = [i + 1]
        for j, y in enumerate(b):
            row.append(min(prev[j + 1] + 1, row[j] + 1, prev[j] + (x != y)))
        prev = row
    return prev[-1]


def nearest_names(name, names):
    """The names a user who wrote name most likely meant, best first, at
    most 5, as git's "did you mean": those that hold name as whole words
    ("GENERATOR": TCP_GENERATOR), then those within an edit distance of a
    third of its length (at least 1), nearest first; [] when none is near."""
    most = max(1, len(name) // 3)
    near = {}
    for n in names:
        if n == name:
            continue
        words = 0 if ("_%s_" % name) in ("_%s_" % n) or ("_%s_" % n) in ("_%s_" % name) else 1
        if words and abs(len(n) - len(name)) > most:
            continue
        d = edit_distance(name, n)
        if words and d > most:
            continue
        near[n] = (words, d, n)
    return [n for n in sorted(near, key=near.get)][:5]


def canonical_scale(registry, scale):
    """SCALE made canonical by the registry's scales ("" is the default, an
    alias its name); SettingsError naming the names when it is none."""
    sc = registry["scales"]
    aliases = sc.get("aliases") if isinstance(sc.get("aliases"), dict) else {}
    c = sc["default"] if scale == "" else (aliases.get(scale) if truthy(aliases.get(scale)) else scale)
    if c not in sc["names"]:
        raise SettingsError("unknown SCALE=%s: use %s (default %s)" % (scale, ", ".join(sc["names"]), to_text(sc["default"])))
    return c


def select_entries(t, words):
    """The entries words select (all when there are none): NAME, PREFIX*
    (the names that start so) or .FIELD (the entries whose FIELD is set)."""
    if not words:
        return list(t["settings"])

    def chosen(e):
        for w in words:
            if w.startswith("."):
                if truthy(e.get(w[1:])):
                    return True
            elif w.endswith("*"):
                if e["name"].startswith(w[:-1]):
                    return True
            elif e["name"] == w:
                return True
        return False

    return [e for e in t["settings"] if chosen(e)]


# The command line: what settings.sh and the scripts call.

USAGE = """usage: settings.py VERB ARGS...
  resolve TABLE [--scale S] [--registry REG] [--variants "V..."] [--json] [--shell] [NAME=VALUE...]
      the values: "scale\\tS" (with --registry: S made canonical),
      "given\\tNAME=VALUE" (the table's names given), "error\\tMESSAGE",
      "warn\\tMESSAGE", "set\\tNAME\\tVALUE" lines; --json: {values, warnings, errors}
  get TABLE NAME [--scale S] [--registry REG] [--shell] [NAME=VALUE...]
      "value\\tV" (or "error\\tMESSAGE"): the value NAME would have
  scale REGISTRY S            "scale\\tS" made canonical, or "error\\tMESSAGE"
  check TABLE NAME VALUE      why VALUE does not fit NAME's entry (nothing when it does)
  check-all TABLE [--only "W..."] [--shell] [NAME=VALUE...]   the first value that does not fit
  fill TABLE [--only "W..."]  NAME\\tDEFAULT of the entries whose default is one value
  summary TABLE [--shell] [NAME=VALUE...]    summary.settings's fields, as JSON
  names TABLE...              the names and old names, one a line
  nearest NAME TABLE...       the declared names NAME most likely meant ("A, B or C")
  help TABLE [--file F]       the --help lines
  doc TABLE                   the doc page's table
  problems TABLE [--scales "S..."]   what is wrong with the table
--shell reads the shell's variables, NAME=VALUE each ended by a NUL, from
standard input (the given values when no NAME=VALUE is named); --only W:
NAME, PREFIX* or .FIELD, an entry chosen when one word matches it."""


def parse_args(args, options, flags=()):
    """(positional, options) of args; options: the --NAME VALUE ones,
    flags: the --NAME ones without a value."""
    positional, opts = [], {}
    i = 0
    while i < len(args):
        a = args[i]
        if a in flags:
            opts[a] = True
        elif a in options:
            if i + 1 >= len(args):
                raise SettingsError("%s needs a value" % a)
            opts[a] = args[i + 1]
            i += 1
        elif a.startswith("--"):
            raise SettingsError("unknown option %s" % a)
        else:
            positional.append(a)
        i += 1
    return positional, opts


def read_shell_vars():
    """The shell's variables from standard input, NAME=VALUE each ended by
    a NUL (settings_shell_vars in settings.sh)."""
    data = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    return pairs_of(p for p in data.split("\0") if p != "")


def given_of(pairs, opts):
    """The given values: the NAME=VALUE arguments and, with --shell, the
    shell's variables."""
    given = read_shell_vars() if opts.get("--shell") else {}
    given.update(pairs_of(pairs))
    return given


def scale_of(opts, given):
    """SCALE for a resolution: --scale, canonical by --registry when named;
    the given SCALE is then that canonical one (settings_scale_read
    exports it before the table's names are read)."""
    scale = opts.get("--scale", "")
    if "--registry" in opts:
        scale = canonical_scale(read_table(opts["--registry"]), scale)
        given["SCALE"] = scale
    return scale


def verb_resolve(args, out):
    """resolve: the values of a table, as lines or as JSON."""
    (table, *pairs), opts = parse_args(args, ("--scale", "--registry", "--variants"), ("--json", "--shell"))
    t, given = read_table(table), given_of(pairs, opts)
    try:
        scale = scale_of(opts, given)
    except SettingsError as e:
        out.append("error\t%s" % e)
        return 0
    variants = opts.get("--variants", "").split(" ") if opts.get("--variants") else []
    values, warnings, errors = resolve_values(t, given, scale, variants)
    if opts.get("--json"):
        out.append(to_json({"values": values, "warnings": warnings, "errors": errors}))
        return 0
    out.append("scale\t%s" % scale)
    out.extend("given\t%s=%s" % (n, given[n]) for n in table_names(t) if given.get(n))
    out.extend("error\t%s" % m for m in errors)
    out.extend("warn\t%s" % m for m in warnings)
    out.extend("set\t%s\t%s" % (n, v) for n, v in values.items())
    return 0


def verb_get(args, out):
    """get: the value one setting would have; nothing is warned."""
    (table, name, *pairs), opts = parse_args(args, ("--scale", "--registry"), ("--shell",))
    t, given = read_table(table), given_of(pairs, opts)
    try:
        scale = scale_of(opts, given)
        values = resolve_values(t, given, scale, [])[0]
        if name not in values:
            raise SettingsError("%s is not in the table" % name)
    except SettingsError as e:
        out.append("error\t%s" % e)
        return 0
    out.append("value\t%s" % values[name])
    return 0


def verb_scale(args, out):
    """scale: SCALE made canonical by the registry."""
    (registry, scale), _ = parse_args(args, ())
    try:
        out.append("scale\t%s" % canonical_scale(read_table(registry), scale))
    except SettingsError as e:
        out.append("error\t%s" % e)
    return 0


def verb_check(args, out):
    """check: why one value does not fit its entry."""
    (table, name, value), _ = parse_args(args, ())
    out.extend(m for m in (value_error(e, value) for e in read_table(table)["settings"] if e["name"] == name) if m)
    return 0


def verb_check_all(args, out):
    """check-all: the first chosen setting whose value does not fit."""
    (table, *pairs), opts = parse_args(args, ("--only",), ("--shell",))
    t, given = read_table(table), given_of(pairs, opts)
    for e in select_entries(t, opts.get("--only", "").split()):
        v = given.get(e["name"])
        err = value_error(e, v) if v else None
        if err:
            out.append(err)
            break
    return 0


def tsv_field(s):
    """A field as jq's @tsv writes it."""
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def verb_fill(args, out):
    """fill: the chosen entries' defaults that are one value, not
    computed and not by SCALE."""
    (table,), opts = parse_args(args, ("--only",))
    for e in select_entries(read_table(table), opts.get("--only", "").split()):
        if e.get("default_text") is None and not is_scaled(e.get("default")):
            d = default_of(e, "", [])
            if d != "":
                out.append("%s\t%s" % (tsv_field(e["name"]), tsv_field(d)))
    return 0


def verb_summary(args, out):
    """summary: summary.settings's fields from the values."""
    (table, *pairs), opts = parse_args(args, (), ("--shell",))
    out.append(to_json(summary_fields(read_table(table), given_of(pairs, opts))))
    return 0


def verb_names(args, out):
    """names: the names and old names of the tables."""
    for table in args:
        out.extend(table_names(read_table(table)))
    return 0


def verb_nearest(args, out):
    """nearest: the declared names a misspelt one most likely meant."""
    name, *tables = args
    near = nearest_names(name, [e["name"] for table in tables for e in read_table(table)["settings"]])
    out.append(near[0] if len(near) == 1 else ", ".join(near[:-1]) + " or " + near[-1] if near else "")
    return 0


def verb_help(args, out):
    """help: the --help lines, naming the table's file."""
    (table,), opts = parse_args(args, ("--file",))
    t = read_table(table)
    if "--file" in opts:
        t["file"] = opts["--file"]
    out.extend(help_lines(t))
    return 0


def verb_doc(args, out):
    """doc: the doc page's table."""
    out.extend(doc_table(read_table(args[0])))
    return 0


def verb_problems(args, out):
    """problems: a table's own checks, 1 when it has problems."""
    (table,), opts = parse_args(args, ("--scales",))
    scales = opts.get("--scales", " ".join(SCALE_NAMES)).split()
    for line in table_problems(read_table(table), scales):
        out.append(line)
        flush_lines(out)
    return 0


VERBS = {"resolve": verb_resolve, "get": verb_get, "scale": verb_scale, "check": verb_check,
         "check-all": verb_check_all, "fill": verb_fill, "summary": verb_summary,
         "names": verb_names, "nearest": verb_nearest, "help": verb_help, "doc": verb_doc,
         "problems": verb_problems}


def flush_lines(out):
    """Print the lines gathered so far (bytes kept as they came)."""
    if out:
        sys.stdout.buffer.write(("\n".join(out) + "\n").encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()
        out.clear()


def main(argv):
    """Run one verb; a message and exit 1 (2 for a wrong command line)
    when it cannot."""
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv[0] not in VERBS:
        print(USAGE, file=sys.stderr)
        return 2
    out = []
    try:
        rc = VERBS[argv[0]](argv[1:], out)
    except SettingsError as e:
        flush_lines(out)
        print("settings: error: %s" % e, file=sys.stderr)
        return 1
    except ValueError as e:
        flush_lines(out)
        print("settings: error: %s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    flush_lines(out)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

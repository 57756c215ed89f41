# settings.jq: the rules of a settings table (docs/development.md, "A
# setting"). A table is a JSON file with "settings": a list of entries
#   {name, type, default, unit, help}
# and optionally values (enum, list), min and max (int, number),
# default_text (a default the script computes: how), old (the former name,
# still read, with a warning) and summary (the summary.settings field that
# records it). A default is a scalar, or one per SCALE ({"smoke": ..,
# "quick": .., "paper": ..}); by_variant: {VARIANT: default} gives a
# registry variant (a name of experiments.json) a default of its own.
# Everything a script needs of its table comes from here: the values
# (settings_resolve), the check of one value (settings_value_error), the
# --help lines (settings_help_lines), the doc page's table
# (settings_doc_table) and what summary.settings records (settings_summary).
# Pure functions; fixture test scripts/tests/01-settings.test.

def settings_is_scaled: type == "object" and (keys - ["smoke", "quick", "paper"] | length) == 0 and length > 0;

# settings_default($entry; $scale; $variants): the entry's default at SCALE
# for the first of $variants that has its own, as a string ("" when none:
# computed by the script, or empty by design).
def settings_default($e; $scale; $variants):
  (first($variants[] as $v | $e.by_variant[$v]? // empty) // $e.default) as $d
  | (if ($d | settings_is_scaled) then $d[$scale] else $d end)
  | if . == null then "" elif type == "string" then . else tojson end;

# settings_type_text($entry): the type and what it allows, for messages and
# help: "an integer >= 1", "one of search, linear", ...
def settings_type_text($e):
  ($e.min // null) as $min | ($e.max // null) as $max
  | (if $min != null and $max != null then " from \($min) to \($max)"
     elif $min != null then " >= \($min)" elif $max != null then " <= \($max)" else "" end) as $range
  | if $e.type == "int" then "an integer\($range)"
    elif $e.type == "number" then "a number\($range)"
    elif $e.type == "enum" then "one of \($e.values | join(", "))"
    elif $e.type == "bool" then "0 or 1"
    elif $e.type == "list" then "a list (spaces or commas)\(if $e.values then " of \($e.values | join(", "))" else "" end)"
    elif $e.type == "cidr" then "an address block (CIDR: 198.18.0.2/32, 2001:2::/64)"
    elif $e.type == "rate" then "a tc rate (100mbit, 1gbit) or none"
    elif $e.type == "step" then "a positive integer (added per point) or *F with F from 1.1 to 10 (multiplied)"
    elif $e.type == "path" then "a file path"
    else "a string\(if $e.pattern then " matching \($e.pattern)" else "" end)" end;

def settings_in_range($e): ($e.min == null or . >= $e.min) and ($e.max == null or . <= $e.max);

# settings_value_error($entry; $v): why the string $v is not a value of the
# entry, naming the setting, its type and what it allows; null when it is.
def settings_value_error($e; $v):
  ($v | tostring) as $s
  | (if $e.type == "int" then ($s | test("^-?(0|[1-9][0-9]*)$")) and ($s | tonumber | settings_in_range($e))
     elif $e.type == "number" then ($s | test("^([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$")) and ($s | tonumber | settings_in_range($e))
     elif $e.type == "enum" then ($e.values | index($s)) != null
     elif $e.type == "bool" then $s == "0" or $s == "1"
     elif $e.type == "list" then $e.values == null or all($s | splits("[ ,]+") | select(. != ""); . as $w | $e.values | index($w) != null)
     elif $e.type == "cidr" then $s | test("^([0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*/[0-9]{1,3})$")
     elif $e.type == "rate" then $s | test("^(none|[0-9]+(\\.[0-9]+)?([kmgt]?bit|[kmgt]?bps))$")
     elif $e.type == "step" then ($s | test("^[1-9][0-9]*$"))
        or (($s | test("^\\*[0-9]+(\\.[0-9]+)?$")) and ($s[1:] | tonumber | . >= 1.1 and . <= 10))
     elif $e.type == "path" or $e.type == "string" then $e.pattern == null or ($s | test($e.pattern))
     else error("\($e.name): unknown type \($e.type)") end) as $ok
  | if $ok then null else "\($e.name)=\($s): must be \(settings_type_text($e)) (\($e.type)\(if $e.unit then ", \($e.unit)" else "" end))" end;

# settings_pairs: the shell's NAME=VALUE arguments (an array) as an object.
def settings_pairs: map(capture("^(?<key>[^=]+)=(?<value>.*)$"; "s")) | from_entries;

# settings_resolve($table; $given; $scale; $variants): each entry's value:
# the user's ($given: NAME -> string; an empty string counts as unset, as
# ${X:-default}), else its old name's (with a warning naming the new),
# else its default. {values, warnings, errors}.
def settings_resolve($t; $given; $scale; $variants):
  [ $t.settings[] as $e
    | ($given[$e.name] // "") as $new | (if $e.old then $given[$e.old] // "" else "" end) as $old
    | if $new != "" then {e: $e, v: $new, w: null}
      elif $old != "" then {e: $e, v: $old, w: "\($e.old) is now \($e.name) (the old name works for one more release)"}
      else {e: $e, v: settings_default($e; $scale; $variants), w: null, d: true} end
    | .err = (if .v == "" or .d then null else settings_value_error(.e; .v) end) ]
  | {values: (map({key: .e.name, value: .v}) | from_entries),
     warnings: [.[].w | values], errors: [.[].err | values]};

# settings_names($table): the names a script may be given, new and old.
def settings_names($t): [$t.settings[] | .name, (.old // empty)];

def settings_default_text($e):
  if $e.default_text then $e.default_text
  else def one: if settings_is_scaled then to_entries | map("\(.key) \(.value)") | join(", ")
               elif . == null or . == "" then "empty" else tostring end;
      ($e.default | one)
      + ($e.by_variant // {} | to_entries | map("; \(.key): \(.value | one)") | join(""))
  end;

# settings_help_lines($table): the --help part, two lines a setting.
def settings_help_lines($t):
  "Settings (environment or make variables; from \($t.file // "the settings table")):",
  ($t.settings[]
   | "  \(.name)\(if .unit then " (\(.unit))" else "" end): \(.help)",
     "      \(settings_type_text(.)); default: \(settings_default_text(.))\(if .old then "; was \(.old)" else "" end)");

# settings_doc_table($table): the doc page's Markdown table.
def settings_doc_table($t):
  "| setting | type | default | unit | what |",
  "|---|---|---|---|---|",
  ($t.settings[]
   | def cell: gsub("\\|"; "\\|");
     "| `\(.name)`\(if .old then " (was `\(.old)`)" else "" end) | \(settings_type_text(.) | cell) | \(settings_default_text(.) | cell) | \(.unit // "") | \(.help | cell) |");

# settings_summary($table; $values): the fields summary.settings records
# (entries with "summary"), typed: int and number as numbers, bool as
# true/false, a step as a number when it is one, list as a list, "" as null.
def settings_summary($t; $values):
  [ $t.settings[] | select(.summary) | . as $e | $values[$e.name] as $v
    | {key: $e.summary,
       value: (if $v == null or $v == "" then null
               elif $e.type == "int" or $e.type == "number" then $v | tonumber
               elif $e.type == "bool" then $v == "1"
               elif $e.type == "step" then $v | tonumber? // $v
               elif $e.type == "list" then [$v | splits("[ ,]+") | select(. != "")]
               else $v end)} ]
  | from_entries;

# settings_table_problems($table; $scales): what is wrong with a table,
# one line each (nothing when it is right): a name that is no variable
# name, a name or old name given twice, an unknown type, an enum without
# values, no help, a per-SCALE default whose keys are not the SCALE names,
# a default (at any scale, for any variant) its own type refuses.
def settings_table_problems($t; $scales):
  ([$t.settings[] | .name, (.old // empty)] | group_by(.)[] | select(length > 1) | "\(.[0]) declared twice"),
  ($t.settings[] as $e
   | (if ($e.name | test("^[A-Z][A-Z0-9_]*$")) then empty else "\($e.name): not a variable name" end),
     (if ["int", "number", "enum", "bool", "list", "cidr", "rate", "step", "path", "string"] | index($e.type) then empty
      else "\($e.name): unknown type \($e.type)" end),
     (if $e.type == "enum" and ($e.values | length) == 0 then "\($e.name): an enum without values" else empty end),
     (if ($e.help // "") == "" then "\($e.name): no help" else empty end),
     ([$e.default] + [$e.by_variant // {} | .[]] | .[] | select(type == "object")
      | select((keys - $scales | length) > 0 or (($scales - keys) | length) > 0)
      | "\($e.name): a default by SCALE must give \($scales | join(", ")), not \(keys | join(", "))"),
     (([null] + ($e.by_variant // {} | keys)) as $vs | $scales[] as $s | $vs[] as $v
      | settings_default($e; $s; [$v | values]) as $d
      | select($d != "") | settings_value_error($e; $d) // empty
      | "\($e.name): its default at \($s)\(if $v then " (\($v))" else "" end) is refused: \(.)"));

# settings_edit_distance($a; $b): Levenshtein's distance between two
# names (insertions, deletions and substitutions of one character).
def settings_edit_distance($a; $b):
  ($a | explode) as $x | ($b | explode) as $y
  | reduce range(0; $x | length) as $i ([range(0; ($y | length) + 1)];
      . as $p
      | reduce range(0; $y | length) as $j ([$i + 1];
          . + [[$p[$j + 1] + 1, .[$j] + 1, $p[$j] + (if $x[$i] == $y[$j] then 0 else 1 end)] | min]))
  | .[-1];

# settings_nearest($name; $names): the names of $names a user who wrote
# $name most likely meant, best first, at most 5, as git's "did you mean":
# those that hold $name as whole words ("GENERATOR": TCP_GENERATOR), then
# those within an edit distance of a third of its length (at least 1),
# nearest first; [] when none is near.
def settings_nearest($name; $names):
  ($name | length) as $l | ([1, ($l / 3 | floor)] | max) as $most
  | [$names[] | select(. != $name) | . as $n
     | (if ("_\($n)_" | contains("_\($name)_")) or ("_\($name)_" | contains("_\($n)_")) then 0 else 1 end) as $words
     | select($words == 0 or ((($n | length) - $l) | fabs) <= $most)
     | settings_edit_distance($name; $n) as $d
     | select($words == 0 or $d <= $most)
     | {n: $n, k: [$words, $d, $n]}]
  | unique_by(.n) | sort_by(.k) | .[:5] | map(.n);

# report-check.jq -- the checks of analysis/report-check: every value the
# page shows (one tab-separated line per tagged element, input) against
# the files it names.

# dec: undo the escaping of analysis/report.jq (esc); a text without "&"
# has none (most: jq 1.6's gsub is slow).
def dec: if index("&") == null then . else gsub("&lt;"; "<") | gsub("&gt;"; ">") | gsub("&quot;"; "\"") | gsub("&#39;|&apos;"; "\u0027")
         | gsub("&#10;"; "\n") | gsub("&#9;"; "\t") | gsub("&amp;"; "&") end;

# shown_ok($shown; $v; $round; $scale): the text shown is the value, at
# its rounding and scale (a number within half a unit of the last digit).
def shown_ok($shown; $v; $round; $scale):
    if ($v | type) == "number" then
        ($shown | ltrimstr("+") | tonumber? // null) as $s
        | ($v * (if $scale == "-" then 1 else ($scale | tonumber) end)) as $x
        | (1e-9 * ([($x | fabs), 1] | max)) as $eps
        | (if $round == "-" then $eps else 0.5 * pow(10; -($round | tonumber)) + $eps end) as $tol
        | $s != null and (($s - $x) | fabs) <= $tol
    else ($v | tostring) == $shown end;

# problems($j; $c): each element whose shown value differs from its
# source, as a sentence ($j: the JSON values by reference, $c: the CSV
# cells by reference). Input: the elements, tab-separated: source, kind
# of calculation, its two operands, rounding, scale, the value shown.
def problems($j; $c):
  split("\n")[] | select(length > 0) | split("\t")
  | .[0] as $src | .[1] as $calc | .[2] as $a | .[3] as $b | .[4] as $round | .[5] as $scale
  | (if .[6] == "<empty>" then "" else (.[6] | dec) end) as $shown
  | if $calc != "-" then
        ($j[$a]) as $x | ($j[$b]) as $y
        | if ($x | type) != "number" or ($y | type) != "number" then "\($calc) of \($a) and \($b): not two numbers in the files"
          else (if $calc == "ratio" then $x / $y else $x - $y end) as $v
          | if shown_ok($shown; $v; $round; $scale) then empty else "\($calc) of \($a) and \($b) shown as \u0027\($shown)\u0027, computed \($v)" end
          end
    elif ($src | contains("#")) then
        if ($c | has($src)) | not then "\($src): no such cell in the file"
        elif $c[$src] == $shown then empty
        else "\($src) shown as \u0027\($shown)\u0027, file has \u0027\($c[$src])\u0027" end
    else
        ($j[$src]) as $v
        | if $v == null then "\($src): no such value in the file"
          elif shown_ok($shown; $v; $round; $scale) then empty
          else "\($src) shown as \u0027\($shown)\u0027, file has \($v | tojson)" end
    end;

# lines: a text's non-empty lines.
def lines: split("\n") | map(select(length > 0));

# ref_file, ref_path: a JSON reference FILE:JQPATH's file, and its path
# as the page shows it (still escaped).
def ref_file: split(":")[0];
def ref_path: sub("^[^:]*:"; "");

# plain_path: a plain jq path's text (.a.b[0]["x-y"], as $re of
# analysis/report-check admits) as a path array: getpath then reads it as
# jq would run the text, without running the page's text as a program.
def plain_path:
  [match("\\.([A-Za-z_][A-Za-z0-9_]*)|\\[([0-9]+)\\]|\\[\"([^\"\\\\]*)\"\\]"; "g").captures
   | if .[0].string != null then .[0].string
     elif .[1].string != null then .[1].string | tonumber
     else .[2].string end];

# docs: {FILE: {exists, doc}} of the files the page reads, from the named
# arguments of analysis/report-check: "files" (their names, a line each)
# and "docN" (the Nth file's text, only when that file exists). doc is
# null when the text is not one JSON value, or is null or false (what
# `jq -e .` rejects).
def docs:
  ($ARGS.named.files | split("\n") | .[:-1]) as $names
  | [range(0; $names | length) as $i | ($ARGS.named["doc\($i)"] // null) as $t
     | {($names[$i]): {exists: ($t != null),
                       doc: (if $t == null then null else ($t | try fromjson catch null) end | if . == false then null else . end)}}]
  | add // {};

# unreadable($refs; $d; $page): a sentence per file of $refs that is
# missing or not JSON.
def unreadable($refs; $d; $page):
  [$refs[] | ref_file] | unique[] | select($d[.].doc == null) | "\($page) reads \(.), which is missing or not JSON";

# lookup($refs; $d; $re): {REF: value|null} of each reference whose path
# is plain and whose file is JSON; then "REF: not a plain jq path" for
# each other reference, as problems.
def lookup($refs; $d; $re):
  [$refs[] | . as $r | (ref_path | dec) as $p | select($p | test($re)) | $d[$r | ref_file].doc as $doc
   | select($doc != null) | {($r): (try ($doc | getpath($p | plain_path)) catch null)}] | add // {};
def impure($refs; $re): $refs[] | select(ref_path | dec | test($re) | not) | "\(.): not a plain jq path";

# cells: the CSV cells as analysis/report-check lists them (REF TAB text)
# as {REF: text}.
def cells: lines | map(split("\t") | {(.[0]): (.[1:] | join("\t"))}) | add // {};

# page_problems($page; $re): every problem of a page's values, as
# sentences. Named arguments: "elements" (tagged_elements), "refs" (the
# JSON references of the values), "nmrefs" (those shown as not measured),
# "cells" and the files (docs).
def page_problems($page; $re):
  docs as $d
  | ($ARGS.named.refs | lines) as $refs
  | ([$ARGS.named.nmrefs | lines[] | select($d[ref_file].exists)]) as $nm
  | impure($refs; $re),
    unreadable($refs; $d; $page),
    ($ARGS.named.elements | problems(lookup($refs; $d; $re); $ARGS.named.cells | cells)),
    impure($nm; $re),
    unreadable($nm; $d; $page),
    (lookup($nm; $d; $re) | to_entries[] | select(.value != null)
     | "\(.key) holds \(.value | tojson | .[0:80]) but the page shows it as not measured");

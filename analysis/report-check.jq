# report-check.jq -- the checks of analysis/report-check: every value the
# page shows (one tab-separated line per tagged element, input) against
# the files it names.

# dec: undo the escaping of analysis/report.jq (esc).
def dec: gsub("&lt;"; "<") | gsub("&gt;"; ">") | gsub("&quot;"; "\"") | gsub("&#39;|&apos;"; "\u0027")
         | gsub("&#10;"; "\n") | gsub("&#9;"; "\t") | gsub("&amp;"; "&");

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

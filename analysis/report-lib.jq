# report-lib.jq: the building blocks of the report (analysis/report.jq and
# analysis/findings.jq include it): escaping, number formatting, and val,
# which shows a value of a results file tagged with its source (data-src)
# for analysis/report-check to verify. No number is typed here.
# ------------------------------------------------------------ formatting

def esc: tostring | @html | gsub("\n"; "&#10;");

# pathstr: a jq path array as a jq expression (.a.b[0]["x-y"]).
def pathstr:
  map(if type == "number" then "[\(.)]"
      elif test("^[A-Za-z_][A-Za-z0-9_]*$") then ".\(.)"
      else "[\(tojson)]" end)
  | join("") | if startswith(".") then . else "." + . end;

# fixed($n): a number rounded to $n decimals, as text with exactly $n decimals.
def fixed($n):
  if $n == null or $n == 0 then (if $n == 0 then round else . end) | tostring
  else
    (. < 0) as $neg
    | ((if $neg then -. else . end) * pow(10; $n) | round | tostring) as $i
    | ("0" * ([($n + 1) - ($i | length), 0] | max) + $i) as $p
    | (if $neg and ($p | test("[1-9]")) then "-" else "" end)
      + $p[0:($p | length) - $n] + "." + $p[($p | length) - $n:]
  end;

def shown($round; $scale):
  if type == "number" then (. * ($scale // 1)) | fixed($round)
  elif type == "boolean" then tostring
  else tostring end;

def attrs($round; $scale):
  (if $round != null then " data-round=\"\($round)\"" else "" end)
  + (if $scale != null then " data-scale=\"\($scale)\"" else "" end);

def nm: "<span class=\"nm\">not measured</span>";

# at($path): the value at $path, or null where the path leads through
# something that is not an object (string key) or array (number index).
# No try: jq 1.6's try also catches errors raised later in the pipeline
# that passed through it, so one error anywhere in the page would resume
# every val and re-render without end.
def at($path):
  reduce $path[] as $k (.;
    if (type == "object" and ($k | type) == "string") or (type == "array" and ($k | type) == "number") then .[$k]
    else null end);

# val($doc; $file; $path; $round; $scale): the value at $path of $doc
# (loaded from $file), tagged with its source.
def val($doc; $file; $path; $round; $scale):
  ($doc | at($path)) as $v
  | if $v == null or ($v | type) == "object" or ($v | type) == "array" then
      # where the value would have come from: report-check verifies that
      # the file indeed holds none there
      (if $file == null then nm else "<span class=\"nm\" data-nm=\"\($file):\($path | pathstr | esc)\">not measured</span>" end)
    else "<span class=\"v\" data-src=\"\($file):\($path | pathstr | esc)\"\(attrs($round; $scale))>\($v | shown($round; $scale) | esc)</span>"
    end;
def val($doc; $file; $path): val($doc; $file; $path; null; null);

# calc: ours against another value (the paper's, or another of ours).
def calc($kind; $a; $b; $round; $scale):
  # $a, $b: {doc, file, path}
  ($a.doc | at($a.path)) as $x
  | ($b.doc | at($b.path)) as $y
  | if ($x | type) != "number" or ($y | type) != "number" or ($kind == "ratio" and $y == 0) then "<span class=\"nm\">–</span>"
    else
      (if $kind == "ratio" then $x / $y else $x - $y end) as $r
      | "<span class=\"v calc\" data-calc=\"\($kind)\" data-a=\"\($a.file):\($a.path | pathstr | esc)\" data-b=\"\($b.file):\($b.path | pathstr | esc)\""
        + "\(attrs($round; $scale))>"
        + (if $kind == "diff" and $r > 0 then "+" else "" end)
        + ($r | shown($round; $scale) | esc) + "</span>"
    end;

def ref($doc; $file; $path): {doc: $doc, file: $file, path: $path};

# range_text($doc; $file; $low; $high): a UDP ceiling's range of sent
# rates in words (every repetition held up to $low, one failed at $high),
# or "" when the summary holds no range.
def range_text($doc; $file; $low; $high):
  if ($doc | at($low) | type) == "number" and ($doc | at($high) | type) == "number" then
    "between " + val($doc; $file; $low; 0; null) + " and " + val($doc; $file; $high; 0; null) + " queries/s sent"
  else "" end;

# in_object($doc; $key): the path, or $key under it when $doc holds an object
# there (a figure kept as {count, sample} in newer schemas).
def in_object($doc; $key): . as $p | if ($doc | at($p) | type) == "object" then $p + [$key] else $p end;

# ------------------------------------------------------------ building blocks

# css_for($page): the style of page $page ("report" or "data") from the
# text of analysis/report.css: its comments dropped, then the lines under
# "@page $page" and "@page both", joined without their newlines.
def css_for($page):
  gsub("/\\*[^*]*\\*+([^/*][^*]*\\*+)*/"; "")
  | reduce (split("\n")[] | sub("^\\s+"; "") | sub("\\s+$"; "") | select(. != "")) as $l
      ({page: null, css: ""};
       if ($l | startswith("@page ")) then .page = $l[6:]
       elif .page == $page or .page == "both" then .css += $l
       else . end)
  | .css;

# fixture_banner($b): hand-written test data, said loudly on both pages.
def fixture_banner($b):
  if $b.fixture then "<p class=\"fixture\">TEST FIXTURE: these results were written by hand for testing the report generator. They are NOT "
    + "measurements.</p>\n" else "" end;

def status_badge($e):
  if $e.summary == null then
    (if $e.dir_exists then "<span class=\"st missing\">no summary.json</span>" else "<span class=\"st missing\">not run</span>" end)
  else
    ($e.summary.status // "unknown") as $s
    | "<span class=\"st \($s | esc)\">\(val($e.summary; $e.file; ["status"]))</span>"
  end;

def status_text($e; $what):
  if $e.summary_error != null then
    "<p class=\"err\">The summary of this experiment is not valid JSON: <code>\($e.summary_error | esc)</code></p>"
  elif $e.summary == null then
    "<p class=\"err\">No results: " + $what + " did not run in this results directory"
    + (if $e.dir_exists then " (its directory exists but holds no summary.json)" else "" end)
    + ". Run it alone with <code>make \($e.target | esc) RB_RUN=&lt;this directory&gt;</code> or run <code>make bench</code>.</p>"
  elif $e.summary.status == "failed" then
    "<p class=\"err\">This experiment FAILED; what it reported:</p><pre class=\"err\">\(val($e.summary; $e.file; ["error"]))</pre>"
  elif $e.summary.status == "skipped" then
    "<p class=\"err\">Not run on this testbed: \(val($e.summary; $e.file; ["error"]))</p>"
  elif $e.summary.status == "interrupted" then
    "<p class=\"err\">Interrupted before it finished: the values below are what was measured until then.</p>"
    + (if $e.summary.error then "<pre class=\"err\">\(val($e.summary; $e.file; ["error"]))</pre>" else "" end)
  else "" end;

# cmp_row: one row "what | ours | paper | ours/paper | ours-paper".
def cmp_row($what; $doc; $file; $path; $round; $scale; $pdoc; $ppath; $pnote):
  "<tr><th>\($what)</th><td>\(val($doc; $file; $path; $round; $scale))</td>"
  + (if $ppath == null then "<td class=\"nm\">–</td><td></td><td></td>"
     else "<td>\(val($pdoc; "paper.json"; $ppath; $round; $scale))"
       + (if $pnote then " <small>(\($pnote | esc))</small>" else "" end) + "</td>"
       + "<td>\(calc("ratio"; ref($doc; $file; $path); ref($pdoc; "paper.json"; $ppath); 2; null))</td>"
       + "<td>\(calc("diff"; ref($doc; $file; $path); ref($pdoc; "paper.json"; $ppath); $round; $scale))</td>"
     end)
  + "</tr>";
def cmp_head($cite):
  "<table class=\"cmp\"><tr><th></th><th>this run</th><th>paper \($cite)</th><th>ratio this run / paper</th><th>difference</th></tr>";

# figure($fig): one figure (a PNG, with its SVG/PDF linked), full width.
def figure($fig):
  "<figure><a href=\"\($fig.png | esc)\"><img src=\"\($fig.png | esc)\" alt=\"\($fig.png | esc)\"></a><figcaption><code>\($fig.png | esc)</code>"
  + (if $fig.svg then " · <a href=\"\($fig.svg | esc)\">SVG</a>" else "" end)
  + (if $fig.pdf then " · <a href=\"\($fig.pdf | esc)\">PDF</a>" else "" end)
  + "</figcaption></figure>";

# figures: every PNG found, one under the other, full width (a section
# opens with them).
def figures($e):
  if ($e.figures | length) == 0 then "<p class=\"nm\">No figures in this experiment's directory.</p>"
  else "<div class=\"figs\">" + ([$e.figures[] | figure(.)] | join("")) + "</div>"
  end;

# DATA_PAGE: the page beside the report that holds every value of every
# summary and every table of the run (analysis/report-data.jq), checked by
# analysis/report-check as the report is.
def data_page: "report-data.html";

# more_link($key; $e): the way to everything the section does not show:
# the experiment's part of the data page, and its files.
def more_link($key; $e):
  "<p class=\"more\">Every value and table of this experiment: <a href=\"\(data_page)#\($key | esc)\">the data page</a>"
  + (if $e.summary != null then ", or its files (<a href=\"\($e.file | esc)\"><code>\($e.file | esc)</code></a>"
       + ([$e.tables[] | ", <a href=\"\(.file | esc)\"><code>\(.file | esc)</code></a>"] | join("")) + ")"
     else "" end) + ".</p>";

# csv_table: a table file as HTML, every cell tagged with FILE#ROW,COL.
def csv_table($t):
  "<h4><a href=\"\($t.file | esc)\"><code>\($t.file | esc)</code></a></h4>"
  + if $t.nrows > $t.limit then
      "<p>\($t.nrows | tostring | "<span class=\"v\" data-src=\"\($t.file | esc)#rows\">\(.)</span>") rows; too long to show here, see the file.</p>"
    else
      "<table class=\"csv\"><tr>" + ([$t.header[] | "<th class=\"meta\">\(esc)</th>"] | join("")) + "</tr>"
      + ([$t.rows | to_entries[] | .key as $r
          | "<tr>" + ([.value | to_entries[] | "<td><span class=\"v\" data-src=\"\($t.file | esc)#\($r + 1),\(.key + 1)\">\(.value | esc)</span></td>"]
            | join("")) + "</tr>"]
         | join(""))
      + "</table>"
    end;

def tables($e; $skip):
  [$e.tables[] | select(.name as $f | any($skip[]; . == $f) | not) | csv_table(.)] | join("");

# values_table: every scalar of a summary (but the testbed copy), so a field
# the report does not know yet is still shown, and still checked.
def values_table($doc; $file; $exclude):
  [$doc | paths(scalars) | select(.[0] as $k | any($exclude[]; . == $k) | not)] as $ps
  | if ($ps | length) == 0 then ""
    else
      "<details><summary>All values in <code class=\"meta\">\($file | esc)</code></summary><table class=\"all\">"
      + ([$ps[] | "<tr><th><code class=\"meta\">\(pathstr | esc)</code></th><td>\(val($doc; $file; .))</td></tr>"] | join(""))
      + "</table></details>"
    end;

# setting_value($doc; $file; $path; $lab): the setting at $path (["settings", KEY]) in words: a scalar with
# its unit, a list joined, an object's leaves named by their labels
# (KEY.SUB in analysis/labels.json) or keys.
def setting_value($doc; $file; $path; $lab):
  ($doc | getpath($path)) as $v
  | ($lab[$path[1:] | map(tostring) | join(".")] // {}) as $l
  | if $v == null then ($l.none // "none")
    elif ($v | type) == "array" and all($v[]; type != "object" and type != "array") then
      [range(0; $v | length) as $i | val($doc; $file; $path + [$i])] | join(", ")
    elif ($v | type) == "array" or ($v | type) == "object" then
      [$v | paths(scalars) as $p
       | ($lab[$path[1:] + $p | map(tostring) | join(".")].label // ($p | map(tostring) | join(" "))) as $name
       | "\($name | esc): \(val($doc; $file; $path + $p))"] | join("<br>")
    else val($doc; $file; $path) + (if $l.unit then " " + ($l.unit | esc) else "" end)
    end;

# settings_table($doc; $file; $lab): an experiment's settings, one row per
# setting, named in words by $lab (analysis/labels.json of its experiment)
# with the JSON key beside it; a setting without words is marked
# class="nolabel", which analysis/report-check rejects.
def settings_table($doc; $file; $lab):
  if ($doc.settings | type) != "object" then ""
  else
    "<details><summary>Settings</summary><table class=\"all settings\">"
    + ([$doc.settings | keys_unsorted[] as $k | ($lab[$k].label) as $name
        | if $name then "<tr><th>\($name | esc) <small><code class=\"meta\">\($k | esc)</code></small></th>"
          else "<tr class=\"nolabel\"><th><code class=\"meta\">\($k | esc)</code> (no words for this setting in analysis/labels.json)</th>" end
        + "<td>\(setting_value($doc; $file; ["settings", $k]; $lab))</td></tr>"] | join(""))
    + "</table></details>"
  end;

# finding($short; $more): one Finding (analysis/findings.jq) as a manager
# reads it first: $short, one short sentence (how many, where it breaks,
# why, what a client saw), and $more, the sentences behind it (an array),
# folded under it.
def finding($short; $more): {short: $short, more: $more};

# ok($e): the experiment ran and finished (interrupted results are partial:
# they are shown in their section, not summarised here).
def ok($e): ($e.summary.status // null) == "ok";

# limit_owner($s; $f; $path): "the servers' own limit" when the verdict
# at $path blames the server, else says the rig set it.
def limit_owner($s; $f; $path):
  ($s | getpath($path)) as $v
  | if ($v | type) != "object" then ""
    elif $v.caused_by == "server" and $v.server_own == false then
      " The server CPU ran out, but the figure is not shown to be the servers' own: the rig's share of that CPU was above its limit or not measured (above)."
    elif $v.caused_by == "server" and ($v.mechanism == "queue" or $v.mechanism == "burst") then
      " The servers lost it, but with their CPU to spare (" + val($s; $f; $path + ["server_cpu_busy_pct"]; 1; null)
      + " % busy): a queue overflowed, so this is where their queues overflow, not their CPU's capacity."
    elif $v.caused_by == "generator" and $v.mechanism == "burst" then
      " The servers lost it in a burst the generator sent (" + val($s; $f; $path + ["arrivals","lost_in_burst"]; 0; null) + " of the "
      + val($s; $f; $path + ["arrivals","lost"]; 0; null) + " queries lost came while the arrivals ran a receive ring ahead of their local mean rate): "
      + "the generator's limit, not the servers' capacity."
    elif $v.caused_by == "host" and $v.mechanism == "stall" then
      " The servers lost it while their CPU stalled (" + val($s; $f; $path + ["arrivals","lost_in_stall"]; 0; null) + " of the "
      + val($s; $f; $path + ["arrivals","lost"]; 0; null) + " queries lost): the host's stall, not the servers' capacity."
    elif $v.caused_by == "server" then " This is the servers' own limit."
    else " This limit is the test rig's (" + val($s; $f; $path + ["caused_by"]) + "), not the servers' capacity." end;

# rig_charge_text($s; $f; $path): the rig's share of the server CPU at
# the points that set the figure (scripts/lib/charge.jq, at $path), in
# words; "" when the summary has none.
# generator_text($s; $f; $name; $version): which generator made the load,
# and what that means for the figure (kxdpgun: counted at the router and
# the daemons, no latency; tcpreplay and tcpbench: the paper's).
def generator_text($s; $f; $name; $version):
  ($s | getpath($name)) as $g
  | if ($g | type) != "string" then ""
    else "<p><b>Generator.</b> " + val($s; $f; $name)
      + (if ($s | getpath($version) | type) == "string" then " (" + val($s; $f; $version) + ")" else "" end)
      + (if $g == "kxdpgun" then ": Knot DNS's generator, sending through AF_XDP at about a third of the paper's generators' CPU per query; what it sent is "
        + "counted at the router, what was answered at the server daemons, and its own summary only checked against them; it measures no latency"
         else ": the paper's generator" end)
      + ".</p>" end;

def rig_charge_text($s; $f; $path):
  ($s | getpath($path)) as $c
  | if ($c | type) != "object" then ""
    elif ($c.measured_points // 0) == 0 then
      "<p><b>The server CPU's work.</b> The rig's share of the server CPU was " + nm
      + " (CPU_CHARGE): the figure may include the rig's forwarding of the answers.</p>"
    else
      "<p><b>The server CPU's work.</b> At the points that set the figure the rig's forwarding (the switch's bridge, the router) took up to "
      + val($s; $f; $path + ["max"]; 1; 100) + " % of the server CPU's busy time (median " + val($s; $f; $path + ["median"]; 1; 100)
      + " %; perf's call graphs on the server CPU)"
      + (if $c.own == false then ": <b>above " + val($s; $f; $path + ["limit"]; 0; 100)
        + " %, so the figure includes the rig's work and is not the server's own</b>"
         else ": at most " + val($s; $f; $path + ["limit"]; 0; 100) + " %, the figure is the server's own" end)
      + ".</p>"
    end;

# per_cpu_sentence($s; $f): the ceiling per CPU of the server, when the
# summary has one (the server limited, its receive path on its CPU), with
# the daemons' budget: a budgeted rate is never the unbudgeted server's.
def per_cpu_sentence($s; $f):
  if ($s.per_cpu.qps_per_cpu | type) == "number" then
    " Per CPU of the server that is " + val($s; $f; ["per_cpu","qps_per_cpu"]; 0; null)
    + " answers/s (the ceiling over the server CPU's " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null) + " % busy"
    + (if ($s.per_cpu.budget | type) == "number"
       then ", the daemons limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; a whole CPU's figure is this projection, not a measurement)."
       else ")." end)
  else "" end;

# ------------------------------------------------------------ IPv4 beside IPv6

# fam_pair($b; $e): the IPv4 and IPv6 runs of the registry entry $e
# (<name>/ and <name>-v6/ of the bundle).
def fam_pair($b; $e): [$b.exps[$e.name], $b.exps[$e.name + "-v6"]];

# fam_row: one figure of an experiment over IPv4 ($e4) and IPv6 ($e6),
# with the ratio IPv6 / IPv4 and the difference when both are numbers.
def fam_row($what; $e4; $e6; $path; $round; $scale):
  "<tr><th>\($what)</th><td>\(val($e4.summary; $e4.file; $path; $round; $scale))</td><td>\(val($e6.summary; $e6.file; $path; $round; $scale))</td>"
  + "<td>\(calc("ratio"; ref($e6.summary; $e6.file; $path); ref($e4.summary; $e4.file; $path); 3; null))</td>"
  + "<td>\(calc("diff"; ref($e6.summary; $e6.file; $path); ref($e4.summary; $e4.file; $path); $round; $scale))</td></tr>";
def fam_head: "<table class=\"cmp\"><tr><th></th><th>IPv4</th><th>IPv6</th><th>ratio IPv6 / IPv4</th><th>difference</th></tr>";

# in_order($entries; $names): the registry entries $entries, those named in
# $names first in that order, then the others in the registry's order.
def in_order($entries; $names):
  ([$names[] as $n | $entries[] | select(.name == $n)]
   + [$entries[] | select(.name as $n | any($names[]; . == $n) | not)])[];

# ------------------------------------------------------------ rows
# Small pieces the pages' tables are built from (HTML given, not escaped).

# kv_row($name; $value): a row of a key-value table; kv_row($name; $value;
# $note) with a third cell (the paper's, or "").
def kv_row($name; $value): "<tr><th>\($name)</th><td>\($value)</td></tr>";
def kv_row($name; $value; $note): "<tr><th>\($name)</th><td>\($value)</td><td>\($note)</td></tr>";
# head_row($names): a row of column names; cells_row($cells): a row of cells.
def head_row($names): "<tr>" + ($names | map("<th>\(.)</th>") | join("")) + "</tr>";
def cells_row($cells): "<tr>" + ($cells | map("<td>\(.)</td>") | join("")) + "</tr>";
# paper_note($text): a third cell's note, what the paper had.
def paper_note($text): "<small>paper: \($text)</small>";

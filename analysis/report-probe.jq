# report-probe.jq: the report's part of a sweep's probe (docs/latency.md):
# the row of the table "Latency and availability (RSSAC047)", the line a
# sweep's section shows, the Findings sentence. It reads what the sweep's
# summary stored under probe (the block, and the rules' results
# probe.rssac047 and probe.queue_knee, scripts/lib/probe.jq), every
# number tagged for analysis/report-check; the rules' names in words come
# from probe.jq itself. Included by analysis/report.jq and the sweeps'
# section.jq (after report-lib).

include "report-lib";
include "probe" {search: "../scripts/lib"};

# Names, not measurements (class "meta": analysis/report-check reads no
# number in them): the advisory's, and the statistic's.
def rssac047_name: "<span class=\"meta\">RSSAC047</span>";
def p99_name: "<span class=\"meta\">p99</span>";

# probe_other_schema($s; $f; $path): a probe block this report cannot
# read (another schema: probe.jq's rules would stop the whole page) in
# words, or "" when it can, or there is none.
def probe_other_schema($s; $f; $path):
  ($s | at($path)) as $p
  | if ($p | type) == "object" and $p.schema != probe_schema then
      "a probe block of schema " + val($s; $f; $path + ["schema"]) + ", not " + (probe_schema | esc) + ": not read by this report"
    else "" end;

# A row of the table (a sweep's latency_rows, analysis/report-sections.jq):
#   {name, s: the summary, f: its file, path: where the probe block lies
#    (["probe"]), unit: the offered load's unit}
def latency_row($name; $s; $f; $unit): {name: $name, s: $s, f: $f, path: ["probe"], unit: $unit};

# probe_rate($s; $f; $path; $unit): an offered rate at $path, with its unit.
def probe_rate($s; $f; $path; $unit): val($s; $f; $path; 0; null) + " " + $unit;

# probe_failed_text($s; $f; $pp): the thresholds that failed first, in words.
def probe_failed_text($s; $f; $pp):
  ($s | at($pp + ["rssac047","first_fail","failed"])) as $l
  | if ($l | type) != "array" then "" else [$l[] | probe_threshold_label(.) | esc] | join(", ") end;

# probe_knee_cell($r; $x): the queueing knee of protocol $x, or why none.
def probe_knee_cell($r; $x):
  ($r.path + ["queue_knee", $x]) as $q
  | if ($r.s | at($q + ["offered"]) | type) == "number" then probe_rate($r.s; $r.f; $q + ["offered"]; $r.unit)
    elif ($r.s | at($q + ["measured"])) == true then "none within the sweep"
    else val($r.s; $r.f; $q + ["offered"]) end;

# probe_table_row($r): one sweep's row.
def probe_table_row($r):
  $r.s as $s | $r.f as $f | $r.path as $p | ($p + ["rssac047"]) as $q
  | if ($s | at($p) | type) != "object" then
      "<tr><th>\($r.name | esc)</th><td colspan=\"6\">probe \(val($s; $f; $p))</td></tr>"
    elif probe_other_schema($s; $f; $p) != "" then "<tr><th>\($r.name | esc)</th><td colspan=\"6\">\(probe_other_schema($s; $f; $p))</td></tr>"
    else
      probe_share_max_at($s | at($p)) as $sh
      | "<tr><th>\($r.name | esc)</th><td>"
      + (if ($s | at($q + ["held_to_highest"])) == true then "the highest load, " + probe_rate($s; $f; $q + ["highest"]; $r.unit)
         else probe_rate($s; $f; $q + ["held_up_to"]; $r.unit) end)
      + "</td><td>"
      + (if ($s | at($q + ["first_fail"]) | type) == "object" then
           probe_rate($s; $f; $q + ["first_fail","offered"]; $r.unit) + ": " + probe_failed_text($s; $f; $p)
         elif ($s | at($q + ["held_to_highest"])) == true then "none"
         else val($s; $f; $q + ["first_fail"]) end)
      + "</td><td>UDP " + probe_knee_cell($r; "udp") + "<br>TCP " + probe_knee_cell($r; "tcp")
      + "</td><td>UDP " + val($s; $f; $p + ["idle","udp","p50_ms"]; 2; null) + " ms<br>TCP " + val($s; $f; $p + ["idle","tcp","p50_ms"]; 2; null) + " ms"
      + "</td><td>"
      + (if $sh == null then val($s; $f; $p + ["points"])
         else val($s; $f; $p + ["points", $sh.index, "share"]; 2; 100) + " % (at " + probe_rate($s; $f; $p + ["points", $sh.index, "offered"]; $r.unit) + ")"
           + (if ($s | at($q + ["thresholds","probe_share_max"]) | type) == "number"
                 and probe_share_flagged($s | at($p); {share_max: ($s | at($q + ["thresholds","probe_share_max"]))}) then
                " <b class=\"err\">over " + val($s; $f; $q + ["thresholds","probe_share_max"]; 0; 100) + " %: the probe added to the load</b>"
              else "" end)
         end)
      + "</td></tr>"
    end;

# probe_thresholds_text($r): RSSAC047's thresholds as the first measured row holds them.
def probe_thresholds_text($r):
  ($r.path + ["rssac047","thresholds"]) as $t | $r.s as $s | $r.f as $f
  | rssac047_name + "'s thresholds for one root server identifier (" + val($s; $f; $t + ["source"]) + "): the median latency of the answered queries at most "
    + val($s; $f; $t + ["udp_latency_ms"]) + " ms over UDP and " + val($s; $f; $t + ["tcp_latency_ms"]) + " ms over TCP (TCP timed from the start of "
    + "the connection), availability (answered within " + val($s; $f; $t + ["timeout_ms"]; 0; 0.001) + " s / sent) at least "
    + val($s; $f; $t + ["availability_min"]; 0; 100) + " %, correctness " + val($s; $f; $t + ["correctness_min"]; 0; 100) + " %";

# latency_table($rows): the table "Latency and availability (RSSAC047)"
# of every sweep's rows (analysis/report.jq), "" when no sweep has a row.
def latency_table($rows):
  if ($rows | length) == 0 then "" else
    ([$rows[] | select(. as $r | $r.s | at($r.path + ["rssac047","thresholds"]) | type == "object")] | first // null) as $m
    | "<section id=\"latency\"><h2>Latency and availability (" + rssac047_name + ")</h2>"
    + "<p><b>What is measured.</b> During every point of a capacity sweep a probe of its own on the client network (the probe role) asks "
      + "<code>. SOA</code> over UDP and over TCP at a low fixed rate, as " + rssac047_name + "'s vantage points do, and records each answer's "
      + "latency, whether it came within the timeout and whether it was correct. It is one LAN hop from the instance, with no Internet path: what it sees is "
      + "the instance's own contribution to what a root server's clients see (docs/latency.md). "
      + (if $m == null then "" else probe_thresholds_text($m) + ". " end)
      + "The queueing knee, rootbench's own mark and not " + rssac047_name + "'s, is the first load at which the probe's " + p99_name
      + " latency exceeds "
      + (if $m == null then "a multiple of its idle one" else val($m.s; $m.f; $m.path + ["queue_knee","factor"]) + " times its idle one" end)
      + ": queues fill there, usually well before " + rssac047_name + "'s line.</p>"
    + "<table class=\"cmp\">" + head_row(["sweep", rssac047_name + " held up to (offered)", "first failure (offered: which threshold)",
        "queueing knee (" + p99_name + " past its idle factor)", "idle median latency", "the probe's largest share of the load (its rate)"])
    + ([$rows[] | probe_table_row(.)] | join("")) + "</table></section>"
  end;

# probe_section_text($s; $f; $unit): a sweep section's line on its probe.
def probe_section_text($s; $f; $unit):
  if ($s.probe | type) != "object" then "<p><b>Latency (" + rssac047_name + ").</b> Probe " + val($s; $f; ["probe"]) + " in this sweep.</p>"
  elif probe_other_schema($s; $f; ["probe"]) != "" then "<p><b>Latency (" + rssac047_name + ").</b> " + probe_other_schema($s; $f; ["probe"]) + ".</p>"
  else
    "<p><b>Latency (" + rssac047_name + ").</b> " + val($s; $f; ["probe","rssac047","words"]) + ". Queueing knee: "
    + val($s; $f; ["probe","queue_knee","words"]) + ". The latency figure shows the probe's median and " + p99_name + " against the offered load ("
    + "every sweep: <a href=\"#latency\">Latency and availability</a>).</p>"
  end;

# probe_short($s; $f; $x; $unit): what a client saw, as a clause of a
# Finding's short sentence (a leading "; "): up to which load the probe's
# latency kept RSSAC047's threshold; "" without a probe.
def probe_short($s; $f; $x; $unit):
  ["probe","rssac047","by_threshold","\($x)_latency"] as $bt
  | if ($s.probe | type) != "object" or ($s.probe.schema != probe_schema) or ($s | at($bt + ["measured"])) != true then ""
    elif ($s | at($bt + ["first_fail"])) == null then
      "; a client's latency kept " + rssac047_name + " to the highest load, " + probe_rate($s; $f; ["probe","rssac047","highest"]; $unit)
    elif ($s | at($bt + ["held_up_to"])) == null then "; a client's latency failed " + rssac047_name + " at every load"
    else "; a client's latency kept " + rssac047_name + " up to " + probe_rate($s; $f; $bt + ["held_up_to"]; $unit) end;

# probe_finding($s; $f; $x; $unit): the Findings sentences of a sweep's
# probe for protocol $x (the sweep's own), after the sweep's own sentence
# (a leading space); "" without a probe.
def probe_finding($s; $f; $x; $unit):
  ["probe","rssac047","by_threshold","\($x)_latency"] as $bt
  | if ($s.probe | type) != "object" or ($s.probe.schema != probe_schema) or ($s | at($bt + ["measured"])) != true then ""
    else
      probe_median_max_at($s.probe; $x) as $mx
      | " The instance keeps " + rssac047_name + "'s " + ($x | ascii_upcase) + " latency (median at most "
         + val($s; $f; ["probe","rssac047","thresholds","\($x)_latency_ms"]) + " ms) "
         + (if ($s | at($bt + ["first_fail"])) == null then "up to the highest load, " + probe_rate($s; $f; ["probe","rssac047","highest"]; $unit)
            elif ($s | at($bt + ["held_up_to"])) == null then "at no load: it failed already at " + probe_rate($s; $f; $bt + ["first_fail"]; $unit)
            else "up to " + probe_rate($s; $f; $bt + ["held_up_to"]; $unit) end)
         + (if $mx == null then "" else
              (if ($s.probe.ceiling | type) == "number" and $mx.offered > $s.probe.ceiling then
                 "; past the ceiling (" + probe_rate($s; $f; ["probe","ceiling"]; $unit) + ") the median reaches "
               else "; its median reaches at most " end)
              + val($s; $f; ["probe","points",$mx.index,$x,"p50_ms"]; (if $mx.p50_ms < 10 then 2 else 0 end); null) + " ms (at "
              + probe_rate($s; $f; ["probe","points",$mx.index,"offered"]; $unit) + ")" end)
         + ". " + (if $s.probe.rssac047.held_to_highest == true then "Every " + rssac047_name + " threshold held up to the highest load."
                   elif ($s.probe.rssac047.first_fail | type) == "object" then
                     "The first " + rssac047_name + " threshold to fail: " + probe_failed_text($s; $f; ["probe"]) + " at "
                     + probe_rate($s; $f; ["probe","rssac047","first_fail","offered"]; $unit) + "."
                   else "" end)
    end;

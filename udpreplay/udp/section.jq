# section.jq -- the UDP ceiling (shaped and unshaped): its section of the report and its Findings
# sentences, through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";
include "report-probe";

# physics_text($s; $f): the physics check (is the ceiling what the link
# carries?) in words.
def physics_text($s; $f):
  $s.physics_check as $c
  | if ($c | type) != "object" then "<p><b>Physics check.</b> \(nm)</p>"
    elif $c.applicable == false then "<p><b>Physics check.</b> Not applicable: " + val($s; $f; ["physics_check","reason"]) + ".</p>"
    else
      "<p><b>Physics check: is the ceiling what the link carries?</b> "
      + (if ($c.measured_bps | type) == "number" then
           "At the ceiling the answers needed " + val($s; $f; ["physics_check","measured_bps"]; 0; null) + " bit/s on the wire, against a link of "
           + val($s; $f; ["physics_check","expected_bps"]; 0; null) + " bit/s"
         elif ($c.expected_ceiling_qps | type) == "number" then
           "The link carries " + val($s; $f; ["physics_check","expected_ceiling_qps"]; 0; null) + " answers/s of the mean size"
         else "" end)
      + (if ($c.ratio | type) == "number" then " (measured / expected " + val($s; $f; ["physics_check","ratio"]; 3; null) + ")" else "" end)
      + (if $c.link_limited == true then ": <b>the link, not the servers, set the ceiling</b>"
         elif $c.link_limited == false then ": the link did not set the ceiling"
         else "" end)
      + (if ($c.note | type) == "string" then "; " + val($s; $f; ["physics_check","note"]) else "" end)
      + (if ($c.rule | type) == "string" then " <small>(rule: " + val($s; $f; ["physics_check","rule"]) + ")</small>" else "" end)
      + ".</p>"
    end;

def udp_section($b; $key; $title; $note):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"\($key)\"><h2>\($title) \(status_badge($e))</h2>"
  + status_text($e; "the UDP experiment")
  + (if $s == null then "" else figures($e) end)
  + (if $note != "" then "<p><b>This run.</b> \($note)</p>" else "" end)
  + (if $s == null then "" else generator_text($s; $f; ["settings","generator"]; ["settings","generator_version"]) end)
  + (if range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) != "" then
       "<p><b>The ceiling.</b> " + range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"])
       + ": every repetition answered its share up to the lower rate, at least one fell short at the higher"
       + (if ($s.repetitions_max | type) == "number" then " (up to " + val($s; $f; ["repetitions_max"]) + " repetitions per rate)" else "" end)
       + (if ($s.non_monotonic | type) == "array" and ($s.non_monotonic | length) > 0 then
            "; <b>not monotonic</b>: every repetition held again at " + ([$s.non_monotonic | to_entries[] | val($s; $f; ["non_monotonic", .key])] | join(", "))
            + " queries/s, above the first failure (shown, not taken as the ceiling)"
          else "" end) + ".</p>"
     else "" end)
  + (if ($e.summary.verdict | type) == "object" then "<p><b>Where the answers were lost.</b> \(val($e.summary; $e.file; ["verdict","summary"]))</p>" else ""
    end)
  + (if $s == null then "" else probe_section_text($s; $f; "q/s") end)
  + (if $s == null or $s.link_bps != null then "" else rig_charge_text($s; $f; ["rig_charge"]) end)
  + (if ($s.per_cpu.qps_per_cpu | type) == "number" then
       "<p><b>Per CPU of the server.</b> " + val($s; $f; ["per_cpu","qps_per_cpu"]; 0; null)
       + " answers/s per CPU: the ceiling over the server CPU's busy share there, " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null)
       + " % (the daemon and its kernel receive path)"
       + (if ($s.per_cpu.budget | type) == "number" then "; the daemons were limited to " + val($s; $f; ["per_cpu","budget"])
         + " CPU each (a whole CPU is a projection)" else "" end)
       + ".</p>"
     elif ($s.per_cpu.budget | type) == "number" then
       "<p><b>Per CPU of the server.</b> The daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; no per-CPU figure: "
         + val($s; $f; ["per_cpu","rule"]) + ".</p>"
     else "" end)
  + if $s == null then "</section>" else
      physics_text($s; $f)
      + cmp_head(val($p; "paper.json"; ["udp","section"]))
      + cmp_row("ceiling, answered q/s (paper: Juniper)"; $s; $f; ["ceiling_qps"]; 0; null; $p; ["udp","ceiling_qps","juniper"]; null)
      + cmp_row("ceiling, answered q/s (paper: Cisco)"; $s; $f; ["ceiling_qps"]; 0; null; $p; ["udp","ceiling_qps","cisco"]; null)
      + cmp_row("link rate, bit/s"; $s; $f; ["link_bps"]; 0; null; $p; ["udp","link_bps"]; null)
      + cmp_row("mean answer on the wire, bytes (paper: Table 2 unsigned, out per query)"; $s; $f; ["mean_answer_wire_bytes"]; 1; null; $p;
        ["sizes","tests","unsigned","bytes_per_query_out"]; null)
      + "</table>"
      + "<details><summary>What is measured</summary><p>The players replay DNS queries over UDP at a rising rate towards the service address; the answers go "
        + "to the Listener, which only counts them. For each offered rate the fraction answered is recorded. The <em>ceiling</em> is the highest answered "
        + "rate; the <em>critical points</em> are the steps where the answered fraction falls. The paper (\(val($p; "paper.json"; ["udp","section"]))) found "
        + "its instance limited by its network link of \(val($p; "paper.json"; ["udp","link_bps"])) bit/s, not by the servers: the answered rate stopped "
        + "growing where answers of the average size filled the link. The physics check compares our ceiling with the link rate divided by the average answer "
        + "size on the wire; if they agree, this run too was limited by the link, and the servers' own capacity is above it.</p></details>"
      + "<details><summary>Critical points, this run and the paper's</summary><div class=\"pair\"><table class=\"csv\"><caption>this "
        + "run</caption>" + head_row(["sent q/s (achieved)", "repetition", "answered q/s", "answered fraction", "the rig's share of the server CPU, %"])
      + (if ($s.critical_points | type) == "array" and ($s.critical_points | length) > 0 then
           [$s.critical_points | to_entries[] | .key as $i
            | "<tr><td>\(val($s; $f; ["critical_points",$i,"achieved_qps"]; 1; null))</td><td>\(val($s; $f; ["critical_points",$i,"rep"]))</td><td>"
              + "\(val($s; $f; ["critical_points",$i,"answered_qps"]; 1; null))</td><td>"
              + "\(val($s; $f; ["critical_points",$i,"answer_ratio"]; 6; null))</td><td>\(val($s; $f; ["critical_points",$i,"rig_share"]; 1; 100))"
              + "\(if $s.critical_points[$i].rig_over_limit == true then " <b>rig's work: not the server's own</b>" else "" end)</td></tr>"] | join("")
         else "<tr><td colspan=\"5\">\(nm)</td></tr>" end)
      + "</table><table class=\"csv\"><caption>paper, Table 1 (router hashing)</caption><tr><th>offered q/s</th><th>answered fraction</th></tr>"
      + ([$p.udp.critical_points | to_entries[] | .key as $i
          | "<tr><td>\(val($p; "paper.json"; ["udp","critical_points",$i,"offered_qps"]; 1; null))</td><td>"
            + "\(val($p; "paper.json"; ["udp","critical_points",$i,"ratio"]; 6; null))</td></tr>"] | join(""))
      + "</table></div></details>"
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + more_link($key; $e)
      + "</section>"
    end;

# udp_no_ceiling($s; $f; $where): a sweep that ended without a ceiling (the
# generator limited it, or every rate was answered): what was answered in
# full, a bound, never the capacity.
def udp_no_ceiling($s; $f; $where):
  "Over UDP " + $where + " no ceiling was reached (" + val($s; $f; ["ceiling"]) + "): the instance answered at least "
  + val($s; $f; ["by_lb",0,"max_good_answered_qps"]; 0; null) + " queries/s in full, a lower bound, not its capacity.";

# UDP unshaped: the ceiling and what stopped it (the verdict in words).
def finding_udp_unshaped($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.ceiling_qps | type) == "number" then
      ["Over UDP the instance"
       + (if ($s.testbed.server.cpu_budget.budget | type) == "number"
          then ", its servers limited to " + val($s; $f; ["testbed","server","cpu_budget","budget"]) + " CPU each,"
          else "" end)
       + " answered up to " + val($s; $f; ["ceiling_qps"]; 0; null)
       + " queries/s with no link shaping"
       + (range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) | if . != "" then " (its ceiling lies " + . + ")" else "" end)
       + (if ($s.verdict.summary // null) != null then "; what stopped it: " + val($s; $f; ["verdict","summary"]) + "." else "." end)
       + limit_owner($s; $f; ["verdict"])
       + per_cpu_sentence($s; $f)]
    elif ok($e) then [udp_no_ceiling($s; $f; "with no link shaping")]
    else [] end;

# UDP shaped as in the paper: the ceiling, the answer size, the paper's.
def finding_udp_shaped($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | if ok($e) and ($s.ceiling_qps | type) == "number" then
      ["With the router&ndash;server link shaped to " + val($s; $f; ["link_bps"]; 0; 0.000001)
       + " Mbit/s as in the paper, the ceiling was " + val($s; $f; ["ceiling_qps"]; 0; null)
       + " queries/s" + (range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) | if . != "" then " (" + . + ")" else "" end)
       + " at " + val($s; $f; ["mean_answer_wire_bytes"]; 0; null) + " bytes per answer on the wire"
       + (if $s.physics_check.link_limited == true then ", which is what the link carries: the link, not the servers, set it"
          elif ($s.physics_check.ratio | type) == "number" then " (measured / what the link carries: " + val($s; $f; ["physics_check","ratio"]; 2; null) + ")"
          else "" end)
       + " (the paper: " + val($p; "paper.json"; ["udp","ceiling_qps","juniper"]) + " and "
       + val($p; "paper.json"; ["udp","ceiling_qps","cisco"]) + " queries/s)."]
    elif ok($e) then [udp_no_ceiling($s; $f; "on the link shaped to " + val($s; $f; ["link_bps"]; 0; 0.000001) + " Mbit/s as in the paper,")]
    else [] end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry, whose
# variant says whether the link was shaped)

# udp_note($variant): what the run's link means for its ceiling, in words.
def udp_note($variant):
  if $variant == "shaped" then
    "The router&ndash;server link is shaped to the paper's link rate (see the link rate below), so this is the ceiling"
    + " of an instance whose link limits it, as the paper's did."
  elif $variant == "unshaped" then
    "No link shaping: the ceiling here is where the servers (or the rig) break when the link does not. Compare it with"
    + " the shaped ceiling above: the difference is the headroom the servers have over the paper's link."
  else "" end;

def section($b; $e): udp_section($b; $e.name; $e.heading // $e.title; udp_note($e.variant));
# udp_short($x; $variant): the Finding's short sentence: the ceiling, what
# set it, and what a client saw.
def udp_short($x; $variant):
  $x.summary as $s | $x.file as $f
  | if ($s.ceiling_qps | type) != "number" then
      "Over UDP" + (if $variant == "unshaped" then ", unshaped" else " on the paper's " + val($s; $f; ["link_bps"]; 0; 0.000001) + " Mbit/s link" end)
      + ": no ceiling reached; at least " + val($s; $f; ["by_lb",0,"max_good_answered_qps"]; 0; null) + " queries/s answered (a bound)"
    elif $variant == "unshaped" then
      "Over UDP, unshaped: up to " + val($s; $f; ["ceiling_qps"]; 0; null) + " queries/s answered"
      + (if $s.verdict.caused_by == "server" and ($s.verdict.mechanism == "queue" or $s.verdict.mechanism == "burst") then
           ", where a server's queue overflowed with its CPU to spare (not its CPU's capacity)"
         elif $s.verdict.mechanism == "burst" then ", where the generator's burst overflowed a server's queue (not the servers' capacity)"
         elif $s.verdict.mechanism == "stall" then ", where a stall of the server CPU overflowed its queue (not the servers' capacity)"
         elif $s.verdict.caused_by == "server" and $s.verdict.server_own != false then ", the servers' own limit"
         elif $s.verdict.caused_by == "server" then ", where the server CPU ran out (the rig's work on it included)"
         elif ($s.verdict.caused_by // null) != null then ", set by the " + val($s; $f; ["verdict","caused_by"]) + ", not the servers"
         else "" end)
    else
      "Over UDP on the paper's " + val($s; $f; ["link_bps"]; 0; 0.000001) + " Mbit/s link: " + val($s; $f; ["ceiling_qps"]; 0; null) + " queries/s"
      + (if $s.physics_check.link_limited == true then ", all the link carries" else "" end)
    end
  + probe_short($s; $f; "udp"; "q/s") + ".";

def findings($b; $e):
  $b.exps[$e.name] as $x
  | (if $e.variant == "unshaped" then finding_udp_unshaped($b; $e.name) else finding_udp_shaped($b; $e.name) end)
  | map(finding(udp_short($x; $e.variant); [. + ($x | probe_finding(.summary; .file; "udp"; "q/s"))]));
def family_rows($b; $e):
  fam_pair($b; $e) as [$e4, $e6]
  | fam_row("status"; $e4; $e6; ["status"]; null; null)
  + fam_row("ceiling, answered q/s"; $e4; $e6; ["ceiling_qps"]; 0; null)
  + fam_row("most answered q/s at ratio above the threshold"; $e4; $e6; ["by_lb",0,"max_good_answered_qps"]; 0; null)
  + fam_row("mean answer on the wire, bytes"; $e4; $e6; ["mean_answer_wire_bytes"]; 1; null)
  + fam_row("layer that lost the first answers"; $e4; $e6; ["verdict","layer"]; null; null);
def family_note($b; $e): "";
# Only the unshaped ceiling has a figure per CPU: a shaped link's ceiling is the link's.
def per_cpu_rows($b; $e):
  [$b.exps[$e.name] | select($e.variant == "unshaped" and .summary.per_cpu != null)
   | {name: "UDP, \($e.variant)", s: .summary, f: .file, path: ["per_cpu"], fig: "qps_per_cpu", unit: "answers/s"}];
def headline($b; $e): "";
# latency_rows: the sweep's row of "Latency and availability (RSSAC047)" (analysis/report-probe.jq).
def latency_rows($b; $e): [$b.exps[$e.name] | select(.summary != null) | latency_row($e.short // $e.name; .summary; .file; "q/s")];

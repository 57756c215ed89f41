# section.jq -- the servers compared: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";

# spread_words($s; $f; $path; $round): a spread (median, range, n) held at
# $path of $s in words, flagged when it moved; null when it holds no value.
def spread_words($s; $f; $path; $round):
  ($s | getpath($path)) as $v
  | if ($v.n // 0) == 0 then null
    else "\(val($s; $f; $path + ["median"]; $round; null)) <small>(\(val($s; $f; $path + ["min"]; $round; null))&ndash;"
      + "\(val($s; $f; $path + ["max"]; $round; null)), n = \(val($s; $f; $path + ["n"])))</small>"
         + (if $v.flagged then " <b>moved &gt;5 %</b>" else "" end) end;

# row_name($s; $f; $i): a row's server name and, when recorded, its release.
def row_name($s; $f; $i):
  val($s; $f; ["servers",$i,"name"])
  + (if $s.servers[$i].release_name != null then " " + val($s; $f; ["servers",$i,"release_name"]) else "" end);

# row_dirs: a row's repetition folders (a summary of rootbench.compare/1
# has none: servers/<kind>/r<N>).
def row_dirs: .dirs // [range(1; .repetitions + 1) as $r | "servers/\(.server)/r\($r)"];

# spread_cell($s; $f; $path; $round): a spread in words, or not measured.
def spread_cell($s; $f; $path; $round): spread_words($s; $f; $path; $round) // nm;

# releases_section($s; $f): per kind, each release beside the first, figure
# by figure: the medians with their ranges, the ratio with the range of
# ratios the two spreads allow, and the words of rules.jq's change.
def releases_section($s; $f):
  if ($s.changes // []) == [] then "" else
  "<h3>Releases side by side</h3><p>Per server, each release beside " + val($s; $f; ["releases",0]) + ": the median over the repetitions with its "
    + "range, and the ratio of the medians with the lowest and highest ratio the two ranges allow. Where the ranges overlap the change is "
    + "<b>within the spread</b>: this run cannot tell the releases apart there. A sweep the rig ended first has a bound, not a knee, and no ratio.</p>"
  + ([$s.changes | to_entries[] | .key as $c | .value as $ch
      | ([$s.servers | to_entries[] | select(.value.server == $ch.server and .value.release_name == $ch.base) | .key][0]) as $bi
      | ([$s.servers | to_entries[] | select(.value.server == $ch.server and .value.release_name == $ch.release) | .key][0]) as $ri
      | "<h4>\(row_name($s; $f; $bi)) and \(row_name($s; $f; $ri))</h4><table class=\"cmp\">"
        + head_row(["figure", val($s; $f; ["changes",$c,"base"]), val($s; $f; ["changes",$c,"release"]), "ratio", "ratio's range", "change"])
        + ([$ch.figures | to_entries[] | .key as $j | .value as $g
            | def cell($i): if $g.path[0:2] == ["dot","full"] or $g.path[0:2] == ["dot","resume"] or $g.path[0] == "tcp_direct" then
                  (spread_words($s; $f; ["servers",$i] + $g.path; 0) // (spread_words($s; $f; ["servers",$i] + $g.path[0:-1] + ["bound"]; 0)
                   | if . == null then nm else "&ge; " + . + " (a bound)" end))
                else spread_cell($s; $f; ["servers",$i] + $g.path; 1) end;
            "<tr><th>\(val($s; $f; ["changes",$c,"figures",$j,"label"])) (\(val($s; $f; ["changes",$c,"figures",$j,"unit"])))</th>"
              + "<td>\(cell($bi))</td><td>\(cell($ri))</td>"
              + "<td>\(val($s; $f; ["changes",$c,"figures",$j,"ratio"]; 2; null))</td>"
              + "<td>\(if $g.ratio_low == null then nm else val($s; $f; ["changes",$c,"figures",$j,"ratio_low"]; 2; null) + "&ndash;"
                       + val($s; $f; ["changes",$c,"figures",$j,"ratio_high"]; 2; null) end)</td>"
              + "<td>\(val($s; $f; ["changes",$c,"figures",$j,"words"]))</td></tr>"] | join(""))
        + "</table>"] | join(""))
  end;

# dot_rows($s; $f): DoT per server and release: handshakes/s full and
# resumed (the knee, or a bound where the rig ended the sweep first) with
# the verdicts, and bytes per query; "not available" with the reason where
# the release serves no DoT.
def dot_rows($s; $f):
  if all($s.servers[]; .dot == null) then "" else
  "<h3>DNS over TLS</h3><p>The DoT experiment (docs/dot.md) in each repetition: TLS handshakes/s where 0.1 % of connections failed, a full "
    + "handshake per connection and a resumed one, configuration 1p1s; where the rig ended the sweep first, the most the server handled "
    + "(a bound, not its capacity). Bytes on the wire per query, both directions, one query a connection.</p><table class=\"cmp\">"
  + head_row(["server", "full handshakes/s", "verdicts", "resumed handshakes/s", "verdicts", "bytes per query: UDP", "TCP", "DoT full", "DoT resumed"])
  + ([$s.servers | to_entries[] | .key as $i | select(.value.dot != null) | .value.dot as $d
      | "<tr><th>\(row_name($s; $f; $i))</th>"
      + if $d.available == false then "<td colspan=\"8\">not available: \(val($s; $f; ["servers",$i,"dot","reason"]))</td></tr>"
        else
          ([["full", "resume"][] as $k
            | "<td>" + (spread_words($s; $f; ["servers",$i,"dot",$k,"knee_0_1pct"]; 0)
                        // (spread_words($s; $f; ["servers",$i,"dot",$k,"bound"]; 0) | if . == null then nm else "&ge; " + . + " (a bound)" end))
              + "</td><td>" + ([$d[$k].verdicts | to_entries[] | val($s; $f; ["servers",$i,"dot",$k,"verdicts",.key])] | join("; ")) + "</td>"]
           | join(""))
          + ([["udp","tcp_1","tls_full_1","tls_resume_1"][] | "<td>\(spread_cell($s; $f; ["servers",$i,"dot","bytes_per_query",.]; 1))</td>"] | join(""))
          + "</tr>"
        end] | join(""))
  + "</table>"
  end;

# doq_rows($s; $f): DNS over QUIC per server and release that ran the DoT
# step's DoQ sweeps (Knot 3.4): handshakes/s with a full handshake per
# connection and resumed with 0-RTT (the knee, or a bound), the verdicts,
# and bytes per query; the others named with the step's reason.
def doq_rows($s; $f):
  if all($s.servers[]; .dot.doq == null) then "" else
  "<h3>DNS over QUIC</h3><p>The same step's DoQ sweeps (docs/dot.md, kxdpgun, one QUIC connection and one query each): handshakes/s "
    + "where 0.1 % of connections failed, a full handshake and a resumed one with 0-RTT, configuration 1p1s; where the rig ended the sweep "
    + "first, the most the server handled (a bound, not its capacity). Bytes on the wire per query, both directions.</p><table class=\"cmp\">"
  + head_row(["server", "full handshakes/s", "verdicts", "resumed handshakes/s", "verdicts", "bytes per query: DoQ full", "DoQ resumed",
              "DoQ, connections kept"])
  + ([$s.servers | to_entries[] | .key as $i | select(.value.dot != null and .value.dot.available != false) | .value.dot as $d
      | "<tr><th>\(row_name($s; $f; $i))</th>"
      + if $d.doq == null
        then "<td colspan=\"7\">not measured\(if $d.doq_skipped then ": " + val($s; $f; ["servers",$i,"dot","doq_skipped"]) else "" end)</td></tr>"
        else
          ([["full", "resume"][] as $k
            | "<td>" + (spread_words($s; $f; ["servers",$i,"dot","doq",$k,"knee_0_1pct"]; 0)
                        // (spread_words($s; $f; ["servers",$i,"dot","doq",$k,"bound"]; 0) | if . == null then nm else "&ge; " + . + " (a bound)" end))
              + "</td><td>" + ([$d.doq[$k].verdicts | to_entries[] | val($s; $f; ["servers",$i,"dot","doq",$k,"verdicts",.key])] | join("; "))
              + "</td>"]
           | join(""))
          + ([["quic_full_1","quic_resume_1","quic_reuse"][] | "<td>\(spread_cell($s; $f; ["servers",$i,"dot","bytes_per_query",.]; 1))</td>"]
             | join(""))
          + "</tr>"
        end] | join(""))
  + "</table>"
  end;

# compare (make compare-servers): the servers side by side, each value from
# compare/summary.json, which copies it from that server's own summary.
def compare_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if $e.dir_exists | not then "" else
    "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
    + "<p><b>What is measured.</b> The same experiments against each server software, and each release of it, in turn, on the same testbed, zones "
      + "and traces: the UDP ceiling on an unshaped link, bytes per query on the unsigned and the paper's signed zone (from the switch's SNMP "
      + "counters), the TCP sweep 1p1s with tcpbench and with kxdpgun, each with the verdict on its knee, and DNS over TLS where the release "
      + "serves it (and DNS over QUIC where it serves that); the servers take turns, repetition by repetition; each row's release is the one "
      + "its run's testbed recorded. A knee the verdict "
      + "does not attribute to the server is the rig's, not the server's capacity. The servers' settings side by side, and what each adds to an "
      + "answer: docs/servers.md. Each server's full report: "
    + ([$s.servers // [] | to_entries[] | .key as $i | .value as $row | "\(row_name($s; $f; $i)) "
      + ([$row | row_dirs | to_entries[] | "<a href=\"\(.value | esc)/report.html\">r\(.key + 1)</a>"] | join(" "))] | join(" · ")) + ".</p>"
    + status_text($e; "the comparison of servers")
    + (if $s == null then "" else
        "<p>Each figure is the median over the repetitions, with the lowest and the highest beside it; a figure that moved more than 5 % from its median is "
          + "marked <b>moved &gt;5 %</b>, not averaged away.</p>"
        + "<table class=\"cmp\">" + head_row(["server", "release", "version", "listen backlog", "minimal responses", "repetitions",
          "UDP ceiling unshaped (answers/s)",
          "UDP ceiling's range, sent q/s (lowest held, highest first failure)", "TCP knee, 0.1 % failed (conn/s)", "bytes per query out, unsigned", "signed",
          "growth", "server CPU budget", "UDP answers/s per CPU (projection)", "TCP conn/s per CPU (projection)"])
        + ([$s.servers | to_entries[] | .key as $i
            | def fig($path; $round): spread_words($s; $f; ["servers",$i] + $path; $round) // nm;
            "<tr><th>\(val($s; $f; ["servers",$i,"name"]))</th><td>\(val($s; $f; ["servers",$i,"release_name"]))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"version"]))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"listen_backlog"]))</td><td>\(val($s; $f; ["servers",$i,"minimal_responses"]))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"repetitions"]))</td>"
              + "<td>\(fig(["udp","ceiling_qps"]; null))</td>"
              + "<td>\(if ($s.servers[$i].udp.ceiling_low_qps.n // 0) > 0 and ($s.servers[$i].udp.ceiling_high_qps.n // 0) > 0 then
                val($s; $f; ["servers",$i,"udp","ceiling_low_qps","min"]; 0; null) + "&ndash;" +
                val($s; $f; ["servers",$i,"udp","ceiling_high_qps","max"]; 0; null) else nm end)</td>"
              + "<td>\(fig(["tcp","knee_0_1pct"]; null))</td>"
              + "<td>\(fig(["sizes","bytes_per_query_out_unsigned"]; null))</td>"
              + "<td>\(fig(["sizes","bytes_per_query_out_signed"]; null))</td>"
              + "<td>\(fig(["sizes","growth_vs_unsigned"]; 3))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"cpu_budget"]))</td>"
              + "<td>\(fig(["udp","qps_per_cpu"]; null))</td>"
              + "<td>\(fig(["tcp","conn_per_cpu"]; null))</td></tr>"] | join(""))
        + "</table>"
        + releases_section($s; $f)
        + dot_rows($s; $f) + doq_rows($s; $f)
        + "<h3>TCP verdicts</h3><p>Where each server's TCP sweep lost its first work, per repetition. Only a knee the verdict gives to the server is the "
          + "server's capacity; a knee of the rig (the generator, a stall from outside, the players) says what this machine could measure, not what the "
          + "server can do.</p><ul>"
        + ([$s.servers | to_entries[] | .key as $i | .value.tcp.verdicts | to_entries[] | .key as $j
            | "<li>\(row_name($s; $f; $i)), repetition \($j + 1): \(val($s; $f; ["servers",$i,"tcp","verdicts",$j])) (server's capacity: "
              + "\(val($s; $f; ["servers",$i,"tcp","server_capacity",$j])); the server's own work alone: "
              + "\(val($s; $f; ["servers",$i,"tcp","server_own",$j])))</li>"] | join(""))
        + "</ul>"
        + (if any($s.servers[]; .tcp_direct != null) then
             "<h3>TCP with kxdpgun: the server's own capacity, or a bound</h3><p>The TCP sweep 1p1s again with kxdpgun as the generator (a third of "
               + "tcpbench's CPU per connection) and the rig's forwarding off the server CPU where the profile allows: the knee where 0.1 % of connections "
               + "failed, or, where the rig gave out first, the most the server was seen to handle (a bound, not its capacity).</p><ul>"
             + ([$s.servers | to_entries[] | .key as $i | select(.value.tcp_direct != null)
                 | def fig($path): spread_words($s; $f; ["servers",$i] + $path; 0);
                 "<li>\(row_name($s; $f; $i)): "
                 + (fig(["tcp_direct","knee_0_1pct"]) as $k | fig(["tcp_direct","bound"]) as $bd
                    | if $k != null then "knee " + $k + " connections/s"
                      + (if $bd != null then "; in other repetitions at least " + $bd + " connections/s (a bound)" else "" end)
                      elif $bd != null then "at least " + $bd + " connections/s (a bound, not the capacity)"
                      else nm end)
                 + "; " + ([.value.tcp_direct.verdicts | to_entries[] | val($s; $f; ["servers",$i,"tcp_direct","verdicts",.key])] | join("; "))
                   + "</li>"] | join(""))
             + "</ul>"
           else "" end)
        + "<p>Status of each server's experiments, per repetition: " + ([$s.servers | to_entries[] | .key as $i
            | "\(row_name($s; $f; $i)): UDP "
              + "\([.value.udp.statuses | to_entries[] | val($s; $f; ["servers",$i,"udp","statuses",.key])] | join("/")), sizes "
              + "\([.value.sizes.statuses | to_entries[] | val($s; $f; ["servers",$i,"sizes","statuses",.key])] | join("/")), TCP "
              + "\([.value.tcp.statuses | to_entries[] | val($s; $f; ["servers",$i,"tcp","statuses",.key])] | join("/"))"
              + (if .value.tcp_direct == null then "" else ", TCP with kxdpgun "
                 + "\([.value.tcp_direct.statuses | to_entries[] | val($s; $f; ["servers",$i,"tcp_direct","statuses",.key])] | join("/"))" end)
              + (if .value.dot == null then "" else ", DoT "
                 + "\([.value.dot.statuses | to_entries[] | val($s; $f; ["servers",$i,"dot","statuses",.key])] | join("/"))" end)] | join("; ")) + ".</p>"
        + "<p>The answer codes and answer sizes of each server's sizes run are copied from its results to the data page: differences in bytes per query come "
          + "from what each server puts in an answer's authority and additional sections (docs/servers.md).</p>"
        + more_link($key; $e)
      end)
    + "</section>"
  end;

# finding_releases: per server, what changed from the first release to
# each other one, figure by figure, in rules.jq's words (the ratio of the
# medians where both releases have one).
def finding_releases($s; $f):
  [($s.changes // []) | to_entries[] | .key as $c | .value as $ch
   | ([$s.servers | to_entries[] | select(.value.server == $ch.server and .value.release_name == $ch.release) | .key][0]) as $ri
   | row_name($s; $f; $ri) + " against " + val($s; $f; ["changes",$c,"base"]) + ": "
     + ([$ch.figures | to_entries[] | .key as $j | val($s; $f; ["changes",$c,"figures",$j,"label"])
         + (if .value.ratio == null then " " + val($s; $f; ["changes",$c,"figures",$j,"words"])
            else " &times;" + val($s; $f; ["changes",$c,"figures",$j,"ratio"]; 2; null)
              + " (" + val($s; $f; ["changes",$c,"figures",$j,"words"]) + ")" end)] | join(", ")) + "."];

# finding_dot: DoT handshakes/s per server and release that ran the step
# (full, resumed), a bound where the rig ended the sweep, or why not available.
def finding_dot($s; $f):
  [$s.servers | to_entries[] | select(.value.dot != null) | .key as $i | .value.dot as $d
   | row_name($s; $f; $i) + " "
     + if $d.available == false then "not available (" + val($s; $f; ["servers",$i,"dot","reason"]) + ")"
       else ([["full","resume"][] as $k
              | if ($d[$k].knee_0_1pct.n // 0) > 0 then val($s; $f; ["servers",$i,"dot",$k,"knee_0_1pct","median"]; 0; null)
                elif ($d[$k].bound.n // 0) > 0 then "&ge; " + val($s; $f; ["servers",$i,"dot",$k,"bound","median"]; 0; null) + " (a bound)"
                elif ($d[$k].status // []) | any(. == "ok") then "no figure (see its verdict)"
                else "not measured" end] | join(" and ")) end]
  | if length == 0 then [] else ["DoT handshakes/s, full and resumed (1p1s, medians): " + join("; ") + "."] end;

# Servers compared: each server's median UDP ceiling, TCP knee (and
# whether it is the server's) and signed bytes per query.
def finding_compare($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | def each(what): [$s.servers | to_entries[] | .key as $i | row_name($s; $f; $i) + " " + ($i | what)] | join(", ");
  if ($s.servers | type) == "array" and ($s.servers | length) > 0 then
      ["Servers compared on the same testbed (repetitions: " + each(val($s; $f; ["servers",.,"repetitions"]))
       + "), median UDP ceiling: "
       + each(. as $i | val($s; $f; ["servers",$i,"udp","ceiling_qps","median"]; 0; null)
              + (if ($s.servers[$i].udp.server_own // [])
                | any(. == false) then " (not shown to be the server's own: the rig's share of the server CPU above its limit or not measured)" else "" end))
       + " queries/s.",
       "Median TCP rate where 0.1 % of connections first failed: "
       + each(. as $i | if ($s.servers[$i].tcp.knee_0_1pct.median | type) == "number" then
                val($s; $f; ["servers",$i,"tcp","knee_0_1pct","median"]; 0; null) + " connections/s"
                + (if ($s.servers[$i].tcp.server_capacity | any(. == true)) and ($s.servers[$i].tcp.server_own | any(. == true)) then " (the server's capacity)"
                   elif $s.servers[$i].tcp.server_capacity | any(. == true) then " (the server CPU's limit, not shown to be the server's own work alone)"
                   else " (not shown to be the server's capacity)" end)
              else "none (" + val($s; $f; ["servers",$i,"tcp","verdicts",0]) + ")" end)
       + ".",
       "Median bytes per query out, unsigned and signed: "
       + each(val($s; $f; ["servers",.,"sizes","bytes_per_query_out_unsigned","median"]; 1; null) + " and "
              + val($s; $f; ["servers",.,"sizes","bytes_per_query_out_signed","median"]; 1; null)) + "."]
      + finding_releases($s; $f) + finding_dot($s; $f)
    else [] end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

def section($b; $e): compare_section($b; $e.name; $e.heading // $e.title);
# findings: the comparison as one Finding: the median UDP ceilings in short.
def findings($b; $e):
  $b.exps[$e.name] as $x | $x.summary as $s | $x.file as $f
  | finding_compare($b; $e.name)
  | if length == 0 then [] else
      [finding("Servers compared, median UDP ceiling: "
               + ([$s.servers | to_entries[] | .key as $i | row_name($s; $f; $i) + " " + val($s; $f; ["servers",$i,"udp","ceiling_qps","median"]; 0; null)]
                  | join(", ")) + " queries/s."; .)] end;
def family_rows($b; $e): "";
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];

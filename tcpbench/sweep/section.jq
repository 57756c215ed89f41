# section.jq -- TCP capacity and the TCP limits: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";
include "report-probe";

# tcp_per_cpu: the knee per CPU of the server under a CPU budget (rules.jq
# per_cpu), with what it rests on, or why there is none.
def tcp_per_cpu($s; $f):
  if ($s.per_cpu.conn_per_cpu | type) == "number" then
    "<p><b>Per CPU of the server.</b> " + val($s; $f; ["per_cpu","conn_per_cpu"]; 0; null)
    + " connections/s per CPU: the handled rate, " + val($s; $f; ["per_cpu","handled_rate"]; 0; null)
    + "/s at " + val($s; $f; ["per_cpu","at_rate"]; 0; null) + "/s offered (the knee: " + val($s; $f; ["per_cpu","knee_rate"]; 0; null)
    + "/s), over the server CPU's busy share while the load ran, " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null)
    + " % (the daemon and its kernel work)"
    + (if ($s.per_cpu.budget | type) == "number" then "; the daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each and used "
         + val($s; $f; ["per_cpu","daemon_cpu_pct"]; 1; null) + " % of a CPU; a whole CPU's figure is this projection, not a measurement" else "" end)
    + ". The generator's CPU was " + val($s; $f; ["per_cpu","client_cpu_busy_pct"]; 1; null) + " % busy there"
    + (if $s.per_cpu.generator_headroom_ok == false then " (<b class=\"err\">less than 30 % headroom: the rig was near its own limit</b>)" else "" end)
    + "."
    + (if ($s.per_cpu.demand_per_cpu | type) == "number" then
         " Cross-check (utilisation law, below the knee): " + val($s; $f; ["per_cpu","demand_us"]; 1; null)
         + " µs of server CPU per connection, " + val($s; $f; ["per_cpu","demand_per_cpu"]; 0; null)
         + " connections/s per CPU; measured / that: " + val($s; $f; ["per_cpu","demand_ratio"]) + "."
       else "" end)
    + "</p>"
  elif ($s.per_cpu.budget | type) == "number" then
    "<p><b>Per CPU of the server.</b> The daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; no per-CPU figure: "
      + val($s; $f; ["per_cpu","rule"]) + ".</p>"
  else "" end;

# tcp_verdict: where a configuration lost its first work, in words, with
# the counter that proves it; the Little's-law prediction beside the
# measured knee; the spread over repetitions.
def tcp_verdict($s; $f):
  if ($s.verdict | type) != "object" then "" else
    "<h4>Verdict: where the work was lost</h4><p>"
    + val($s; $f; ["verdict","summary"]) + ". "
    + (if $s.verdict.evidence then "Evidence: " + val($s; $f; ["verdict","evidence"]) + ". " else "" end)
    + (if $s.verdict.knee == true then
         (if $s.verdict.server_capacity == true and $s.verdict.server_own == false then
            "This knee is where the <b>server CPU</b> ran out, but that CPU also did the rig's work: not the server's own capacity."
          elif $s.verdict.server_capacity == true then "This knee is the <b>server's capacity</b> on this testbed."
          elif ($s.verdict.mechanism // null) == "queue" then "This knee is the server's, but <b>not</b> its CPU's capacity: "
            + val($s; $f; ["verdict","layer"]) + " overflowed with the server CPU to spare."
          else "This knee is <b>not</b> the server's capacity: it was caused by " + val($s; $f; ["verdict","caused_by"]) + ", layer "
            + val($s; $f; ["verdict","layer"]) + "." end)
       else "" end)
    + "</p>"
    + rig_charge_text($s; $f; ["rig_charge"])
    + tcp_per_cpu($s; $f)
    + (if ($s.prediction.predicted | type) == "object" then
         "<p>Predicted knee (Little's law, from what was measured below the knee): "
         + val($s; $f; ["prediction","predicted","total"]) + " connections/s, by "
         + val($s; $f; ["prediction","predicted","mechanism"]) + " ("
         + val($s; $f; ["prediction","predicted","because"]) + "); measured: "
         + val($s; $f; ["prediction","measured"]) + "; measured / predicted "
         + val($s; $f; ["prediction","ratio"]) + ".</p>"
       else "" end)
    + (if ($s.repetitions.fail_0_1pct.n // 0) > 0 then
         "<p>The 0.1 % crossing over " + val($s; $f; ["repetitions","fail_0_1pct","n"]) + " repetitions: min "
         + val($s; $f; ["repetitions","fail_0_1pct","min"]) + ", median " + val($s; $f; ["repetitions","fail_0_1pct","median"])
         + ", max " + val($s; $f; ["repetitions","fail_0_1pct","max"]) + " connections/s (spread "
         + val($s; $f; ["repetitions","fail_0_1pct","spread_pct"]) + " % of the median)"
         + (if $s.repetitions.fail_0_1pct.flagged then " <b class=\"err\">FLAGGED: the knee moves more than 5 % between repetitions; not averaged away</b>"
           else "" end)
         + ".</p>"
       else "" end)
  end;

# figs_under($e; $prefix; $not): the figures of $e whose file starts
# with $prefix (and not with any of $not), as full-width figures.
def figs_under($e; $prefix; $not):
  [$e.figures[] | select(.png | startswith($prefix)) | select(.png as $g | any($not[]; . as $n | $g | startswith($n)) | not)]
  | if length == 0 then "" else "<div class=\"figs\">" + (map(figure(.)) | join("")) + "</div>" end;

# tcp_table($b; $key; $subs): the section's question, one row per configuration:
# where connections began to fail, the most answered, who set the knee,
# and the paper's.
def tcp_table($b; $key; $subs):
  $b.paper as $p
  | "<table class=\"cmp\"><caption>How many TCP connections per second, and what set the limit</caption>"
  + "<tr><th>configuration</th><th>0.1 % of connections fail at, conn/s</th><th>highest answered, conn/s</th><th>what set the limit</th>"
  + "<th>paper \(val($p; "paper.json"; ["tcp","section"])): 0.1 % fail</th><th>paper: highest</th></tr>"
  + ([["1p1s","2p1s","2p2s"][] as $c | ($subs[$c].summary // null) as $s | "\($key)/\($c)/summary.json" as $f
      | select($s != null)
      | "<tr><th>\($c | esc)</th><td>\(val($s; $f; ["fail_0_1pct_qps"]; 0; null))</td><td>\(val($s; $f; ["max_qps"]; 0; null))</td>"
        + "<td>\(val($s; $f; ["verdict","summary"]))</td>"
        + "<td>\(if $p.tcp[$c].fail_0_1pct_qps then val($p; "paper.json"; ["tcp",$c,"fail_0_1pct_qps"]) else "" end)</td>"
        + "<td>\(if $p.tcp[$c].max_qps then val($p; "paper.json"; ["tcp",$c,"max_qps"]) else "" end)</td></tr>"] | join(""))
  + "</table>";

def tcp_section($b; $key; $title):
  $b.exps[$key] as $e | $b.paper as $p
  | ($e.subs // {}) as $subs
  | "<section id=\"\($key)\"><h2>\($title | esc) \(status_badge($e))</h2>"
  + status_text($e; "the TCP experiment")
  + (if $e.summary == null then "" else generator_text($e.summary; $e.file; ["settings","generator","name"]; ["settings","generator","version"]) end)
  + figs_under($e; "\($key)/"; ["\($key)/1p1s/","\($key)/2p1s/","\($key)/2p2s/"])
  + (if ($subs | length) > 0 then tcp_table($b; $key; $subs) else "" end)
  + "<details><summary>What is measured</summary><p>An open-loop generator opens TCP connections at a fixed rate, each sending one query and waiting for the "
    + "answer, with a timeout; a connection not completed in time fails. For each rate the fraction of failed connections is recorded. Three configurations "
    + "separate the causes: one player and one server (1p1s), two players and one server (2p1s: if the curve does not move, the players are not the limit), "
    + "two players and two servers in pairs (2p2s: if the total doubles, the network is not the limit). A point where the generator could not keep its "
    + "schedule is marked invalid and is not a server result. On this testbed every layer's counters are sampled at every point (generator, players, switch, "
    + "router, link, server kernel, server daemon), and each configuration gets a verdict: the layer that lost the first work, the counter that shows it, and "
    + "whether the server or the rig caused it; a knee the rig caused is never shown as the server's capacity. The paper ("
    + "\(val($p; "paper.json"; ["tcp","section"]))) reports the rates where one per mille and one percent of connections fail and the rate where the server "
    + "collapses.</p></details>"
  + ( [ ["1p1s","2p1s","2p2s"][] as $c | $subs[$c] as $cs | ($cs.summary // null) as $s | "\($key)/\($c)/summary.json" as $f
        | "<h3>\($c | esc)</h3>"
        + if $s == null then "<p class=\"err\">No results for configuration \($c | esc).</p>" else
            status_text({summary: $s, summary_error: null, file: $f, dir_exists: true, target: "tcp"}; "this configuration")
            + figs_under($e; "\($key)/\($c)/\($c)."; [])
            + tcp_verdict($s; $f)
            + figs_under($e; "\($key)/\($c)/latency."; [])
            + probe_section_text($s; $f; "connections/s")
            # A crossing that is absent was not reached: say below which rate,
            # and whether the generator, not the server, ended the sweep.
            # (one string for both crossings: a generator here would repeat
            # the whole configuration once per crossing)
            + ([[["fail_0_1pct","0.1%"],["fail_1pct","1%"]][] as [$k, $name]
               | if ($s[$k].not_reached // false) and ($s[$k].below != null) then
                   "<p>No valid rate up to \(val($s; $f; [$k,"below"])) q/s made \($name) of the connections fail"
                   + (if ($s.generator_limited_points // 0) > 0 then
                     "; above it the generator could not keep its schedule (generator-limited points: \(val($s; $f; ["generator_limited_points"]))), so this "
                     + "run has no server result there.</p>" else ".</p>" end)
                 else "" end] | join(""))
            + "<details><summary>\($c | esc) beside the paper, and where the work was lost</summary>"
            # A configuration the rig limited is no server figure: beside
            # the paper's server it gets no ratio (the paper's values stay
            # in the section's table above).
            + (($s.verdict.caused_by // null) == "server") as $same
            | def prow($what; $k): cmp_row($what + (if $same then "" else " (the rig limited this configuration: no ratio to the paper's server)" end);
                  $s; $f; [$k]; 0; null; $p; (if $same and $p.tcp[$c][$k] then ["tcp",$c,$k] else null end); null);
            cmp_head(val($p; "paper.json"; ["tcp",$c,"section"]))
            + prow("rate where 0.1% of connections fail, q/s"; "fail_0_1pct_qps")
            + prow("rate where 1% of connections fail, q/s"; "fail_1pct_qps")
            + prow("highest answered rate, q/s"; "max_qps")
            + prow("collapse, q/s"; "collapse_qps")
            + (if $c == "2p2s" then
                 "<tr><th>highest answered rate vs 1p1s</th><td>"
                 + calc("ratio"; ref($s; $f; ["max_qps"]); ref($subs["1p1s"].summary; "\($key)/1p1s/summary.json"; ["max_qps"]); 2; null)
                 + "</td><td>\(val($p; "paper.json"; ["tcp","2p2s","factor_vs_1p1s"]))</td><td></td><td></td></tr>"
               else "" end)
            + "</table>"
            + figs_under($e; "\($key)/\($c)/"; ["\($key)/\($c)/\($c).", "\($key)/\($c)/latency."])
            + "</details>"
          end ] | join("") )
  + (if $e.summary then settings_table($e.summary; $e.file; $b.labels[$e.summary.experiment] // {}) else "" end)
  + more_link("tcp"; $e)
  + "</section>";

# tcp-limits (make tcp-limits): how tcp-count and the backlog move the knee.
def tcp_limits_section($b; $key; $heading):
  $b.exps[$key] as $e | ($e.summary) as $s | $e.file as $f
  | if $s == null then "" else
      "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
      + figures($e)
      + "<p><b>What is measured.</b> The 1p1s TCP sweep once per combination of NSD's tcp-count and the servers' listen backlog. Each combination's knee is "
        + "set beside the knee Little's law predicts from what was measured below it (the longest server stall against the backlog, the time a connection "
        + "holds a tcp-count slot, the server CPU per connection); the figure puts predicted against measured.</p>"
      + status_text($e; "the tcp-limits experiment")
      + "<table class=\"csv\">" + head_row(["tcp-count", "backlog", "knee (0.1 % failed)", "predicted", "predicted by", "verdict"])
      + ([$s.combinations // [] | to_entries[] | .key as $i
          | "<tr><td>\(val($s; $f; ["combinations",$i,"tcp_count"]))</td><td>\(val($s; $f; ["combinations",$i,"backlog"]))</td><td>"
            + "\(val($s; $f; ["combinations",$i,"knee"]))</td><td>\(val($s; $f; ["combinations",$i,"predicted"]))</td><td>"
            + "\(val($s; $f; ["combinations",$i,"predicted_by"]))</td><td>\(val($s; $f; ["combinations",$i,"verdict"]))</td></tr>"] | join(""))
      + "</table>"
      + more_link($key; $e)
      + "</section>"
    end;

# TCP: per configuration, the most answered and the verdict in words; a
# configuration with no valid point says only its verdict.
def finding_tcp($b; $key):
  $b.exps[$key] as $e | ($e.subs // {}) as $subs
  | if ($e.summary != null) then
      [ ["1p1s","2p1s","2p2s"][] as $c | ($subs[$c].summary // null) as $s | "\($key)/\($c)/summary.json" as $f
        | select($s != null and (($s.max_qps | type) == "number" or ($s.verdict.summary // null) != null))
        | "Over TCP" + (if ($e.summary.settings.generator.name // null) == "kxdpgun" then " (the load from kxdpgun)" else "" end)
          + " with " + (if $s.title then val($s; $f; ["title"]) else ($c | esc) end)
          + (if ($s.max_qps | type) == "number" then ", at most " + val($s; $f; ["max_qps"]; 0; null) + " connections/s were answered"
             else ", no rate was measured validly" end)
          + (if ($s.verdict.summary // null) != null then "; " + val($s; $f; ["verdict","summary"]) else "" end)
          + (if $s.verdict.server_capacity == true and $s.verdict.server_own == false then " (the server CPU's limit, with the rig's work on it)."
             elif $s.verdict.server_capacity == true then " (the servers' capacity on this testbed)." else "." end)
          + (if ($s.per_cpu.conn_per_cpu | type) == "number" then
               " Per CPU of the server that is " + val($s; $f; ["per_cpu","conn_per_cpu"]; 0; null)
               + " connections/s (the knee over the server CPU's " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null) + " % busy"
               + (if ($s.per_cpu.budget | type) == "number"
                  then ", the daemons limited to " + val($s; $f; ["per_cpu","budget"])
                    + " CPU each; a whole CPU's figure is this projection, not a measurement)."
                  else ")." end)
             else "" end)
          + probe_finding($s; $f; "tcp"; "connections/s") ]
    else [] end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry: a TCP
# sweep, or with variant "limits" the sweeps against tcp-count and the backlog)

def section($b; $e):
  if $e.variant == "limits" then tcp_limits_section($b; $e.name; $e.heading // $e.title)
  else tcp_section($b; $e.name; $e.heading // $e.title) end;
# tcp_short($b; $key): the Finding's short sentence: the most answered per
# configuration, who set a knee, what a client saw (the first configuration's probe).
def tcp_short($b; $key):
  $b.exps[$key] as $e | ($e.subs // {}) as $subs
  | [["1p1s","2p1s","2p2s"][] as $c | ($subs[$c].summary // null) as $s | "\($key)/\($c)/summary.json" as $f
     | select($s != null and ($s.max_qps | type) == "number")
     | {c: $c, s: $s, f: $f,
        t: (val($s; $f; ["max_qps"]; 0; null) + " (" + ($c | esc)
            + (if $s.verdict.knee == true and ($s.verdict.caused_by // null) != null then ", its knee set by the " + val($s; $f; ["verdict","caused_by"])
               elif $s.verdict.knee == false then ", no knee: a bound" else "" end) + ")")}] as $r
  | if ($r | length) == 0 then "Over TCP" + (if ($e.summary.settings.generator.name // null) == "kxdpgun" then " (kxdpgun)" else "" end)
      + ": no rate was measured validly."
    else "Over TCP" + (if ($e.summary.settings.generator.name // null) == "kxdpgun" then " (kxdpgun)" else "" end)
      + ": at most " + ($r | map(.t) | join(", ")) + " connections/s answered"
      + probe_short($r[0].s; $r[0].f; "tcp"; "connections/s") + "."
    end;

def findings($b; $e):
  if $e.variant == "limits" then [] else finding_tcp($b; $e.name) | if length == 0 then [] else [finding(tcp_short($b; $e.name); .)] end end;
# family_rows: the status, then each configuration's figures as the top
# summary holds them (configs.<config>) over IPv4 and IPv6.
def family_rows($b; $e):
  fam_pair($b; $e) as [$e4, $e6]
  | fam_row("status"; $e4; $e6; ["status"]; null; null)
  + ([(($e4.summary.configs // {}) | objects | keys[]) as $c | select(($e6.summary.configs // {}) | objects | has($c))
      | fam_row("\($c): 0.1 % failed at, conn/s"; $e4; $e6; ["configs",$c,"fail_0_1pct_qps"]; 0; null)
        + fam_row("\($c): 1 % failed at, conn/s"; $e4; $e6; ["configs",$c,"fail_1pct_qps"]; 0; null)
        + fam_row("\($c): most handled, conn/s"; $e4; $e6; ["configs",$c,"max_qps"]; 0; null)
        + fam_row("\($c): verdict"; $e4; $e6; ["configs",$c,"verdict","summary"]; null; null)] | join(""));
def family_note($b; $e): "";
# per_cpu_rows: a row per configuration whose summary holds a figure per
# CPU (or why none), the generator named when it is kxdpgun.
def per_cpu_rows($b; $e):
  $b.exps[$e.name] as $x
  | (if ($x.summary.settings.generator.name // null) == "kxdpgun" then "TCP (kxdpgun)" else "TCP" end) as $what
  | [select($e.variant != "limits") | ["1p1s","2p1s","2p2s"][] as $c | ($x.subs[$c] // null)
     | select(. != null and .summary.per_cpu != null)
     | {name: "\($what), \($c)", s: .summary, f: "\($e.name)/\($c)/summary.json", path: ["per_cpu"], fig: "conn_per_cpu", unit: "connections/s"}];
def headline($b; $e): "";
# latency_rows: a row per configuration of "Latency and availability (RSSAC047)" (analysis/report-probe.jq).
def latency_rows($b; $e):
  [select($e.variant != "limits") | $b.exps[$e.name] | select(.summary != null) | ["1p1s","2p1s","2p2s"][] as $c | (.subs[$c].summary // null)
   | select(. != null) | latency_row("\($e.short // $e.name), \($c)"; .; "\($e.name)/\($c)/summary.json"; "connections/s")];

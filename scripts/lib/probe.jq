# probe.jq -- the rules on a sweep's probe block (docs/latency.md): where
# RSSAC047's thresholds for one root server identifier stop holding, the
# queueing knee, the probe's share of the load, and the words for them.
# Pure: the sweeps' summary writers store what these return under
# probe.rssac047 and probe.queue_knee, the report reads them from there,
# the fixture test (analysis/tests/59-probe-rules.test) checks them; no
# other file restates them.
#
# The probe block (written by each sweep's summary):
#   {schema: "rootbench.probe-sweep/1", settings: {...}, ceiling: RATE|null,
#    idle: {udp: STATS, tcp: STATS},
#    points: [{offered, rep, load_queries, probe_queries, share, udp: STATS, tcp: STATS}, ...]}
# STATS: {sent, answered, timeouts, incorrect, errors, availability,
# correct_fraction, p50_ms, p90_ms, p99_ms, p999_ms, max_ms}; a protocol
# the probe did not send (rate 0) has sent 0, or STATS null.
# The thresholds $thr: analysis/rssac047.json (probe_thresholds, imported
# here; the two-argument forms take another for the tests).

import "rssac047" as $rssac047 {search: "../../analysis"};

# probe_thresholds: analysis/rssac047.json (jq imports a data file as an array).
def probe_thresholds: $rssac047::rssac047 | if type == "array" then .[0] else . end;

def probe_schema: "rootbench.probe-sweep/1";

# probe_checked($p): $p when it is a probe block of this schema; else an
# error naming both schemas, so a reader older than the block stops.
def probe_checked($p):
  if ($p | type) == "object" and $p.schema == probe_schema then
    ([$p.points // [] | .[] | select((.offered | type) != "number")] | length) as $bad
    | if ($p.points | type) != "array" and $p.points != null then error("a probe block's points must be a list (scripts/lib/probe.jq)")
      elif $bad > 0 then error("\($bad) probe point(s) without a numeric offered rate (scripts/lib/probe.jq)")
      else $p end
  else error("a probe block of schema \(probe_schema) (scripts/lib/probe.jq) was expected; this one's schema is "
             + "\(if ($p | type) == "object" then $p.schema // "none" elif $p == null then "none: no probe block (PROBE=off?)"
                  else "none: not a probe block" end): read it with the rules of its version") end;

# The thresholds in the order they are named in results and words.
def probe_threshold_names: ["udp_latency", "tcp_latency", "udp_availability", "tcp_availability", "correctness"];

# probe_threshold_label($name): a threshold's name in words, without its
# value (the report tags the value itself).
def probe_threshold_label($name):
  {udp_latency: "UDP median latency", tcp_latency: "TCP median latency", udp_availability: "UDP availability",
   tcp_availability: "TCP availability", correctness: "correctness"}[$name]
  // error("no threshold \($name) (scripts/lib/probe.jq probe_threshold_names)");

# probe_threshold_text($name; $thr): a threshold failed, in words with its value.
def probe_threshold_text($name; $thr):
  probe_threshold_label($name) + " "
  + if $name == "udp_latency" or $name == "tcp_latency" then "over \($thr.latency_ms_max[$name[0:3]]) ms"
    elif $name == "correctness" then "under \($thr.correctness_min * 100) %"
    else "under \($thr.availability_min * 100) %" end;

# probe_sent($st): the stats of a protocol the probe sent over (else null).
def probe_sent($st): if ($st | type) == "object" and ($st.sent // 0) > 0 then $st else null end;

# probe_point_fails($pt; $thr): the thresholds one point fails, of those
# measured there. Nothing answered: no median, so latency fails, and
# availability (0) fails too. Correctness counts answers only.
def probe_point_fails($pt; $thr):
  [("udp", "tcp") as $x | probe_sent($pt[$x]) as $st | select($st != null)
   | (if ($st.p50_ms | type) != "number" or $st.p50_ms > $thr.latency_ms_max[$x] then "\($x)_latency" else empty end),
     (if ($st.availability | type) != "number" or $st.availability < $thr.availability_min then "\($x)_availability" else empty end),
     (if ($st.correct_fraction | type) == "number" and $st.correct_fraction < $thr.correctness_min then "correctness" else empty end)]
  | unique;

# probe_point_measures($pt): the thresholds measured at one point.
def probe_point_measures($pt):
  [("udp", "tcp") as $x | select(probe_sent($pt[$x]) != null) | "\($x)_latency", "\($x)_availability", "correctness"] | unique;

# probe_rates($p; $thr): per offered rate (ascending; repetitions
# together): the thresholds measured and failed there. A rate holds a
# threshold only when every repetition there holds it.
def probe_rates($p; $thr):
  [$p.points // [] | .[]] | group_by(.offered)
  | map({offered: .[0].offered, reps: length,
         measured: ([.[] | probe_point_measures(.)[]] | unique),
         failed: ([.[] | probe_point_fails(.; $thr)[]] | unique)});

# probe_rssac047($p; $thr): where RSSAC047's thresholds stop holding.
#   held_up_to  the highest offered rate at and below which every threshold
#               held at every repetition (the highest rate when none failed;
#               null when the lowest failed, or nothing was measured)
#   first_fail  {offered, failed: [names]} at the lowest rate where one
#               failed, or null
#   by_threshold  per threshold {measured, first_fail, held_up_to}
#   held_to_highest  true when no threshold failed at any rate
#   thresholds  the values judged against, with their source, and the
#               probe's share limit (rootbench's own; the report shows them
#               from here)
#   words       the result in a sentence
def probe_rssac047($p; $thr):
  probe_checked($p) as $p
  | probe_rates($p; $thr) as $r
  | ([$r[] | .offered] | max) as $top
  | ([$r[] | .measured[]] | unique) as $measured
  | ([$r[] | select(.failed | length > 0)] | first // null) as $ff
  | (if ($measured | length) == 0 then null
     elif $ff == null then $top
     else ([$r[] | select(.offered < $ff.offered) | .offered] | max) end) as $held
  | {thresholds: {udp_latency_ms: $thr.latency_ms_max.udp, tcp_latency_ms: $thr.latency_ms_max.tcp, statistic: $thr.latency_statistic,
                  availability_min: $thr.availability_min, correctness_min: $thr.correctness_min, timeout_ms: $thr.timeout_ms,
                  source: $thr.citation, probe_share_max: $thr.share_max},
     rates: ($r | length), highest: $top,
     held_up_to: $held,
     first_fail: (if $ff == null then null else {offered: $ff.offered, failed: [probe_threshold_names[] as $n | select(any($ff.failed[]; . == $n)) | $n]} end),
     held_to_highest: (($measured | length) > 0 and $ff == null),
     by_threshold: (reduce probe_threshold_names[] as $n ({};
       ([$r[] | select(any(.failed[]; . == $n)) | .offered] | min) as $f
       | .[$n] = {measured: any($measured[]; . == $n), first_fail: $f,
                  held_up_to: (if any($measured[]; . == $n) | not then null
                               elif $f == null then $top else ([$r[] | select(.offered < $f) | .offered] | max) end)}))}
  | .words = (
      if $r == [] then "RSSAC047 not judged: the probe measured no point"
      elif ($measured | length) == 0 then "RSSAC047 not judged: the probe sent neither UDP nor TCP queries"
      elif .held_to_highest then "RSSAC047's thresholds held up to the highest load (\($top)/s offered)"
      else
        (if $held == null then "RSSAC047's thresholds failed already at the lowest load"
         else "RSSAC047's thresholds held up to \($held)/s offered" end)
        + "; at \(.first_fail.offered)/s: " + ([.first_fail.failed[] | probe_threshold_text(.; $thr)] | join(", "))
      end);
def probe_rssac047($p): probe_rssac047($p; probe_thresholds);

# probe_queue_knee($p; $thr): per protocol, the first offered rate whose
# p99 latency (at any repetition) exceeds factor x the idle p99 (factor:
# analysis/rssac047.json queue_knee, rootbench's own). Exactly factor x
# is not past it; a repetition with nothing answered is. offered null:
# no knee within the sweep (measured true) or no idle p99 / no probe over
# that protocol (measured false).
def probe_queue_knee($p; $thr):
  probe_checked($p) as $p
  | $thr.queue_knee.factor as $k
  | {factor: $k}
  + (reduce ("udp", "tcp") as $x ({};
      ($p.idle[$x].p99_ms // null) as $i
      | [$p.points // [] | .[] | select(probe_sent(.[$x]) != null)] as $pts
      | .[$x] = {idle_p99_ms: $i,
                 limit_ms: (if ($i | type) == "number" then $i * $k else null end),
                 measured: (($i | type) == "number" and ($pts | length) > 0),
                 offered: (if ($i | type) != "number" then null
                           else [$pts[] | select((.[$x].p99_ms | type) != "number" or .[$x].p99_ms > $i * $k) | .offered] | min end)}))
  | .words = ([("udp", "tcp") as $x | .[$x] as $q | select($q.measured)
                | "\($x | ascii_upcase): " + (if $q.offered == null then "no queueing knee within the sweep"
                    else "p99 past \($k) x its idle \($q.idle_p99_ms) ms at \($q.offered)/s offered" end)]
               | if length == 0 then "queueing knee not measured" else join("; ") end);
def probe_queue_knee($p): probe_queue_knee($p; probe_thresholds);

# probe_judged($p): the probe block with the rules' results added, as a
# sweep's summary stores it (probe.rssac047, probe.queue_knee); null (the
# sweep ran with PROBE=off) stays null. The summary writers call this:
#   jq -L "$RB_TOP/scripts/lib" 'include "probe"; .probe |= probe_judged(.)'
def probe_judged($p):
  if $p == null then null
  else probe_checked($p) as $p | $p + {rssac047: probe_rssac047($p), queue_knee: probe_queue_knee($p)} end;

# probe_share_max_at($p): the point where the probe's share of the load (its rate beside the offered one)
# was largest: {index (into points), offered, share}, or null.
def probe_share_max_at($p):
  probe_checked($p) as $p
  | [$p.points // [] | to_entries[] | select((.value.share | type) == "number") | {index: .key, offered: .value.offered, share: .value.share}]
  | max_by(.share);
def probe_share_max($p): probe_share_max_at($p).share // null;
# probe_share_flagged($p; $thr): the probe's share exceeded its limit
# (analysis/rssac047.json share_max, rootbench's own, 1 %) at some point.
def probe_share_flagged($p; $thr): (probe_share_max($p) // 0) > $thr.share_max;
def probe_share_flagged($p): probe_share_flagged($p; probe_thresholds);

# probe_median_max_at($p; $x): the point where protocol $x's median was
# highest: {index, offered, p50_ms}, or null when it answered nothing.
def probe_median_max_at($p; $x):
  probe_checked($p) as $p
  | [$p.points // [] | to_entries[] | select((.value[$x].p50_ms? | type) == "number") | {index: .key, offered: .value.offered, p50_ms: .value[$x].p50_ms}]
  | max_by(.p50_ms);

# probe_plot_rows($p): the figure's data (scripts/lib/probe-latency.gp),
# one line per point by offered rate: offered, UDP p50, UDP p99, TCP p50,
# TCP p99, tab-separated, NaN where nothing was measured.
def probe_plot_rows($p):
  probe_checked($p) as $p
  | [$p.points // [] | .[]] | sort_by(.offered, .rep)[]
  | [.offered, (.udp.p50_ms?, .udp.p99_ms?, .tcp.p50_ms?, .tcp.p99_ms? | if type == "number" then . else "NaN" end)]
  | map(tostring) | join("\t");
# probe_plot_counts($p): how many points of each of the figure's series
# (UDP p50, UDP p99, TCP p50, TCP p99) have a value, space-separated (the
# figure leaves an empty series out).
def probe_plot_counts($p):
  probe_checked($p) as $p
  | [("udp", "tcp") as $x | ("p50_ms", "p99_ms") as $k | [$p.points // [] | .[] | select((.[$x][$k]? | type) == "number")] | length]
  | map(tostring) | join(" ");

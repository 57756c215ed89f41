# udp-rules.jq -- the UDP experiment's summary rules, in one place: which
# points are valid, the ceiling as a range over repetitions (and the rates
# that held again above the first failure), which layer lost the first
# answers and whether a full shaped link held the server back
# (backpressure), the physics check against the link, and the summary of
# one LB mode. udpreplay/udp/run and the fixture tests
# (udpreplay/udp/tests/10-rules.test with udpreplay/udp/testdata/*.csv)
# both call these functions; nothing else restates them.
#
# A point is one row of points.csv as an object (csv_points): requested_qps,
# rep, achieved_qps, sent, server_queries, daemon_queries, answers,
# answer_ratio, answered_qps, answer_ip_bytes, stray_packets,
# generator_limited, loss_LAYER for every layer of scripts/lib/layers.jq,
# link_backlog_max and link_qlen_max (the shaped link's tbf queue at its
# fullest, from the sampler), rig_share (the rig's share of the server
# CPU, scripts/lib/charge.jq; empty when not measured). Settings $s: {lb,
# threshold, link_bps (null unshaped), note (why the search ended, or "")}.

# found from this folder, so that another experiment can import these rules
# (jq 1.6 would look in the current directory first)
include "layers" {search: "../../scripts/lib"};
include "spread" {search: "../../scripts/lib"};
include "wire" {search: "../../scripts/lib"};
include "charge" {search: "../../scripts/lib"};
include "arrivals" {search: "../../scripts/lib"};

# A shaped link that carried at least this share of its rate was full.
def link_full_ratio: 0.97;
# A tbf queue that held this many milliseconds of the link's rate was full
# (the testbed lets tbf queue 20 ms: scripts/lib/testbed.sh tb_configure_link).
def link_queue_full_ms: 10;
# An answer's frame on the wire beyond its IP packet: the Ethernet header,
# FCS, preamble and inter-frame gap (wire.jq).
def answer_wire_overhead: ethernet_header_bytes + frame_overhead_bytes;

def round4: . * 10000 | round / 10000;

# csv_points($cols): the rows of points.csv (raw text; '#' lines and empty
# lines skipped) as objects named by $cols (comma-separated). A row from
# before repetitions is repetition 1.
def csv_points($cols):
  ($cols | split(",")) as $c
  | [split("\n")[] | select(length > 0 and (startswith("#") | not)) | split(",") as $v
     | [range(0; $c | length) as $i | {($c[$i]): ($v[$i] | tonumber? // .)}] | add
     | .rep = (.rep // 1)];

def valid_points: [.[] | select(.generator_limited == 0)];

# rates($thr): the valid points by rate: every repetition held the
# threshold (held), or at least one failed.
def rates($thr):
  valid_points | group_by(.requested_qps)
  | map({rate: .[0].requested_qps, reps: length, held: all(.[]; .answer_ratio >= $thr),
         some_held: any(.[]; .answer_ratio >= $thr)});

# ceiling_range($thr): high = the lowest rate at which any valid
# repetition fell below the threshold; low = the highest rate below it
# (every repetition there, and at every lower rate, held); null when no
# repetition failed (low) or none held below the failure (low).
# non_monotonic: rates above high where every repetition held again
# (flagged, never taken as the ceiling); mixed: rates whose repetitions
# disagreed.
def ceiling_range($thr):
  rates($thr) as $r
  | ([$r[] | select(.held | not) | .rate] | min) as $high
  | ([$r[] | select($high != null and .rate < $high) | .rate] | max) as $low
  | {low: $low, high: $high,
     held_up_to: (if $high == null then ([$r[] | .rate] | max) else $low end),
     non_monotonic: (if $high == null then [] else [$r[] | select(.rate > $high and .held) | .rate] end),
     mixed: [$r[] | select(.reps > 1 and (.held | not) and .some_held) | .rate],
     repetitions_max: ([$r[] | .reps] | max // 0)};

# at_rate($rate): the valid repetitions at one rate.
def at_rate($rate): [valid_points[] | select(.requested_qps == $rate)];

# merged: repetitions as one point for layers.jq ({attempted, loss}).
def merged:
  . as $p
  | {attempted: ([$p[] | .sent] | add // 0),
     loss: (reduce (layers[] | .name) as $n ({}; .[$n] = ([$p[] | .["loss_" + $n] // 0] | add // 0)))};

# mean_answer_wire_bytes: IP bytes per answer over all valid points plus
# the Ethernet overhead per frame; null when nothing was answered.
def mean_answer_wire_bytes:
  valid_points as $v | ([$v[] | .answers] | add // 0) as $n
  | if $n > 0 then ([$v[] | .answer_ip_bytes] | add) / $n + answer_wire_overhead else null end;

# link_use($s; $wire; $high): how full the shaped link was where the
# answers were first lost: the answered bitrate (answered q/s x answer
# wire bytes x 8) over the link rate at the first failing rate (median of
# its failing repetitions) and over the plateau of every failing point at
# or above it (median), and the tbf queue at its fullest there, in ms of
# the link's rate. full: either share >= link_full_ratio, or the queue
# held link_queue_full_ms. Null unshaped (link_bps null): an unshaped link
# never limits.
def link_use($s; $wire; $high):
  if ($s.link_bps | type) != "number" or $wire == null or $high == null then null
  else
    [valid_points[] | select(.requested_qps >= $high and .answer_ratio < $s.threshold)] as $f
    | [$f[] | select(.requested_qps == $high)] as $first
    | def share: .answered_qps * $wire * 8 / $s.link_bps;
    ([$first[] | share] | repeat_spread.median) as $at
    | ([$f[] | share] | repeat_spread.median) as $plateau
    | ([$first[] | .link_backlog_max | select(type == "number")] | max) as $bl
    | (if $bl == null then null else $bl * 8 / $s.link_bps * 1000 end) as $qms
    | {carried_share_at_first_failure: ($at | round4), carried_share_plateau: ($plateau | round4),
       plateau_points: ($f | length), queue_max_ms: (if $qms == null then null else $qms * 10 | round / 10 end),
       full: ($at >= link_full_ratio or $plateau >= link_full_ratio or ($qms != null and $qms >= link_queue_full_ms)),
       rule: ("full when the answers carried >= \(link_full_ratio) of the link rate at the first failing rate or over the failing points above it, or its tbf "
         + "queue held >= \(link_queue_full_ms) ms of the link rate")}
  end;

# arrivals_at($rate): the repetitions at $rate as one piece of per-
# millisecond evidence (scripts/lib/arrivals.jq, the arrivals_* columns),
# null when none of them was measured.
def arrivals_at($rate):
  [at_rate($rate)[] | select((.arrivals_lost | type) == "number")
   | {ahead_max: .arrivals_ahead_max, lost: .arrivals_lost, lost_in_burst: .arrivals_lost_in_burst, lost_in_stall: .arrivals_lost_in_stall,
      burst: (.arrivals_ahead_max >= arrivals_ring_entries)}]
  | arrivals_merge;

# server_mechanism($s; $rate): how the server's layer lost work at $rate.
# "cpu" when the server CPU was busy at least 90 % of what its daemons may
# use over the load (median over the repetitions, busy from idle time):
# it ran out, whatever the arrivals did. With the CPU to spare, from what
# reached the servers per millisecond (arrivals_at), when measured:
# "burst" when at least half of what their rings and sockets refused came
# while the arrivals ran a ring ahead of their local mean (the generator's,
# caused_by "generator"), "stall" when half came in a stall of a server CPU
# (the host's, caused_by "host"); else "queue" (a queue overflowed with the
# CPU to spare and smooth arrivals, or arrivals not measured: where its
# queues overflow, not its CPU's capacity); "unknown" when the CPU was not
# measured.
# {mechanism, busy, caused_by, arrivals}.
def server_mechanism($s; $rate):
  (at_rate($rate) | map(.server_cpu_busy_pct | numbers) | if length > 0 then repeat_spread.median else null end) as $busy
  | ((($s.cpu_budget.budget // 1) | if . > 1 then 1 else . end) * 100 * 0.9) as $need
  | arrivals_at($rate) as $e
  | {busy: $busy, arrivals: $e}
    + (if $busy != null and $busy >= $need then {mechanism: "cpu", caused_by: "server"}
       elif ($e.cause // "") == "burst" then {mechanism: "burst", caused_by: "generator"}
       elif ($e.cause // "") == "stall" then {mechanism: "stall", caused_by: "host"}
       elif $busy == null then {mechanism: "unknown", caused_by: "server"}
       else {mechanism: "queue", caused_by: "server"} end);

# verdict($s; $range; $wire): where the first answers were lost at the
# first failing rate, against the highest rate below it. A full shaped
# link is the limit whichever counter the first loss appeared in: answers
# waiting for the link hold the server's socket back, which then stops
# reading and its receive buffer overflows (docs/udp.md, "Backpressure").
def verdict($s; $range; $wire):
  $range.high as $B | $range.low as $L
  | if $B == null then null else
      ([at_rate($B)[] | select(.answer_ratio < $s.threshold)] | merged) as $bp
      | (if $L == null then null else (at_rate($L) | merged) end) as $lp
      | ($bp | first_loss_layer($lp)) as $fl
      | link_use($s; $wire; $B) as $lu
      | (if $fl == null then {} else {lost: $fl.lost, per_1000: $fl.per_1000, per_1000_below: $fl.per_1000_below} end) as $counts
      | (if $fl == null then "" else "\($fl.what): \($fl.lost) (\($fl.per_1000) per 1000 queries sent, \($fl.per_1000_below) at \($L // "no lower") q/s)" end)
        as $where
      | if ($lu.full // false) then
          {at_qps: $B, layer: "link", caused_by: "link", first_counter: ($fl.name // null)} + $counts + {backpressure: $lu,
           summary: ("at \($B) q/s the answers filled the shaped link (\($lu.carried_share_at_first_failure) of its rate carried"
                     + (if ($lu.queue_max_ms // 0) > 0 then ", its queue held up to \($lu.queue_max_ms) ms" else "" end) + ")"
                     + (if $fl == null then "" elif $fl.owner == "link" then "; the first work was lost at \($where)"
                        else "; the first loss was counted at \($where), where answers waiting for the link held the server back" end)
                     + ": the ceiling of the link, not of the server")}
        elif $fl == null then
          {at_qps: $B, layer: "undetermined", caused_by: "unknown", backpressure: $lu,
           summary: "answers lost at \($B) q/s where no layer counted a loss"}
        else
          server_mechanism($s; $B) as $m
          | {at_qps: $B, layer: $fl.name, caused_by: (if $fl.owner == "server" then $m.caused_by else $fl.owner end)} + $counts + {backpressure: $lu}
            + (if $fl.owner == "server" then {mechanism: $m.mechanism, server_cpu_busy_pct: $m.busy, arrivals: $m.arrivals} else {} end)
            + {summary: ("at \($B) q/s the first work was lost at \($where)"
                     + (if $fl.owner == "server" and ($m.mechanism == "burst" or $m.mechanism == "stall") then
                          ": \(arrivals_cause_words($m.arrivals)), with the server CPU \($m.busy // "?") % busy: "
                          + (if $m.mechanism == "burst" then "the generator's burst" else "the host's stall" end) + ", not the server's capacity"
                        elif $fl.owner == "server" and $m.mechanism == "queue" then
                          ": the server's, with its CPU \($m.busy) % busy: a queue overflowed while the CPU had time to spare"
                          + (if $m.arrivals != null then " (\(arrivals_cause_words($m.arrivals)))" else " (arrivals not measured per millisecond)" end)
                          + ", so this is where the server's queues overflow, not its CPU's capacity"
                        elif $fl.owner == "server" then ": the ceiling of the server"
                          + (if ($m.arrivals.cause // "") == "steady" then " (\(arrivals_cause_words($m.arrivals)))" else "" end)
                        elif $fl.owner == "link" then ": the ceiling of the link, not of the server"
                        else ": a limit of the rig, not of the server" end))}
        end
    end;

# physics_check($s; $ceil; $wire; $verdict): the ceiling's bitrate against
# the link's; link_limited and the note say what the verdict says.
def physics_check($s; $ceil; $wire; $verdict):
  if $s.link_bps == null then {applicable: false, reason: "unshaped (LINK=none): no wire rate to compare with"}
  elif $ceil == null or $wire == null then
    {applicable: true, expected_bps: $s.link_bps, measured_bps: null, ratio: null, pass: false, link_limited: false, reason: "no ceiling found"}
  else ($ceil * $wire * 8) as $m
    | ($verdict.layer == "link") as $ll
    | {applicable: true, rule: "ceiling_qps x mean_answer_wire_bytes x 8 within 10% of link_bps",
       expected_bps: $s.link_bps, measured_bps: ($m | round), ratio: ($m / $s.link_bps | round4),
       pass: ((($m / $s.link_bps) - 1 | fabs) <= 0.10), link_limited: $ll,
       note: ("at the first rate below the threshold "
              + (if $ll then "the answers filled the link: the link, not the server, limited"
                 elif $verdict.caused_by == "server" then "the link was not full and the server lost the first answers: the server, not the link, limited"
                 elif $verdict.caused_by == "rig" then "the link was not full and the rig lost the first answers: the rig, not the link, limited"
                 else "no layer was shown to limit" end))}
  end;

# ceiling_text($s; $range; $ceil; $gen): the ceiling in words.
def ceiling_text($s; $range; $ceil; $gen):
  ($s.threshold) as $thr
  | (if $s.note != "" then " (\($s.note))" else "" end) as $why
  | if $ceil != null then
      "found: between \($range.low) and \($range.high) q/s sent: every repetition answered >= \($thr) up to \($range.low) q/s (\($ceil) answers/s), one fell "
        + "below at \($range.high) q/s"
      + (if ($range.non_monotonic | length) > 0 then "; held again above it at \($range.non_monotonic | map(tostring) | join(", ")) q/s (not monotonic)" else
        "" end)
    elif ($gen | length) > 0 and $range.high == null then
      "not reached, generator-limited at \([$gen[] | .achieved_qps] | min) q/s achieved (\([$gen[] | .requested_qps] | min) requested)"
    elif $range.high == null and $range.held_up_to != null then
      "not reached: every point up to \($range.held_up_to) q/s answered >= \($thr)\($why)"
    elif $range.high != null and ([rates($thr)[] | select(.held)] | length) > 0 then
      "not found: answer ratio below \($thr) already at \($range.high) q/s, the lowest rate tried\($why)"
    else "not found: answer ratio below \($thr) at every point\($why)" end;

# critical_points($thr; $range): Table 1 style, every repetition of the two
# highest rates at or below low and the two lowest failing rates from high.
def critical_points($thr; $range):
  valid_points as $v
  | if $range.low == null or $range.high == null then [] else
      ([$v[] | select(.requested_qps <= $range.low) | .requested_qps] | unique | .[-2:]) as $lo
      | ([$v[] | select(.requested_qps >= $range.high and .answer_ratio < $thr) | .requested_qps] | unique | .[:2]) as $hi
      | [$v[] | select(.requested_qps as $r | ($lo + $hi) | index($r) != null)]
      | sort_by(.requested_qps, .rep)
      | map({requested_qps, rep, achieved_qps, answered_qps, answer_ratio, sent, server_queries, daemon_queries, answers,
             rig_share: (.rig_share | numbers // null), rig_over_limit: ((.rig_share | numbers // 0) > rig_share_limit)})
    end;

# losses_at_first_bad($thr; $range): where the answers of the failing
# repetitions at the first failing rate went missing, by counter (before
# the server, at its socket, after it); who caused it is the verdict's.
def losses_at_first_bad($thr; $range):
  if $range.high == null then null else
    [at_rate($range.high)[] | select(.answer_ratio < $thr)] as $p
    | {requested_qps: $range.high, repetitions: ($p | length),
       before_server: ([$p[] | .sent - .server_queries] | add),
       at_server_socket: ([$p[] | .server_queries - .daemon_queries] | add),
       after_server: ([$p[] | .daemon_queries - .answers] | add)}
    | .where = (if .after_server >= .at_server_socket and .after_server >= .before_server then "after the server (answer path)"
                elif .at_server_socket >= .before_server then "at the server socket (received, not read by the daemon)"
                else "before the server (query path)" end)
  end;

# per_cpu($s; $range; $ceil; $verdict): the ceiling per CPU of the server:
# the answered rate at the ceiling's low end over the server CPU's busy
# share there (median over repetitions; busy from idle time: the daemon
# and, with STEER=rps or napi, its kernel receive path). A figure only when the
# server lost the first answers and its CPU was saturated; the budget ($s.cpu_budget, from the
# testbed) and how often it throttled the daemon ($s.throttle) go with it.
# per_cpu_resolution: the widest ceiling range, (high - low) / low, that
# still gives a figure per CPU: a range wider than this (a repetition fell
# far below where the first held) leaves the ceiling unknown within it.
def per_cpu_resolution: 0.10;

def per_cpu($s; $range; $ceil; $verdict):
  (if $range.low == null then null
   else (at_rate($range.low) | map(.server_cpu_busy_pct | numbers) | if length > 0 then repeat_spread.median else null end) end) as $busy
  # saturated: the server CPU was at least 90 % as busy as the daemons may
  # make it (their budget, or the whole CPU): else the server CPU was not
  # what ran out, and the rate over its busy share is no capacity
  | ((($s.cpu_budget.budget // 1) | if . > 1 then 1 else . end) * 100 * 0.9) as $need
  | ($busy != null and $busy >= $need) as $saturated
  | ($range.low != null and $range.high != null and $range.low > 0
     and ($range.high - $range.low) / $range.low <= per_cpu_resolution) as $resolved
  | {budget: ($s.cpu_budget.budget // null), period_us: ($s.cpu_budget.period_us // null),
     longest_pause_bound_us: ($s.cpu_budget.longest_pause_bound_us // null), throttle: ($s.throttle // null),
     steer: $s.steer, server_cpu_busy_pct: $busy,
     server_cpu_saturated: $saturated,
     qps_per_cpu: (if $ceil != null and $busy != null and $busy > 0 and $verdict.caused_by == "server"
                      and receive_on_server_cpu($s.steer) and $saturated and $resolved
                   then ($ceil / ($busy / 100) | round) else null end),
     rule: (if $verdict.caused_by != "server" then "none: the server was not shown to be the limit"
            elif ($resolved | not) then "none: the ceiling lies between \($range.low) and \($range.high) q/s sent, more than \(per_cpu_resolution * 100) % "
              + "apart (a repetition fell below where the first held): the ceiling is not known closely enough"
            elif (receive_on_server_cpu($s.steer) | not)
              then "none: the servers' receive path ran on the sending CPU (STEER=\($s.steer // "none")), so the server CPU's busy share misses it"
            elif ($saturated | not) then "none: the server CPU was not saturated at the ceiling (busy below 90 % of what the daemons may use), so it was not "
              + "what ran out"
            else "answered q/s at the ceiling / the server CPU's busy share there (the daemon and its kernel receive path, STEER=\($s.steer))" end)};

# rig_on_server($range): the rig's share of the server CPU at the points
# that set the figure (the ceiling's two rates, or every valid point when
# no ceiling was found): charge.jq's rig_charge.
def rig_on_server($range):
  (if $range.high != null then [valid_points[] | select(.requested_qps == $range.high or .requested_qps == $range.low)]
   else valid_points end)
  | map(.rig_share) | rig_charge;

# lb_summary($s): the figures of one LB mode from its points (input: all
# points of the run).
def lb_summary($s):
  [.[] | select(.lb == $s.lb)] as $all
  | ($all | valid_points) as $valid
  | [$all[] | select(.generator_limited == 1)] as $gen
  | ($all | ceiling_range($s.threshold)) as $range
  | (if $range.low != null and $range.high != null
     then ($all | at_rate($range.low) | map(.answered_qps) | repeat_spread.median) else null end) as $ceil
  | ($all | mean_answer_wire_bytes) as $wire
  | ($all | rig_on_server($range)) as $charge
  | ($all | verdict($s; $range; $wire) | with_charge($charge)) as $verdict
  | {lb: $s.lb,
     ceiling_qps: $ceil,
     ceiling_low_qps: (if $ceil != null then $range.low else null end),
     ceiling_high_qps: $range.high,
     non_monotonic: $range.non_monotonic,
     mixed_rates: $range.mixed,
     repetitions_max: $range.repetitions_max,
     verdict: $verdict,
     ceiling: ceiling_text($s; $range; $ceil; $gen),
     search_note: (if $s.note == "" then null else $s.note end),
     critical_points: ($all | critical_points($s.threshold; $range)),
     losses_at_first_bad: ($all | losses_at_first_bad($s.threshold; $range)),
     max_good_answered_qps: ([$valid[] | select(.answer_ratio >= $s.threshold) | .answered_qps] | max),
     mean_answer_wire_bytes: (if $wire == null then null else ($wire * 10 | round / 10) end),
     mean_answer_wire_bytes_source: ("Listener nftables counter dns_answers over all valid points: IP bytes / packets + \(ethernet_header_bytes) (Ethernet "
       + "header) + \(frame_overhead_bytes) (FCS, preamble and inter-frame gap)"),
     link_bps: $s.link_bps,
     physics_check: physics_check($s; $ceil; $wire; $verdict),
     per_cpu: ($all | per_cpu($s; $range; $ceil; $verdict)),
     rig_charge: $charge,
     stray_packets_max: ([$all[] | .stray_packets] | max),
     points: ($all | length), generator_limited_points: ($gen | length)};

# summary_top: the fields of the first LB mode a summary.json carries at
# its top level (input: the array of lb_summary results).
def summary_top:
  if length > 0 then
    (.[0] | {ceiling_qps, ceiling_low_qps, ceiling_high_qps, non_monotonic, mixed_rates, repetitions_max, ceiling,
             critical_points, mean_answer_wire_bytes, mean_answer_wire_bytes_source, link_bps, physics_check, per_cpu, rig_charge, lb, verdict,
             probe})
  else {lb: null} end;

# udp_counted_by($generator; $sent): where each count of points.csv was
# counted, in words: the queries sent by tcpreplay's own summary, or, with
# kxdpgun, where the testbed counted them ($sent: the counters'
# router.counted_by.dns_udp_queries: the router, or a lab's switch ports;
# null before a point measured them).
def udp_counted_by($generator; $sent):
  {queries_sent: (if $generator == "kxdpgun" then $sent else "tcpreplay's own summary (the packets it sent)" end),
   server_queries: "the servers' nftables (dns_udp_in: UDP to the service address, port 53)",
   daemon_queries: "the server daemons' own statistics (scripts/testbed server-stats)",
   answers: "the Listener's nftables (dns_answers: UDP from the service address, port 53)"};

# ------------------------------------------------------------ read by other experiments
# Another experiment reads a UDP summary only through these accessors,
# never by a field's path: each checks that the summary is of the schema
# this file writes and fails naming both when it is not, so a consumer
# older than the summary stops instead of reading a field that moved.
# (jq -L "$RB_TOP" -L "$RB_TOP/scripts/lib" 'import "udpreplay/udp/rules" as udp; udp::udp_ceiling_qps(.)')
def udp_schema: "rootbench.udp/1";
def udp_summary_checked($s):
  if ($s | type) == "object" and $s.schema == udp_schema then $s
  else error("a UDP summary of schema \(udp_schema) (udpreplay/udp/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# the ceiling: answered queries/s, the sent rates held (low) and first failed (high), in words
def udp_ceiling_qps($s): udp_summary_checked($s).ceiling_qps // null;
def udp_ceiling_low_qps($s): udp_summary_checked($s).ceiling_low_qps // null;
def udp_ceiling_high_qps($s): udp_summary_checked($s).ceiling_high_qps // null;
def udp_ceiling_text($s): udp_summary_checked($s).ceiling // null;
# what stopped it ({summary, layer, caused_by, server_own, ...}, rules above)
def udp_verdict($s): udp_summary_checked($s).verdict // null;
# the figure per CPU of the server ({qps_per_cpu, server_cpu_busy_pct, budget, throttle, ...})
def udp_per_cpu($s): udp_summary_checked($s).per_cpu // null;
# the rig's share of the server CPU where the ceiling was set (charge.jq)
def udp_rig_charge($s): udp_summary_checked($s).rig_charge // null;
# the balancing the sweep ran with, and the copy of the testbed it ran on
def udp_lb($s): udp_summary_checked($s).lb // null;
def udp_testbed($s): udp_summary_checked($s).testbed // null;

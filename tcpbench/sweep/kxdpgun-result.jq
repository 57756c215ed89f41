# kxdpgun-result.jq -- the records of one TCP run's kxdpgun players in
# tcpbench's JSON form (point.jq), judged against the counters where the
# work happened (tcpbench/sweep/kxdpgun.sh says why). One line per player:
# {index, rc, error?, result}; rc as tcpbench's: 0 valid, 3 generator-
# limited, 4 interrupted, 1 error (no counts, or counts that disagree).
# Input: none (-n); $counts: "INDEX SYNS ESTABLISHED REPLIES CLOSED START"
# lines ("-" where kxdpgun printed none; START its first query on its
# host's clock, scripts/lib/kxdpgun.sh kxg_start_of, - when not measured;
# absent in older runs); $at (optional): the players' one absolute start,
# or null; $cb, $ca: [testbed counters] and $sb,
# $sa: [testbed server-stats] before and after the run; $asked: the SYNs
# asked of all players; $servers: the run's server roles; $interrupted;
# $version; $program: its path and $proto (optional): tcp, or quic (DNS over QUIC: the
# counts are QUIC connections begun, full handshakes and answers; the
# router's dns_quic_initials bounds the connections begun from above, one
# to three Initial-led datagrams each; the daemons' own count is .quic).
# A resumed QUIC connection makes no full handshake: it is established
# when it was answered.
def num: if . == "-" then null else tonumber end;
def within($said; $counted): ($said - $counted | fabs) <= ([10, 0.01 * $counted] | max);

[$counts | split("\n")[] | select(length > 0) | split(" ")
 | {index: (.[0] | tonumber), syns: (.[1] | num), established: (.[2] | num), replies: (.[3] | num), closed: (.[4] | num),
    start: (.[5] // "-" | num)}] as $p
| ($ARGS.named.proto // "tcp") as $proto | ($proto == "quic") as $quic
| (if $quic then "dns_quic_initials" else "dns_tcp_syns" end) as $ctr
| (if $quic then "QUIC connections" else "SYNs" end) as $what
| (($ca[0].router[$ctr].packets // null) as $x
   | if $x == null then null else $x - ($cb[0].router[$ctr].packets // 0) end) as $syns_counted
# (where they were counted: the router, or where a lab counts what it has
# no router for, scripts/lib/counters.jq)
| ($ca[0].router.counted_by[$ctr] // "the router's") as $where
| ($where | startswith("the router")) as $at_router
| (if $quic then "quic" else "tcp" end) as $daemon_key
| ([$servers[] as $s | ($sa[0][$s][$daemon_key] // 0) - ($sb[0][$s][$daemon_key] // 0)] | add // 0) as $answers_counted
| ([$p[] | .syns // 0] | add // 0) as $syns_said
| ([$p[] | .replies // 0] | add // 0) as $replies_said
| (if any($p[]; .syns == null) then "kxdpgun printed no counts"
   elif $syns_counted == null then "no count of the \($what) sent: scripts/testbed counters has no router.\($ctr) ("
     + ($ca[0].router.missing[$ctr] // "the namespace testbed counts them at its router, a lab at its servers") + ")"
   elif $quic and $syns_said > $syns_counted then
     "kxdpgun says it began \($syns_said) QUIC connections; the router forwarded \($syns_counted) datagrams led by an Initial packet (at least one each)"
   elif ($quic | not) and (within($syns_said; $syns_counted) | not) then
     "kxdpgun says it sent \($syns_said) SYNs; " + (if $at_router then "the router forwarded \($syns_counted)"
                                                  else "counted where they passed (\($where)): \($syns_counted)" end)
   elif $replies_said > $answers_counted and (within($replies_said; $answers_counted) | not) then
     "kxdpgun says it got \($replies_said) answers; the server daemons answered \($answers_counted) queries over \(if $quic then "QUIC" else "TCP" end)"
   else null end) as $error
| (if $quic then $syns_said else $syns_counted end) as $begun
| (if $begun != null and $begun < 0.99 * $asked then
     ["sent \($begun) \($what) (\(if $quic then "kxdpgun's count, bounded by the router's" elif $at_router then "counted at the router"
                                  else "counted where they passed: \($where)" end)) of the \($asked) asked "
       + "(\($begun * 1000 / ([$asked, 1] | max) | round / 10) %): the generator fell short"]
   else [] end) as $short
| $p[]
| {index,
   rc: (if $interrupted then 4 elif $error != null then 1 elif ($short | length) > 0 then 3 else 0 end),
   result: (if .syns == null then null else
     # kxdpgun counts a connection again when the server repeats its
     # SYN-ACK (its final ACK dropped at a full accept queue): more
     # established or replies than SYNs (seen with BIND). A connection is
     # answered once at most: the excess is kept apart, not counted.
     ([.replies, .syns] | min) as $ok
     | ([if $quic then ([.established, .replies] | max) else .established end, .syns] | min) as $est
     | {generator: "kxdpgun", version: $version, program: ($ARGS.named.program // null), transport: $proto, attempted: .syns, succeeded: $ok,
      established: $est, closed: .closed, excess_replies: ([.replies - .syns, 0] | max),
      failed: {total: (.syns - $ok), not_established: (.syns - $est), no_answer: ($est - $ok)},
      valid: ($error == null and ($short | length) == 0 and ($interrupted | not)),
      invalid_reasons: $short, interrupted: $interrupted,
      latency_us: null, answered_latency_us: null,
      # (as tcpbench's records: the start asked for and the first query's)
      start_at: ($ARGS.named.at // null), first_start_realtime: .start,
      counted: ({syns_at_router: $syns_counted, answers_by_daemons: $answers_counted, syns_asked: $asked,
                syns_said: $syns_said, replies_said: $replies_said}
                + (if $quic then {router_counter: $ctr, full_handshakes_said: ([$p[] | .established // 0] | add // 0)} else {} end))} end)}
+ (if $error != null then {error: $error} else {} end)

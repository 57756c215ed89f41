# kxdpgun-result.jq -- the records of one TCP run's kxdpgun players in
# tcpbench's JSON form (point.jq), judged against the counters where the
# work happened (tcpbench/sweep/kxdpgun.sh says why). One line per player:
# {index, rc, error?, result}; rc as tcpbench's: 0 valid, 3 generator-
# limited, 4 interrupted, 1 error (no counts, or counts that disagree).
# Input: none (-n); $counts: "INDEX SYNS ESTABLISHED REPLIES CLOSED" lines
# ("-" where kxdpgun printed none); $cb, $ca: [testbed counters] and $sb,
# $sa: [testbed server-stats] before and after the run; $asked: the SYNs
# asked of all players; $servers: the run's server roles; $interrupted;
# $version.
def num: if . == "-" then null else tonumber end;
def within($said; $counted): ($said - $counted | fabs) <= ([10, 0.01 * $counted] | max);

[$counts | split("\n")[] | select(length > 0) | split(" ")
 | {index: (.[0] | tonumber), syns: (.[1] | num), established: (.[2] | num), replies: (.[3] | num), closed: (.[4] | num)}] as $p
| (($ca[0].router.dns_tcp_syns.packets // null) as $x
   | if $x == null then null else $x - ($cb[0].router.dns_tcp_syns.packets // 0) end) as $syns_counted
| ([$servers[] as $s | ($sa[0][$s].tcp // 0) - ($sb[0][$s].tcp // 0)] | add // 0) as $answers_counted
| ([$p[] | .syns // 0] | add // 0) as $syns_said
| ([$p[] | .replies // 0] | add // 0) as $replies_said
| (if any($p[]; .syns == null) then "kxdpgun printed no counts"
   elif $syns_counted == null then "no router counter of the SYNs sent (kxdpgun needs the namespace testbed's router)"
   elif within($syns_said; $syns_counted) | not then
     "kxdpgun says it sent \($syns_said) SYNs; the router forwarded \($syns_counted)"
   elif $replies_said > $answers_counted and (within($replies_said; $answers_counted) | not) then
     "kxdpgun says it got \($replies_said) answers; the server daemons answered \($answers_counted) queries over TCP"
   else null end) as $error
| (if $syns_counted != null and $syns_counted < 0.99 * $asked then
     ["sent \($syns_counted) SYNs (counted at the router) of the \($asked) asked (\($syns_counted * 1000 / ([$asked, 1] | max) | round / 10) %): the "
       + "generator fell short"]
   else [] end) as $short
| $p[]
| {index,
   rc: (if $interrupted then 4 elif $error != null then 1 elif ($short | length) > 0 then 3 else 0 end),
   result: (if .syns == null then null else
     # kxdpgun counts a connection again when the server repeats its
     # SYN-ACK (its final ACK dropped at a full accept queue): more
     # established or replies than SYNs (seen with BIND). A connection is
     # answered once at most: the excess is kept apart, not counted.
     ([.replies, .syns] | min) as $ok | ([.established, .syns] | min) as $est
     | {generator: "kxdpgun", version: $version, attempted: .syns, succeeded: $ok,
      established: $est, closed: .closed, excess_replies: ([.replies - .syns, 0] | max),
      failed: {total: (.syns - $ok), not_established: (.syns - $est), no_answer: ($est - $ok)},
      valid: ($error == null and ($short | length) == 0 and ($interrupted | not)),
      invalid_reasons: $short, interrupted: $interrupted,
      latency_us: null, answered_latency_us: null,
      counted: {syns_at_router: $syns_counted, answers_by_daemons: $answers_counted, syns_asked: $asked,
                syns_said: $syns_said, replies_said: $replies_said}} end)}
+ (if $error != null then {error: $error} else {} end)

# attack.jq -- an attack flood's record (flood.json, schema
# rootbench.attack-flood/1) from what scripts/lib/attack.sh gathered around
# it (flood-raw.json, schema rootbench.attack-flood-raw/1): counter
# snapshots before and after, taken where the work happens (the router's
# and the sink's nftables counters, the switch's SNMP octets, the daemons'
# own counts, the servers' TCP MIB through the sampler); kxdpgun's own
# summary is kept beside them, for agreement only. Pure: no input but the
# raw object. docs/attack.md, "The floods", says what each field means.

def attack_flood_schema: "rootbench.attack-flood/1";
def attack_raw_schema: "rootbench.attack-flood-raw/1";

# attack_reflection_kinds: the kinds whose sources are the victim block
# and whose answers are the attack (an amplification is reported).
def attack_reflection_kinds: ["reflection-dnskey", "reflection-any"];
# attack_tcp_kinds: the kinds counted by their SYNs, not their queries.
def attack_tcp_kinds: ["syn-flood", "conn-hold"];

# attack_raw_checked: the raw object (input), or an error naming its schema.
def attack_raw_checked:
  if (type == "object" and .schema == attack_raw_schema) then .
  else error("an attack flood's raw record of schema \(attack_raw_schema) was expected; this one's schema is \(.schema? // type)") end;

# attack_flood_checked: a flood.json (input), or an error naming its schema
# or the first field it lacks (the rules read these).
def attack_flood_checked:
  if (type == "object" and .schema == attack_flood_schema) | not then
    error("an attack flood record of schema \(attack_flood_schema) was expected; this one's schema is \(.schema? // type)")
  else
    ([ "kind", "family", "requested_rate", "seconds", "sent", "achieved_rate", "answers", "answered_rate",
       "servers", "sink", "switch", "kxdpgun", "amplification" ] - keys) as $missing
    | if ($missing | length) > 0 then error("attack flood record without \($missing | join(", "))") else . end
  end;

# attack_ratio($a; $b): $a / $b, null when b is 0 or either is null.
def attack_ratio($a; $b): if $a == null or $b == null or $b == 0 then null else $a / $b end;

# attack_delta($before; $after; path): after - before of a counter, null
# when either snapshot lacks it.
def attack_delta($before; $after; p):
  ($before | p) as $b | ($after | p) as $a
  | if $a == null or $b == null then null else $a - $b end;

# attack_pair($c; $role; $name): {packets, bytes} deltas of an nftables counter.
def attack_pair($c; $role; $name):
  {packets: attack_delta($c.before; $c.after; .[$role][$name].packets),
   bytes: attack_delta($c.before; $c.after; .[$role][$name].bytes)};

# attack_servers_queries($s): the daemons' own query counts, summed over
# the servers; null when a daemon gave none (stopped, stalled).
def attack_servers_queries($s):
  [($s.before | keys[]) as $r | attack_delta($s.before; $s.after; .[$r].queries)]
  | if length == 0 or any(. == null) then null else add end;

# attack_servers_tcp($sample): the servers' TCP MIB over the flood (the
# sampler's run deltas, summed over the servers), the largest accept queue
# a server's port 53 reached, and the most connections established at the
# servers at once above those at the start (running sum of the sampled
# net changes of TcpCurrEstab).
def attack_servers_tcp($sample):
  def mib($name): [$sample.deltas[]? | .[$name] // 0] | add // 0;
  {passive_opens: mib("TcpPassiveOpens"),
   syncookies_sent: mib("TcpExtSyncookiesSent"),
   syncookies_recv: mib("TcpExtSyncookiesRecv"),
   syncookies_failed: mib("TcpExtSyncookiesFailed"),
   listen_overflows: mib("TcpExtListenOverflows"),
   listen_drops: mib("TcpExtListenDrops"),
   req_q_full_do_cookies: mib("TcpExtTCPReqQFullDoCookies"),
   req_q_full_drops: mib("TcpExtTCPReqQFullDrop"),
   syn_retrans: mib("TcpExtTCPSynRetrans"),
   in_segs: mib("TcpInSegs"),
   accept_queue_max: ([$sample.listen_peak[]?["53"].max_queue // empty] | max),
   curr_estab_max: (if $sample.estab_changes == null then null
                    else reduce $sample.estab_changes[] as $d ({n: 0, max: 0}; .n += $d | .max = ([.max, .n] | max)) | .max end)};

# attack_udp_queries($r; $unit): the UDP queries the router forwarded to
# the service address ("packets" or "bytes"), without those sent in the
# Listener's name (a background trace's, counted apart as
# trace_udp_queries as well): the flood's.
def attack_udp_queries($r; $unit):
  attack_delta($r.counters.before; $r.counters.after; .router.dns_udp_queries[$unit]) as $all
  | if $all == null then null
    else $all - (attack_delta($r.counters.before; $r.counters.after; .router.trace_udp_queries[$unit]) // 0) end;

# attack_counted_by($r): where the counts of the flood were counted, in
# words: the router's counters as the testbed counted them (the
# counters' router.counted_by: the namespace router, or where a lab
# counts them: its switch's ports and its servers, scripts/lib/counters.jq),
# the sink's and the switch's; null for a record without them.
def attack_counted_by($r):
  ($r.counters.after.router.counted_by // null) as $cb
  | if $cb == null then null
    else {sent_udp: "\($cb.dns_udp_queries), less \($cb.trace_udp_queries)",
          sent_tcp: $cb.dns_tcp_syns, answers: $cb.dns_udp_answers,
          sink: "the sink's nftables (input): what reached the victim block, dropped there",
          switch: "the switch: IF-MIB ifHCInOctets/ifHCOutOctets of the attacker's and the sink's ports"} end;

# attack_flood: the record (flood.json) of a raw object (input).
def attack_flood:
  attack_raw_checked
  | . as $r
  | attack_counted_by($r) as $cb
  | (attack_tcp_kinds | index($r.kind)) as $tcp
  | (if $tcp then attack_delta($r.counters.before; $r.counters.after; .router.dns_tcp_syns.packets)
     else attack_udp_queries($r; "packets") end) as $sent
  | attack_delta($r.counters.before; $r.counters.after; .router.dns_udp_answers.packets) as $answers
  | {reflected_udp: attack_pair($r.counters; "sink"; "reflected_udp"),
     reflected_tcp: attack_pair($r.counters; "sink"; "reflected_tcp"),
     victim_other: attack_pair($r.counters; "sink"; "victim_other")} as $sink
  | {attacker_in_octets: attack_delta($r.octets.before; $r.octets.after; .attacker_in),
     attacker_out_octets: attack_delta($r.octets.before; $r.octets.after; .attacker_out),
     sink_out_octets: attack_delta($r.octets.before; $r.octets.after; .sink_out)} as $switch
  | {schema: attack_flood_schema,
     kind: $r.kind, family: $r.family, player: $r.player,
     requested_rate: $r.requested_rate, seconds: $r.seconds,
     generator: $r.generator, sources: $r.sources, target: $r.target,
     sent: $sent,
     sent_counted_as: (if $tcp then "router dns_tcp_syns" else "router dns_udp_queries - trace_udp_queries" end),
     counted_by: $cb,
     achieved_rate: attack_ratio($sent; $r.seconds),
     answers: $answers,
     answered_rate: attack_ratio($answers; $r.seconds),
     answered_share: attack_ratio($answers; $sent),
     # (IP bytes, as the router's nftables counters count them)
     query_bytes: (if $tcp then null else attack_udp_queries($r; "bytes") end),
     answer_bytes: attack_delta($r.counters.before; $r.counters.after; .router.dns_udp_answers.bytes),
     servers: {queries: attack_servers_queries($r.server_stats), tcp: attack_servers_tcp($r.sample)},
     sink: $sink,
     switch: $switch,
     kxdpgun: $r.kxdpgun,
     amplification: (if (attack_reflection_kinds | index($r.kind)) == null then null
                     else {bytes: attack_ratio($switch.sink_out_octets; $switch.attacker_in_octets),
                           packets: attack_ratio([$sink[].packets] | if any(. == null) then null else add end; $sent),
                           # the same without the Ethernet frames: the IP bytes of
                           # the answers over the queries', at the router
                           ip_bytes: attack_ratio(attack_delta($r.counters.before; $r.counters.after; .router.dns_udp_answers.bytes);
                                                  attack_udp_queries($r; "bytes"))} end)};

# compare.jq: the side-by-side comparison of server kinds (make
# compare-servers), from each server's own summaries; the only place its
# rules are written. Input, one object per server kind:
#   {"nsd": {"testbed": <testbed.json>, "udp": <udp-unshaped/summary.json>,
#            "sizes": <sizes/summary.json>, "tcp": <tcp/1p1s/summary.json>}, ...}
# (a missing file is null). Output: rootbench.compare/1 with one row per
# server; every value is copied from the named summary, never computed
# from another server's, and a missing or failed experiment gives nulls
# with its status, never a number.

def ok($s): $s != null and $s.status == "ok";
def spread($r): if $r == null then null else {n: $r.n, min: $r.min, median: $r.median, max: $r.max, spread_pct: $r.spread_pct, flagged: $r.flagged} end;

def server_row($kind; $x):
  {server: $kind,
   name: ($x.testbed.server.name // $kind), version: ($x.testbed.server.version // null),
   listen_backlog: ($x.testbed.server.listen_backlog // null),
   minimal_responses: ($x.testbed.server.minimal_responses // null),
   udp: {status: ($x.udp.status // "missing"),
         ceiling_qps: (if ok($x.udp) then $x.udp.ceiling_qps else null end),
         verdict: (if ok($x.udp) then ($x.udp.verdict.summary // $x.udp.verdict // null) else null end)},
   tcp: {status: ($x.tcp.status // "missing"),
         knee_0_1pct: (if ok($x.tcp) then ($x.tcp.fail_0_1pct.rate // null) else null end),
         knee_1pct: (if ok($x.tcp) then ($x.tcp.fail_1pct.rate // null) else null end),
         max_handled: (if ok($x.tcp) then ($x.tcp.max_handled.handled_rate // null) else null end),
         verdict: (if ok($x.tcp) then ($x.tcp.verdict.summary // null) else null end),
         server_capacity: (if ok($x.tcp) then ($x.tcp.verdict.server_capacity // false) else null end),
         spread_0_1pct: (if ok($x.tcp) then spread($x.tcp.repetitions.fail_0_1pct) else null end)},
   sizes: {status: ($x.sizes.status // "missing"),
           bytes_per_query_out_unsigned: (if ok($x.sizes) then ($x.sizes.variants.unsigned.bytes_per_query_out // null) else null end),
           bytes_per_query_out_signed: (if ok($x.sizes) then ($x.sizes.variants.signed.bytes_per_query_out // null) else null end),
           growth_vs_unsigned: (if ok($x.sizes) then ($x.sizes.variants.signed.growth_vs_unsigned // null) else null end),
           # what the answers carry per section (dnsstat of the Listener's
           # capture): where two servers' bytes per query differ
           sections: (if ok($x.sizes) then ($x.sizes.variants | with_entries(select(.key == "unsigned" or .key == "signed") | .value = (.value.sections // null))) else null end)}};

def compare:
  {schema: "rootbench.compare/1", experiment: "compare-servers",
   servers: [to_entries[] | server_row(.key; .value)]}
  | .status = (if all(.servers[]; .udp.status == "ok" and .tcp.status == "ok" and .sizes.status == "ok") then "ok" else "partial" end);

# compare_table: the '#'-headed table gnuplot and the report read.
# sections_table: per server, variant and section, bytes and records by
# kind per response.
def sections_table:
  "# server,variant,section,bytes_per_response,NS,A/AAAA,RRSIG,DNSKEY,NSEC/NSEC3,DS,SOA,OPT,other",
  (.servers[] | .server as $k | (.sizes.sections // {}) | to_entries[] | .key as $v | (.value // {}) | to_entries[]
   | [$k, $v, .key, .value.bytes_per_response] + [.value.records_per_response | .["NS","A/AAAA","RRSIG","DNSKEY","NSEC/NSEC3","DS","SOA","OPT","other"]]
   | map(if . == null then "" else tostring end) | join(","));

def compare_table:
  "# server,version,udp_ceiling_qps,tcp_knee_0_1pct,tcp_knee_min,tcp_knee_max,tcp_server_capacity,bytes_per_query_out_unsigned,bytes_per_query_out_signed",
  (.servers[] | [.server, .version, .udp.ceiling_qps, .tcp.knee_0_1pct, .tcp.spread_0_1pct.min, .tcp.spread_0_1pct.max,
                 .tcp.server_capacity, .sizes.bytes_per_query_out_unsigned, .sizes.bytes_per_query_out_signed]
                | map(if . == null then "" else tostring end) | join(","));

# rules.jq: the side-by-side comparison of server kinds (make
# compare-servers), from each server's own summaries; the only place its
# rules are written. Input, per server kind, its repetitions in the order
# they ran (the servers were interleaved: r1 of every kind, then r2, ...):
#   {"nsd": [{"rep": 1, "testbed": <testbed.json>, "udp": <udp-unshaped/summary.json>,
#             "sizes": <sizes/summary.json>, "tcp": <tcp/1p1s/summary.json>,
#             "tcp_direct": <tcp-direct/1p1s/summary.json>}, ...], ...}
# (a missing file is null). Output: rootbench.compare/1, one row per
# server. Every figure is the spread (scripts/lib/spread.jq: min, median,
# max, flagged beyond 5 %) of the values the repetitions' own summaries
# hold; a repetition whose experiment failed or is missing adds no value
# (its status is listed), so a figure is never made up from another run.

include "spread";
# The experiments' summaries are read through their producers' accessors,
# which check the schema (found from this folder: jq 1.6 would look in the
# current directory first).
import "udpreplay/udp/rules" as udp {search: "../.."};
import "tcpbench/sweep/rules" as tcp {search: "../.."};
import "analysis/sizes/rules" as sizes {search: "../.."};

def ok($s): $s != null and $s.status == "ok";
# figure(f): f of every repetition whose experiment is ok, as a spread.
def figure(exp; f): [.[] | select(ok(exp)) | f] | repeat_spread;
def statuses(exp): [.[] | (exp.status // "missing")];

def server_row($kind):
  . as $reps | ([$reps[] | .testbed | select(. != null)][0] // {}) as $tb
  | {server: $kind,
     name: ($tb.server.name // $kind), version: ($tb.server.version // null),
     release: ($tb.server.release // null),
     listen_backlog: ($tb.server.listen_backlog // null),
     minimal_responses: ($tb.server.minimal_responses // null),
     # the servers' CPU budget (SERVER_CPU; null: none): a per-CPU figure
     # below is a projection from it
     cpu_budget: ($tb.server.cpu_budget.budget // null),
     repetitions: ($reps | length),
     udp: {statuses: statuses(.udp),
           ceiling_qps: figure(.udp; udp::udp_ceiling_qps(.udp)),
           # the range of sent rates around each repetition's ceiling
           ceiling_low_qps: figure(.udp; udp::udp_ceiling_low_qps(.udp)),
           ceiling_high_qps: figure(.udp; udp::udp_ceiling_high_qps(.udp)),
           # answers/s per CPU of the server (udpreplay/udp/rules.jq per_cpu; null
           # unless the server was shown to be the limit)
           qps_per_cpu: figure(.udp; udp::udp_per_cpu(.udp).qps_per_cpu // null),
           caused_by: [.[] | select(ok(.udp)) | (udp::udp_verdict(.udp).caused_by // null)],
           # the rig's share of the server CPU where the ceiling was set
           # (scripts/lib/charge.jq), and whether the figure is the server's own
           rig_share: figure(.udp; udp::udp_rig_charge(.udp).max // null),
           server_own: [.[] | select(ok(.udp)) | (udp::udp_verdict(.udp).server_own // null)],
           verdicts: [.[] | select(ok(.udp)) | (udp::udp_verdict(.udp) as $v | $v.summary // $v // null)]},
     tcp: {statuses: statuses(.tcp),
           knee_0_1pct: figure(.tcp; tcp::tcp_knee_rate(.tcp)),
           max_handled: figure(.tcp; tcp::tcp_max_handled_rate(.tcp)),
           # connections/s per CPU of the server (rules.jq per_cpu)
           conn_per_cpu: figure(.tcp; tcp::tcp_per_cpu(.tcp).conn_per_cpu // null),
           server_capacity: [.[] | select(ok(.tcp)) | (tcp::tcp_verdict(.tcp).server_capacity // false)],
           rig_share: figure(.tcp; tcp::tcp_rig_charge(.tcp).max // null),
           server_own: [.[] | select(ok(.tcp)) | (tcp::tcp_verdict(.tcp).server_own // null)],
           verdicts: [.[] | select(ok(.tcp)) | (tcp::tcp_verdict(.tcp).summary // null)]},
     # the TCP sweep with kxdpgun (the server's own capacity, or a bound
     # where the rig gave out first); null when no repetition ran it
     tcp_direct: (if all(.[]; .tcp_direct == null) then null else
       {statuses: statuses(.tcp_direct),
        knee_0_1pct: figure(.tcp_direct; tcp::tcp_knee_rate(.tcp_direct)),
        bound: figure(.tcp_direct; if tcp::tcp_knee_rate(.tcp_direct) == null then (tcp::tcp_verdict(.tcp_direct).bound.handled_rate // null)
                                  else null end),
        server_capacity: [.[] | select(ok(.tcp_direct)) | (tcp::tcp_verdict(.tcp_direct).server_capacity // false)],
        rig_share: figure(.tcp_direct; tcp::tcp_rig_charge(.tcp_direct).max // null),
        server_own: [.[] | select(ok(.tcp_direct)) | (tcp::tcp_verdict(.tcp_direct).server_own // null)],
        verdicts: [.[] | select(ok(.tcp_direct)) | (tcp::tcp_verdict(.tcp_direct).summary // null)]} end),
     sizes: {statuses: statuses(.sizes),
             bytes_per_query_out_unsigned: figure(.sizes; sizes::sizes_variants(.sizes).unsigned.bytes_per_query_out // null),
             bytes_per_query_out_signed: figure(.sizes; sizes::sizes_variants(.sizes).signed.bytes_per_query_out // null),
             growth_vs_unsigned: figure(.sizes; sizes::sizes_variants(.sizes).signed.growth_vs_unsigned // null),
             # what the answers carry per section (dnsstat of the Listener's
             # capture), of the first repetition with a sizes run: where two
             # servers' bytes per query differ
             sections: ([.[] | select(ok(.sizes))][0].sizes | if . == null then null else sizes::sizes_variants(.) end
                        | if . == null then null
                          else with_entries(select(.key == "unsigned" or .key == "signed") | .value = (.value.sections // null)) end)}};

def compare:
  {schema: "rootbench.compare/1", experiment: "compare-servers",
   servers: [to_entries[] | .key as $k | .value | server_row($k)]}
  | .status = (if all(.servers[]; all((.udp.statuses + .tcp.statuses + .sizes.statuses
    + (.tcp_direct.statuses // []))[]; . == "ok")) then "ok" else "partial" end);

# sections_table: per server, zone and section, bytes and records by kind
# per response.
def sections_table:
  "# server,variant,section,bytes_per_response,NS,A/AAAA,RRSIG,DNSKEY,NSEC/NSEC3,DS,SOA,OPT,other",
  (.servers[] | .server as $k | (.sizes.sections // {}) | to_entries[] | .key as $v | (.value // {}) | to_entries[]
   | [$k, $v, .key, .value.bytes_per_response] + [.value.records_per_response | .["NS","A/AAAA","RRSIG","DNSKEY","NSEC/NSEC3","DS","SOA","OPT","other"]]
   | map(if . == null then "" else tostring end) | join(","));

# compare_table: the '#'-headed table (medians, min and max over the
# repetitions) gnuplot and the report read.
def compare_table:
  "# server,version,repetitions,udp_ceiling_median,udp_ceiling_min,udp_ceiling_max,tcp_knee_median,tcp_knee_min,"
    + "tcp_knee_max,bytes_out_unsigned_median,bytes_out_signed_median,bytes_out_signed_min,bytes_out_signed_max,"
    + "udp_ceiling_low_min,udp_ceiling_high_max,cpu_budget,udp_qps_per_cpu_median,tcp_conn_per_cpu_median",
  (.servers[] | [.server, .version, .repetitions,
                 .udp.ceiling_qps.median, .udp.ceiling_qps.min, .udp.ceiling_qps.max,
                 .tcp.knee_0_1pct.median, .tcp.knee_0_1pct.min, .tcp.knee_0_1pct.max,
                 .sizes.bytes_per_query_out_unsigned.median, .sizes.bytes_per_query_out_signed.median,
                 .sizes.bytes_per_query_out_signed.min, .sizes.bytes_per_query_out_signed.max,
                 .udp.ceiling_low_qps.min, .udp.ceiling_high_qps.max,
                 .cpu_budget, .udp.qps_per_cpu.median, .tcp.conn_per_cpu.median]
                | map(if . == null then "" else tostring end) | join(","));

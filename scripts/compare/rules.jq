# rules.jq: the side-by-side comparison of server kinds and releases (make
# compare-servers), from each server's own summaries; the only place its
# rules are written. Input (scripts/compare/run): the kinds and the known
# releases in order (the first release is the base a change is measured
# from), and every repetition that ran (interleaved: r1 of every kind and
# release, then r2, ...):
#   {"kinds": ["nsd", ...], "releases": ["debian12", "current"],
#    "reps": [{"kind": "nsd", "asked": "current", "rep": 1, "dir": "servers/nsd/current/r1",
#              "testbed": <testbed.json>, "udp": <udp-unshaped/summary.json>,
#              "sizes": <sizes/summary.json>, "tcp": <tcp/1p1s/summary.json>,
#              "tcp_direct": <tcp-direct/1p1s/summary.json>, "dot": <dot/summary.json>,
#              "bench": <bench.json>}, ...]}
# (a missing file is null). Output: rootbench.compare/2, one row per kind
# and release; the release is the one the repetition's testbed.json
# recorded (a repetition with none is in a row of release null), never the
# one asked for. Every figure is the spread (scripts/lib/spread.jq: min,
# median, max, flagged beyond 5 %) of the values the repetitions' own
# summaries hold; a repetition whose experiment failed or is missing adds
# no value (its status is listed), so a figure is never made up from
# another run. Per kind, each release beside the first: the ratio of the
# medians, the range of ratios the spreads allow, and "within the spread"
# when the ranges overlap (no significance is claimed beyond that). The
# host's speed (host_speed) is the one the repetitions' benches and DoT
# runs timed first and last (scripts/lib/host-speed.jq).

include "spread";
include "host-speed";
# The experiments' summaries are read through their producers' accessors,
# which check the schema (found from this folder: jq 1.6 would look in the
# current directory first).
import "udpreplay/udp/rules" as udp {search: "../.."};
import "tcpbench/sweep/rules" as tcp {search: "../.."};
import "analysis/sizes/rules" as sizes {search: "../.."};
import "tcpbench/dot/rules" as dot {search: "../.."};

def ok($s): $s != null and $s.status == "ok";
# figure(f): f of every repetition whose experiment is ok, as a spread.
def figure(exp; f): [.[] | select(ok(exp)) | f] | repeat_spread;
def statuses(exp): [.[] | (exp.status // "missing")];

# dot_sweep_row($k): one sweep of the DoT step ($k: full, resume, doq or
# doq_resume; configuration 1p1s)
# over the repetitions: the knee, or where the rig ended the sweep first
# the most the server handled (a bound, not its capacity), and the verdicts.
# Each part of a DoT run counts on its own status (a sweep that ended ok
# counts though the bytes part after it failed).
def dot_part_ok($k):
  .dot != null and (if $k == "bytes" then dot::dot_bytes_status(.dot) else dot::dot_sweep_status(.dot; $k) end) == "ok";
def dot_sweep_row($k):
  def sw: dot::dot_sweep(.dot; $k; "1p1s");
  {status: [.[] | if .dot == null then "missing" else (dot::dot_sweep_status(.dot; $k) // "missing") end],
   knee_0_1pct: ([.[] | select(dot_part_ok($k)) | sw.knee_0_1pct // null] | repeat_spread),
   bound: ([.[] | select(dot_part_ok($k)) | sw | if . == null or .knee_0_1pct != null then null else .max_handled // null end] | repeat_spread),
   server_capacity: [.[] | select(dot_part_ok($k)) | (sw.server_capacity // false)],
   verdicts: [.[] | select(dot_part_ok($k)) | (sw.verdict // null)]};

def server_row($kind; $release):
  . as $reps | ([$reps[] | .testbed | select(. != null)][0] // {}) as $tb
  | {server: $kind, release_name: $release,
     # the release each repetition was asked to run, and where it is
     asked: ([$reps[].asked | select(. != null)] | unique),
     dirs: [$reps[] | .dir],
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
           # answers/s per CPU of the server (udpreplay/udp/rules.py per_cpu; null
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
     # DoT (tcpbench/dot/run): null when no repetition has the step;
     # available false, with the reason, where this release serves none
     dot: (if all(.[]; .dot == null) then null else
       # not available: every repetition that has the step skipped it
       (all(.[]; .dot == null or .dot.status == "skipped")) as $na
       | {statuses: statuses(.dot), available: ($na | not),
          reason: (if $na then [.[] | .dot | select(. != null) | .error][0] else null end),
          full: dot_sweep_row("full"), resume: dot_sweep_row("resume"),
          # DoQ (Knot 3.4, the same step's doq sweeps): null where no
          # repetition ran them, with the reason the step gave
          doq: (if all(.[]; .dot == null or dot::dot_sweep_status(.dot; "doq") == null) then null
                else {full: dot_sweep_row("doq"), resume: dot_sweep_row("doq_resume")} end),
          doq_skipped: ([.[] | .dot | select(. != null and .status != "skipped") | dot::dot_doq_skipped(.)] | map(select(. != null)) | .[0]),
          bytes_per_query: ({udp: "udp", tcp_1: "tcp-1", tls_full_1: "tls-full-1", tls_resume_1: "tls-resume-1",
                             tls_full_n: "tls-full-N", tls_resume_n: "tls-resume-N", quic_full_1: "quic-full-1",
                             quic_resume_1: "quic-resume-1", quic_reuse: "quic-reuse"}
                            | map_values(. as $c | [$reps[] | select(dot_part_ok("bytes")) | dot::dot_bytes_per_query(.dot; $c)] | repeat_spread))} end),
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

# The figures a change between releases is given for: where in a row,
# what it is, and (for a sweep the rig may end first) where its bound is.
def change_figures:
  [{figure: "udp_ceiling", label: "UDP ceiling unshaped", unit: "answers/s", path: ["udp","ceiling_qps"]},
   {figure: "tcp_knee", label: "TCP knee 1p1s, tcpbench", unit: "connections/s", path: ["tcp","knee_0_1pct"]},
   {figure: "tcp_direct_knee", label: "TCP knee 1p1s, kxdpgun", unit: "connections/s", path: ["tcp_direct","knee_0_1pct"],
    bound: ["tcp_direct","bound"]},
   {figure: "bytes_unsigned", label: "bytes per query out, unsigned", unit: "bytes", path: ["sizes","bytes_per_query_out_unsigned"]},
   {figure: "bytes_signed", label: "bytes per query out, signed", unit: "bytes", path: ["sizes","bytes_per_query_out_signed"]},
   {figure: "dot_full", label: "DoT handshakes/s, full", unit: "handshakes/s", path: ["dot","full","knee_0_1pct"], bound: ["dot","full","bound"], step: "dot"},
   {figure: "dot_resume", label: "DoT handshakes/s, resumed", unit: "handshakes/s", path: ["dot","resume","knee_0_1pct"],
    bound: ["dot","resume","bound"], step: "dot"},
   {figure: "dot_bytes_full_1", label: "DoT bytes per query, full handshake, one query a connection", unit: "bytes",
    path: ["dot","bytes_per_query","tls_full_1"], step: "dot"}];

# change($base; $row; $f): figure $f of $row beside $base's: the ratio of
# the medians, the lowest and highest ratios the two ranges allow, and in
# words: "within the spread" when the ranges overlap, "above the spread" or
# "below the spread" when they do not, "one repetition: no spread" when a
# side has a single value, "a bound (the rig limited): no ratio" when a
# side has only a bound, "not available in R: why" when a release cannot
# run the step, "no figure in R: see its verdict" when its experiment ran
# ok without one (no knee and no bound), "not measured in R" otherwise.
def change($base; $row; $f):
  ($base | getpath($f.path)) as $x | ($row | getpath($f.path)) as $y
  | def bound($r): if $f.bound then ($r | getpath($f.bound).n // 0) > 0 else false end;
  def avail($r): if $f.step then ($r | getpath([$f.step, "available"])) != false else true end;
  {figure: $f.figure, label: $f.label, unit: $f.unit, base: $base.release_name, release: $row.release_name, path: $f.path}
  + if (avail($base) | not) or (avail($row) | not) then
      ([$base, $row][] | select(avail(.) | not)) as $na
      | {ratio: null, words: "not available in \($na.release_name): \($na | getpath([$f.step, "reason"]))"}
    elif ($x.n // 0) == 0 or ($y.n // 0) == 0 then
      (if ($x.n // 0) == 0 then $base else $row end) as $none
      | {ratio: null, words: (if bound($base) or bound($row) then "a bound (the rig limited): no ratio"
                              elif ($none | getpath([$f.path[0], "statuses"]) // [] | any(. == "ok")) then
                                "no figure in \($none.release_name): see its verdict"
                              else "not measured in \($none.release_name)" end)}
    else
      {ratio: ($y.median / $x.median), ratio_low: ($y.min / $x.max), ratio_high: ($y.max / $x.min),
       words: (if $x.n < 2 or $y.n < 2 then "one repetition: no spread"
               elif $y.min <= $x.max and $x.min <= $y.max then "within the spread"
               elif $y.min > $x.max then "above the spread" else "below the spread" end)}
    end;

def rec_release: .testbed.server.release.name // null;

def compare:
  . as $in
  | {schema: "rootbench.compare/2", experiment: "compare-servers", releases: $in.releases,
     servers: [$in.kinds[] as $k | [$in.reps[] | select(.kind == $k)] as $kr
               | ($kr | map(rec_release) | unique) as $rels
               | ([$in.releases[] | select(. as $r | $rels | index($r) != null)] + ($rels - $in.releases))[] as $r
               | [$kr[] | select(rec_release == $r)] | sort_by(.rep) | server_row($k; $r)]}
  | .changes = [.servers | map(select(.release_name != null)) | group_by(.server)[] | select(length > 1)
                | .[0] as $base | .[1:][] as $row
                | {server: $row.server, base: $base.release_name, release: $row.release_name,
                   figures: [change_figures[] | change($base; $row; .)]}]
  | .changes |= (. as $c | [$in.kinds[] as $k | $c[] | select(.server == $k)])
  | .status = (if all(.servers[]; all((.udp.statuses + .tcp.statuses + .sizes.statuses
    + (.tcp_direct.statuses // []) + (.dot.statuses // []))[]; . == "ok" or . == "skipped")) then "ok" else "partial" end)
  | .host_speed = ([$in.reps[] | .bench, .dot] | host_speed_span);

# releases_table: per kind, release and figure, the median and range, and
# the change from the base release.
def releases_table:
  "# server,figure,release,median,min,max,n,base,ratio,ratio_low,ratio_high,words",
  (.changes[] as $c | $c.figures[]
   | [$c.server, .figure, $c.release, null, null, null, null, $c.base, .ratio, .ratio_low, .ratio_high, (.words | gsub(","; ";"))]
   | map(if . == null then "" else tostring end) | join(",")),
  (.servers[] as $r | change_figures[] | . as $f | ($r | getpath($f.path)) as $v | select($v != null)
   | [$r.server, $f.figure, $r.release_name, $v.median, $v.min, $v.max, $v.n, null, null, null, null, null]
   | map(if . == null then "" else tostring end) | join(","));

# sections_table: per server, zone and section, bytes and records by kind
# per response.
def sections_table:
  "# server,release,variant,section,bytes_per_response,NS,A/AAAA,RRSIG,DNSKEY,NSEC/NSEC3,DS,SOA,OPT,other",
  (.servers[] | .server as $k | .release_name as $rel | (.sizes.sections // {}) | to_entries[] | .key as $v | (.value // {}) | to_entries[]
   | [$k, $rel, $v, .key, .value.bytes_per_response] + [.value.records_per_response | .["NS","A/AAAA","RRSIG","DNSKEY","NSEC/NSEC3","DS","SOA","OPT","other"]]
   | map(if . == null then "" else tostring end) | join(","));

# compare_table: the '#'-headed table (medians, min and max over the
# repetitions) gnuplot and the report read.
def compare_table:
  "# server,release,version,repetitions,udp_ceiling_median,udp_ceiling_min,udp_ceiling_max,tcp_knee_median,tcp_knee_min,"
    + "tcp_knee_max,bytes_out_unsigned_median,bytes_out_signed_median,bytes_out_signed_min,bytes_out_signed_max,"
    + "udp_ceiling_low_min,udp_ceiling_high_max,cpu_budget,udp_qps_per_cpu_median,tcp_conn_per_cpu_median,"
    + "dot_full_knee_median,dot_full_bound_median,dot_resume_knee_median,dot_resume_bound_median,dot_bytes_full_1_median",
  (.servers[] | [.server, .release_name, .version, .repetitions,
                 .udp.ceiling_qps.median, .udp.ceiling_qps.min, .udp.ceiling_qps.max,
                 .tcp.knee_0_1pct.median, .tcp.knee_0_1pct.min, .tcp.knee_0_1pct.max,
                 .sizes.bytes_per_query_out_unsigned.median, .sizes.bytes_per_query_out_signed.median,
                 .sizes.bytes_per_query_out_signed.min, .sizes.bytes_per_query_out_signed.max,
                 .udp.ceiling_low_qps.min, .udp.ceiling_high_qps.max,
                 .cpu_budget, .udp.qps_per_cpu.median, .tcp.conn_per_cpu.median,
                 .dot.full.knee_0_1pct.median, .dot.full.bound.median, .dot.resume.knee_0_1pct.median, .dot.resume.bound.median,
                 .dot.bytes_per_query.tls_full_1.median]
                | map(if . == null then "" else tostring end) | join(","));

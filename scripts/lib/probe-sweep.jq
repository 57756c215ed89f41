# probe-sweep.jq: a sweep's "probe" block (schema rootbench.probe-sweep/1)
# from the RSSAC047 probe's own results (tcpbench/rbprobe's JSON, schema
# rootbench.probe/1), one per point and one on the idle testbed; the
# judgement of the block (RSSAC047's thresholds, the queueing knee) is
# probe.jq's, stored in the block. Pure: the sweeps give it the files
# they kept.

include "probe-stats" {search: "./"};
import "probe" as rules {search: "./"};

# probe_protocol: one protocol's figures (rbprobe's "udp" or "tcp"
# object, probe-stats.jq); null when that protocol was off (rate 0).
def probe_protocol:
  if . == null or ((.rate // 0) == 0 and (.sent // 0) == 0) then null else probe_stats_protocol end;

# probe_sent_total: the queries the probe says it sent (both protocols).
def probe_sent_total: ((.udp.sent // 0) + (.tcp.sent // 0));

# probe_router_count($before; $after): the probe's queries and connections
# the router forwarded between two `scripts/testbed counters` objects
# (its probe_udp_queries and probe_tcp_syns counters), to add to the
# probe's result as counted_at_router; null where the router has no such
# counters (a lab).
def probe_router_count($before; $after):
  def d($k): ($after.router[$k].packets // null) as $b | ($before.router[$k].packets // null) as $a
    | if $a == null or $b == null then null else $b - $a end;
  if d("probe_udp_queries") == null then null
  else {udp_queries: d("probe_udp_queries"), tcp_syns: d("probe_tcp_syns")} end;

# probe_servers_count($before; $after): the probe's queries and connections
# the two servers received between two `scripts/testbed counters` objects
# (their probe_udp_in and probe_tcp_syns counters, summed), where the
# router has no counters of its own (a lab's router is a device); null
# where the servers have none.
def probe_servers_count($before; $after):
  def d($s; $k): ($after[$s][$k].packets // null) as $b | ($before[$s][$k].packets // null) as $a
    | if $a == null or $b == null then null else $b - $a end;
  if d("server1"; "probe_udp_in") == null or d("server2"; "probe_udp_in") == null then null
  else {udp_queries: (d("server1"; "probe_udp_in") + d("server2"; "probe_udp_in")),
        tcp_syns: ((d("server1"; "probe_tcp_syns") // 0) + (d("server2"; "probe_tcp_syns") // 0))} end;

# probe_counted($before; $after): what to add to the probe's result: its
# queries as the router counted them, else as the servers did.
def probe_counted($before; $after):
  probe_router_count($before; $after) as $r
  | if $r != null then {counted_at_router: $r}
    else probe_servers_count($before; $after) as $s | if $s != null then {counted_at_servers: $s} else {} end end;

# probe_counted_where: who counted the probe's queries: the router, the
# servers, or the probe itself (its own count: nothing else did).
def probe_counted_where:
  if .counted_at_router != null then "router" elif .counted_at_servers != null then "servers" else "probe" end;

# probe_queries: the probe's queries, as the router counted them where it
# did (the work where it happens), else as the servers did (a lab), else
# as the probe says.
def probe_queries:
  (.counted_at_router // .counted_at_servers) as $c
  | if $c != null then ($c.udp_queries // 0) + ($c.tcp_syns // 0)
  else probe_sent_total end;

# probe_point($offered; $rep; $load; $proto): one point of the block from
# the probe's result of that point (null: not probed, e.g. a point kept
# from an interrupted run); $load: the load's queries (or connections) in
# the point, counted where the sweep counts them; $proto: the load's
# protocol ("udp" or "tcp").
# share: the probe's rate in the load's protocol beside the load's offered
# rate (its queries are sent at absolute times, so its rate is its rate
# over the load's seconds too; the probe runs a little longer than the
# load, so a share of the counts would overstate it); share_all: both of
# the probe's protocols beside the load. Its queries as counted (at the
# router where it counts them) are kept beside: probe_queries.
def probe_point($offered; $rep; $load; $proto):
  def frac($a; $b): if ($a + $b) > 0 then ($a / ($a + $b) * 1e6 | round / 1e6) else null end;
  probe_raw_checked
  | if . == null then {offered: $offered, rep: $rep, load_queries: $load, probe_queries: null, share: null, udp: null, tcp: null}
    else {offered: $offered, rep: $rep, load_queries: $load, probe_queries: probe_queries, probe_sent: probe_sent_total,
          probe_counted_by: probe_counted_where,
          share: frac(.[$proto].rate // 0; $offered), share_all: frac((.udp.rate // 0) + (.tcp.rate // 0); $offered),
          udp: (.udp | probe_protocol), tcp: (.tcp | probe_protocol)}
    end;

# probe_sweep($idle; $points; $ceiling): the block, judged. $idle: the probe's
# result on the idle testbed (or null); $points: probe_point objects;
# $ceiling: the sweep's ceiling (or knee), for the figure, or null.
def probe_sweep($idle; $points; $ceiling):
  ($idle | probe_raw_checked) as $i
  | {schema: rules::probe_schema,
     settings: ($i // {} | {udp_rate: (.udp.rate // null), tcp_rate: (.tcp.rate // null), timeout_ms: (.timeout_ms // null),
                            qname: (.qname // null), serial: (.expected_serial // null), role: "probe"}),
     idle: (if $i == null then null else {udp: ($i.udp | probe_protocol), tcp: ($i.tcp | probe_protocol)} end),
     points: ($points | sort_by(.offered, .rep)),
     ceiling: $ceiling}
  | rules::probe_judged(.);

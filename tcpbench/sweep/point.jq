# point.jq -- one TCP point from the records of its runs (repetitions),
# in the form rules.jq judges: counts, merged latency histograms, the work
# lost at each layer, the server's CPU, and the stalls seen, each with who
# caused it. tcpbench/sweep/run writes a run record per repetition:
#   {config, offered_rate, rep, servers: [ROLE], per_server_rate,
#    cpus: {server: ["cpu1"], client: ["cpu0"]}, wall_s,
#    players: [{player, server, rate, rc, stderr, result: <tcpbench JSON>}],
#    daemon: {before: {ROLE: {...}}, after: {...}}  (scripts/testbed server-stats),
#    sample: <rbsample summary>, series: [<rbsample series lines>],
#    charge: <scripts/sampler/cpu-charge classify, + measured>,
#    servers_down: [ROLE]  (server daemons not running after the run: killed
#                           or crashed; the run is an error, not a measurement)}
include "hist";
include "layers";
include "budget";
include "arrivals";
include "probe-sweep";

def hist_summary: {count, mean, p50: hist_quantile(0.5), p90: hist_quantile(0.9), p99: hist_quantile(0.99),
                   p999: hist_quantile(0.999), max};

def sum(f): [.[] | f | nz] | add // 0;

# the delta of a kernel counter summed over some roles of one run's sample
def run_mib($roles; $k): .sample | mib($roles; $k);

# tw_falls($players): per sample, the largest fall of a player's TIME-WAIT
# count since the previous sample (the series holds the counts).
def tw_falls($players):
  [.series // [] | . as $s | range(1; length) as $i
   | {t: $s[$i].t, fall: ([$players[] as $p | (($s[$i - 1].tw[$p] | nz) - ($s[$i].tw[$p] | nz))] | max // 0)}];

def daemon_delta($k): . as $r
  | [$r.servers[] as $s | (($r.daemon.after[$s][$k] | nz) - ($r.daemon.before[$s][$k] | nz))] | add // 0;

def players_of: [.players[].player] | unique;

# run_loss: the work lost at each layer in one run (counts of connections
# or packets, as each layer counts them; scripts/lib/layers.jq): the
# sampler's layers, the generator's local failures, and the daemon's
# (passive opens not answered, and connections refused).
def run_loss:
  . as $r | players_of as $pl
  | ([$r.players[] | .result.succeeded | nz] | add // 0) as $ok
  | ($r | run_mib($r.servers; "TcpPassiveOpens")) as $opens
  | ($r.sample | sample_loss({players: $pl, servers: $r.servers, cpus: $r.cpus}))
    + {generator: ([$r.players[] | .result // {} | .failed // {} | ((.local | nz) + (.unreachable | nz))] | add // 0),
       # (the probe's connections, which the servers also open, are not the load's:
       # all of them are taken out, though the balancer may have sent some to
       # a server the configuration does not load)
       daemon: (([$opens - $ok - ($r.probe.tcp.sent // 0), 0] | max) + ([$r.players[] | .result.failed.refused | nz] | add // 0))};

# overflow_samples: the samples of one run in which a server's accept
# queue overflowed, with how busy the server CPUs were in them (from idle
# time): a daemon that stopped accepting leaves its CPU idle, one starved of
# CPU does not.
def overflow_samples:
  . as $r
  | [$r.series // [] | .[]
     | ([$r.servers[] as $x | .ns[$x].TcpExtListenOverflows | nz] | add // 0) as $o
     | select($o > 0)
     | {t, overflows: $o,
        server_cpu_busy_pct: ([$r.cpus.server[] as $c | .cpu[$c] // {} | select(.wall_ms > 0) | .busy_ms * 100 / .wall_ms] | max // null)}];

# load_sums: one run's CPU over the samples of its load (load_window_s:
# from the first whole sample after the players started to the end of the
# schedule), as sums to be added over repetitions: the wall, the busy time
# of the server and client CPUs (from idle time, 10 ms ticks: summed over
# the samples, never a single sample's figure), and the daemons' cgroup
# time. Empty for a run without a load window.
def load_sums:
  . as $r
  | select($r.load_window_s != null)
  | [$r.series // [] | .[] | select(.t >= $r.load_window_s.from + 0.1 - 0.001 and .t <= $r.load_window_s.to + 0.001)] as $ls
  | select(($ls | length) > 0)
  | def cpu_sum($cpus; $f): [$ls[] | . as $x | $cpus[] as $c | $x.cpu[$c][$f] // 0] | add // 0;
    {samples: ($ls | length),
     server_wall_ms: cpu_sum($r.cpus.server; "wall_ms"), server_busy_ms: cpu_sum($r.cpus.server; "busy_ms"),
     client_wall_ms: cpu_sum($r.cpus.client; "wall_ms"), client_busy_ms: cpu_sum($r.cpus.client; "busy_ms"),
     daemon_ms: ([$ls[] | . as $x | $r.servers[] as $v | $x.cgroup[$v] | nz] | add // 0),
     wall_ms: ([$ls[] | [.cpu[] | .wall_ms // 0] | max] | add // 0)};

# load_figures: the load's CPU figures from load_sums added over runs:
# percent busy of the server and client CPUs, the daemons' percent of
# one CPU; null when no run had load samples.
def load_figures:
  if length == 0 then null else
    {samples: (map(.samples) | add),
     server_cpu_busy_pct: ((map(.server_busy_ms) | add) as $b | (map(.server_wall_ms) | add) as $w
                           | if $w > 0 then ($b * 100 / $w * 10 | round / 10) else null end),
     client_cpu_busy_pct: ((map(.client_busy_ms) | add) as $b | (map(.client_wall_ms) | add) as $w
                           | if $w > 0 then ($b * 100 / $w * 10 | round / 10) else null end),
     daemon_cpu_pct: ((map(.daemon_ms) | add) as $d | (map(.wall_ms) | add) as $w
                      | if $w > 0 then ($d * 100 / $w * 10 | round / 10) else null end)} end;

# run_stalls: the stalls of one run, each with the role of its CPU and its
# source: tw_expiry when a player's TIME-WAIT count fell by 1000 or more in
# the same or the next sample (the expiry runs in the timer softirq);
# outside_testbed when a process stall coincides with CPU time used
# outside the testbed's cgroups (another process on the machine, or kernel
# threads such as ksoftirqd, which the cgroups cannot tell apart); server
# when a process stall on a server CPU coincides with the server's own CPU
# time; else unknown.
def run_stalls:
  . as $r | players_of as $pl | ($r | tw_falls($pl)) as $falls
  | [$r.sample.stalls // [] | .[]
     | . as $s
     | (if ($r.cpus.server | index($s.cpu)) != null then "server"
        elif ($r.cpus.client | index($s.cpu)) != null then "client" else "other" end) as $role
     | ([$r.series // [] | .[] | select(.t >= $s.start - 0.15 and .t <= $s.start + ($s.length_ms / 1000) + 0.25)]) as $near
     | ([$falls[] | select(.t >= $s.start - 0.15 and .t <= $s.start + ($s.length_ms / 1000) + 0.25) | .fall] | max // 0) as $twfall
     | ([$near[] | .cgroup.outside | nz] | max // 0) as $outside_ms
     | ([$near[] | [$r.servers[] as $x | .cgroup[$x] | nz] | add // 0] | max // 0) as $server_ms
     | {cpu: $s.cpu, role: $role, start: $s.start, length_ms: $s.length_ms, kind: $s.kind,
        tw_fall: $twfall, outside_ms: $outside_ms,
        source: (if ($s.kind != "process") and $twfall >= 1000 then "tw_expiry"
                 elif $s.kind == "process" and $outside_ms >= 0.5 * $s.length_ms then "outside_testbed"
                 elif $s.kind == "process" and $role == "server" and $server_ms >= 0.5 * $s.length_ms then "server"
                 else "unknown" end)}];

# run_status: ok, generator_limited (a player's self-check failed),
# interrupted (the sweep was stopped during the run, or a player was), or
# error (a player produced no result, or a server daemon was not running
# after the run: what failed then is the server process, not its capacity).
def run_status:
  if ((.servers_down // []) | length) > 0 then "error"
  elif any(.players[]; .rc == 1 or .result == null) then "error"
  elif .interrupted == true or any(.players[]; .rc == 4 or .result.interrupted == true) then "interrupted"
  elif any(.players[]; .rc == 3 or .result.valid == false) then "generator_limited"
  else "ok" end;

# point($settings): the point of an array of run records (one rate).
def point($settings):
  . as $runs
  | [$runs[] | run_status] as $st
  | (if any($st[]; . == "error") then "error" elif any($st[]; . == "generator_limited") then "generator_limited"
     elif any($st[]; . == "interrupted") then "interrupted" else "ok" end) as $status
  | [$runs[] | .players[] | .result | select(. != null)] as $res
  | ($res | sum(.attempted)) as $att | ($res | sum(.succeeded)) as $ok | ($res | sum(.failed.total)) as $fail
  | ([$runs[] | .wall_s | nz] | add) as $wall
  | ($runs[0].servers | length) as $ns
  | ([$runs[] | run_loss] | add_loss) as $loss
  | ($runs | sum(run_mib(.servers; "TcpPassiveOpens"))) as $opens
  | ([$runs[] | .sample.cpu // {} | to_entries[] | select(.key as $k | $runs[0].cpus.server | index($k)) | .value.busy_pct]
     | if length > 0 then add / length else null end) as $sbusy
  | ([$runs[] | .sample.cpu // {} | to_entries[] | select(.key as $k | $runs[0].cpus.client | index($k)) | .value.busy_pct]
     | if length > 0 then add / length else null end) as $cbusy
  | ([$runs[] | .cpus.server as $c | ($c | length) as $n | .sample.cpu // {} | [to_entries[] | select(.key as $k | $c | index($k)) | .value.busy_ms // empty]
    | add // empty] | add) as $sbusy_ms
  | ([$runs[] | . as $r | [$r.servers[] as $x | $r.sample.cgroup[$x] | nz] | add // 0] | add) as $daemon_ms
  | ([$runs[] | . as $r | [players_of[] as $x | $r.sample.cgroup[$x] | nz] | add // 0] | add) as $player_ms
  | ([$runs[] | run_stalls[]]) as $stalls
  | {offered_rate: $runs[0].offered_rate, config: $runs[0].config, status: $status, reps: ($runs | length),
     servers: $ns, per_server_rate: ($runs[0].per_server_rate),
     attempted: $att, succeeded: $ok, failed: $fail,
     fail_ratio: (if $att > 0 then ($fail / $att * 1e6 | round / 1e6) else 0 end),
     handled_rate: (if ($settings.point_seconds // 0) > 0 then ($ok / ($settings.point_seconds * ($runs | length)) * 10 | round / 10) else null end),
     causes: ([$res[] | .failed | del(.total) | to_entries[]] | group_by(.key) | map({(.[0].key): (map(.value) | add)}) | add // {}),
     # (kxdpgun measures no latency: null)
     latency_us: ([$res[] | .latency_us // empty] | if length > 0 then (hist_merge | hist_summary) else null end),
     answered_latency_us: ([$res[] | .answered_latency_us // empty] | if length > 0 then (hist_merge | hist_summary) else null end),
     generator: {name: ([$res[] | .generator // "tcpbench"] | unique | join(", ") | if . == "" then null else . end),
                 valid: ($status == "ok"),
                 # kxdpgun's: what the router and the daemons counted (kxdpgun-result.jq)
                 counted: ([$runs[] | .players[0].result.counted // empty]
                           | if length > 0 then {syns_at_router: (map(.syns_at_router) | add), answers_by_daemons: (map(.answers_by_daemons) | add),
                                                syns_asked: (map(.syns_asked) | add)} else null end),
                 invalid_reasons: ([$res[] | .invalid_reasons // [] | .[]] | unique),
                 max_burst: ([$res[] | .max_burst | nz] | max // 0),
                 max_lateness_us: ([$res[] | .max_lateness_us | nz] | max // 0),
                 max_in_flight: ([$res[] | .max_in_flight | nz] | max // 0),
                 cpu_pct: (if $wall > 0 then ($player_ms / 10 / $wall * 10 | round / 10) else null end)},
     loss: $loss,
     server: {passive_opens: $opens,
              cpu_busy_pct: (if $sbusy != null then ($sbusy * 10 | round / 10) else null end),
              daemon_cpu_pct: (if $wall > 0 then ($daemon_ms / 10 / $wall * 10 | round / 10) else null end),
              cpu_us_per_conn: (if $opens > 0 and $sbusy_ms != null then ($sbusy_ms * 1000 / $opens * 10 | round / 10) else null end),
              accept_queue_peak: ([$runs[] | . as $r | $r.servers[] as $x | $r.sample.listen_peak[$x] // {} | .[] | .max_queue | nz] | max // 0),
              backlog: ([$runs[] | . as $r | $r.servers[] as $x | $r.sample.listen_peak[$x] // {} | .[] | .limit | nz] | max // null),
              daemon_tcp: ($runs | sum(daemon_delta("tcp"))),
              # DoT connections where the daemon counts them apart (NSD's num.tls)
              daemon_tls: ($runs | sum(daemon_delta("tls")))},
     # the servers' CPU budget holding them back (null: no budget)
     throttle: ([$runs[] | .throttle] | throttle_add),
     # the client CPU (generator, router, switch, and with STEER=none the
     # servers' receive path): what the rig had left
     client: {cpu_busy_pct: (if $cbusy != null then ($cbusy * 10 | round / 10) else null end)},
     # the same CPUs over the load's samples only (the run's figures above
     # include the time before the players start and the timeouts' tail)
     load: ([$runs[] | load_sums] | load_figures),
     # DNS over TLS (tcpbench --tls): handshakes completed, resumed, per second
     tls: (if any($res[]; .tls != null) then
             {handshakes: ($res | sum(.tls.handshakes)), resumed: ($res | sum(.tls.resumed)),
              handshake_timeouts: ($res | sum(.tls.handshake_timeouts)),
              handshake_rate: (if ($settings.point_seconds // 0) > 0 then (($res | sum(.tls.handshakes)) / ($settings.point_seconds * ($runs | length)) * 10
                | round / 10) else null end),
              handshake_us: ([$res[] | .tls.handshake_us // empty] | if length > 0 then (hist_merge | hist_summary) else null end)}
           else null end),
     # the rig's forwarding's share of the server CPU's busy time (perf,
     # scripts/lib/charge.sh), the median over the repetitions; null when
     # not measured
     rig_share: ([$runs[] | .charge.rig_share // empty | numbers] | if length > 0 then sort | .[length / 2 | floor] else null end),
     tw_expiry: {largest_fall: ([$runs[] | .sample.tw // {} | .[] | .largest_drop_in_one_sample | nz] | max // 0)},
     stalls: $stalls,
     # what reached the servers per millisecond, the repetitions as one
     # (scripts/lib/arrivals.jq; null on a lab)
     arrivals: ([$runs[] | .arrivals // null] | arrivals_merge),
     overflow_samples: ([$runs[] | overflow_samples[]] | length),
     overflow_server_cpu_busy_median: ([$runs[] | overflow_samples[] | .server_cpu_busy_pct // empty] | sort
                                       | if length > 0 then .[length / 2 | floor] | round else null end),
     reruns: ([$runs[] | .reruns // [] | .[]]),
     # the RSSAC047 probe during each repetition (scripts/lib/probe-sweep.jq);
     # the load: the connections the players attempted
     probe_points: [$runs[] | .offered_rate as $o | .rep as $k | ([.players[] | .result.attempted | nz] | add // 0) as $l
                    | .probe | select(. != null) | probe_point($o; $k; $l; "tcp")]}
  # why an error point is one, in words
  + ([$runs[] | .rep as $rep
               | (.servers_down // [] | .[] | "the server daemon of \(.) was not running after repetition \($rep) (killed or crashed)"),
                (.players[] | select(.rc == 1 or .result == null)
                  | "\(.result.generator // $runs[0].generator // "tcpbench") on \(.player) failed (exit \(.rc)): \(.stderr)")]
     | unique | if length > 0 then {errors: .} else {} end);

# point_csv_header / point_csv_row: the flat table gnuplot and the report read.
def point_csv_columns: ["offered_rate","handled_rate","status","valid","reps","attempted","succeeded","failed","fail_ratio",
  "timeouts","refused","resets","other_failures","latency_p50_us","latency_p99_us","latency_max_us",
  "generator_max_burst","generator_max_lateness_us","generator_cpu_pct",
  "server_cpu_busy_pct","daemon_cpu_pct","server_cpu_us_per_conn","accept_queue_peak","backlog","passive_opens",
  "client_cpu_busy_pct",
  "longest_server_stall_ms","server_stall_source",
  "loss_generator","loss_player_kernel","loss_client_cpu_backlog","loss_switch","loss_router","loss_link",
  "loss_server_ring","loss_server_cpu_backlog","loss_accept_queue","loss_server_socket","loss_daemon","rig_share"];
def point_csv_row:
  . as $p
  | ([$p.stalls[] | select(.role == "server")] | sort_by(-.length_ms) | .[0]) as $st
  | [ $p.offered_rate, $p.handled_rate, $p.status, (if $p.status == "ok" then 1 else 0 end), $p.reps, $p.attempted,
      $p.succeeded, $p.failed, $p.fail_ratio,
      ($p.causes.timeout | nz), ($p.causes.refused | nz), ($p.causes.reset | nz),
      ([$p.causes | to_entries[] | select(.key != "timeout" and .key != "refused" and .key != "reset") | .value] | add // 0),
      $p.latency_us.p50, $p.latency_us.p99, $p.latency_us.max,
      $p.generator.max_burst, $p.generator.max_lateness_us, $p.generator.cpu_pct,
      $p.server.cpu_busy_pct, $p.server.daemon_cpu_pct, $p.server.cpu_us_per_conn, $p.server.accept_queue_peak,
      $p.server.backlog, $p.server.passive_opens, $p.client.cpu_busy_pct,
      ($st.length_ms // 0), ($st.source // "none"),
      ($p.loss | .generator, .player_kernel, .client_cpu_backlog, .switch, .router, .link,
                 .server_ring, .server_cpu_backlog, .accept_queue, .server_socket, .daemon | nz), $p.rig_share ]
  | map(if . == null then "" else tostring end) | join(",");

# rules.jq -- the TCP experiment's summary rules, in one place: which
# points are valid, where connections start to fail (the 0.1 % and 1 %
# crossings), where the handled rate collapses, which layer lost the first
# work at a knee and why (the verdict), and what Little's law predicts for
# the knee. tcpbench/sweep/run and the fixture tests (tests/*.test with
# testdata/*.json) both call these functions; nothing else restates them.
#
# A point (one offered rate, its repetitions merged; see point.jq):
#   {offered_rate, status: ok|generator_limited|error|interrupted|rig_stall,
#    attempted, succeeded, failed, fail_ratio, handled_rate,
#    loss: {LAYER: count, ...}, servers, per_server_rate,
#    server: {cpu_busy_pct, daemon_cpu_pct, cpu_us_per_conn, accept_queue_peak, backlog},
#    latency_us: {p50, p99, ...}, answered_latency_us: {p50, ...},
#    stalls: [{cpu, role, length_ms, kind, source}], generator: {...}}
#    client: {cpu_busy_pct}
# Settings: {collapse_fraction, backlog, tcp_count, servers, point_seconds,
#   cpu_budget (the servers' budget, a share of a CPU each; null: none),
#   server_cpus (how many CPUs the servers run on), steer (none|rps|rig|napi)}.

# found from this folder, so that another experiment can import these rules
# (jq 1.6 would look in the current directory first)
include "layers" {search: "../../scripts/lib"};
include "spread" {search: "../../scripts/lib"};
include "charge" {search: "../../scripts/lib"};
include "probe-sweep" {search: "../../scripts/lib"};
include "projection" {search: "../../scripts/lib"};
include "arrivals" {search: "../../scripts/lib"};

def round1: . * 10 | round / 10;
def round3: . * 1000 | round / 1000;

# server_shortfall: a generator-limited point whose generator fell short
# because the server failed: its only complaint is that it found no free
# connection slot (tcpbench's "pool exhausted": failing connections are
# held to their timeout, so a generator with a bounded number in flight
# falls behind its schedule), at least 0.1 % of the connections it did
# begin failed, and the first layer that lost them is the server's (its
# ring, backlog, accept queue or sockets): what it did send already found
# the server's knee (the knee is no higher than this point). A generator
# that started late (starved, its own CPU) or one without slots (kxdpgun)
# keeps its limit: the bursts it sends after a stall are its own.
# Such a point counts as valid; its verdict is the server's, with the
# shortfall named.
def server_shortfall:
  .status == "generator_limited" and (.fail_ratio // 0) >= 0.001
  and ((.generator.invalid_reasons // []) | length > 0 and all(.[]; startswith("pool exhausted")))
  and ((first_loss_layer(null) // {owner: null}).owner == "server");

def point_valid: .status == "ok" or server_shortfall;
def valid_points: [.[] | select(point_valid)] | sort_by(.offered_rate);

# crossing($th): the lowest valid point whose fail ratio is >= $th, with
# the highest valid rate below it; not_reached (and below which rate) when
# no valid point reaches it.
def crossing($th):
  valid_points as $v
  | ([$v[] | select(.fail_ratio >= $th)][0]) as $hi
  | if $hi == null then
      {rate: null, not_reached: true, below: (if ($v | length) > 0 then ($v | last | .offered_rate) else null end)}
    else
      ([$v[] | select(.offered_rate < $hi.offered_rate)] | last) as $lo
      | {rate: $hi.offered_rate, fail_ratio: $hi.fail_ratio, not_reached: false,
         last_rate_below: ($lo.offered_rate // null),
         resolution: (if $lo then $hi.offered_rate - $lo.offered_rate else null end),
         at_lowest_rate: ($lo == null),
         below_threshold_above: [$v[] | select(.offered_rate > $hi.offered_rate and .fail_ratio < $th) | .offered_rate]}
    end;

def max_handled:
  valid_points as $v
  | ([$v[] | .handled_rate] | max) as $m
  | if $m == null then null else ([$v[] | select(.handled_rate == $m)][0] | {handled_rate, offered_rate}) end;

# collapsed($best; $cf): this point's handled rate fell below $cf x $best,
# the best handled rate of the valid points at lower offered rates.
def collapsed($best; $cf): $best > 0 and .handled_rate < $cf * $best;

# collapse($cf): the first valid point above the maximum whose handled rate
# collapsed.
def collapse($cf):
  valid_points as $v | max_handled as $m
  | ([$v | to_entries[] | .key as $i | .value
      | select(.offered_rate > ($m.offered_rate // 0))
      | select(collapsed([$v[0:$i][] | .handled_rate] | max // 0; $cf))][0]) as $c
  | if $c then {offered_rate: $c.offered_rate, handled_rate: $c.handled_rate, not_reached: false,
                rule: "first valid point above the maximum whose handled rate < \($cf) x the best handled at lower rates"}
    else {offered_rate: null, not_reached: true} end;

# search_stops($rate; $cf): whether the coarse search ends at $rate, the
# valid point just measured: its handled rate collapsed, or the two highest
# rates measured so far are both valid and lost at least half their
# connections (further points would only overload the server more).
def search_stops($rate; $cf):
  ([valid_points[] | select(.offered_rate < $rate) | .handled_rate] | max // 0) as $best
  | ((map(select(.offered_rate == $rate))[0] // {handled_rate: null}) | collapsed($best; $cf))
    or (sort_by(.offered_rate) | .[-2:] | length == 2 and all(.[]; point_valid and .fail_ratio >= 0.5));

# stall_needed_ms: how long the server must stop accepting for the offered
# rate to fill its accept queue (backlog / rate per server).
def stall_needed_ms($backlog):
  if (.per_server_rate // 0) > 0 then ($backlog / .per_server_rate * 1000 | round1) else null end;

# daemon_cap_pct($settings): the most CPU the server daemons may use
# together, in percent of one CPU: their budget each (cpu_budget, a share
# of a CPU; none: a whole CPU each), at most the CPUs the servers run on.
def daemon_cap_pct($settings):
  ($settings.servers // 1) as $n
  | ([(($settings.cpu_budget // 1) * $n), ($settings.server_cpus // $n)] | min) * 100;

# accept_queue_cause($settings): why an accept queue overflowed at this
# point: the longest stall on a server CPU that could fill the backlog, and
# who caused it; else a daemon that cannot keep up (its CPU full); else a
# daemon that stopped accepting while its CPU had time to spare (the queue
# overflowed in samples where the server CPU was not busy); else
# undetermined.
def accept_queue_cause($settings):
  . as $p | stall_needed_ms($settings.backlog) as $need
  | ([$p.stalls // [] | .[] | select(.role == "server" and ($need == null or .length_ms >= 0.5 * $need))]
     | sort_by(-.length_ms) | .[0]) as $s
  | if $s then
      {mechanism: "stall",
       stall: $s, stall_needed_ms: $need,
       caused_by: (if ($s.source == "tw_expiry" or $s.source == "outside_testbed") then "rig"
                   elif $s.source == "server" then "server" else "unknown" end),
       because: ("a \($s.length_ms) ms stall on \($s.cpu) (\($s.kind)"
                 + (if $s.source == "tw_expiry" then ", the players' TIME-WAIT sockets expiring in the timer softirq on the server's CPU: the rig"
                    elif $s.source == "outside_testbed" then
                      ", CPU time outside the testbed's role cgroups (another process, or kernel threads such as ksoftirqd): the rig's machine"
                    elif $s.source == "server" then ", the server daemon itself"
                    else ", cause not identified" end)
                 + ") while \($need) ms of stall fill a backlog of \($settings.backlog) at \($p.per_server_rate)/s per server")}
    elif (($p.server.cpu_busy_pct // 0) >= 95 or ($p.load.server_cpu_busy_pct // 0) >= 95
          or ($p.load.daemon_cpu_pct // 0) >= 0.9 * daemon_cap_pct($settings)) then
      {mechanism: "cpu", caused_by: "server", stall_needed_ms: $need,
       because: ("no stall long enough, but while the load ran the server CPU was \($p.load.server_cpu_busy_pct // $p.server.cpu_busy_pct)% busy and the "
         + "daemons used \($p.load.daemon_cpu_pct // $p.server.daemon_cpu_pct)% of a CPU"
                 + (if $settings.cpu_budget != null then ", their budget being \(daemon_cap_pct($settings))%" else "" end)
                 + ": the daemon does not accept as fast as connections arrive")}
    elif ($p.arrivals.cause // "") == "burst" then
      {mechanism: "burst", caused_by: "generator", stall_needed_ms: $need, arrivals: $p.arrivals,
       because: ("\(arrivals_cause_words($p.arrivals)) (its packets; the accept queue holds \($settings.backlog) connections): "
         + "the generator's burst, not the server's capacity")}
    elif (($p.overflow_samples // 0) > 0 and $p.overflow_server_cpu_busy_median != null and $p.overflow_server_cpu_busy_median < 90) then
      {mechanism: "daemon_stall", caused_by: "server", stall_needed_ms: $need,
       because: ("a stall of the server daemon: the accept queue overflowed in \($p.overflow_samples) samples (100 ms) in which the server CPU was "
         + "\($p.overflow_server_cpu_busy_median)% busy (median) and no CPU stall long enough was seen: the daemon stopped accepting with CPU to spare "
         + "(stopped, blocked, or at its TCP client limit of \($settings.tcp_count))")}
    else
      {mechanism: "unknown", caused_by: "unknown", stall_needed_ms: $need,
       because: ("no stall of \($need // "?") ms or more on the server CPU was seen and its CPU was not full ("
         + "\($p.load.server_cpu_busy_pct // $p.server.cpu_busy_pct // "?")% busy while the load ran"
         + "\(if ($p.overflow_samples // 0) > 0 and $p.overflow_server_cpu_busy_median != null
           then "; \($p.overflow_server_cpu_busy_median)% in the \($p.overflow_samples) samples with drops: "
             + "bursts of work, the server's or the arrivals'" else "" end)): undetermined")}
    end;

# shortfall_words: for a server_shortfall point, why its generator's
# shortfall does not hide the server's knee.
def shortfall_words:
  if server_shortfall then
    "; the generator fell short of the rate asked (\((.generator.invalid_reasons // []) | join("; "))): its slots were held by the "
      + "connections the server failed, to their timeout, and the server lost connections at its own layer at the rate that did arrive, so "
      + "the knee is no higher than this point"
  else "" end;

# verdict_at($below; $settings): the verdict of a failing point.
def verdict_at($below; $settings):
  . as $p | first_loss_layer($below) as $l
  | if ($p.status // "ok") != "ok" and ($p | server_shortfall | not) then
      {layer: "generator", owner: "rig", caused_by: "rig",
       counter: (if $p.generator.name != "kxdpgun" then "tcpbench self-check"
                 elif $settings.transport == "quic" then "QUIC Initials counted at the router" else "SYNs counted at the router" end),
       # (a stall from outside the testbed leaves the generator's reasons empty)
       evidence: (if $p.status == "rig_stall" then "a stall from outside the testbed (the rig's machine) during the point"
                    + (($p.reruns // []) | if length > 0 then " (\(last))" else "" end)
                  else "the generator did not offer the load it was asked for "
                    + "(\(($p.generator.invalid_reasons // []) | if length > 0 then . else [$p.status] end | join("; ")))" end)}
    elif $l == null then
      {layer: "undetermined", owner: "unknown", caused_by: "unknown", counter: null,
       evidence: ("\($p.failed) connections failed (\($p.causes // {} | to_entries | map(select(.value > 0) | "\(.key) \(.value)") | join(", "))) and no "
         + "layer's counters rose: the work was lost where nothing counts it")}
    elif $l.name == "accept_queue" or $l.name == "server_cpu_backlog" then
      (accept_queue_cause($settings)) as $c
      | {layer: $l.name, owner: $l.owner, caused_by: $c.caused_by, mechanism: $c.mechanism,
         counter: (if $l.name == "accept_queue" then "TcpExtListenOverflows" else "softnet dropped" end),
         lost: $l.lost, per_1000: $l.per_1000, stall: ($c.stall // null), stall_needed_ms: $c.stall_needed_ms,
         evidence: ("\($l.what) lost \($l.lost) (\($l.per_1000) per 1000 connections, \($l.per_1000_below) below the knee) because of \($c.because)"
           + ($p | shortfall_words))}
    elif $l.owner == "server" then
      # a server's ring or socket overflowed: with its CPU busy at least 90 %
      # of what its daemons may use, its CPU ran out; below that, from what
      # reached it per millisecond, a burst of the arrivals (the
      # generator's), a stall of its CPU (the host's), or a queue that
      # overflowed with smooth arrivals or unmeasured ones (not its CPU's
      # capacity)
      ($p.load.server_cpu_busy_pct // $p.server.cpu_busy_pct) as $busy
      | ($p.arrivals.cause // "") as $why
      | (if $busy != null and $busy >= 0.9 * daemon_cap_pct($settings) then {mechanism: "cpu", caused_by: "server"}
         elif $why == "burst" then {mechanism: "burst", caused_by: "generator"}
         elif $why == "stall" then {mechanism: "stall", caused_by: "host"}
         elif $busy == null then {mechanism: "unknown", caused_by: "server"}
         else {mechanism: "queue", caused_by: "server"} end) as $m
      | {layer: $l.name, owner: $l.owner, caused_by: $m.caused_by, counter: $l.name,
         mechanism: $m.mechanism, arrivals: ($p.arrivals // null),
         server_cpu_busy_pct: $busy, lost: $l.lost, per_1000: $l.per_1000,
         evidence: ("\($l.what) lost \($l.lost) (\($l.per_1000) per 1000 connections, \($l.per_1000_below) below the knee) with the server CPU "
           + "\($busy // "?") % busy"
           + (if $m.mechanism == "burst" or $m.mechanism == "stall" or ($m.mechanism == "queue" and $p.arrivals != null)
              then ": " + arrivals_cause_words($p.arrivals) else "" end)
           + ($p | shortfall_words))}
    else
      {layer: $l.name, owner: $l.owner, caused_by: $l.owner, counter: $l.name,
       lost: $l.lost, per_1000: $l.per_1000,
       evidence: ("\($l.what) lost \($l.lost) (\($l.per_1000) per 1000 connections, \($l.per_1000_below) below the knee)" + ($p | shortfall_words))}
    end;

# verdict_words: the verdict's layer and mechanism in words.
def verdict_words:
  if .layer == "accept_queue" or .layer == "server_cpu_backlog" then
    (if .layer == "accept_queue" then "accept queue overflow" else "server CPU input backlog overflow" end)
    + (if .mechanism == "stall" then
         " during a " + (if .caused_by == "rig" then "rig" else "server" end) + " stall (\(.stall.length_ms) ms, \(.stall.kind), \(.stall.source))"
       elif .mechanism == "daemon_stall" then " during a server stall (the daemon stopped accepting)"
       elif .mechanism == "burst" then " in a generator burst: not the server's capacity"
       elif .mechanism == "cpu" then " with the server CPU full"
       else ", cause undetermined" end)
  elif .owner == "server" and .mechanism == "queue" then
    "\(.layer) overflow with the server CPU \(.server_cpu_busy_pct) % busy: not its CPU's capacity"
  elif .owner == "server" and .mechanism == "burst" then
    "\(.layer) overflow in a generator burst, with the server CPU \(.server_cpu_busy_pct) % busy: not the server's capacity"
  elif .owner == "server" and .mechanism == "stall" then
    "\(.layer) overflow in a stall of the server CPU, with it \(.server_cpu_busy_pct) % busy: not the server's capacity"
  elif .owner == "server" and .mechanism == "cpu" then "\(.layer) overflow with the server CPU full"
  else "\(.layer)" end;

# no_knee_bound: where no knee was reached, what the server was seen to
# do: the most connections/s it handled at a valid point, with its CPU's
# busy share over that point's load (from idle time): a lower bound on its
# capacity, never the capacity.
def no_knee_bound:
  valid_points | max_by(.handled_rate // 0)
  | if . == null then null
    else {handled_rate, offered_rate, server_cpu_busy_pct: (.load.server_cpu_busy_pct // .server.cpu_busy_pct)} end;
def bound_words:
  if . == null then "" else
    "; the most the server handled at a valid point was \(.handled_rate)/s (at \(.offered_rate)/s offered) with its CPU \(.server_cpu_busy_pct // "?") % "
      + "busy: its capacity is at least that (a bound, not the capacity)" end;

# knee_verdict($settings): the verdict at the 0.1 % crossing, or at the
# point that ended the sweep when the generator stopped it first.
def knee_verdict($settings):
  . as $pts | valid_points as $v | crossing(0.001) as $c
  | ([$pts[] | select((.status == "generator_limited" and (server_shortfall | not)) or .status == "rig_stall")] | sort_by(.offered_rate) | .[0]) as $g
  | ($pts | no_knee_bound) as $nb
  | if $c.rate == null then
      (if $g then
         ($g | verdict_at(null; $settings)) + {at_rate: $g.offered_rate, knee: false, bound: $nb,
           summary: ("no knee: \(if $g.status == "rig_stall" then "a stall from outside the testbed (the rig's machine)" else "the generator" end) limited the "
             + "sweep at \($g.offered_rate)/s before 0.1 % of connections failed\($nb | bound_words)")}
       else {layer: "none", caused_by: "none", knee: false, at_rate: null, bound: $nb,
             summary: "no knee: 0.1 % failures not reached up to \($c.below // "?")/s\($nb | bound_words)"} end)
    else
      ([$v[] | select(.offered_rate == $c.rate)][0]) as $k
      | ([$v[] | select(.offered_rate < $c.rate)] | last) as $b
      | ($k | verdict_at($b; $settings)) as $vd
      | $vd + {at_rate: $c.rate, knee: true,
               server_capacity: ($vd.caused_by == "server" and $vd.mechanism != "queue"),
               summary: (if $vd.caused_by == "server" then "knee at \($c.rate)/s: the server's: \($vd | verdict_words)"
                         elif $vd.caused_by == "rig" then "knee at \($c.rate)/s caused by the rig (\($vd | verdict_words)), not the server's capacity"
                         elif $vd.caused_by == "generator" or $vd.caused_by == "host" then
                           "knee at \($c.rate)/s caused by the \($vd.caused_by) (\($vd | verdict_words))"
                         elif $vd.caused_by == "link" then "knee at \($c.rate)/s: the configured link"
                         else "knee at \($c.rate)/s, cause undetermined: not presented as the server's capacity" end)}
    end;

# per_cpu($settings): the capacity per CPU of the server, when the
# server's CPU is what ran out: the handled rate over the server CPU's busy
# share while the load ran (point.jq: load; busy from idle time: the daemon
# and, with the receive path on the server CPU (STEER=rps or napi), its
# kernel work), the best of the valid points up to the knee whose daemons
# were at their CPU cap. A figure only when the knee is the server's (the
# CPU mechanism, or work lost in the daemon) with the daemons at 90 % of
# what they may use (their budget) there, the receive path on the server
# CPU, and the knee above the lowest rate measured; never from a point the
# rig limited (only valid points count). The generator's headroom there
# (the client CPU's idle share) and the utilisation-law cross-check go
# with it: service
# demand D = U / X (the server CPU's busy share over the handled rate) at
# valid points below the knee whose daemons were below 90 % of their cap;
# 1e6 / D us is the rate one CPU would carry.
def per_cpu($settings):
  knee_verdict($settings) as $vd | valid_points as $v | crossing(0.001) as $c
  | daemon_cap_pct($settings) as $cap
  | def saturated: (.load.daemon_cpu_pct // null) as $d | $d != null and $d >= 0.9 * $cap;
    ([$v[] | select(.offered_rate == $c.rate)][0]) as $kn
  # the figure's point: of the valid points up to the knee whose daemons
  # were at their cap, the one that carried the most per busy CPU (a knee
  # past which the handled rate collapses, as DoT's does, would understate it)
  | ([$v[] | select(.status == "ok") | select($c.rate != null and .offered_rate <= $c.rate) | select(saturated)
      | select((.load.server_cpu_busy_pct // 0) > 0 and (.handled_rate // 0) > 0)]
     | max_by(.handled_rate / .load.server_cpu_busy_pct)) as $k
  | ($kn != null and ($kn | saturated)) as $saturated
  # The utilisation law, U = U0 + X * D: the service demand D is the
  # slope of the server CPU's busy time (us per s) against the handled
  # rate over the unsaturated valid points below the knee; U0, the
  # intercept, is the CPU the server side spends whatever the load (the
  # sampler's probes, timers). U / X at one point counts U0 against few
  # connections and overstates D at a light load; it is the fallback when
  # fewer than two rates were measured.
  | ([$v[] | select($c.rate == null or .offered_rate < $c.rate)
      | select((.load.server_cpu_busy_pct | type) == "number" and (saturated | not) and (.handled_rate // 0) > 0)
      | {x: .handled_rate, y: (.load.server_cpu_busy_pct / 100 * 1e6)}]) as $u
  | ($u | utilisation_fit) as $fit
  | ($fit.demand_us | if . != null then round1 else null end) as $demand
  | (if $kn == null or ($vd.knee | not) then "none: no knee among the valid points"
     elif $c.at_lowest_rate then "none: the knee is at the lowest rate measured (\($c.rate)/s, \($kn.fail_ratio * 100 | round1) % failed), so how far beyond "
       + "it the point lies is unknown: start the sweep lower (TCP_START)"
     elif $vd.caused_by != "server" then "none: the knee is not the server's (\($vd.caused_by))"
     elif $kn.status != "ok" then "none: at the knee the generator fell short of the rate asked (the server's failures held its connections), "
       + "so no figure per CPU rests on it"
     elif ($saturated | not) then "none: the daemons used \($kn.load.daemon_cpu_pct // "?")% of a CPU at the knee, below 90 % of the \($cap)% they may use"
     elif ($vd.mechanism != "cpu" and $vd.layer != "daemon") then
       "none: the server lost the work for another reason than its CPU (\($vd.mechanism // $vd.layer))"
     elif (receive_on_server_cpu($settings.steer) | not) then
       "none: the servers' receive path ran on the client CPU (STEER=\($settings.steer // "none")), so the server CPU's busy share misses it"
     elif $k == null then "none: no busy share measured on the server CPU"
     else "handled connections/s over the server CPU's busy share while the load ran (the daemon and its kernel work, "
       + "STEER=\($settings.steer)), the best of the valid points up to the knee whose daemons were at their CPU cap" end) as $rule
  | ($rule | startswith("none") | not) as $ok
  | (if $ok then ($k.handled_rate / ($k.load.server_cpu_busy_pct / 100) | round) else null end) as $per
  | (if $ok then $k else $kn end) as $p
  | {budget: ($settings.cpu_budget // null), daemon_cap_pct: $cap, steer: ($settings.steer // null),
     knee_rate: ($kn.offered_rate // null),
     # the budget's longest pause (period - quota) against what fills the
     # backlog at that rate per server: far below it, the throttle itself
     # cannot overflow the accept queue
     longest_pause_bound_us: ($settings.cpu_pause_bound_us // null),
     backlog_fill_us: (if $p != null and ($p.per_server_rate // 0) > 0 then ($settings.backlog / $p.per_server_rate * 1e6 | round) else null end),
     throttle: ($p.throttle // null),
     at_rate: ($p.offered_rate // null), handled_rate: ($p.handled_rate // null), fail_ratio: ($p.fail_ratio // null),
     server_cpu_busy_pct: ($p.load.server_cpu_busy_pct // null), daemon_cpu_pct: ($p.load.daemon_cpu_pct // null),
     daemon_saturated: $saturated,
     client_cpu_busy_pct: ($p.load.client_cpu_busy_pct // null),
     generator_headroom_pct: (($p.load.client_cpu_busy_pct // null) | if . != null then (100 - . | round1) else null end),
     generator_headroom_ok: (($p.load.client_cpu_busy_pct // null) | if . != null then (100 - .) >= 30 else null end),
     conn_per_cpu: $per,
     demand_us: $demand, demand_method: $fit.method,
     fixed_busy_pct: ($fit.fixed_us_per_s | if . != null then (. / 1e4 | round1) else null end),
     demand_points: ($u | length),
     demand_per_cpu: (if $demand != null and $demand > 0 then (1e6 / $demand | round) else null end),
     demand_ratio: (if $per != null and $demand != null and $demand > 0 then ($per / (1e6 / $demand) | round3) else null end),
     rule: $rule};

# loss_table: per point, the work lost at each layer (for the report's
# "where was the work lost" figure and table).
def loss_table:
  sort_by(.offered_rate) | [.[] | {offered_rate, status, failed} + (.loss // {})];

# predict($settings): the knee Little's law predicts from what was
# measured below the knee: a stall longer than backlog / rate overflows
# the accept queue (so rate* = backlog / typical longest stall); a daemon
# that holds each connection T seconds needs rate x T <= tcp-count; a CPU
# needing c us per connection saturates at 1e6 / c per CPU. The lowest
# bound is the prediction, per server, times the servers.
def predict($settings):
  valid_points as $v | crossing(0.001) as $c
  | [$v[] | select($c.rate == null or .offered_rate < $c.rate)] as $below
  | ($settings.servers // 1) as $n
  | ([$below[] | .stalls // [] | .[] | select(.role == "server") | .length_ms] | max) as $stall
  | ([$below[] | .answered_latency_us.p50 // empty] | if length > 0 then (sort | .[length / 2 | floor]) else null end) as $t_us
  | ([$below[] | .server.cpu_us_per_conn // empty] | if length > 0 then (sort | .[length / 2 | floor]) else null end) as $cpu_us
  | [ (if $stall and $stall > 0 then {mechanism: "stall", per_server: ($settings.backlog / ($stall / 1000) | floor),
         because: "backlog \($settings.backlog) / longest server stall below the knee \($stall) ms"} else empty end),
      (if $t_us and $t_us > 0 and ($settings.tcp_count // 0) > 0 then {mechanism: "tcp_count", per_server: ($settings.tcp_count / ($t_us / 1e6) | floor),
         because: "TCP client limit \($settings.tcp_count) / time a connection spends \($t_us) us"} else empty end),
      (if $cpu_us and $cpu_us > 0 then {mechanism: "cpu", per_server: (1e6 / $cpu_us | floor),
         because: "1 s of server CPU / \($cpu_us) us of server CPU per connection"} else empty end) ]
  | map(. + {total: (.per_server * $n)}) as $b
  | {bounds: $b,
     predicted: (if ($b | length) > 0 then ($b | min_by(.total)) else null end),
     measured: $c.rate,
     ratio: (if ($b | length) > 0 and $c.rate then ($c.rate / ($b | min_by(.total) | .total) | round3) else null end)};

# repeat_spread (spread of the knees over repetitions): scripts/lib/spread.jq.

# knee_charge($c1): the rig's share of the server CPU (charge.jq) at the
# points that set the knee: the knee's rate and the highest valid rate
# below it, or every valid point when no knee was reached.
def knee_charge($c1):
  valid_points
  | (if $c1.rate != null then [.[] | select(.offered_rate == $c1.rate or .offered_rate == $c1.last_rate_below)] else . end)
  | map(.rig_share) | rig_charge;

# config_summary($cfg; $family; $status; $title; $s; $notes; $byrep; $probe_idle): one
# configuration's summary.json from its points (input: the merged points;
# $byrep: the points of each repetition on its own; $s: the settings;
# $notes: the rate search's notes).
# The schema of a configuration's summary (<name>/<config>/summary.json).
def tcp_config_schema: "rootbench.tcp/2";
def config_summary($cfg; $family; $status; $title; $s; $notes; $byrep; $probe_idle):
  sort_by(.offered_rate) as $p
  | ($byrep | group_by(.rep) | map(sort_by(.offered_rate))) as $reps
  | ($p | crossing(0.001)) as $c1 | ($p | crossing(0.01)) as $c2 | ($p | max_handled) as $mh
  | ($p | collapse($s.collapse_fraction)) as $col
  | ($p | knee_charge($c1)) as $charge
  | {schema:tcp_config_schema, experiment:"tcp", family:$family, config:$cfg, title:$title, status:$status,
     players:(if $cfg == "1p1s" then 1 else 2 end), servers:$s.servers,
     x_axis:"total offered connections/s (all players)",
     points:($p | length), valid_points:($p | valid_points | length),
     generator_limited_points:([$p[] | select(.status == "generator_limited")] | length),
     server_shortfall_points:([$p[] | select(server_shortfall)] | length),
     rig_stall_points:([$p[] | select(.status == "rig_stall")] | length),
     error_points:([$p[] | select(.status == "error" or .status == "interrupted")] | length),
     invalid_rates:[$p[] | select(point_valid | not) | {offered_rate, status} + (if .errors then {errors} else {} end)],
     fail_0_1pct:$c1, fail_1pct:$c2, max_handled:$mh, collapse:$col,
     # The flat names of docs/results.md, which the report compares with the paper.
     max_qps:($mh.handled_rate // null), fail_0_1pct_qps:$c1.rate, fail_1pct_qps:$c2.rate,
     collapse_qps:$col.offered_rate,
     verdict:($p | knee_verdict($s) | with_charge($charge)),
     rig_charge:$charge,
     per_cpu:($p | per_cpu($s)),
     prediction:($p | predict($s)),
     repetitions:{rule:"each repetition judged on its own points (same rates); spread flagged beyond 5 % of the median",
                  fail_0_1pct:([$reps[] | crossing(0.001).rate] | repeat_spread),
                  max_handled:([$reps[] | max_handled.handled_rate // null] | repeat_spread)},
     loss_by_layer:($p | loss_table), layers:[layers[] | {name, owner, what}],
     search_notes:$notes, settings:$s,
     probe:(if $probe_idle == null and ([$p[] | .probe_points // [] | .[]] | length) == 0 then null
            else probe_sweep($probe_idle; [$p[] | .probe_points // [] | .[]]; $c1.rate) end)};

# top_summary($schema; $status; $err; $started; $fin; $settings; $tb): the
# sweep's summary.json (input: the configurations' summaries; $tb: the
# testbed's status --json), with the caveats of this rig in words.
# tcp_counted_by($generator; $syns): where the connections attempted and
# their answers were counted, in words: tcpbench's own records, or with
# kxdpgun the testbed's count of its SYNs ($syns: the counters'
# router.counted_by of them: the router, or a lab's servers; null before a
# point) and the daemons' own counts of the answers.
def tcp_counted_by($generator; $syns):
  if $generator == "kxdpgun" then
    {connections_attempted: $syns, answers: "the server daemons' own statistics (their TCP, or QUIC, query counts)"}
  else {connections_attempted: "tcpbench's own record (--json) of each connection", answers: "tcpbench's own record (--json) of each answer"} end;

def top_summary($schema; $status; $err; $started; $fin; $settings; $tb):
  (. | map({(.config): (del(.settings, .loss_by_layer))}) | add // {}) as $configs
  | {schema:$schema, experiment:"tcp", family:$settings.family, status:$status} + (if $err == "" then {} else {error:$err} end)
  + {started:$started, finished:$fin,
     settings:$settings, testbed:$tb, configs:$configs,
     verdicts:[.[] | {config, summary: .verdict.summary, layer: .verdict.layer, caused_by: .verdict.caused_by,
                           server_capacity: (.verdict.server_capacity // false), server_own: .verdict.server_own, evidence: .verdict.evidence,
                           conn_per_cpu: (.per_cpu.conn_per_cpu // null)}],
     caveats:([
       "one machine with \($tb.cpus) CPUs: the servers on CPU \($tb.pinning.servers), every player, the router and the switch on CPU \($tb.pinning.clients); "
         + "2p1s adds no player CPU and 2p2s puts both servers on one CPU, so the paper's reasoning across configurations does not carry over; the verdicts "
         + "rest on the counters of every layer instead",
       "receive steering \($tb.steering.mode): \($tb.steering.rule)",
       "server listen backlog \($settings.backlog); \($tb.server.name) \($tb.server.version), TCP client limit \($settings.tcp_count); tcpbench starts at "
         + "most \($settings.max_burst) connections per \($settings.tick_us) us wake-up, more due at once makes the run invalid",
       "timeout \($settings.timeout_ms) ms: a dropped SYN is retransmitted after 1 s, so it counts as a failure; RLIMIT_NOFILE ("
         + "\($settings.rlimit_nofile_hard)) caps one tcpbench process at about \($settings.max_rate_per_player / $settings.workers_per_player)/s at this "
         + "timeout"]
       + (if $settings.transport == "tls" then ["DNS over TLS ("
         + "\(if $settings.tls_resume then "sessions resumed" else "a full handshake per connection" end)): x is handshakes/s offered; tcpbench makes its "
         + "side of every handshake on the client CPU, so a generator-limited point says what the rig could offer, not what the server can do"] else [] end))};

# ------------------------------------------------------------ read by other experiments
# Another experiment reads a configuration's summary (tcp_config_schema,
# <name>/<config>/summary.json) only through these accessors, never by a
# field's path: each checks the schema and fails naming both when it is
# not this file's, so a consumer older than the summary stops instead of
# reading a field that moved.
# (jq -L "$RB_TOP" -L "$RB_TOP/scripts/lib" 'import "tcpbench/sweep/rules" as tcp; tcp::tcp_knee_rate(.)')
def tcp_config_checked($s):
  if ($s | type) == "object" and $s.schema == tcp_config_schema then $s
  else error("a TCP configuration's summary of schema \(tcp_config_schema) (tcpbench/sweep/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# the knee: the offered rate at which 0.1 % of connections failed
def tcp_knee_rate($s): tcp_config_checked($s).fail_0_1pct.rate // null;
# the most the server handled at a valid point (connections/s)
def tcp_max_handled_rate($s): tcp_config_checked($s).max_handled.handled_rate // null;
# what set the knee ({summary, server_capacity, server_own, bound, ...})
def tcp_verdict($s): tcp_config_checked($s).verdict // null;
# the figure per CPU of the server ({conn_per_cpu, rule, ...})
def tcp_per_cpu($s): tcp_config_checked($s).per_cpu // null;
# the rig's share of the server CPU at the knee (charge.jq)
def tcp_rig_charge($s): tcp_config_checked($s).rig_charge // null;
# the top summary (<name>/summary.json, the same schema): its
# configurations' summaries, and a configuration's name
def tcp_configs($s): [tcp_config_checked($s).configs[]? | objects];
def tcp_config_name($s): tcp_config_checked($s) | .name // .config // null;

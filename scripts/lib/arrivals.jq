# arrivals.jq -- what reached each server millisecond by millisecond
# (rbsample --arrivals-out: scripts/sampler/arrivals.h), and whether the
# work a server's queues refused came in a burst of the arrivals, in a
# stall of the CPU that drains them, or with smooth arrivals and a CPU
# that kept running.
#
# A burst is measured against the arrivals' own rate around it: the
# backlog a queue would hold if drained at the mean rate of the
# surrounding 200 ms (the (sigma, rho) envelope's sigma, rho taken
# locally, so a slow drift of the rate over seconds is not a burst). A
# server that keeps up drains at least that, so a backlog above the
# queue's size was a burst the generator made (or the rig's catch-up
# after a stall of its own), whatever the server's speed. The queue: a
# veth receive ring of 256 entries (drivers/net/veth.c VETH_RING_SIZE);
# the servers' sockets hold more, so a burst over the ring is the smallest
# that can overflow either.

def arrivals_ring_entries: 256;
def arrivals_local_periods: 200;

# arrivals_local_mean: per period, the mean of the periods within
# arrivals_local_periods / 2 either side (from prefix sums).
def arrivals_local_mean:
  . as $x | length as $n | (arrivals_local_periods / 2 | floor) as $h
  | (reduce .[] as $v ([0]; . + [.[-1] + $v])) as $c
  | [range(0; $n) as $k | ([$k - $h, 0] | max) as $a | ([$k + $h + 1, $n] | min) as $b | ($c[$b] - $c[$a]) / ($b - $a)];

# arrivals_spread: a series with unknown periods (-1: the reader slept
# through them) as numbers, the next read's count spread evenly over the
# gap it closes (a late read is never taken for a burst).
def arrivals_spread:
  if all(.[]; . >= 0) then . else
    # each read's gap (the unknown periods before it, and itself), then from
    # the end each period its read's share (in linear time: no array grows)
    [foreach .[] as $v ({g: 0}; {g: (if $v < 0 then .g + 1 else 0 end), n: (.g + 1)}; [$v, .n])]
    | [foreach reverse[] as [$v, $n] (0; if $v >= 0 then $v / $n else . end)] | reverse
  end;

# arrivals_bins($a; $w): the indexes of the periods inside the load
# window $w ({from, to}: seconds on the sampler's clock), all when $w is null.
def arrivals_bins($a; $w):
  if $w == null then [0, $a.bins]
  else [(($w.from - $a.t0_s) * 1000 / $a.period_ms | ceil | if . < 0 then 0 else . end),
        (($w.to - $a.t0_s) * 1000 / $a.period_ms | floor | if . > $a.bins then $a.bins else . end)] end;

# arrivals_in_stall($a; $lo; $stalls): per period of [$lo, ...), whether a
# stall of a server CPU covered it ($stalls: [{start, length_ms}]).
def arrivals_stalled($a; $lo; $n; $stalls):
  [range($lo; $lo + $n) as $k | ($a.t0_s + $k * $a.period_ms / 1000) as $t
   | any($stalls[]; .start <= $t + $a.period_ms / 1000 and $t <= .start + .length_ms / 1000)];

# arrivals_port($a; $role; $w; $stalls): one server's arrivals over the load.
def arrivals_port($a; $role; $w; $stalls):
  arrivals_bins($a; $w) as [$lo, $hi]
  | ($a.ports[$role]) as $p
  | ($p.offered | arrivals_spread | .[$lo:$hi]) as $off
  | ([($p.dropped | arrivals_spread | .[$lo:$hi]), ($p.refused // [] | arrivals_spread | .[$lo:$hi])]
     | transpose | map(add // 0)) as $lost
  | ($off | length) as $n
  | (if $n > 0 then ($off | add) / $n else 0 end) as $rho
  | ($off | arrivals_local_mean) as $local
  | arrivals_stalled($a; $lo; $n; $stalls) as $st
  | (reduce range(0; $n) as $i ({q: 0, ahead_max: 0, lost: 0, in_burst: 0, in_stall: 0};
       .q = ([.q + $off[$i] - $local[$i], 0] | max)
       | .ahead_max = ([.ahead_max, .q] | max)
       | .lost += $lost[$i]
       | if .q >= arrivals_ring_entries then .in_burst += $lost[$i] else . end
       | if $st[$i] then .in_stall += $lost[$i] else . end)) as $r
  | {periods: $n, offered: ($off | add // 0 | round), mean_per_period: ($rho * 10 | round / 10),
     peak_per_period: ($off | max // 0 | round), ahead_max: ($r.ahead_max | round),
     lost: ($r.lost | round), lost_in_burst: ($r.in_burst | round), lost_in_stall: ($r.in_stall | round)};

# arrivals_cause: the cause of what the queues refused, from the counts
# of an evidence object (input): "burst" when at least half of it came
# while the arrivals ran at least a ring ahead of their local mean, "stall"
# when at least half came while a server CPU stalled, "steady" when
# neither (smooth arrivals, a running CPU: the server's own), "none" when
# nothing was refused.
def arrivals_cause:
  if .lost == 0 then "none" elif .lost_in_burst * 2 >= .lost then "burst" elif .lost_in_stall * 2 >= .lost then "stall" else "steady" end;

# arrivals_merge: repetitions' evidence (input: an array, nulls for the
# unmeasured) as one; null when none was measured.
def arrivals_merge:
  [.[] | select(type == "object")] as $m
  | if ($m | length) == 0 then null else
      {ahead_max: ([$m[] | .ahead_max] | max), lost: ([$m[] | .lost] | add), lost_in_burst: ([$m[] | .lost_in_burst] | add),
       lost_in_stall: ([$m[] | .lost_in_stall] | add), queue_entries: arrivals_ring_entries, burst: any($m[]; .burst == true)}
      | .cause = arrivals_cause end;

# arrivals_point($a; $w; $stalls; $servers): the point's evidence: per
# server, then over both; burst: whether the arrivals ran a ring ahead of
# their local mean at all (with or without a loss); the cause of what its
# queues refused (arrivals_cause); null without a series (a lab, or a run
# from before it was read).
def arrivals_point($a; $w; $stalls; $servers):
  if $a == null or ($a | type) != "object" then null else
    ([$servers[] as $r | select($a.ports[$r]) | {key: $r, value: arrivals_port($a; $r; $w; $stalls)}]
     | from_entries) as $ports
    | ([$ports[] | .lost] | add // 0) as $lost
    | ([$ports[] | .lost_in_burst] | add // 0) as $burst
    | ([$ports[] | .lost_in_stall] | add // 0) as $stall
    | ([$ports[] | .ahead_max] | max // 0) as $ahead
    | {period_ms: $a.period_ms, refused_counter: ($a.refused_counter // null), queue_entries: arrivals_ring_entries,
       ahead_max: $ahead, burst: ($ahead >= arrivals_ring_entries), lost: $lost, lost_in_burst: $burst, lost_in_stall: $stall}
    | .cause = arrivals_cause
    | . + {ports: $ports,
       rule: ("per period of \($a.period_ms) ms at the switch's port toward each server: what it offered, what the server's ring dropped and its "
         + "sockets refused (\($a.refused_counter // "not read")); a burst when the arrivals ran at least \(arrivals_ring_entries) queries ahead of "
         + "their mean rate over the surrounding \(arrivals_local_periods * $a.period_ms) ms (the backlog of a queue drained at that rate), "
         + "a stall when a server CPU stalled in that period; "
         + "the cause is what held at least half of the work lost")}
  end;

# arrivals_cause_words($e): the cause in a verdict's words; "" when there is
# no evidence.
def arrivals_cause_words($e):
  if $e == null then ""
  elif $e.cause == "burst" then
    "a generator burst: \($e.lost_in_burst) of the \($e.lost) queries lost came while the arrivals ran at least \($e.queue_entries) ahead of their "
    + "local mean rate (up to \($e.ahead_max)), more than a receive ring holds"
  elif $e.cause == "stall" then
    "a host stall: \($e.lost_in_stall) of the \($e.lost) queries lost came while a server CPU stalled"
  elif $e.cause == "steady" then
    "with smooth arrivals (at most \($e.ahead_max) ahead of their mean rate) and no stall of the server CPU"
  else "" end;

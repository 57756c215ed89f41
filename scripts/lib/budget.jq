# budget.jq: the servers' CPU budget throttling between two snapshots of
# `scripts/testbed cpu-budget-stat` ({"server1": {periods,
# throttled_periods, throttled_us}, ...}), for every experiment that runs
# its servers under a budget (SERVER_CPU).

def throttle_mean: .mean_pause_us = (if .throttled_periods > 0 then (.throttled_us / .throttled_periods | round) else 0 end);

# throttle_add: the sum of throttle figures (nulls skipped; null if none).
def throttle_add:
  map(select(. != null))
  | if length == 0 then null else
      {periods: (map(.periods) | add), throttled_periods: (map(.throttled_periods) | add),
       throttled_us: (map(.throttled_us) | add)} | throttle_mean end;

# throttle_delta($a; $b): how often and how long the budget held the
# servers back from snapshot $a to $b, all servers together; null when no
# server had a budget cgroup in both.
def throttle_delta($a; $b):
  if $a == null or $b == null then null else
    [($b | keys[]) as $r | select($a[$r] != null and $b[$r] != null)
     | {periods: ($b[$r].periods - $a[$r].periods), throttled_periods: ($b[$r].throttled_periods - $a[$r].throttled_periods),
        throttled_us: ($b[$r].throttled_us - $a[$r].throttled_us)}]
    | throttle_add end;

# hist.jq -- merging tcpbench's histograms exactly (schema
# rootbench.tcpbench/2, docs/tcpbench.md). Each histogram object carries
# count, sum, min, max and its non-empty buckets [low, high, count]; the
# percentiles of a merged histogram come from the summed buckets by the
# same rule as tcpb_hist_quantile (tcpbench/histogram.c), so they equal
# those of one histogram that recorded every value.
#
#   jq -L tcpbench 'include "hist"; [.[].latency_us] | hist_merge' runs.json
#   jq -L tcpbench 'include "hist"; .latency_us | hist_quantile(0.99)' run.json

# hist_quantile($q): the value at quantile $q (0..1) of one histogram: the
# highest value of the bucket holding the ceil($q x count)-th value, never
# above max; min for $q <= 0; 0 when empty.
def hist_quantile($q):
  if (.buckets | type) != "array" then error("hist_quantile: no buckets (schema rootbench.tcpbench/1?)")
  elif .count == 0 then 0
  elif $q <= 0 then .min
  else
    .max as $max | .count as $n |
    ($q * $n | ceil | if . < 1 then 1 elif . > $n then $n else . end) as $rank |
    ([.buckets | sort_by(.[0]) | foreach .[] as $b (0; . + $b[2];
        if . >= $rank then $b[1] else empty end)] | first // $max) as $hi |
    if $hi > $max then $max else $hi end
  end;

# hist_merge: an array of histogram objects -> one: counts summed bucket
# by bucket, count and sum summed, min of the mins and max of the maxes
# (of the non-empty ones), mean = sum / count, percentiles recomputed.
def hist_merge:
  if any(.[]; (.buckets | type) != "array" or (.sum | type) != "number") then
    error("hist_merge: a histogram without buckets or sum (schema rootbench.tcpbench/1?)")
  else . end |
  [.[] | select(.count > 0)] as $h |
  {count: ([$h[].count] | add // 0),
   sum: ([$h[].sum] | add // 0),
   min: ([$h[].min] | min // 0),
   max: ([$h[].max] | max // 0),
   buckets: ([$h[].buckets[]] | group_by(.[0])
             | map([.[0][0], .[0][1], (map(.[2]) | add)]))}
  | .mean = (if .count > 0 then .sum / .count else 0 end)
  | .p50 = hist_quantile(0.5) | .p90 = hist_quantile(0.9)
  | .p99 = hist_quantile(0.99) | .p999 = hist_quantile(0.999);

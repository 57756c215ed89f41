# spread.jq -- one figure measured several times: min, median and max,
# and whether it moved more than 5 % from the median (flagged, never
# averaged away). Used by the TCP rules (a knee over repetitions) and by
# the comparison of servers (every figure over repetitions).

# repeat_spread: an array of numbers (nulls, e.g. a knee not reached, are
# left out) -> {n, values, min, median, max, spread_pct, flagged}; the
# median of an even count is the upper of the two middle values.
def repeat_spread:
  [.[] | select(. != null)] | sort as $k
  | if ($k | length) == 0 then {n: 0, min: null, median: null, max: null, spread_pct: null, flagged: false}
    else ($k[($k | length) / 2 | floor]) as $m
      | {n: ($k | length), values: $k, min: $k[0], median: $m, max: $k[-1],
         spread_pct: (if $m > 0 then (($k[-1] - $k[0]) * 1000 / $m | round / 10) else null end),
         flagged: ($m > 0 and (($k[-1] - $m) > 0.05 * $m or ($m - $k[0]) > 0.05 * $m))}
    end;

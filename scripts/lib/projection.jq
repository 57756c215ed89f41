# projection.jq -- a capacity projected from measurements below it, and
# the rule that decides whether it may be quoted: the utilisation law's
# service demand (the least-squares slope of the server CPU's busy time
# against the handled rate) and the judgment of any projected figure (a
# service demand's, a CPU budget's) against the figure measured directly.
# Used by the TCP sweep's per-CPU figure and reconciliation
# (tcpbench/sweep/rules.jq, reconcile.jq) and the UDP budget validation
# (udpreplay/budget-validation/rules.jq). Pure.

# utilisation_fit: points [{x: rate/s, y: CPU us per s}] -> the least-
# squares line y = fixed + x * demand: {method: "slope", demand_us,
# fixed_us_per_s} from two or more rates; from one, the ratio y / x
# (method "ratio", fixed unknown); nulls from none, or when the slope is
# not positive (the busy share did not grow with the load).
def utilisation_fit:
  length as $n
  | if $n == 0 then {method: null, demand_us: null, fixed_us_per_s: null}
    elif ([.[].x] | unique | length) < 2 then {method: "ratio", demand_us: ([.[] | .y / .x] | add / length), fixed_us_per_s: null}
    else (map(.x) | add / $n) as $mx | (map(.y) | add / $n) as $my
      | (map((.x - $mx) * (.y - $my)) | add) as $sxy | (map((.x - $mx) * (.x - $mx)) | add) as $sxx
      | ($sxy / $sxx) as $b
      | if $b > 0 then {method: "slope", demand_us: $b, fixed_us_per_s: ($my - $b * $mx)}
        else {method: "slope", demand_us: null, fixed_us_per_s: null} end
    end;

# agreement_limit: how close a projection must lie to the direct figure
# to be quoted (docs/methodology.md, "the methods reconciled").
def agreement_limit: 0.15;

# judge($d): one method's figure against the direct figure $d.
def judge($d):
  . as $m
  | if $m.figure == null then $m + {ratio: null, agrees: null, verdict: "no figure: \($m.why // "none")"}
    elif $d.rate == null then $m + {ratio: null, agrees: null, verdict: "no direct figure to judge it by"}
    else ($m.figure / $d.rate * 1000 | round / 1000) as $r
      | if $d.kind == "knee" then
          ((($r - 1) | fabs) <= agreement_limit) as $ok
          | $m + {ratio: $r, agrees: $ok,
                  verdict: (if $ok then "agrees with the direct knee within \(agreement_limit * 100) %: may be quoted"
                            else "disagrees with the direct knee (ratio \($r)): not to be quoted" end)}
        elif $r < 1 - agreement_limit then
          $m + {ratio: $r, agrees: false, verdict: "below what the server was measured to handle directly (ratio \($r) to the bound): not to be quoted"}
        else
          $m + {ratio: $r, agrees: null, verdict: "not contradicted by the direct bound (ratio \($r)), and not validated: the rig gave out before the server"}
        end
    end;


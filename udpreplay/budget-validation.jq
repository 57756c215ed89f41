# budget-validation.jq -- does a capacity per CPU measured under a CPU
# budget scale to a whole CPU? The unshaped UDP ceiling per CPU at several
# budgets (udpreplay/budget-bench, repetitions interleaved) must agree
# across the budgets within the goal: then a budgeted knee may be stated
# per CPU. Pure: the bench gives the runs, the report shows the result.
include "spread";

# validation($goal_pct): an array of runs {budget, rep, qps_per_cpu, ...}
# (qps_per_cpu null where the server CPU was not what ran out) ->
# per budget the spread of its repetitions; across budgets the spread of
# their medians ((max - min) / median, %), validated when at least two
# budgets gave a figure and that spread is within the goal; rule says why.
def validation($goal):
  . as $runs
  | ([$runs[] | .budget] | unique) as $budgets
  | [ $budgets[] as $f
      | {budget: $f, runs: ([$runs[] | select(.budget == $f)] | length),
         qps_per_cpu: ([$runs[] | select(.budget == $f) | .qps_per_cpu] | repeat_spread)} ] as $by
  | [ $by[] | select(.qps_per_cpu.median != null) ] as $with
  | ([ $with[] | .qps_per_cpu.median ] | repeat_spread) as $across
  | { by_budget: $by, budgets_with_figure: ($with | length),
      median_per_cpu: $across.median, spread_pct: $across.spread_pct, goal_pct: $goal,
      validated: (($with | length) >= 2 and $across.spread_pct != null and $across.spread_pct <= $goal),
      rule: (if ($with | length) < 2
             then "not validated: \($with | length) of \($by | length) budgets gave a figure per CPU (at the others the server CPU was not what ran out)"
             elif $across.spread_pct <= $goal
             then "validated: the medians per CPU of \($with | length) budgets agree within \($across.spread_pct) % (goal \($goal) %)"
             else "not validated: the medians per CPU of \($with | length) budgets differ by \($across.spread_pct) % ((max - min) / median; goal \($goal) %)"
             end) };

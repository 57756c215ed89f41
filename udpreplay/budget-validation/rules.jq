# rules.jq -- the budget validation's rules: does a capacity per CPU measured under a CPU
# budget scale to a whole CPU? The unshaped UDP ceiling per CPU at several
# budgets (udpreplay/budget-validation/run, repetitions interleaved) must agree
# across the budgets within the goal: then a budgeted knee may be stated
# per CPU. Pure: the bench gives the runs, the report shows the result.
include "spread";
include "projection";
# Each run's UDP summary is read through udp's accessors, which check its
# schema (found from this folder: jq 1.6 would look in the current directory first).
import "udpreplay/udp/rules" as udp {search: "../.."};

# run_lb, run_ceiling_low_qps: of a run's UDP summary (the input), the
# balancing it ran with ("l3" when it does not say) and the lowest rate of its ceiling.
def run_lb: udp::udp_lb(.) // "l3";
def run_ceiling_low_qps: udp::udp_ceiling_low_qps(.);

# run_row($budget; $rep; $dir; $at_low; $at_ceiling): one run as the rules
# below read it, from its UDP summary (the input); $at_low, $at_ceiling:
# the daemons' cost at the lowest rate measured and at the ceiling.
# ... and $points: the run's points ({requested_qps, answer_ratio,
# answered_qps, server_cpu_busy_pct}, points.csv) for its service demand:
# the utilisation law's slope over the points that held (answer ratio at
# the sweep's threshold) at or below the lowest rate of its ceiling (every
# point that held when no ceiling was reached), and the rate one CPU
# would carry at that demand.
def run_row($budget; $rep; $dir; $at_low; $at_ceiling; $points):
  . as $s | udp::udp_per_cpu($s) as $pc | udp::udp_verdict($s) as $v
  | udp::udp_ceiling_low_qps($s) as $low
  | [$points[] | select(($low == null or .requested_qps <= $low) and .answer_ratio >= ($s.threshold // 0.998))] as $held
  | ([$held[] | select((.server_cpu_busy_pct | type) == "number" and .answered_qps > 0)
      | {x: .answered_qps, y: (.server_cpu_busy_pct / 100 * 1e6)}] | utilisation_fit) as $fit
  | {budget: $budget, rep: $rep, dir: $dir,
     ceiling_low_qps: $low, ceiling_high_qps: udp::udp_ceiling_high_qps($s),
     server_cpu_busy_pct: $pc.server_cpu_busy_pct, qps_per_cpu: $pc.qps_per_cpu,
     mean_pause_us: $pc.throttle.mean_pause_us, pause_bound_us: $pc.longest_pause_bound_us,
     verdict_layer: $v.layer, verdict_caused_by: ($v.caused_by // null), verdict_mechanism: ($v.mechanism // null),
     answered_qps: udp::udp_ceiling_qps($s), ceiling_text: udp::udp_ceiling_text($s),
     demand: ($fit + {points: ($held | length),
                      per_cpu_qps: (if ($fit.demand_us // 0) > 0 then (1e6 / $fit.demand_us | round) else null end)}),
     daemon_cost: {lowest_rate: $at_low, ceiling: $at_ceiling}};

# (without the points: no service demand)
def run_row($budget; $rep; $dir; $at_low; $at_ceiling): run_row($budget; $rep; $dir; $at_low; $at_ceiling; []);

# daemon_us_per_query: {answers, daemon_ms} of one point -> the server
# daemons' CPU microseconds per answered query (null when unknown).
def daemon_us_per_query:
  if . == null or .answers == null or .answers <= 0 or .daemon_ms == null then null
  else (.daemon_ms * 1000 / .answers * 10 | round / 10) end;

# validation($goal_pct): an array of runs {budget, rep, qps_per_cpu, ...}
# (qps_per_cpu null where the server CPU was not what ran out) ->
# per budget the spread of its repetitions; across budgets the spread of
# their medians ((max - min) / median, %), validated when at least two
# budgets gave a figure in at least two and half of their runs, that
# spread is within the goal and so is the spread of the runs within each
# of those budgets; rule says why.
def validation($goal):
  . as $runs
  | ([$runs[] | .budget] | unique) as $budgets
  | [ $budgets[] as $f
      | {budget: $f, runs: ([$runs[] | select(.budget == $f)] | length),
         qps_per_cpu: ([$runs[] | select(.budget == $f) | .qps_per_cpu] | repeat_spread),
         daemon_us_per_query: {
           lowest_rate: ([$runs[] | select(.budget == $f) | .daemon_cost.lowest_rate | daemon_us_per_query] | repeat_spread),
           ceiling: ([$runs[] | select(.budget == $f) | .daemon_cost.ceiling | daemon_us_per_query] | repeat_spread)}} ] as $by
  # A budget's median counts when at least two of its runs, and at least
  # half of them, gave a figure: one run is no median.
  | [ $by[] | select(.qps_per_cpu.n >= 2 and .qps_per_cpu.n * 2 >= .runs) ] as $with
  | [ $by[] | select(.qps_per_cpu.n > 0 and (.qps_per_cpu.n < 2 or .qps_per_cpu.n * 2 < .runs))
      | "\(.budget) (a figure in \(.qps_per_cpu.n) of \(.runs) runs)" ] as $thin
  # A budget with no figure in any run: the server CPU was never what ran
  # out there (e.g. the generator ran out first); said with the runs' own words.
  | [ $by[] | select(.qps_per_cpu.n == 0) | .budget as $f
      | ([$runs[] | select(.budget == $f) | .ceiling_text // empty] | unique) as $why
      | "\($f) (no figure in \(if .runs == 1 then "its one run" else "any of its \(.runs) runs" end)"
        + "\(if ($why | length) > 0 then ": " + ($why | join("; ")) else "" end))" ] as $unreached
  # Runs of one budget that disagree more than the goal: medians that agree
  # are then within the noise, not evidence.
  | [ $with[] | select(.qps_per_cpu.spread_pct > $goal) | "\(.budget): \(.qps_per_cpu.spread_pct) %" ] as $noisy
  | ([ $with[] | .qps_per_cpu.median ] | repeat_spread) as $across
  | [ $by[] | select(.daemon_us_per_query.ceiling.median != null) ] as $costed
  | ([ $costed[] | .daemon_us_per_query.ceiling.median ] | repeat_spread) as $cost
  | { by_budget: $by, budgets_with_figure: ($with | length),
      median_per_cpu: $across.median, goal_pct: $goal,
      spread_pct: (if ($with | length) >= 2 then $across.spread_pct else null end),
      daemon_cost_spread_pct: $cost.spread_pct,
      # A budget scales to a whole CPU only if the daemons pay the same CPU
      # per query at every budget; a throttled daemon answers what piled up
      # during its pause in one go, and larger batches cost less per query.
      cost_note: (if ($costed | length) < 2 then null
                  else ($costed | min_by(.daemon_us_per_query.ceiling.median)) as $lo
                    | ($costed | max_by(.daemon_us_per_query.ceiling.median)) as $hi
                    | "at the ceiling the server daemons spent \($hi.daemon_us_per_query.ceiling.median) us of CPU per answered query at budget \($hi.budget) "
                      + "and \($lo.daemon_us_per_query.ceiling.median) us at budget \($lo.budget) (\($cost.spread_pct) % apart)"
                      + (if $cost.spread_pct > $goal
                         then ": the cost per query changed with the budget (a throttled daemon answers what piled up during its pauses in larger batches), "
                           + "so a budget's ceiling does not scale in proportion to a whole CPU"
                         else ": the cost per query did not change with the budget" end)
                  end),
      validated: (($with | length) >= 2 and $across.spread_pct != null and $across.spread_pct <= $goal and ($noisy | length) == 0),
      noisy_budgets: $noisy,
      thin_budgets: $thin, unreached_budgets: $unreached,
      validated_budgets: [$with[] | .budget],
      rule: ((if ($with | length) < 2
             then "not validated: \($with | length) of \($by | length) budgets gave a figure per CPU in at least two and half of their runs (at the others "
               + "the server CPU was not what ran out)"
                  + (if ($thin | length) > 0 then "; too few figures at \($thin | join(", "))" else "" end)
             elif $across.spread_pct <= $goal and ($noisy | length) > 0
             then "not validated: the medians per CPU of \($with | length) budgets (\([$with[] | .budget | tostring] | join(", "))) agree within "
               + "\($across.spread_pct) %, but the runs within a budget spread more than the goal of \($goal) % ((max - min) / median: "
               + "\($noisy | join(", "))): the agreement is within the noise"
             elif $across.spread_pct <= $goal
             then "validated: the medians per CPU of \($with | length) budgets (\([$with[] | .budget | tostring] | join(", "))) agree within "
               + "\($across.spread_pct) % (goal \($goal) %), and the runs within each budget within the goal too"
             else "not validated: the medians per CPU of \($with | length) budgets differ by \($across.spread_pct) % ((max - min) / median; goal \($goal) %)"
             end)
             + (if ($unreached | length) > 0 then "; not measurable at \($unreached | join(", ")): these budgets say nothing either way" else "" end)) };

# reconcile: the runs (input, run_row's) -> the UDP capacity on one CPU
# three ways, judged by the rule of projection.jq: the direct figure (the
# ceiling at a whole CPU without a budget: the median answered rate at the
# ceiling over its runs; a knee when the server lost the work there, else
# a bound), the service demand's projection from those runs (median), and
# each smaller budget's figure per CPU (median of its runs).
def reconcile:
  . as $runs
  # the direct figure: the runs without a budget, else (an older run) those
  # at a budget of 1, which throttles and is named so
  | ([$runs[] | select(.budget == null)] | if length > 0 then . else [$runs[] | select(.budget == 1)] end) as $whole
  | ($whole | map(.answered_qps | numbers) | repeat_spread) as $dq
  | ([$whole[] | .verdict_caused_by] | unique) as $why
  | (if $dq.median == null then {kind: "none", rate: null}
     elif $why == ["server"] then {kind: "knee", rate: $dq.median, min: $dq.min, max: $dq.max, caused_by: "server",
                                   mechanism: ([$whole[] | .verdict_mechanism] | unique | join(", "))}
     else {kind: "bound", rate: $dq.median, min: $dq.min, max: $dq.max, caused_by: ($why | map(. // "unknown") | join(", "))} end) as $d
  | ([$whole[] | .demand.per_cpu_qps | numbers] | repeat_spread) as $sd
  | {rule: ("a projected figure (service demand, a CPU budget) may be quoted only within \(agreement_limit * 100) % of the direct figure; "
            + "against a bound, a figure below it disagrees and one above it is not validated"),
     direct: ($d + {budget: ($whole[0].budget // null)}),
     methods: ([{method: "service demand (slope) at a whole CPU", figure: $sd.median, runs: $sd.n,
                 why: (if ($whole | length) == 0 then "no run at a whole CPU"
                       else "fewer than two rates held below the ceiling, or the busy share did not grow with the load" end)}]
               + [([$runs[] | .budget] | unique)[] | select(. != null and . < 1) as $f
                  | ([$runs[] | select(.budget == $f) | .qps_per_cpu | numbers] | repeat_spread) as $b
                  | {method: "budget \($f) CPU", budget: $f, figure: $b.median, runs: $b.n,
                     why: ([$runs[] | select(.budget == $f) | .ceiling_text // empty] | unique | join("; ") | if . == "" then "no figure per CPU" else . end)}]
               | map(judge($d)))};

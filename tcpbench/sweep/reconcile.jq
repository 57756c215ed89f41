# reconcile.jq -- one server's TCP capacity on one CPU, three ways, set
# beside each other (tcpbench/sweep/reconcile writes the input):
#   direct: the 1p1s sweep at a whole server CPU, unbudgeted, with a
#           generator that has headroom (kxdpgun) and the rig's work off
#           the server CPU (STEER=napi): the knee where 0.1 % of connections
#           failed, the median over its repetitions, or, where the rig gave
#           out first, a bound (the most the server was seen to handle);
#   service demand: 1e6 / D from the same sweep (rules.jq per_cpu: D the
#           slope of the server CPU's busy time against the handled rate
#           below the knee), a projection;
#   budget F: the knee per CPU of a sweep whose servers were limited to F
#           of a CPU (rules.jq per_cpu conn_per_cpu), a projection.
# The rule, docs/methodology.md: a projected figure may be quoted for a
# server only when it lies within 15 % of the direct figure; against a
# bound only a figure below it can be judged (it disagrees: less than was
# measured directly); a method that disagrees is reported as such and
# never used for a headline figure.
# Input: {server, direct: <config summary.json>, budgets: [{budget, summary}]}.
include "projection" {search: "../../scripts/lib"};

def direct_figure:
  if (.fail_0_1pct.rate // null) != null then
    {kind: "knee", rate: (.repetitions.fail_0_1pct.median // .fail_0_1pct.rate),
     min: (.repetitions.fail_0_1pct.min // null), max: (.repetitions.fail_0_1pct.max // null),
     last_rate_below: (.fail_0_1pct.last_rate_below // null),
     caused_by: (.verdict.caused_by // null), server_own: (.verdict.server_own // null)}
  elif (.verdict.bound.handled_rate // null) != null then
    {kind: "bound", rate: .verdict.bound.handled_rate, server_cpu_busy_pct: .verdict.bound.server_cpu_busy_pct,
     caused_by: (.verdict.caused_by // null)}
  else {kind: "none", rate: null} end;

def reconcile_row:
  (.direct | direct_figure) as $d
  | {server, direct: $d,
     methods: ([{method: "service demand (slope) at a whole CPU", figure: (.direct.per_cpu.demand_per_cpu // null),
                 why: "fewer than two valid rates below the knee"}]
               + [.budgets[] | {method: "budget \(.budget) CPU", budget, figure: (.summary.per_cpu.conn_per_cpu // null),
                                why: (.summary.per_cpu.rule // "no sweep")}]
               | map(judge($d)))};

def reconcile_summary:
  {schema: "rootbench.tcp-reconcile/1", rule: ("a projected figure (service demand, a CPU budget) may be quoted only within \(agreement_limit * 100) % of the "
    + "direct figure; against a bound, a figure below it disagrees and one above it is not validated"),
   servers: map(reconcile_row)};

# reconcile_table: one '#'-headed TSV row per method.
def reconcile_table:
  "# server\tdirect_kind\tdirect_rate\tmethod\tfigure\tratio\tagrees\tverdict",
  (.servers[] | . as $s | .methods[]
   | [$s.server, $s.direct.kind, $s.direct.rate, .method, .figure, .ratio, .agrees, .verdict]
   | map(if . == null then "" else tostring end) | join("\t"));

# section.jq -- the capacity-per-CPU method's validation: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";

# budget_validation: whether a figure per CPU scales to a whole CPU, as
# measured with these results (udpreplay/budget-validation/run: the unshaped UDP
# ceiling per CPU at several budgets), or that it was not measured.
def budget_validation($v):
  $v.summary as $s | $v.file as $f
  | "<p><b>Validation across budgets.</b> "
  + if $s == null then
      "Not measured with these results: <code>make udp-budget-validation RB_RUN=&lt;this directory&gt;</code> measures the unshaped UDP ceiling per CPU at "
        + "several budgets, repetitions interleaved; the figures above hold for a whole CPU only if those agree (docs/methodology.md).</p>"
    else
      "The unshaped UDP ceiling per CPU at the budgets below, \(val($s; $f; ["settings","reps"])) repetitions each, interleaved "
        + "(udpreplay/budget-validation/run\(if $s.status != "ok" then ", \(val($s; $f; ["status"])): from the runs measured" else "" end)): "
      + val($s; $f; ["rule"]) + ". The spread of the medians is " + val($s; $f; ["spread_pct"]) + " % against a goal of " + val($s; $f; ["goal_pct"]) + " %"
      + (if $s.validated then "." else "; the figures above are this budget's, not a whole CPU's." end) + "</p>"
      + (if $s.cost_note != null then "<p>Why: " + val($s; $f; ["cost_note"]) + ".</p>" else "" end)
      + "<table class=\"cmp\">" + head_row(["server CPU budget", "runs", "answers/s per CPU: min", "median", "max",
        "daemons' CPU per answered query at the ceiling (median, µs)"])
      + ([range(0; $s.by_budget | length) as $i
          | "<tr><td>\(if $s.by_budget[$i].budget == null then "none (a whole CPU)" else val($s; $f; ["by_budget",$i,"budget"]) end)</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"runs"]))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","min"]; 0; null))</td><td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","median"]; 0; null))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","max"]; 0; null))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"daemon_us_per_query","ceiling","median"]))</td></tr>"] | join(""))
      + "</table>"
    end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

# Its section goes in the capacity per CPU (registry: place "per-cpu"),
# before the figures whose scaling to a whole CPU it judges.
def section($b; $e): budget_validation($b.exps[$e.name] // {});
def findings($b; $e): [];
def family_rows($b; $e): "";
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];

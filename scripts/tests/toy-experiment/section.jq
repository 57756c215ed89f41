# section.jq: the toy's section of the report, through the section
# interface (analysis/report-sections.jq).

include "report-lib";

def section($b; $e):
  $b.exps[$e.name] as $x
  | "<section id=\"\($e.name)\"><h2>\($e.heading // $e.title) \(status_badge($x))</h2>"
  + status_text($x; "the toy")
  + (if ($x.summary.counted | type) == "number" then
       "<p>The toy counted " + val($x.summary; $x.file; ["counted"]) + " points.</p>" else "" end)
  + "</section>";
def findings($b; $e):
  $b.exps[$e.name] as $x
  | if ok($x) then ["The toy counted " + val($x.summary; $x.file; ["counted"]) + " points."] else [] end;
def family_rows($b; $e): "";
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];

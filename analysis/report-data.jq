# report-data.jq: renders report-data.html, the page beside report.html
# that holds what the report itself only links: every value of every
# summary (a field the report does not know yet is still shown, and still
# checked), every CSV table of the run, the testbed's and each zone
# variant's values. Same bundle, same tagging and the same checker
# (analysis/report-check) as the report.

include "report-lib";

# exp_data($key; $title; $e): one experiment's values and tables.
def exp_data($key; $title; $e):
  "<section id=\"\($key | esc)\"><h2>\($title | esc) \(status_badge($e))</h2>"
  + (if $e.summary == null then "<p class=\"nm\">No summary in this results directory.</p>"
     else
       values_table($e.summary; $e.file; ["testbed"])
       + ([($e.subs // {}) | to_entries[] | select(.value.summary != null)
           | "<h3>\(.key | esc)</h3>" + values_table(.value.summary; "\($key)/\(.key)/summary.json"; ["testbed"])] | join(""))
     end)
  + (if ($e.tables | length) > 0 then "<h3>Tables</h3>" + tables($e; []) else "" end)
  + "</section>";

def data_page_html:
  . as $b
  | "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rootbench report: every value</title><style>"
  # the style: analysis/report.css, inlined (analysis/report passes it as $css)
  + ($css | css_for("data")) + "</style></head><body>\n"
  + "<h1>rootbench report: every value and table</h1>\n"
  + fixture_banner($b)
  + "<p>Results directory <code class=\"meta\">\($b.run | esc)</code>. The report (<a href=\"report.html\">report.html</a>) shows the figures and one table "
    + "per question; this page holds the rest: each summary's every value and each CSV table, all read from the files of the results directory and checked as "
    + "the report is.</p>\n"
  + "<section id=\"testbed\"><h2>Testbed</h2>"
  + (if $b.testbed == null then "<p class=\"nm\">No testbed.json in this results directory.</p>" else values_table($b.testbed; "testbed.json"; []) end)
  + ([$b.zones | to_entries[] | "<h3>Zone variant <code class=\"meta\">\(.key | esc)</code></h3>" + values_table(.value; "zones/\(.key).json"; [])] | join(""))
  + "</section>\n"
  + ([$b.registry[] | . as $r | ($r.name, (if $r.v6 then $r.name + "-v6" else empty end)) as $k
      | select($b.exps[$k].dir_exists // false)
      | exp_data($k; $r.title + (if $k != $r.name then " (IPv6)" else "" end); $b.exps[$k]) + "\n"] | join(""))
  + "</body></html>";

data_page_html

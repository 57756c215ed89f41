# findings.jq: the report's first section, Findings: a few sentences a
# manager can read, made from the same results as the rest of the page.
# Each rule below says what it looks at; each sentence appears only when
# its experiment ran, and every number in it is a tagged value (data-src)
# that analysis/report-check verifies. An experiment that did not run or
# failed is named in the last sentence, never described from nothing.
# Tested against the fixture results (analysis/tests/53-findings.test).

include "report-lib";

# What this run does not say: experiments absent, failed or interrupted.
def finding_missing($b; $names):
  [$names[] as [$k, $what] | $b.exps[$k] as $e
   | select($e != null and (ok($e) | not))
   | $what + " (" + (if $e.summary == null then "not run" else val($e.summary; $e.file; ["status"])
                     + (if $e.summary.status == "skipped" then ": " + val($e.summary; $e.file; ["error"]) else "" end) end) + ")"]
  | if length > 0 then ["Not measured in this run, so not summarised here: " + join("; ") + "."] else [] end;

# finding_item: a finding as a list item: its short sentence, the rest
# one click away (a finding given as a string is shown whole).
def finding_item:
  if type == "object" then
    "<li><details class=\"finding\"><summary>" + .short + "</summary><p>" + (.more | join(" ")) + "</p></details></li>"
  else "<li>" + . + "</li>" end;

# findings_section($b; $names; of): the section. of: an experiment's
# findings from its registry entry (report.jq passes the dispatch to its
# folder's section.jq, analysis/report-sections.jq), taken in the
# registry's report_order.findings.
def findings_section($b; $names; of):
  ([in_order($b.registry; $b.order.findings // []) | of[]] + finding_missing($b; $names)) as $f
  | "<section id=\"findings\"><h2>Findings</h2><ul class=\"findings\">"
  + ([$f[] | finding_item] | join(""))
  + "</ul><p><small>Each sentence is read from the results below (hover a number for its file and path; click a sentence for how it was "
    + "found); the sections that follow give the evidence.</small></p></section>";

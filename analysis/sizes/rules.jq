# rules.jq -- the sizes summary's accessor for the jq that still reads it
# (scripts/compare/rules.jq). The sizes experiment's rules are
# analysis/sizes/rules.py; its SCHEMA and this sizes_schema must agree
# (analysis/sizes/tests/test_rules.py and udpreplay/udp/tests/12-summary-accessors.test
# check that they do).

# Another experiment reads a sizes summary only through this accessor,
# never by a field's path: it checks that the summary is of the schema
# analysis/sizes/run writes and fails naming both when it is not.
def sizes_schema: "rootbench.sizes/1";
def sizes_summary_checked($s):
  if ($s | type) == "object" and $s.schema == sizes_schema then $s
  else error("a sizes summary of schema \(sizes_schema) (analysis/sizes/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# the zone variants measured, by name: {queries, bytes_in, bytes_out,
# bytes_per_query_in, bytes_per_query_out, growth_vs_unsigned, sections, ...}
def sizes_variants($s): sizes_summary_checked($s).variants // null;

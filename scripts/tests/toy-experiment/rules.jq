# rules.jq: the toy's rules and the accessor other experiments would read
# its summary through.

def toy_schema: "rootbench.toy/1";

# toy_counted($s): the points a toy summary counted (its schema checked).
def toy_counted($s):
  if $s.schema == toy_schema then $s.counted
  else error("a toy summary of schema \(toy_schema) was expected; this one's schema is \($s.schema)") end;

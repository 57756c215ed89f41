"""The shared pure rules of scripts/lib/*.jq in Python, one module per jq
file with the jq's function names and argument order (the input `.` first,
when the jq uses it, then the jq's $arguments): spread, projection, host_speed, budget, charge,
wire, ... jqlib holds jq's own semantics where Python's differ (rounding,
ordering, `+`, `//`, `.[]` of an object). Each module's output, printed
with rootbench.jqtext, is the jq's text on the same input
(scripts/rootbench/tests/test_rules_*.py checks it against the jq)."""

"""The shared pure rules of scripts/lib/*.jq in Python, one module per jq
file with the jq's function names and argument order (the input `.`
first, when the jq uses it, then the jq's $arguments; a dash in the jq's
name becomes _): spread, projection, host_speed, budget, charge, wire,
counters, layers, arrivals, players, probe_stats, probe_sweep. jqlib holds
jq's own semantics where Python's differ (rounding, ordering, `+`, `%`,
`//`, `.[]` of an object, -0) and loads(), which reads JSON as jq does.
Each module's output, printed with rootbench.jqtext, is the jq's text on
the same input (scripts/rootbench/tests/test_rules_*.py checks it against
the jq, which stays while bash and jq callers include it)."""

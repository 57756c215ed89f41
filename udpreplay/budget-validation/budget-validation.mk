# The capacity-per-CPU method's validation (a benchmark, not a test): the
# unshaped UDP ceiling per CPU at several server CPU budgets, interleaved
# (docs/methodology.md). RB_RUN=<run> puts it beside a bench's results.
.PHONY: udp-budget-validation
udp-budget-validation: ## the capacity-per-CPU method checked at several CPU budgets
# It runs the UDP sweep (udp.mk's programs; the trace: udpreplay.mk).
udp-budget-validation: analysis/target-check udpreplay/build/pcap-setmac udpreplay/build/from-pcap tcpbench/rbprobe
	@udpreplay/budget-validation/run

# udpreplay: the UDP capacity experiment (paper section 2). See docs/udp.md.
#   make udp [TRACE=pcap] [SWEEP=search|linear] [LB="l3 l4"] [LINK=100mbit] ...
.PHONY: udp
udp: analysis/target-check udpreplay/build/pcap-setmac
	@udpreplay/udp/run

# The capacity-per-CPU method's validation (a benchmark, not a test): the
# unshaped UDP ceiling per CPU at several server CPU budgets, interleaved
# (docs/methodology.md). RB_RUN=<run> puts it beside a bench's results.
.PHONY: udp-budget-validation
udp-budget-validation: analysis/target-check udpreplay/build/pcap-setmac
	@udpreplay/budget-bench

# analysis/sizes/sizes.mk: the response-size experiment (paper §3,
# Tables 2-5, Figure 4). See docs/sizes.md.
#   make sizes [SCALE=smoke|quick|paper] [SIZES_VARIANTS="unsigned ecdsap256 ..."]
#              [SIZES_PPS=4000] [SIZES_QUERIES=N] [SIZES_BIG_QUERIES=N]
# The testbed must be up (RB_PREFIX); zone variants are built when missing.

.PHONY: sizes
sizes: ## response sizes, unsigned and signed (paper section 3)
sizes: analysis/dnsstat udpreplay/build/tracegen udpreplay/build/pcap-setmac zones/nsec3-optout-sign analysis/target-check
	@analysis/sizes/run

# analysis/sizes-matrix/sizes-matrix.mk: the DNSSEC sizing matrix: zone states
# x query profiles x EDNS buffer sizes. See docs/sizes-matrix.md.
#   make sizes-matrix [SCALE=smoke|quick|full] [MATRIX_CELLS="root:root-2016:512 ..."]
#                     [MATRIX_QUERIES=N] [MATRIX_PPS=4000] [MATRIX_CEILING_RUN=dir]
# The testbed must be up (RB_PREFIX) or is brought up; zone states are built when missing.

.PHONY: sizes-matrix
sizes-matrix: ## DNSSEC sizing: zone states x query profiles x EDNS buffers
sizes-matrix: analysis/dnsstat udpreplay/build/tracegen analysis/target-check udpreplay/build/pcap-setmac
	@analysis/sizes-matrix/run

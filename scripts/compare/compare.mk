# compare.mk: the servers compared (docs/servers.md).
# make compare-servers [SERVERS="nsd knot bind"] [SERVER_RELEASE="debian12 current"]
# [COMPARE_REPS=3] [SCALE=...]: the UDP ceiling unshaped, sizes, the TCP knees
# and DoT per server kind and release, side by side.
.PHONY: compare-servers
compare-servers: ## the experiments per server kind and release, side by side
	@scripts/compare/run

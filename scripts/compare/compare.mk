# compare.mk: the servers compared (docs/servers.md).
# make compare-servers [SERVERS="nsd knot bind"] [COMPARE_REPS=3] [SCALE=...]: the UDP
# ceiling unshaped, sizes and the TCP knee per server kind, side by side.
.PHONY: compare-servers
compare-servers:
	@scripts/compare/run

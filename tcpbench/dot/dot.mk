# dot.mk -- the DNS-over-TLS experiment: DoT handshakes/s with the TCP
# sweep's search and verdicts, with and without session resumption, and
# bytes on the wire per query over UDP, TCP and DoT. See docs/dot.md.
#   make dot [SCALE=smoke|quick|paper] [SERVER=nsd|bind] [DOT_CONFIGS=1p1s] [DOT_STEPS="full resume bytes"]
.PHONY: dot
dot: ## DNS over TLS: handshakes/s, resumption, bytes per query
dot: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check tcpbench/rbprobe
	tcpbench/dot/run

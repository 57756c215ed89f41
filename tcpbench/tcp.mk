# tcp.mk -- the TCP capacity experiment (paper §5, Figures 5-7), its DoT
# variant (make dot), and how
# NSD's tcp-count and listen backlog move its knee. See docs/tcp.md.
#   make tcp [SCALE=smoke|quick|paper] [CONFIGS=1p1s,2p1s,2p2s] [TCP_BACKLOG=N] [RB_RUN=...]
#   make tcp RESUME=<run>/tcp   resume an interrupted sweep (same settings)
#   make tcp-limits [SCALE=...] [LIMITS="c100-b256 ..."]

.PHONY: tcp tcp-limits
tcp: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check
	tcpbench/sweep/run

tcp-limits: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check nsd-backlog
	tcpbench/sweep/limits

# The DNS-over-TLS experiment: DoT handshakes/s with the TCP
# sweep's search and verdicts, with and without session resumption, and
# bytes on the wire per query over UDP, TCP and DoT. See docs/dot.md.
#   make dot [SCALE=smoke|quick|paper] [SERVER=nsd|bind] [DOT_CONFIGS=1p1s] [DOT_STEPS="full resume bytes"]
.PHONY: dot
dot: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check
	tcpbench/dot/run

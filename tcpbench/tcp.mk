# tcp.mk -- the paper's TCP experiment (§5, Figures 5-7): rate sweeps with
# tcpbench in three configurations (issue 8). See docs/tcp.md.
#   make tcp [SCALE=smoke|quick|paper] [CONFIGS=1p1s,2p1s,2p2s] [RB_RUN=...]

.PHONY: tcp
tcp: tcpbench/tcpbench
	tcpbench/tcp-sweep

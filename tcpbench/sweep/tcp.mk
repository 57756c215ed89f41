# tcp.mk -- the TCP capacity experiment (paper §5, Figures 5-7) and how
# NSD's tcp-count and listen backlog move its knee (make tcp-limits). Its
# DoT variant is tcpbench/dot/dot.mk. See docs/tcp.md.
#   make tcp [SCALE=smoke|quick|paper] [TCP_CONFIGS=1p1s,2p1s,2p2s] [TCP_BACKLOG=N] [RB_RUN=...]
#   make tcp TCP_RESUME=<run>/tcp   resume an interrupted sweep (same settings)
#   make tcp-limits [SCALE=...] [TCP_LIMITS="c100-b256 ..."]

.PHONY: tcp tcp-limits
tcp: ## the TCP capacity: new connections/s to the knee (paper section 5)
# The probe (PROBE=on) runs rbprobe beside every sweep.
tcp: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check tcpbench/rbprobe
	tcpbench/sweep/run

tcp-limits: ## how NSD's tcp-count and listen backlog move the TCP knee
tcp-limits: tcpbench/tcpbench scripts/sampler/rbsample analysis/target-check tcpbench/rbprobe nsd-backlog
	tcpbench/sweep/limits

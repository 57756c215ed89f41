# scripts/attack/attack.mk -- under attack: floods at rising rates against the
# instance while a legitimate client (the RSSAC047 probe) and a background of
# the root trace measure what is left, per server and defence. See docs/attack.md.
#   make attack [SCALE=smoke|quick|full] [ATTACK_SERVERS="nsd knot bind"] [ATTACK_KINDS=...] [ATTACK_RATES=...]
.PHONY: attack
attack: ## floods at rising rates: what a legitimate client still gets
# The background trace is rewritten for the testbed (the target guard,
# pcap-setmac); the trace is udpreplay.mk's (UR_TRACE).
attack: tcpbench/rbprobe scripts/sampler/rbsample analysis/target-check udpreplay/build/pcap-setmac
	scripts/attack/run

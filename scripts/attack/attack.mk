# scripts/attack/attack.mk -- under attack: floods at rising rates against the
# instance while a legitimate client (the RSSAC047 probe) and a background of
# the root trace measure what is left, per server and defence. See docs/attack.md.
#   make attack [SCALE=smoke|quick|full] [ATTACK_SERVERS="nsd knot bind"] [ATTACK_KINDS=...] [ATTACK_RATES=...]
.PHONY: attack
attack: ## floods at rising rates: what a legitimate client still gets
attack: tcpbench/rbprobe scripts/sampler/rbsample
	scripts/attack/run

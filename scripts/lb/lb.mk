# lb.mk: the TCP load-balancer stickiness check (paper section 4),
# scripts/lb/run; docs/lb-verify.md. Testbed settings (LB=l3|l4|per-packet,
# ...) and LB_VERIFY_ARGS (e.g. --sources 16 --queries 5) pass through.

.PHONY: lb-verify
lb-verify: ## does the load balancer keep each TCP connection on one server
lb-verify: analysis/target-check
	@scripts/lb/run $(LB_VERIFY_ARGS)

# tcpbench.mk -- the DNS-over-TCP connection-rate generator.
# Included by the top Makefile; see docs/tcpbench.md.

TCPB_LIBS := $(shell pkg-config --libs libevent ldns openssl 2>/dev/null) -lm
# From analysis/ (shared with dnsstat, rbsample, udpreplay): json.c,
# escaped JSON strings; outfile.c, results written whole or not at all;
# numparse.c, strict numbers; cliopt.c, command-line errors; target.c, the target guard (only tcpbench
# itself sends).
TCPB_SHARED := analysis/lib/json.c analysis/lib/outfile.c analysis/lib/numparse.c analysis/lib/cliopt.c
TCPB_MODULES := tcpbench/options.c tcpbench/network.c tcpbench/query.c \
                tcpbench/schedule.c tcpbench/stats.c tcpbench/histogram.c \
                tcpbench/output.c tcpbench/engine.c tcpbench/worker.c tcpbench/tls.c \
                analysis/lib/target.c $(TCPB_SHARED)

$(eval $(call c_program,tcpbench/tcpbench,tcpbench/tcpbench.c $(TCPB_MODULES),$(TCPB_LIBS)))

# Test helper: answers each query well, short, with a wrong ID, QR clear, or tiny.
$(eval $(call c_program,tcpbench/tests/answer-server,tcpbench/tests/answer-server.c,))

# Test helper: histograms for the hist.jq merge test (80-hist-merge).
$(eval $(call c_program,tcpbench/tests/hist-dump,tcpbench/tests/hist-dump.c tcpbench/output.c tcpbench/stats.c tcpbench/histogram.c $(TCPB_SHARED),-lm))

$(eval $(call c_unit_test,tcpbench/tests/test-histogram,tcpbench/tests/test-histogram.c tcpbench/histogram.c,-lm))
$(eval $(call c_unit_test,tcpbench/tests/test-query,tcpbench/tests/test-query.c tcpbench/query.c analysis/lib/numparse.c,$(shell pkg-config --libs ldns 2>/dev/null)))
$(eval $(call c_unit_test,tcpbench/tests/test-sources,tcpbench/tests/test-sources.c tcpbench/network.c analysis/lib/numparse.c tcpbench/stats.c tcpbench/histogram.c,-lm))
$(eval $(call c_unit_test,tcpbench/tests/test-stats,tcpbench/tests/test-stats.c tcpbench/stats.c tcpbench/histogram.c,-lm))
$(eval $(call c_unit_test,tcpbench/tests/test-schedule,tcpbench/tests/test-schedule.c tcpbench/schedule.c,-lm))

.PHONY: tcpbench-bench
tcpbench-bench: ## tcpbench against its peers (a benchmark, not a test)
tcpbench-bench: tcpbench/tcpbench analysis/target-check
	tcpbench/bench

# rbprobe: RSSAC047's probe (docs/probe.md); tcpbench's histogram, schedule,
# query and output (its histogram JSON) modules, and the shared guard.
PROBE_MODULES := tcpbench/probe/popts.c tcpbench/probe/pcheck.c tcpbench/probe/presult.c tcpbench/probe/ptick.c \
                 tcpbench/probe/probe_udp.c tcpbench/probe/probe_tcp.c \
                 tcpbench/histogram.c tcpbench/schedule.c tcpbench/query.c \
                 tcpbench/output.c tcpbench/stats.c tcpbench/network.c analysis/lib/target.c $(TCPB_SHARED)
$(eval $(call c_program,tcpbench/rbprobe,tcpbench/probe/probe.c $(PROBE_MODULES),$(TCPB_LIBS)))
$(eval $(call c_unit_test,tcpbench/tests/test-probe-check,tcpbench/tests/test-probe-check.c tcpbench/probe/pcheck.c,$(shell pkg-config --libs ldns 2>/dev/null)))
$(eval $(call c_unit_test,tcpbench/tests/test-probe-opts,tcpbench/tests/test-probe-opts.c tcpbench/probe/popts.c analysis/lib/target.c $(TCPB_SHARED),))

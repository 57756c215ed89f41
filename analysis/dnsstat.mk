# analysis/dnsstat.mk: the capture analyser dnsstat and its unit
# tests. See docs/dnsstat.md.

DNSSTAT_LIBS := $(shell pkg-config --libs ldns libpcap 2>/dev/null || echo -lldns -lpcap)
DNSSTAT_LIB_SRCS := analysis/lib/capture.c analysis/dnsmsg.c analysis/lib/tcpflow.c \
                    analysis/match.c analysis/stats.c analysis/output.c \
                    analysis/lib/json.c analysis/lib/outfile.c analysis/lib/numparse.c

$(eval $(call c_program,analysis/dnsstat,analysis/dnsstat.c $(DNSSTAT_LIB_SRCS),$(DNSSTAT_LIBS)))

$(eval $(call c_unit_test,analysis/tests/test-dnsmsg,analysis/tests/test-dnsmsg.c analysis/dnsmsg.c analysis/lib/capture.c udpreplay/rng.c,$(DNSSTAT_LIBS) -lm))
$(eval $(call c_unit_test,analysis/tests/test-tcpflow,analysis/tests/test-tcpflow.c analysis/lib/tcpflow.c analysis/match.c analysis/lib/capture.c,$(DNSSTAT_LIBS)))
$(eval $(call c_unit_test,analysis/tests/test-stats,analysis/tests/test-stats.c analysis/stats.c analysis/output.c analysis/lib/json.c analysis/lib/capture.c analysis/dnsmsg.c,$(DNSSTAT_LIBS)))
$(eval $(call c_unit_test,analysis/tests/test-json,analysis/tests/test-json.c analysis/lib/json.c udpreplay/rng.c,-lm))

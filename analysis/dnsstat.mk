# analysis/dnsstat.mk: the capture analyser dnsstat and its unit
# tests. See docs/dnsstat.md.

DNSSTAT_LIBS := $(shell pkg-config --libs ldns libpcap 2>/dev/null || echo -lldns -lpcap)
DNSSTAT_LIB_SRCS := analysis/capture.c analysis/dnsmsg.c analysis/tcpflow.c \
                    analysis/match.c analysis/stats.c analysis/output.c \
                    analysis/json.c analysis/outfile.c analysis/numparse.c

$(eval $(call c_program,analysis/dnsstat,analysis/dnsstat.c $(DNSSTAT_LIB_SRCS),$(DNSSTAT_LIBS)))

$(eval $(call c_unit_test,analysis/test_capture,analysis/test_capture.c analysis/capture.c,$(DNSSTAT_LIBS)))
$(eval $(call c_unit_test,analysis/test_dnsmsg,analysis/test_dnsmsg.c analysis/dnsmsg.c analysis/capture.c udpreplay/rng.c,$(DNSSTAT_LIBS) -lm))
$(eval $(call c_unit_test,analysis/test_tcpflow,analysis/test_tcpflow.c analysis/tcpflow.c analysis/match.c analysis/capture.c,$(DNSSTAT_LIBS)))
$(eval $(call c_unit_test,analysis/test_stats,analysis/test_stats.c analysis/stats.c analysis/output.c analysis/json.c analysis/capture.c analysis/dnsmsg.c,$(DNSSTAT_LIBS)))
$(eval $(call c_unit_test,analysis/test_numparse,analysis/test_numparse.c analysis/numparse.c,))
$(eval $(call c_unit_test,analysis/test_outfile,analysis/test_outfile.c analysis/outfile.c,))
$(eval $(call c_unit_test,analysis/test_json,analysis/test_json.c analysis/json.c udpreplay/rng.c,-lm))

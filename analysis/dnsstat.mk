# analysis/dnsstat.mk: the capture analyser dnsstat (issue 6) and its unit
# tests. See docs/dnsstat.md.

DNSSTAT_LIBS := $(shell pkg-config --libs ldns libpcap 2>/dev/null || echo -lldns -lpcap)
DNSSTAT_LIB_SRCS := analysis/capture.c analysis/dnsmsg.c analysis/tcpflow.c \
                    analysis/match.c analysis/stats.c analysis/output.c

$(eval $(call c_program,analysis/dnsstat,analysis/dnsstat.c $(DNSSTAT_LIB_SRCS),$(DNSSTAT_LIBS)))

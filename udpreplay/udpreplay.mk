# udpreplay: query traffic for the UDP (and TCP) experiments.
#   make trace [TRACE_QUERIES=1000000] [TRACE_SEED=1] [TRACE_PROFILE=root-2016] ...
#              [FAMILY=4|6|both]   IPv4, IPv6 or half-IPv6 clients (docs/ipv6.md)
#   make trace TRACE_FROM_PCAP=capture.pcap[ng]
#   make trace-bench [TRACE_QUERIES=1000000]
# (the settings: udpreplay/make-trace.settings.json)
# write udpreplay/build/trace.pcap and udpreplay/build/trace.queries.

UR_LIBS := $(shell pkg-config --libs ldns libpcap 2>/dev/null) -lm
UR_COMMON := udpreplay/rng.c udpreplay/profile.c udpreplay/tlds.c udpreplay/qgen.c \
             analysis/lib/outfile.c analysis/lib/numparse.c udpreplay/pcapout.c \
             udpreplay/qlist.c

$(eval $(call c_program,udpreplay/build/tracegen,$(UR_COMMON) udpreplay/tracegen.c,$(UR_LIBS)))
# from-pcap decodes frames and reassembles TCP with dnsstat's modules (the
# same sources, so one object each): one decoder in the tree.
UR_CAPTURE := analysis/lib/capture.c analysis/lib/tcpflow.c udpreplay/extract.c

$(eval $(call c_program,udpreplay/build/from-pcap,$(UR_COMMON) $(UR_CAPTURE) udpreplay/frompcap.c,$(UR_LIBS)))
# pcap-setmac: the MAC addresses tcprewrite 4.4 cannot set on IPv6 frames.
$(eval $(call c_program,udpreplay/build/pcap-setmac,udpreplay/setmac.c,$(UR_LIBS)))
$(eval $(call c_unit_test,udpreplay/tests/test-udpreplay,$(UR_COMMON) analysis/lib/capture.c udpreplay/tests/test-udpreplay.c,$(UR_LIBS)))

# Binaries live in udpreplay/build/ (ignored by git) beside the traces.
udpreplay/build/tracegen udpreplay/build/tracegen-san udpreplay/build/from-pcap \
udpreplay/build/from-pcap-san \
udpreplay/build/pcap-setmac udpreplay/build/pcap-setmac-san: | udpreplay/build
udpreplay/build:
	mkdir -p $@

.PHONY: trace trace-bench
trace: ## write the query trace udpreplay/build/trace.pcap (TRACE_*=)
trace: udpreplay/build/tracegen udpreplay/build/from-pcap
	@udpreplay/make-trace

trace-bench: ## tracegen's speed and memory against the paper's replay
trace-bench: udpreplay/build/tracegen
	@udpreplay/bench

# The default trace, made (as make trace makes it) when an experiment that
# replays it runs and it is missing, so each runs alone on a fresh clone;
# one that is there is kept (make trace remakes it). The experiments below
# take it unless they are given a trace of their own: UDP_TRACE (its old
# name TRACE) for the UDP sweeps, ATTACK_TRACE or no background
# (ATTACK_BACKGROUND_QPS=0) for attack.
UR_TRACE := udpreplay/build/trace.pcap
$(UR_TRACE): | udpreplay/build/tracegen udpreplay/build/from-pcap
	@TRACE_DIR= udpreplay/make-trace
udp udp-budget-validation: $(if $(or $(UDP_TRACE),$(TRACE)),,$(UR_TRACE))
attack: $(if $(or $(ATTACK_TRACE),$(filter 0,$(ATTACK_BACKGROUND_QPS))),,$(UR_TRACE))

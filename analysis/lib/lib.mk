# analysis/lib/lib.mk: the C code every program shares (pcap decoding and
# TCP reassembly, JSON strings, number parsing, command-line errors,
# result files, the target guard) and its unit tests. The programs list the sources they link.

LIB_PCAP_LIBS := $(shell pkg-config --libs ldns libpcap 2>/dev/null || echo -lldns -lpcap)

$(eval $(call c_unit_test,analysis/lib/tests/test-capture,analysis/lib/tests/test-capture.c analysis/lib/capture.c,$(LIB_PCAP_LIBS)))
$(eval $(call c_unit_test,analysis/lib/tests/test-cliopt,analysis/lib/tests/test-cliopt.c analysis/lib/cliopt.c,))
$(eval $(call c_unit_test,analysis/lib/tests/test-numparse,analysis/lib/tests/test-numparse.c analysis/lib/numparse.c,))
$(eval $(call c_unit_test,analysis/lib/tests/test-outfile,analysis/lib/tests/test-outfile.c analysis/lib/outfile.c,))
$(eval $(call c_unit_test,analysis/lib/tests/test-target,analysis/lib/tests/test-target.c analysis/lib/target.c analysis/lib/numparse.c,))

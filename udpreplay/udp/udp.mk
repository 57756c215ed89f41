# udpreplay: the UDP capacity experiment (paper section 2). See docs/udp.md.
#   make udp [UDP_TRACE=pcap] [UDP_SWEEP=search|linear] [UDP_LB="l3 l4"] [UDP_LINK=100mbit] ...
.PHONY: udp
udp: ## the UDP ceiling: queries/s answered (paper section 2)
# The probe (PROBE=on) runs rbprobe; kxdpgun replays what from-pcap lists;
# the trace is udpreplay.mk's (UR_TRACE).
udp: analysis/target-check udpreplay/build/pcap-setmac udpreplay/build/from-pcap tcpbench/rbprobe
	@udpreplay/udp/run


# udpreplay: the UDP capacity experiment (paper section 2). See docs/udp.md.
#   make udp [TRACE=pcap] [SWEEP=search|linear] [LB="l3 l4"] [LINK=100mbit] ...
.PHONY: udp
udp: analysis/target-check udpreplay/build/pcap-setmac
	@udpreplay/udp/run


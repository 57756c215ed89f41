# udpreplay: the UDP capacity experiment (paper section 2). See docs/udp.md.
#   make udp [UDP_TRACE=pcap] [UDP_SWEEP=search|linear] [UDP_LB="l3 l4"] [UDP_LINK=100mbit] ...
.PHONY: udp
udp: ## the UDP ceiling: queries/s answered (paper section 2)
udp: analysis/target-check udpreplay/build/pcap-setmac
	@udpreplay/udp/run


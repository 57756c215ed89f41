# wire.jq: what an Ethernet frame costs on the wire beyond its IP packet,
# for every rule that turns bytes into a link's load (udpreplay/udp/rules.jq;
# analysis/sizes-matrix/rules.py's copy, which its test_rules.py checks
# against this one) and for the testbed's shaped link (tc tbf "overhead",
# scripts/lib/testbed.sh), so that the three agree.

# The Ethernet header (destination, source, type), in a frame's octets.
def ethernet_header_bytes: 14;

# What SNMP's interface octets (frames without FCS) and tbf's packet
# lengths leave out: FCS 4 + preamble and start delimiter 8 + inter-frame
# gap 12.
def frame_overhead_bytes: 24;

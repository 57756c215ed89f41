"""wire: what an Ethernet frame costs on the wire beyond its IP packet,
for every rule that turns bytes into a link's load (udpreplay/udp/rules.jq,
analysis/sizes-matrix/rules.jq) and for the testbed's shaped link (tc tbf
"overhead", scripts/lib/testbed.sh), so that the three agree.
(From scripts/lib/wire.jq; test_rules_wire.py checks they agree.)"""


def ethernet_header_bytes():
    """The Ethernet header (destination, source, type), in a frame's octets."""
    return 14


def frame_overhead_bytes():
    """What SNMP's interface octets (frames without FCS) and tbf's packet
    lengths leave out: FCS 4 + preamble and start delimiter 8 +
    inter-frame gap 12."""
    return 24

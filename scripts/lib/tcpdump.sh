# tcpdump.sh: how the testbed's captures run tcpdump, on either backend, so
# that a capture keeps every packet at the experiments' rates while other
# work loads the machine (docs/sizes.md, "Captures under load").
#
#   capture_tcpdump_args SNAPLEN MTU   tcpdump's options before -w
#   CAPTURE_NICE                       the capture's nice value
#
# libpcap receives through a TPACKET_V2 ring (immediate mode) whose slot
# size follows the snap length, and on an interface with segmentation or
# receive offload (every veth) a "whole frame" snap length (0) becomes a
# 64 KiB slot: a 16 MiB ring then held about 250 frames, some 30 ms at the
# sizes experiment's 8,000 packets/s, and a capture pinned to a CPU that
# another lane kept busy for longer lost a third of its packets. So a
# whole-frame capture asks for the link's largest frame (MTU + 18 bytes:
# Ethernet header, a VLAN tag, FCS), about 2 KiB a slot, and a 64 MiB ring
# (some 30,000 slots, seconds at these rates), and runs at a higher
# priority than the load around it (nice -10), so the ring is emptied as
# soon as the CPU is free. A frame larger than the MTU (a TCP segment
# that offload kept whole) is cut to that length; the DNS-over-UDP
# experiments that keep whole frames never see one (answers larger than
# the MTU travel as IP fragments of at most the MTU).

# The nice value of every capture (negative: ahead of the load around it).
CAPTURE_NICE=${CAPTURE_NICE:--10}

# The highest replay rate (queries/s; the router's port sees twice as many
# packets) at which a capture was measured to hold every packet through a
# 200 ms stall of its CPU (analysis/sizes/capture-limit LOAD_KIND=pause,
# docs/sizes.md "Captures under load"); experiments that rely on a
# capture refuse a rate above it.
CAPTURE_MAX_QPS=64000

# capture_rate_check NAME RATE: refuses (returns 1, with the reason on
# stderr) a replay rate above CAPTURE_MAX_QPS.
capture_rate_check() {
    [ "$2" -le "$CAPTURE_MAX_QPS" ] && return 0
    warn "$1=$2 q/s is above $CAPTURE_MAX_QPS q/s, the highest rate at which the captures were measured to stay complete under load (docs/sizes.md, Captures under load)"
    return 1
}

# capture_tcpdump_args SNAPLEN MTU: tcpdump's options (no -i, no -w): every
# packet handed over at once (--immediate-mode) and written at once (-U),
# SNAPLEN bytes of each (0: whole frames of a link of that MTU), the ring.
capture_tcpdump_args() {
    local snap=$1 mtu=$2
    [[ $snap =~ ^[0-9]+$ && $mtu =~ ^[0-9]+$ ]] || { warn "capture: snap length '$snap' and MTU '$mtu' must be numbers"; return 1; }
    [ "$snap" -gt 0 ] || snap=$((mtu + 18))
    echo "-nn -U --immediate-mode -s $snap -B 65536"
}

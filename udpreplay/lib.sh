# udpreplay/lib.sh: shell functions for preparing and replaying query
# traces on the testbed, shared by make trace, the udpreplay tests and
# the UDP capacity experiment. Source after scripts/lib/common.sh and
# scripts/lib/topology.sh; needs RB_PREFIX for the testbed calls. What
# tcpreplay sends passes the target guard (scripts/lib/target.sh) first.

. "$RB_TOP/scripts/lib/target.sh"

UR_BUILD="$RB_TOP/udpreplay/build"
UR_TESTBED="$RB_TOP/scripts/testbed"

# ur_default_zone: the zone file the testbed serves when told nothing:
# the unsigned build of `make zones` if there is one, else the minimal zone.
ur_default_zone() {
    if [ -f "$RB_TOP/zones/build/unsigned/root.zone" ]; then
        echo "$RB_TOP/zones/build/unsigned/root.zone"
    else
        echo "$RB_TOP/zones/minimal/root.zone"
    fi
}

# ur_mac_of ROLE IFNAME: the MAC address of a testbed interface.
ur_mac_of() {
    "$UR_TESTBED" mac "$1" "$2"
}

# ur_rewrite_for_testbed IN OUT PLAYER [SRC_CIDR] [V6] [DST]: rewrite a
# query capture for the testbed the way the paper did (§2.1): Ethernet
# source = the player, destination = the router's client-VLAN MAC; IP
# destination = the service address of the packet's family (or DST, IPv4
# or IPv6, in place of that family's service address); IP source = the
# Listener (so the answers go there and the player only sends) or the
# addresses of SRC_CIDR, an IPv4 or an IPv6 CIDR for that family's queries
# (pseudo-NAT keeps the low host bits, so 198.18.4.0/28 gives 16 sources,
# the player's 2001:2:0:4::/64 keeps the 64 host bits); TTL / hop limit
# 64 (captured queries may arrive with TTL 1); lengths and checksums
# fixed. Only UDP queries to port 53 are kept. V6 = drop (default,
# FAMILY=4: the IPv4 queries only; the paper replayed IPv4 only, and
# tcprewrite cannot turn IPv6 into IPv4), only (FAMILY=6: the IPv6 queries
# only, to 2001:2::53 from the Listener's IPv6 address) or map
# (FAMILY=both: both, each to its family's service address). The target
# guard checks the rewritten trace, packet by packet: every destination,
# and every source (the answers go there), must be an address rootbench
# may send to (RB_ALLOW_RANGES for a lab's own), else nothing is written
# and it dies. Prints "kept N dropped_ipv6 M other_dropped K" on stdout
# ("kept N dropped_ipv4 M other_dropped K" for only); writes OUT only whole.
ur_rewrite_for_testbed() {
    local in=$1 out=$2 player=$3 src=${4:-} v6mode=${5:-drop} dst=${6:-}
    local dst4=$SERVICE4 dst6=$SERVICE6 src4 src6
    need_tools tcprewrite tcpdump capinfos
    [ -r "$in" ] || die "rewrite: cannot read capture $in"
    src4="$(role_addr4 listener)/32" src6="$(role_addr6 listener)/128"
    if [ -n "$src" ]; then
        case $src in
            *:*) [[ $src == */* ]] || src="$src/128"; src6=$src ;;
            *)   [[ $src == */* ]] || src="$src/32"; src4=$src ;;
        esac
    fi
    case $dst in
        "") ;;
        *:*) dst6=$dst ;;
        *) dst4=$dst ;;
    esac
    local filter dstmap srcmap other_family
    case $v6mode in
        drop|4) v6mode=drop other_family='ip6 and udp dst port 53' filter='ip and udp dst port 53'
              dstmap="0.0.0.0/0:$dst4/32"; srcmap="0.0.0.0/0:$src4" ;;
        only|6) v6mode=only other_family='ip and udp dst port 53' filter='ip6 and udp dst port 53'
              dstmap="[::/0]:[$dst6/128]"; srcmap="[::/0]:[$src6]" ;;
        map|both) v6mode=map other_family='' filter='(ip or ip6) and udp dst port 53'
              dstmap="0.0.0.0/0:$dst4/32,[::/0]:[$dst6/128]"
              srcmap="0.0.0.0/0:$src4,[::/0]:[$src6]" ;;
        *) die "rewrite: IPv6 mode '$v6mode' is none of drop (4), only (6), map (both)" ;;
    esac
    local smac dmac tmp total kept other=0
    smac=$(ur_mac_of "$player" eth0) || die "rewrite: no MAC for $player (is testbed $RB_PREFIX up?)"
    dmac=$(ur_mac_of router ethc) || die "rewrite: no MAC for the router's client leg"
    tmp=$(mktemp "${out}.filtered.XXXXXX")
    tcpdump -r "$in" -w "$tmp" "$filter" 2>/dev/null || { rm -f "$tmp"; die "rewrite: cannot read $in as a packet capture"; }
    total=$(ur_count_packets "$in")
    kept=$(ur_count_packets "$tmp")
    [ -z "$other_family" ] || other=$(tcpdump -n -r "$in" "$other_family" 2>/dev/null | wc -l)
    if [ "${kept:-0}" -eq 0 ]; then
        rm -f "$tmp"
        case $v6mode in
            only) die "rewrite: $in holds no IPv6 UDP queries to port 53 (FAMILY=6 replays IPv6 queries only: make trace FAMILY=6, or a capture with IPv6 queries)" ;;
            drop) [ "$other" -gt 0 ] && die "rewrite: $in holds IPv6 queries only ($other), no IPv4 UDP queries to port 53 (FAMILY=6 replays them)"
                  die "rewrite: $in holds no UDP queries to port 53" ;;
            *) die "rewrite: $in holds no UDP queries to port 53" ;;
        esac
    fi
    if ! tcprewrite --infile="$tmp" --outfile="$out.tmp" --dlt=enet \
            --enet-smac="$smac" --enet-dmac="$dmac" \
            --dstipmap="$dstmap" --srcipmap="$srcmap" \
            --ttl=64 --fixlen=del --fixcsum >/dev/null; then
        rm -f "$tmp" "$out.tmp"
        die "rewrite: tcprewrite failed on $in (source $src4 / $src6, destination $dst4 / $dst6)"
    fi
    rm -f "$tmp"
    # tcprewrite 4.4 writes 33:33:... (multicast) MACs on every IPv6 frame,
    # whatever --enet-*mac say: set them again (udpreplay/setmac.c).
    if [ "$v6mode" != drop ]; then
        need_program "$UR_BUILD/pcap-setmac"
        "$UR_BUILD/pcap-setmac" "$smac" "$dmac" "$out.tmp" "$out.tmp" \
            || { rm -f "$out.tmp"; die "rewrite: cannot set the MAC addresses of $out.tmp"; }
    fi
    # The target guard on what tcpreplay will send: the packets tcprewrite
    # wrote, not the settings that were meant to say where they go.
    target_check --pcap "$out.tmp" || { rm -f "$out.tmp"; die "rewrite: the rewritten trace: $TARGET_REFUSAL"; }
    mv "$out.tmp" "$out"
    if [ "$v6mode" = only ]; then
        echo "kept $kept dropped_ipv4 $other other_dropped $((total - kept - other))"
    else
        echo "kept $kept dropped_ipv6 $other other_dropped $((total - kept - other))"
    fi
}

# ur_count_packets FILE: packets in a capture.
ur_count_packets() {
    capinfos -c -M -T "$1" 2>/dev/null | awk -F'\t' 'NR == 2 { print $2 }'
}

# ur_timer PPS: tcpreplay's timing (--timer) at a rate, by UDP_TIMER:
# gtod, tcpreplay's default, busy-waits on gettimeofday and keeps a whole
# CPU busy for the duration, at any rate; nano sleeps (nanosleep) between
# packets and kept 20,000 pps to within 0.01 % for a fifth of gtod's CPU
# on the testbed (2026-11-27), but wakes late by up to the kernel's timer
# slack (50 us). auto (the default) takes nano where the gap between
# packets is at least five times that slack (4,000 pps and below: the
# functional runs, the sizes experiments) and gtod above.
ur_timer() {
    case ${UDP_TIMER:-auto} in
        gtod|nano) echo "$UDP_TIMER" ;;
        auto) if [ "$1" -le 4000 ]; then echo nano; else echo gtod; fi ;;
        *) die "UDP_TIMER=$UDP_TIMER: auto, gtod or nano" ;;
    esac
}

# ur_replay PLAYER FILE PPS COUNT: send COUNT packets of FILE (looping
# if it is shorter) from PLAYER's eth0 at PPS packets per second with
# tcpreplay; bounded in time (COUNT / PPS + 30 s). FILE must pass the
# target guard (every packet's destination and source), else it dies
# before the first packet.
ur_replay() {
    local player=$1 file=$2 pps=$3 count=$4 limit
    target_guard --pcap "$file"
    limit=$(( count / pps + 30 ))
    timeout --kill-after=5 "$limit" "$UR_TESTBED" exec "$player" -- \
        tcpreplay --intf1="$("$UR_TESTBED" iface "$player")" --timer="$(ur_timer "$pps")" --pps="$pps" --limit="$count" --loop=0 "$file"
}

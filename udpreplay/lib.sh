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

# ur_rewrite_for_testbed IN OUT PLAYER [SRC_CIDR4] [V6] [DST]: rewrite a
# query capture for the testbed the way the paper did (§2.1): Ethernet
# source = the player, destination = the router's client-VLAN MAC; IP
# destination = the service address (or DST, IPv4 or IPv6, in place of
# that family's service address); IP source = the Listener (so the answers
# go there and the player only sends) or the addresses of SRC_CIDR4
# (pseudo-NAT keeps the low host bits, so 198.18.4.0/28 gives 16 sources);
# TTL 64 (captured queries may arrive with TTL 1); lengths and checksums
# fixed. Only UDP queries to port 53 are kept. V6 = drop (default; the
# paper replayed IPv4 only, and tcprewrite cannot turn IPv6 into IPv4) or
# map (to 2001:2::53 from the Listener's IPv6 address). The target guard
# checks the rewritten trace, packet by packet: every destination, and
# every source (the answers go there), must be an address rootbench may
# send to (RB_ALLOW_RANGES for a lab's own), else nothing is written and
# it dies. Prints "kept N dropped_ipv6 M other_dropped K" on stdout;
# writes OUT only whole.
ur_rewrite_for_testbed() {
    local in=$1 out=$2 player=$3 src=${4:-} v6mode=${5:-drop} dst=${6:-}
    local dst4=$SERVICE4 dst6=$SERVICE6
    need_tools tcprewrite tcpdump capinfos
    [ -r "$in" ] || die "rewrite: cannot read capture $in"
    [ -n "$src" ] || src="$(role_addr4 listener)/32"
    [[ $src == */* ]] || src="$src/32"
    case $dst in
        "") ;;
        *:*) dst6=$dst ;;
        *) dst4=$dst ;;
    esac
    local filter dstmap srcmap
    case $v6mode in
        drop) filter='ip and udp dst port 53'
              dstmap="0.0.0.0/0:$dst4/32"; srcmap="0.0.0.0/0:$src" ;;
        map)  filter='(ip or ip6) and udp dst port 53'
              dstmap="0.0.0.0/0:$dst4/32,[::/0]:[$dst6/128]"
              srcmap="0.0.0.0/0:$src,[::/0]:[$(role_addr6 listener)/128]" ;;
        *) die "rewrite: IPv6 mode '$v6mode' is neither drop nor map" ;;
    esac
    local smac dmac tmp total kept v6=0
    smac=$(ur_mac_of "$player" eth0) || die "rewrite: no MAC for $player (is testbed $RB_PREFIX up?)"
    dmac=$(ur_mac_of router ethc) || die "rewrite: no MAC for the router's client leg"
    tmp=$(mktemp "${out}.filtered.XXXXXX")
    tcpdump -r "$in" -w "$tmp" "$filter" 2>/dev/null || { rm -f "$tmp"; die "rewrite: cannot read $in as a packet capture"; }
    total=$(ur_count_packets "$in")
    kept=$(ur_count_packets "$tmp")
    [ "$v6mode" = map ] || v6=$(tcpdump -r "$in" 'ip6 and udp dst port 53' 2>/dev/null | wc -l)
    [ "${kept:-0}" -gt 0 ] || { rm -f "$tmp"; die "rewrite: $in holds no UDP queries to port 53"; }
    if ! tcprewrite --infile="$tmp" --outfile="$out.tmp" --dlt=enet \
            --enet-smac="$smac" --enet-dmac="$dmac" \
            --dstipmap="$dstmap" --srcipmap="$srcmap" \
            --ttl=64 --fixlen=del --fixcsum >/dev/null; then
        rm -f "$tmp" "$out.tmp"
        die "rewrite: tcprewrite failed on $in (source $src, destination $dst4 / $dst6)"
    fi
    rm -f "$tmp"
    # The target guard on what tcpreplay will send: the packets tcprewrite
    # wrote, not the settings that were meant to say where they go.
    target_check --pcap "$out.tmp" || { rm -f "$out.tmp"; die "rewrite: the rewritten trace: $TARGET_REFUSAL"; }
    mv "$out.tmp" "$out"
    echo "kept $kept dropped_ipv6 $v6 other_dropped $((total - kept - v6))"
}

# ur_count_packets FILE: packets in a capture.
ur_count_packets() {
    capinfos -c -M -T "$1" 2>/dev/null | awk -F'\t' 'NR == 2 { print $2 }'
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
        tcpreplay --intf1="$("$UR_TESTBED" iface "$player")" --pps="$pps" --limit="$count" --loop=0 "$file"
}

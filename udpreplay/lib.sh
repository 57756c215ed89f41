# udpreplay/lib.sh: shell functions for preparing and replaying query
# traces on the testbed, shared by make trace, the udpreplay tests and
# the UDP capacity experiment. Source after scripts/lib/common.sh and
# scripts/lib/topology.sh; needs RB_PREFIX for the testbed calls.

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
    "$UR_TESTBED" exec "$1" -- ip -j link show dev "$2" | jq -er '.[0].address'
}

# ur_rewrite_for_testbed IN OUT PLAYER [SRC4]: rewrite a query pcap for
# the testbed the way the paper did: Ethernet source = the player,
# destination = the router's client-VLAN MAC; IP destination = the
# service address; IP source = the Listener (so the answers go there and
# the player only sends) or SRC4; checksums fixed. tcprewrite cannot turn
# IPv6 into IPv4, so IPv6 packets are dropped, and counted: the function
# prints "kept N dropped_ipv6 M other_dropped K" on stdout.
ur_rewrite_for_testbed() {
    local in=$1 out=$2 player=$3 src=${4:-}
    need_tools tcprewrite tcpdump capinfos
    [ -f "$in" ] || die "rewrite: no such capture: $in"
    [ -n "$src" ] || src=$(role_addr4 listener)
    local smac dmac tmp total kept v6
    smac=$(ur_mac_of "$player" eth0) || die "rewrite: no MAC for $player (is testbed $RB_PREFIX up?)"
    dmac=$(ur_mac_of router ethc) || die "rewrite: no MAC for the router's client leg"
    tmp=$(mktemp "${out}.v4.XXXXXX")
    total=$(ur_count_packets "$in")
    tcpdump -r "$in" -w "$tmp" 'ip and udp' 2>/dev/null || { rm -f "$tmp"; die "rewrite: tcpdump cannot read $in"; }
    v6=$(tcpdump -r "$in" 'ip6' 2>/dev/null | wc -l)
    kept=$(ur_count_packets "$tmp")
    if ! tcprewrite --infile="$tmp" --outfile="$out.tmp" \
            --enet-smac="$smac" --enet-dmac="$dmac" \
            --dstipmap="0.0.0.0/0:$SERVICE4/32" --srcipmap="0.0.0.0/0:$src/32" \
            --fixcsum >/dev/null; then
        rm -f "$tmp" "$out.tmp"
        die "rewrite: tcprewrite failed on $in"
    fi
    rm -f "$tmp"
    mv "$out.tmp" "$out"
    echo "kept $kept dropped_ipv6 $v6 other_dropped $((total - kept - v6))"
}

# ur_count_packets FILE: packets in a capture.
ur_count_packets() {
    capinfos -c -M -T "$1" 2>/dev/null | awk -F'\t' 'NR == 2 { print $2 }'
}

# ur_replay PLAYER FILE PPS COUNT: send COUNT packets of FILE (looping
# if it is shorter) from PLAYER's eth0 at PPS packets per second with
# tcpreplay; bounded in time (COUNT / PPS + 30 s).
ur_replay() {
    local player=$1 file=$2 pps=$3 count=$4 limit
    limit=$(( count / pps + 30 ))
    timeout --kill-after=5 "$limit" "$UR_TESTBED" exec "$player" -- \
        tcpreplay --intf1=eth0 --pps="$pps" --limit="$count" --loop=0 "$file"
}

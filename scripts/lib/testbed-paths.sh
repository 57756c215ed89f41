# testbed-paths.sh: the namespace testbed's paths between its roles: the
# router's balancing of the service address over the servers (LB), the
# paper's shaped link (LINK) and where receive processing runs (STEER).
# Sourced by testbed.sh.

# ---------------------------------------------------------------- balancing

# Hash fields of fib_multipath_hash_policy=3: 0x01 src IP, 0x02 dst IP,
# 0x04 protocol, 0x10 src port, 0x20 dst port.
tb_configure_lb() {
    local s1_4 s2_4 s1_6 s2_6 fields rt; rt=$(ns_of router)
    s1_4=$(role_addr4 server1); s2_4=$(role_addr4 server2)
    s1_6=$(role_addr6 server1); s2_6=$(role_addr6 server2)
    ip -n "$rt" route replace "$SERVICE4/32" nexthop via "$s1_4" dev eths nexthop via "$s2_4" dev eths
    ip -n "$rt" -6 route replace "$SERVICE6/128" nexthop via "$s1_6" dev eths nexthop via "$s2_6" dev eths
    tb_clear_per_packet
    local policy6=3
    case $LB in
        l3) fields=0x0003 ;;
        l4) fields=0x0037 ;;
        # The kernel's default IPv6 policy 0 (L3): addresses, flow label
        # and next header; IPv4 as l3.
        l3-flowlabel) fields=0x0003 policy6=0 ;;
        per-packet) fields=0x0003; tb_install_per_packet "$s1_4" "$s2_4" "$s1_6" "$s2_6" ;;
    esac
    sysctl_set router net.ipv4.fib_multipath_hash_policy=3 net.ipv4.fib_multipath_hash_fields=$fields \
        net.ipv6.fib_multipath_hash_policy=$policy6 net.ipv6.fib_multipath_hash_fields=$fields
}

# LB=per-packet: a DELIBERATELY BROKEN balancer, the negative control of the
# TCP stickiness check. nftables marks every packet to the service address
# 1 or 2 at random and policy routing sends mark 1 to server1, mark 2 to
# server2, so the segments of one TCP connection land on both servers.
tb_install_per_packet() {
    nsx router nft -f - <<EOF
table inet rootbench_lb {
    chain prerouting {
        type filter hook prerouting priority mangle; policy accept;
        ip daddr $SERVICE4 meta mark set numgen random mod 2 offset 1
        ip6 daddr $SERVICE6 meta mark set numgen random mod 2 offset 1
    }
}
EOF
    local fam mark rt; rt=$(ns_of router)
    for fam in -4 -6; do
        for mark in 1 2; do
            ip -n "$rt" "$fam" rule add fwmark "$mark" lookup "10$mark" priority "10$mark"
        done
    done
    ip -n "$rt" route replace "$SERVICE4/32" via "$1" dev eths table 101
    ip -n "$rt" route replace "$SERVICE4/32" via "$2" dev eths table 102
    ip -n "$rt" -6 route replace "$SERVICE6/128" via "$3" dev eths table 101
    ip -n "$rt" -6 route replace "$SERVICE6/128" via "$4" dev eths table 102
}

tb_clear_per_packet() {
    nsx router nft delete table inet rootbench_lb 2>/dev/null || true
    local fam mark rt; rt=$(ns_of router)
    for fam in -4 -6; do
        for mark in 1 2; do
            while ip -n "$rt" "$fam" rule del priority "10$mark" 2>/dev/null; do :; done
            ip -n "$rt" "$fam" route flush table "10$mark" 2>/dev/null || true
        done
    done
}

# LINK=<rate>: the paper's 100 Mb/s Ethernet between router and servers,
# both directions: queries leave the router's server leg, answers leave the
# switch port toward the router. overhead: FCS + preamble + inter-frame gap
# (scripts/lib/wire.jq, as the rules that read the link's load count it),
# so the rate is that of a real wire, not of frames.
tb_configure_link() {
    local sw ovh rt; sw=$(ns_of switch); rt=$(ns_of router)
    if [ "$LINK" = none ]; then
        tc -n "$rt" qdisc del dev eths root 2>/dev/null || true
        tc -n "$sw" qdisc del dev "$(switch_port router-s)" root 2>/dev/null || true
        return 0
    fi
    ovh=$(jq -n -L "$RB_TOP/scripts/lib" 'include "wire"; frame_overhead_bytes') || die "scripts/lib/wire.jq unreadable"
    tc -n "$rt" qdisc replace dev eths root tbf rate "$LINK" burst 32k latency 20ms overhead "$ovh"
    tc -n "$sw" qdisc replace dev "$(switch_port router-s)" root \
        tbf rate "$LINK" burst 32k latency 20ms overhead "$ovh"
}

# STEER=rps: every interface's receive path runs on the CPUs of the role
# that owns it (Receive Packet Steering), not on the CPU that sent the
# packet (veth's default). Without it the players' TCP receive work, and so
# the expiry of their TIME-WAIT sockets, runs on the servers' CPU whenever
# a server sent the packet. The switch and the router are the rig: client CPUs.
# STEER=rig: the same for every role but the servers, whose receive path
# stays on the sending CPU (the switch's, a client CPU): the servers' CPU
# then runs the daemons and their sends only, the rig's work and the
# servers' receive run on the rig's CPU (docs/methodology.md).
tb_configure_steering() {
    local role mask
    for role in "${ROLES[@]}"; do
        mask=0
        if [ "$STEER" = rps ] || { [ "$STEER" = rig ] && [[ " ${SERVER_ROLES[*]} " != *" $role "* ]]; }; then
            mask=$(cpu_mask "$(cpus_of "$role")")
        fi
        # (in the namespace, whose /sys shows its own interfaces)
        # shellcheck disable=SC2016
        ip netns exec "$(ns_of "$role")" sh -c 'for f in /sys/class/net/*/queues/rx-*/rps_cpus; do
            [ ! -e "$f" ] || echo "$1" > "$f" || exit 1; done' steer "$mask"
    done
}

# cpu_mask LIST: a taskset CPU list ("0-2,5") as a hex mask.
cpu_mask() {
    local part m=0 a b c
    IFS=, read -r -a parts <<<"$1"
    for part in "${parts[@]}"; do
        a=${part%-*}; b=${part#*-}
        for ((c = a; c <= b; c++)); do m=$(( m | (1 << c) )); done
    done
    printf '%x\n' "$m"
}


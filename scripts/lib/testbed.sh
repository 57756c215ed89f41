# testbed.sh: build, inspect and tear down the root-instance testbed
# (paper §1, Figure 1) out of network namespaces on one machine.
#
# Source after common.sh and topology.sh. The functions read their settings
# from the variables that tb_load_config sets; `up` is declarative: every
# call states the whole configuration (unset variables take the defaults)
# and the running testbed is brought to it.

. "$RB_TOP/scripts/lib/servers.sh"
. "$RB_TOP/scripts/lib/tls.sh"
. "$RB_TOP/scripts/lib/testbed-config.sh"

RB_STATE_ROOT=${RB_STATE_ROOT:-/run/rootbench}
TB_STATE="$RB_STATE_ROOT/$RB_PREFIX"
TB_CONFIG="$TB_STATE/config.env"
# DNS over TLS (SERVER_TLS=yes): the port, and the testbed's CA and server
# certificate (scripts/lib/tls.sh), one pair for both servers.
TB_TLS_PORT=853
TB_TLS_DIR="$TB_STATE/tls"

# ns_exists NS: whether the named network namespace exists (ip netns keeps
# them in /run/netns; a file test, not a `ip netns list | grep -q` pipe,
# which pipefail can fail when grep stops reading early).
ns_exists() { [ -e "/run/netns/$1" ]; }

tb_is_up() { [ -f "$TB_CONFIG" ] && ns_exists "$(ns_of router)"; }

# ---------------------------------------------------------------- helpers

cpus_of() {
    case $1 in server1|server2) echo "$SERVER_CPUS" ;; *) echo "$CLIENT_CPUS" ;; esac
}

# in_ns ROLE CMD...: run CMD in the role's namespace, pinned to its CPUs,
# in the role's cgroup (so its CPU time is counted per role).
in_ns() {
    local role=$1 cg budget; shift
    cg=$(tb_cgroup_dir "$role")
    # A server also joins its CPU budget's cgroup (a v1 cpu hierarchy's).
    budget=$(tb_cpu_budget_dir "$role")
    [ "$budget" != "$cg" ] || budget=""
    # Into the cgroups first: `ip netns exec` remounts /sys, which hides the
    # cgroup file system from the command it runs.
    # shellcheck disable=SC2016
    bash -c 'echo $$ > "$1/cgroup.procs" && { [ -z "$2" ] || echo $$ > "$2/cgroup.procs"; } && shift 2 && exec "$@"' \
        in_ns "$cg" "$budget" ip netns exec "$(ns_of "$role")" taskset -c "$(cpus_of "$role")" "$@"
}

# ---------------------------------------------------------------- cgroups

# tb_cgroup_root: this prefix's cgroup (v2) directory: one child per role,
# whose cpu.stat usage_usec is the CPU time the role's processes used
# (precise scheduler time, not tick samples).
tb_cgroup_root() {
    local mnt
    mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    [ -n "$mnt" ] || die "no cgroup2 file system mounted (the testbed counts CPU per role with cgroup v2)"
    echo "$mnt/rootbench-$RB_PREFIX"
}
tb_cgroup_dir() { echo "$(tb_cgroup_root)/$1"; }

tb_create_cgroups() {
    local role
    for role in "${ROLES[@]}"; do mkdir -p "$(tb_cgroup_dir "$role")"; done
}

# tb_remove_cgroups: after every process has gone (a populated cgroup
# cannot be removed).
tb_remove_cgroups() {
    local root role; root=$(tb_cgroup_root 2>/dev/null) || return 0
    [ -d "$root" ] || return 0
    local i
    # A killed process leaves its cgroup only once it has been reaped.
    for i in $(seq 20); do
        for role in "${ROLES[@]}" sampler; do [ ! -d "$root/$role" ] || rmdir "$root/$role" 2>/dev/null || true; done
        rmdir "$root" 2>/dev/null && return 0
        sleep 0.1
    done
    warn "cgroup $root not removed (processes left in it?)"
}

# ---------------------------------------------------------------- CPU budget

# SERVER_CPU=F (0.05 to the number of CPUs in SERVER_CPUS, or max): each
# server daemon may use F CPUs' time in every SERVER_CPU_PERIOD_US period
# (CFS bandwidth control: cgroup v2 cpu.max, or v1 cpu.cfs_quota_us where
# the cpu controller is bound to v1, as on this machine), so that the
# server, not the rig, runs out first. The daemon's own time only: the
# kernel's receive path runs in softirq context, charged to no cgroup;
# docs/methodology.md says how it is accounted. A throttled daemon waits
# at most period x (1 - F) for its next quota; the short default period
# (2 ms, or 1 ms / F below 0.5 CPU) keeps that far below what the socket
# buffers and the listen backlog absorb at the rates measured; the kernel
# wants a quota of at least 1 ms, so below 0.5 CPU the default period is
# 1 ms / F (4 ms at 0.25: pauses of at most 3 ms).

# tb_cpu_controller: "v2 DIR" or "v1 DIR", the hierarchy whose cpu
# controller limits the servers; fails when there is none.
tb_cpu_controller() {
    local v2 v1
    v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    if [ -n "$v2" ] && grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null; then echo "v2 $v2"; return 0; fi
    v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
    [ -n "$v1" ] && [ -w "$v1" ] && { echo "v1 $v1"; return 0; }
    return 1
}

# tb_cpu_default_period_us: the shortest period (at least 2 ms) whose
# quota is the kernel's smallest, 1 ms: 4 ms at SERVER_CPU=0.25, 2 ms from
# 0.5 up (a shorter period means shorter throttle pauses).
tb_cpu_default_period_us() {
    [ "$SERVER_CPU" = max ] && { echo 2000; return 0; }
    awk -v f="$SERVER_CPU" 'BEGIN { p = int(1000 / f + 0.999); if (p < 2000) p = 2000; print p }' 2>/dev/null || echo 2000
}

# tb_check_cpu_budget: SERVER_CPU and its period are sane and can be set.
tb_check_cpu_budget() {
    [[ $SERVER_CPU_PERIOD_US =~ ^[0-9]+$ ]] && [ "$SERVER_CPU_PERIOD_US" -ge 1000 ] && [ "$SERVER_CPU_PERIOD_US" -le 100000 ] \
        || die "SERVER_CPU_PERIOD_US=$SERVER_CPU_PERIOD_US must be auto or 1000..100000 microseconds"
    [ "$SERVER_CPU" = max ] && return 0
    local ncpu; ncpu=$(taskset_count "$SERVER_CPUS")
    [[ $SERVER_CPU =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v f="$SERVER_CPU" -v n="$ncpu" 'BEGIN { exit !(f >= 0.05 && f <= n) }' \
        || die "SERVER_CPU=$SERVER_CPU must be max or a share of a CPU from 0.05 to $ncpu (the CPUs in SERVER_CPUS=$SERVER_CPUS)"
    tb_cpu_controller >/dev/null || die "SERVER_CPU=$SERVER_CPU needs the cgroup cpu controller (v2 cpu.max or v1 cpu.cfs_quota_us); none is mounted"
    [ "$(tb_cpu_quota_us)" -ge 1000 ] \
        || die "SERVER_CPU=$SERVER_CPU with SERVER_CPU_PERIOD_US=$SERVER_CPU_PERIOD_US is a quota of $(tb_cpu_quota_us) us; the kernel's smallest is 1000 (a longer period, or auto)"
}

# taskset_count LIST: how many CPUs a taskset list (0-1,3) names.
taskset_count() {
    local n=0 part
    for part in ${1//,/ }; do
        if [[ $part == *-* ]]; then n=$((n + ${part#*-} - ${part%-*} + 1)); else n=$((n + 1)); fi
    done
    echo "$n"
}

# tb_cpu_quota_us: the quota per period, or "max".
tb_cpu_quota_us() {
    [ "$SERVER_CPU" = max ] && { echo max; return 0; }
    awk -v f="$SERVER_CPU" -v p="$SERVER_CPU_PERIOD_US" 'BEGIN { printf "%d\n", f * p + 0.5 }'
}

# tb_cpu_budget_dir ROLE: the cgroup that carries ROLE's CPU budget ("" for
# a role without one, or without a cpu controller). In v2 it is the role's
# own cgroup; in v1 one of the same name under the cpu hierarchy.
tb_cpu_budget_dir() {
    [[ " ${SERVER_ROLES[*]} " == *" $1 "* ]] || return 0
    # without a budget the servers stay out of any cpu cgroup, scheduled
    # as before budgets existed
    [ "${SERVER_CPU:-max}" != max ] || return 0
    local kind dir
    read -r kind dir <<<"$(tb_cpu_controller 2>/dev/null || true)"
    case $kind in
        v2) echo "$(tb_cgroup_dir "$1")" ;;
        v1) echo "$dir/rootbench-$RB_PREFIX/$1" ;;
    esac
}

# tb_apply_cpu_budget: every server's cgroup limited to SERVER_CPU (in place:
# a running daemon in it takes a new budget at once; a daemon is moved in or
# out by a restart: tb_start_server).
tb_apply_cpu_budget() {
    local role d kind q
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    [ -n "$kind" ] && [ "$SERVER_CPU" != max ] || return 0
    q=$(tb_cpu_quota_us)
    for role in "${SERVER_ROLES[@]}"; do
        d=$(tb_cpu_budget_dir "$role")
        if [ "$kind" = v2 ]; then
            grep -qw cpu "$(tb_cgroup_root)/cgroup.subtree_control" || echo +cpu > "$(tb_cgroup_root)/cgroup.subtree_control"
            echo "$q $SERVER_CPU_PERIOD_US" > "$d/cpu.max"
        else
            mkdir -p "$d"
            echo "$SERVER_CPU_PERIOD_US" > "$d/cpu.cfs_period_us"
            if [ "$q" = max ]; then echo -1 > "$d/cpu.cfs_quota_us"; else echo "$q" > "$d/cpu.cfs_quota_us"; fi
        fi
    done
}

# tb_remove_cpu_budget: the v1 budget cgroups (v2's are the role cgroups).
tb_remove_cpu_budget() {
    local kind dir role
    read -r kind dir <<<"$(tb_cpu_controller 2>/dev/null || true)"
    [ "$kind" = v1 ] && [ -d "$dir/rootbench-$RB_PREFIX" ] || return 0
    for role in "${SERVER_ROLES[@]}"; do rmdir "$dir/rootbench-$RB_PREFIX/$role" 2>/dev/null || true; done
    rmdir "$dir/rootbench-$RB_PREFIX" 2>/dev/null || warn "cgroup $dir/rootbench-$RB_PREFIX not removed"
}

# tb_cpu_budget_json: the budget as set, for status --json: SERVER_CPU, its
# period and quota, the controller, the longest a throttled daemon waits.
tb_cpu_budget_json() {
    local kind q
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    q=$(tb_cpu_quota_us)
    jq -n --arg f "$SERVER_CPU" --argjson p "$SERVER_CPU_PERIOD_US" --arg q "$q" --arg kind "$kind" '
        {budget: (if $f == "max" then null else ($f | tonumber) end), period_us: $p,
         quota_us: (if $q == "max" then null else ($q | tonumber) end),
         controller: (if $kind == "v2" then "cgroup v2 cpu.max" elif $kind == "v1" then "cgroup v1 cpu.cfs_quota_us" else null end),
         longest_pause_bound_us: (if $q == "max" then 0 else ([$p - ($q | tonumber), 0] | max) end),
         charged: "the daemon'"'"'s own CPU time; its kernel receive path (softirq) is charged to no cgroup"}'
}

# tb_cpu_budget_stat: each server's throttling so far, as JSON
# {server1: {periods, throttled_periods, throttled_us}} (cpu.stat).
tb_cpu_budget_stat() {
    local role d kind
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    for role in "${SERVER_ROLES[@]}"; do
        d=$(tb_cpu_budget_dir "$role")
        [ -n "$d" ] && [ -f "$d/cpu.stat" ] || { jq -n --arg r "$role" '{($r): null}'; continue; }
        awk -v r="$role" -v k="$kind" '
            $1 == "nr_periods" { p = $2 } $1 == "nr_throttled" { t = $2 }
            $1 == "throttled_usec" { u = $2 } $1 == "throttled_time" { u = int($2 / 1000) }
            END { printf "{\"%s\": {\"periods\": %d, \"throttled_periods\": %d, \"throttled_us\": %d}}\n", r, p, t, u }' "$d/cpu.stat"
    done | jq -s -c 'add'
}

# nsx ROLE CMD...: a quick unpinned command (ip, sysctl, nft) in a namespace.
nsx() { local role=$1; shift; ip netns exec "$(ns_of "$role")" "$@"; }

sysctl_set() { local role=$1; shift; nsx "$role" sysctl -q -w "$@" >/dev/null; }

# ---------------------------------------------------------------- building

tb_create_namespaces() {
    local role ns
    for role in "${ROLES[@]}"; do
        ns=$(ns_of "$role")
        ns_exists "$ns" || ip netns add "$ns"
        ip -n "$ns" link set lo up
        sysctl_set "$role" net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 \
            net.ipv6.conf.all.accept_ra=0 net.ipv6.conf.default.accept_ra=0
    done
}

# tb_create_port ROLE IFNAME BRIDGE: a veth from the role (IFNAME) to a
# switch port named after the role, enslaved to BRIDGE.
tb_create_port() {
    local role=$1 ifname=$2 bridge=$3 port
    port=$(switch_port "${4:-$role}")
    local sw; sw=$(ns_of switch)
    if ! ip -n "$sw" link show "$port" >/dev/null 2>&1; then
        ip -n "$sw" link add name "$port" type veth peer name "$ifname" netns "$(ns_of "$role")"
    fi
    # Fixed MAC addresses (locally administered, from the prefix, role and
    # interface): a testbed rebuilt later has the same ones, so captures and
    # their filters stay comparable across runs.
    ip -n "$sw" link set "$port" address "$(tb_mac "switch-$port")"
    ip -n "$(ns_of "$role")" link set "$ifname" address "$(tb_mac "$role-$ifname")"
    ip -n "$sw" link set "$port" master "$bridge" up
    ip -n "$(ns_of "$role")" link set "$ifname" up
}

# tb_mac NAME: a locally administered unicast MAC derived from the prefix and NAME.
tb_mac() {
    printf '%s' "$RB_PREFIX/$1" | md5sum | sed 's/^\(..\)\(..\)\(..\)\(..\)\(..\).*/02:\1:\2:\3:\4:\5/'
}

tb_create_switch() {
    local sw br; sw=$(ns_of switch)
    for br in brc brs; do
        ip -n "$sw" link show "$br" >/dev/null 2>&1 || ip -n "$sw" link add name "$br" type bridge
        # No STP, no learning delay: the paper's switch forwarded at once.
        ip -n "$sw" link set "$br" type bridge stp_state 0 forward_delay 0
        ip -n "$sw" link set "$br" up
    done
    local role
    for role in "${CLIENT_ROLES[@]}"; do tb_create_port "$role" eth0 brc; done
    for role in "${SERVER_ROLES[@]}"; do tb_create_port "$role" eth0 brs; done
    tb_create_port router ethc brc router-c
    tb_create_port router eths brs router-s
}

tb_address_roles() {
    local role
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}"; do
        nsx "$role" ip addr replace "$(role_addr4 "$role")/24" dev eth0
        nsx "$role" ip -6 addr replace "$(role_addr6 "$role")/64" dev eth0 nodad
    done
    nsx router ip addr replace "$(role_addr4 router-c)/24" dev ethc
    nsx router ip -6 addr replace "$(role_addr6 router-c)/64" dev ethc nodad
    nsx router ip addr replace "$(role_addr4 router-s)/24" dev eths
    nsx router ip -6 addr replace "$(role_addr6 router-s)/64" dev eths nodad
    for role in "${SERVER_ROLES[@]}"; do
        nsx "$role" ip addr replace "$SERVICE4/32" dev lo
        nsx "$role" ip -6 addr replace "$SERVICE6/128" dev lo nodad
    done
}

# Only the benchmarking ranges are routable anywhere: no default routes.
tb_route_roles() {
    local role gw4 gw6
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}"; do
        case $role in
            server*) gw4=$(role_addr4 router-s); gw6=$(role_addr6 router-s) ;;
            *)       gw4=$(role_addr4 router-c); gw6=$(role_addr6 router-c) ;;
        esac
        nsx "$role" ip route replace "$BENCH_NET4" via "$gw4"
        nsx "$role" ip -6 route replace "$BENCH_NET6" via "$gw6"
    done
    sysctl_set router net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
        net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
    local p
    for p in player1 player2; do
        nsx router ip route replace "$(player_block4 "$p")" via "$(role_addr4 "$p")"
        nsx router ip -6 route replace "$(player_block6 "$p")" via "$(role_addr6 "$p")"
        # AnyIP: the player may bind any address of its block.
        nsx "$p" ip route replace local "$(player_block4 "$p")" dev lo
        nsx "$p" ip -6 route replace local "$(player_block6 "$p")" dev lo
        sysctl_set "$p" net.ipv4.conf.all.rp_filter=0 net.ipv4.ip_nonlocal_bind=1 \
            net.ipv6.ip_nonlocal_bind=1 net.ipv4.tcp_tw_reuse=1 \
            net.ipv4.ip_local_port_range="1024 65535"
        # The players' TIME-WAIT sockets: the kernel's default, or a cap
        # (0: none kept, so none expire in batches later).
        [ -n "${TB_TW_DEFAULT:-}" ] || TB_TW_DEFAULT=$(sysctl -n net.ipv4.tcp_max_tw_buckets)
        sysctl_set "$p" net.ipv4.tcp_max_tw_buckets="$([ "$PLAYER_TW_BUCKETS" = default ] && echo "$TB_TW_DEFAULT" || echo "$PLAYER_TW_BUCKETS")"
    done
    # The paper's `route add ... reject` on the Listener: it receives the
    # answers but must never send anything back (no ICMP port unreachable).
    nsx listener ip route replace blackhole "$SERVICE4/32"
    nsx listener ip -6 route replace blackhole "$SERVICE6/128"
}

# ---------------------------------------------------------------- balancing

# Hash fields of fib_multipath_hash_policy=3: 0x01 src IP, 0x02 dst IP,
# 0x04 protocol, 0x10 src port, 0x20 dst port.
tb_configure_lb() {
    local s1_4 s2_4 s1_6 s2_6 fields
    s1_4=$(role_addr4 server1); s2_4=$(role_addr4 server2)
    s1_6=$(role_addr6 server1); s2_6=$(role_addr6 server2)
    nsx router ip route replace "$SERVICE4/32" nexthop via "$s1_4" dev eths nexthop via "$s2_4" dev eths
    nsx router ip -6 route replace "$SERVICE6/128" nexthop via "$s1_6" dev eths nexthop via "$s2_6" dev eths
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
    local fam mark
    for fam in -4 -6; do
        for mark in 1 2; do
            nsx router ip "$fam" rule add fwmark "$mark" lookup "10$mark" priority "10$mark"
        done
    done
    nsx router ip route replace "$SERVICE4/32" via "$1" dev eths table 101
    nsx router ip route replace "$SERVICE4/32" via "$2" dev eths table 102
    nsx router ip -6 route replace "$SERVICE6/128" via "$3" dev eths table 101
    nsx router ip -6 route replace "$SERVICE6/128" via "$4" dev eths table 102
}

tb_clear_per_packet() {
    nsx router nft delete table inet rootbench_lb 2>/dev/null || true
    local fam mark
    for fam in -4 -6; do
        for mark in 1 2; do
            while nsx router ip "$fam" rule del priority "10$mark" 2>/dev/null; do :; done
            nsx router ip "$fam" route flush table "10$mark" 2>/dev/null || true
        done
    done
}

# LINK=<rate>: the paper's 100 Mb/s Ethernet between router and servers,
# both directions: queries leave the router's server leg, answers leave the
# switch port toward the router. overhead: FCS + preamble + inter-frame gap
# (scripts/lib/wire.jq, as the rules that read the link's load count it),
# so the rate is that of a real wire, not of frames.
tb_configure_link() {
    local sw ovh; sw=$(ns_of switch)
    if [ "$LINK" = none ]; then
        nsx router tc qdisc del dev eths root 2>/dev/null || true
        ip netns exec "$sw" tc qdisc del dev "$(switch_port router-s)" root 2>/dev/null || true
        return 0
    fi
    ovh=$(jq -n -L "$RB_TOP/scripts/lib" 'include "wire"; frame_overhead_bytes') || die "scripts/lib/wire.jq unreadable"
    nsx router tc qdisc replace dev eths root tbf rate "$LINK" burst 32k latency 20ms overhead "$ovh"
    ip netns exec "$sw" tc qdisc replace dev "$(switch_port router-s)" root \
        tbf rate "$LINK" burst 32k latency 20ms overhead "$ovh"
}

# STEER=rps: every interface's receive path runs on the CPUs of the role
# that owns it (Receive Packet Steering), not on the CPU that sent the
# packet (veth's default). Without it the players' TCP receive work, and so
# the expiry of their TIME-WAIT sockets, runs on the servers' CPU whenever
# a server sent the packet. The switch and the router are the rig: client CPUs.
tb_configure_steering() {
    local role ns f mask
    for role in "${ROLES[@]}"; do
        ns=$(ns_of "$role")
        mask=0
        [ "$STEER" = rps ] && mask=$(cpu_mask "$(cpus_of "$role")")
        for f in $(ip netns exec "$ns" sh -c 'ls -d /sys/class/net/*/queues/rx-*/rps_cpus 2>/dev/null'); do
            ip netns exec "$ns" sh -c "echo $mask > $f"
        done
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

# ---------------------------------------------------------------- counters

# nftables counters that experiments read: answers reaching the Listener,
# and DNS packets reaching each server (the paper's stray-packet watch).
tb_install_counters() {
    nsx listener nft list table inet rootbench >/dev/null 2>&1 || tb_counters_ruleset listener | nsx listener nft -f -
    local role
    for role in "${SERVER_ROLES[@]}"; do
        nsx "$role" nft list table inet rootbench >/dev/null 2>&1 || tb_counters_ruleset server | nsx "$role" nft -f -
    done
}

# tb_counters_json: every testbed counter as one JSON object
# {"listener":{"dns_answers":{"packets":N,"bytes":N}},"server1":{...},...}.
tb_counters_json() { tb_counters_collect nsx; }

# ---------------------------------------------------------------- daemons

# tb_pid_alive PIDFILE: the process is running. A killed daemon whose
# parent (init, for a daemon) has not reaped it yet is a zombie, which
# kill -0 still finds: that one is dead.
tb_pid_alive() {
    local pid state
    [ -f "$1" ] && pid=$(cat "$1") && [[ $pid =~ ^[0-9]+$ ]] || return 1
    state=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
    [ -n "$state" ] && [[ $state != Z* ]]
}

# SNMP: net-snmp in the switch namespace, on its loopback only. It reads the
# namespace's /proc/net/dev, so IF-MIB covers exactly the switch ports.
tb_start_snmpd() {
    local dir="$TB_STATE/snmpd"
    mkdir -p "$dir"
    tb_pid_alive "$dir/snmpd.pid" && return 0
    # The write community reaches only the agent's cache timeouts
    # (NET-SNMP-AGENT-MIB nsCacheTimeout), from the switch's own loopback.
    cat > "$dir/snmpd.conf" <<EOF
agentAddress udp:127.0.0.1:161
rocommunity public 127.0.0.1
rwcommunity rbcache 127.0.0.1 $TB_SNMP_CACHE_TIMEOUT_OID
EOF
    rm -f "$dir/cache-timeout"
    SNMP_PERSISTENT_DIR="$dir" in_ns switch snmpd -C -c "$dir/snmpd.conf" -M /nonexistent -m "" \
        -p "$dir/snmpd.pid" -Lf "$dir/snmpd.log"
    tb_wait_for "snmpd in $(ns_of switch)" tb_snmp_ready
    tb_snmp_cache_off "$dir"
}

# net-snmp keeps the interface table (ifTable, which ifXTable reads too) in
# a cache for 3 s. With its timeout at 0 every reading is the kernel's
# counter of that moment (test 12 compares them with sysfs), and no
# reading needs to wait; the timeout read back is kept in
# DIR/cache-timeout for snmp_settle.
TB_SNMP_CACHE_TIMEOUT_OID=.1.3.6.1.4.1.8072.1.5.3.1.2
TB_SNMP_IFTABLE_OID=1.3.6.1.2.1.2.2     # the row index: the cache's OID
tb_snmp_cache_off() {
    local t
    nsx switch snmpset -M /nonexistent -m "" -v2c -c rbcache -t 1 -r 1 127.0.0.1 \
        "$TB_SNMP_CACHE_TIMEOUT_OID.$TB_SNMP_IFTABLE_OID" i 0 >/dev/null 2>&1 || true
    t=$(nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 1 -r 1 -Oqv 127.0.0.1 \
        "$TB_SNMP_CACHE_TIMEOUT_OID.$TB_SNMP_IFTABLE_OID" 2>/dev/null || true)
    if [ "$t" = 0 ]; then echo 0 > "$1/cache-timeout"
    else warn "snmpd's interface cache could not be turned off (timeout '${t:-unread}'): each SNMP reading waits ${SNMP_SETTLE_S:-4} s"
    fi
}

# snmp_settle: the seconds an SNMP reading waits before it is taken:
# SNMP_SETTLE_S when set; else 0 when the agent's interface cache is off,
# 4 (longer than its 3 s) when it is not.
snmp_settle() {
    if [ -n "${SNMP_SETTLE_S:-}" ]; then echo "$SNMP_SETTLE_S"
    elif [ "$(cat "$TB_STATE/snmpd/cache-timeout" 2>/dev/null)" = 0 ]; then echo 0
    else echo 4
    fi
}

tb_snmp_ready() {
    nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 1 -r 0 -Oqv 127.0.0.1 1.3.6.1.2.1.1.3.0 >/dev/null 2>&1
}

# snmp_octets IFINDEX in|out: ifHCInOctets / ifHCOutOctets of a switch port,
# never older than the traffic that came before the call: taken after
# snmp_settle's wait (none while the agent's cache is off).
snmp_octets() {
    sleep "$(snmp_settle)"
    local oid
    case $2 in in) oid=1.3.6.1.2.1.31.1.1.1.6 ;; out) oid=1.3.6.1.2.1.31.1.1.1.10 ;; *) return 1 ;; esac
    nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 2 -r 1 -Oqv 127.0.0.1 "$oid.$1"
}

# switch_ifindex PORT: the SNMP ifIndex (= kernel ifindex) of a switch port.
switch_ifindex() { nsx switch cat "/sys/class/net/$1/ifindex"; }

# tb_server_program: the daemon the servers run.
tb_server_program() { srv "$SERVER" program; }

# tb_server_stats_json ROLE: the daemon's own counters (srv_stats_json):
# {"queries": N, "udp": N, "tcp": N, "counters": {...}}, {} when it does
# not answer within 3 s (stalled), and at once when its main process is
# stopped (SIGSTOP: it cannot answer).
tb_server_stats_json() {
    local pid state=""
    pid=$(cat "$TB_STATE/$1/server.pid" 2>/dev/null) || pid=""
    [[ $pid =~ ^[0-9]+$ ]] && state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
    if [[ $state == T* ]]; then echo '{}'; return 0; fi
    srv_stats_json "$SERVER" "$1" "$TB_STATE/$1"
}

tb_stop_pidfile() {
    local pidfile=$1 pid i
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    # SIGTERM, then SIGKILL after 1 s: the testbed's daemons keep nothing
    # worth a slow exit (Knot takes 1.3-1.7 s to stop when idle, longer
    # under load).
    kill "$pid" 2>/dev/null || true
    for i in $(seq 10); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    # Gone, not only signalled: a daemon still exiting keeps its sockets,
    # and the next daemon's queries could be handed to them, unanswered.
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && die "daemon $pid ($pidfile) did not exit 11 s after SIGTERM and SIGKILL"
    rm -f "$pidfile"
}

# tb_server_fail ROLE WHAT: die with WHAT and the last lines of the
# server's own log, after bringing the whole testbed down: a testbed whose
# server cannot serve is not left half working.
tb_server_fail() {
    local role=$1 dir="$TB_STATE/$1" msg
    msg="$2 (SERVER=$SERVER on $role)"
    if [ -s "$dir/server.log" ]; then
        msg+=$'; its log:\n'$(tb_server_log_lines "$dir/server.log")
    fi
    tb_down
    die "$msg; the testbed is down"
}

# tb_start_server ROLE: the server daemon with the current configuration
# (restarted only when the configuration, the zones or the program
# changed); dies with the daemon's own message when its configuration or a
# zone is refused or it does not answer within SERVER_START_S seconds.
tb_start_server() {
    local role=$1 dir="$TB_STATE/$1" new out
    mkdir -p "$dir"
    [ "$SERVER_TLS" = no ] || tb_make_tls_certs
    new=$(tb_render_server_conf "$role")
    # whether the daemon runs under a CPU budget's cgroup: a change restarts it
    local budget=none; [ "$SERVER_CPU" = max ] || budget=cgroup
    if tb_pid_alive "$dir/server.pid" && [ "$new" = "$(cat "$dir/server.conf" 2>/dev/null)" ] \
        && [ "$budget" = "$(cat "$dir/cpu_budget" 2>/dev/null || echo none)" ]; then
        return 0
    fi
    echo "$budget" > "$dir/cpu_budget"
    tb_stop_pidfile "$dir/server.pid"
    rm -f "$dir/server.log"
    printf '%s\n' "$new" > "$dir/server.conf"
    out=$(srv "$SERVER" checkconf "$dir") || tb_server_fail "$role" "$SERVER's configuration check refused $dir/server.conf: $(tail -n 5 <<<"$out")"
    # The kernel caps listen()'s backlog at the namespace's somaxconn.
    sysctl_set "$role" net.core.somaxconn="$SERVER_BACKLOG"
    out=$(srv "$SERVER" start "$role" "$dir" 2>&1) || tb_server_fail "$role" "$SERVER failed to start in $(ns_of "$role"): $(tail -n 3 <<<"$out")"
    local i
    for i in $(seq $(( ${SERVER_START_S:-15} * 10 ))); do
        tb_server_answers "$role" && { tb_server_answers_tls "$role"; return 0; }
        # A daemon that exited, or logged an error, will not answer: say so at once.
        if [ "$i" -gt 10 ] && ! tb_pid_alive "$dir/server.pid"; then
            tb_server_fail "$role" "$SERVER exited after start"
        fi
        if [ "$i" -gt 5 ] && tb_server_log_has_error "$dir"; then
            tb_server_fail "$role" "$SERVER logged an error and does not answer SOA for ."
        fi
        sleep 0.1
    done
    tb_server_fail "$role" "$SERVER did not answer SOA for . within ${SERVER_START_S:-15} s of start (a zone not loaded?)"
}

# tb_server_log_lines LOG: what a daemon said about a failure: its error
# and warning lines (at most 8), else its last 5 lines.
tb_server_log_lines() {
    local errs
    errs=$(grep -iE 'error|warning|fail|fatal|critical' "$1" | tail -n 8 || true)
    if [ -n "$errs" ]; then printf '%s\n' "$errs"; else tail -n 5 "$1"; fi
}

# tb_server_log_has_error DIR: the daemon logged an error (a zone that did
# not load): no need to wait for the start timeout.
tb_server_log_has_error() { grep -qiE '(^|[^a-z])(error|fatal|critical)' "$1/server.log" 2>/dev/null; }

# tb_wait_for WHAT CMD...: poll CMD for up to 15 s.
tb_wait_for() {
    local what=$1 i; shift
    for i in $(seq 150); do
        "$@" && return 0
        sleep 0.1
    done
    die "$what did not come up within 15 s"
}

# ---------------------------------------------------------------- lifecycle

tb_up() {
    need_root
    need_tools ip nft tc taskset snmpd snmpget dig jq
    tb_defaults
    tb_validate_config
    tb_save_config
    tb_create_namespaces
    tb_create_switch
    tb_address_roles
    tb_route_roles
    tb_configure_lb
    tb_configure_link
    tb_configure_steering
    tb_create_cgroups
    tb_apply_cpu_budget
    tb_install_counters
    tb_start_snmpd
    local role
    for role in "${SERVER_ROLES[@]}"; do tb_start_server "$role"; done
}

# tb_namespaces_present: every namespace of this prefix that exists, also
# after a half-finished up.
tb_namespaces_present() {
    local role
    for role in "${ROLES[@]}"; do
        ns_exists "$(ns_of "$role")" && ns_of "$role"
    done
    return 0
}

# tb_kill_cgroups: SIGKILL every process left in this prefix's cgroups:
# the sampler runs in the host's namespace, so an experiment killed with
# SIGKILL leaves it behind where `ip netns pids` does not see it.
tb_kill_cgroups() {
    local root d p; root=$(tb_cgroup_root 2>/dev/null) || return 0
    [ -d "$root" ] || return 0
    for d in "$root"/*/; do
        [ -f "$d/cgroup.procs" ] || continue
        if [ -f "$d/cgroup.kill" ]; then
            echo 1 > "$d/cgroup.kill" 2>/dev/null || true
        else
            for p in $(cat "$d/cgroup.procs"); do kill -9 "$p" 2>/dev/null || true; done
        fi
    done
}

tb_down() {
    need_root
    local ns pids i
    for ns in $(tb_namespaces_present); do
        pids=$(ip netns pids "$ns" 2>/dev/null || true)
        [ -n "$pids" ] && kill $pids 2>/dev/null || true
    done
    for i in $(seq 30); do
        pids=""
        for ns in $(tb_namespaces_present); do pids+=" $(ip netns pids "$ns" 2>/dev/null || true)"; done
        [ -z "${pids// /}" ] && break
        sleep 0.1
    done
    [ -n "${pids// /}" ] && kill -9 $pids 2>/dev/null || true
    tb_kill_cgroups
    for ns in $(tb_namespaces_present); do ip netns del "$ns"; done
    tb_remove_cgroups
    tb_remove_cpu_budget
    rm -rf "$TB_STATE"
}

# ---------------------------------------------------------------- status

tb_status_json() {
    tb_load_config
    # Tab-separated facts read in the one jq below: a jq per fact made a
    # status 0.3 s, and experiments ask for it after every point.
    local role version backlogs_tsv="" procs_tsv=""
    version=$(srv "$SERVER" version)
    for role in "${SERVER_ROLES[@]}"; do
        backlogs_tsv+=$(printf '%s\t%s' "$role" "$(tcp_listen_backlogs "$(ns_of "$role")" 53 2>/dev/null | awk '{ print $2 }' | sort -u | tr '\n' ' ')")$'\n'
        procs_tsv+=$(printf '%s\t%s\t%s' "$role" "$(basename "$(tb_server_program)")" \
            "$(tb_pid_alive "$TB_STATE/$role/server.pid" && echo true || echo false)")$'\n'
    done
    procs_tsv+=$(printf 'switch\tsnmpd\t%s' "$(tb_pid_alive "$TB_STATE/snmpd/snmpd.pid" && echo true || echo false)")$'\n'
    jq -n --arg prefix "$RB_PREFIX" --arg lb "$LB" --arg link "$LINK" \
        --arg scpu "$SERVER_CPUS" --arg ccpu "$CLIENT_CPUS" --arg zones "${ZONES:-}" --arg zonedir "$TB_ZONEDIR" \
        --arg s4 "$SERVICE4" --arg s6 "$SERVICE6" --arg kind "$SERVER" --arg version "$version" --arg kernel "$(uname -r)" \
        --argjson ncpu "$(nproc)" --argjson ifidx "$(switch_ifindex "$(switch_port router-s)")" \
        --argjson tc "$SERVER_TCP_CLIENTS" --argjson tt "$SERVER_TCP_TIMEOUT" --argjson sc "$SERVER_WORKERS" \
        --arg build "$NSD_BUILD" --arg prog "$(tb_server_program)" --argjson backlog "$SERVER_BACKLOG" --arg minimal "$MINIMAL_RESPONSES" \
        --argjson edns "${SERVER_EDNS_SIZE:-1232}" --arg btsv "$backlogs_tsv" --argjson tls "$(tb_tls_json)" --arg name "$(srv "$SERVER" name)" \
        --arg twb "${PLAYER_TW_BUCKETS:-default}" --arg twv "$(nsx player1 sysctl -n net.ipv4.tcp_max_tw_buckets 2>/dev/null || echo)" \
        --arg steer "${STEER:-none}" --arg profile "${TB_PROFILE:-}" --arg cg "$(tb_cgroup_root)" --arg top "$RB_TOP" \
        --arg ptsv "$procs_tsv" --argjson cpubudget "$(tb_cpu_budget_json)" \
        --arg rtsv "$(tb_roles_tsv)" '
        def tsv: split("\n") | map(select(length > 0) | split("\t"));
        # a taskset list ("0-2,5") as /proc/stat names (["cpu0","cpu1","cpu2","cpu5"])
        def cpu_names: split(",") | map(if test("-") then (split("-") | map(tonumber) | [range(.[0]; .[1] + 1)]) else [tonumber] end)
                       | add | map("cpu\(.)");
        ($btsv | tsv | map({role:.[0], measured:(.[1] | split(" ") | map(select(length > 0) | tonumber))})) as $backlogs
        | ($ptsv | tsv | map({role:.[0], process:.[1], running:(.[2] == "true")})) as $procs
        | ($rtsv | tsv | map({role:.[0], ipv4:.[1], ipv6:.[2]} + (if .[3] != "" then {client_block4:.[3], client_block6:.[4]} else {} end))) as $roles
        | {prefix:$prefix, kernel:$kernel, cpus:$ncpu, lb:$lb,
         lb_note:(if $lb == "per-packet" then "deliberately broken balancer: negative control for the TCP stickiness check only" else null end),
         link:(if $link == "none" then null else $link end),
         link_shaping:true,
         pinning:{servers:$scpu, clients:$ccpu,
                  cpu_names:{server:($scpu | cpu_names), client:($ccpu | cpu_names)}},
         steering:{mode:$steer, rule:(if $steer == "rps" then "receive path of every interface on its role'"'"'s CPUs (RPS)" else "receive path on the sending CPU (veth default)" end)},
         player_tw_buckets:{setting:$twb, value:($twv | tonumber? // null)},
         profile:(if $profile == "" then null else ($profile | ltrimstr($top + "/")) end),
         cgroups:$cg,
         service:{ipv4:$s4, ipv6:$s6},
         server:({kind:$kind, name:$name, version:$version, program:$prog,
                  workers:$sc, tcp_clients:$tc, tcp_timeout_s:$tt, minimal_responses:$minimal,
                  udp_answer_max:$edns,
                  listen_backlog:$backlog, listen_backlog_measured:$backlogs, tls:$tls, cpu_budget:$cpubudget}
                 + (if $kind == "nsd" then {build:$build} else {} end)),
         zones:{variant:(if $zones == "" then null else $zones end), dir:$zonedir},
         snmp:{router_server_port:{name:"router-s", ifindex:$ifidx}}, roles:$roles, processes:$procs}'
}

# tb_roles_tsv: a line per role: role, IPv4, IPv6, client block v4, v6
# (the last two empty but for players).
tb_roles_tsv() {
    local role
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}" router-c router-s; do
        printf '%s\t%s\t%s\t%s\t%s\n' "$role" "$(role_addr4 "$role")" "$(role_addr6 "$role")" \
            "$(player_block4 "$role" 2>/dev/null || true)" "$(player_block6 "$role" 2>/dev/null || true)"
    done
}

tb_status_text() {
    local j; j=$(tb_status_json)
    jq -r '
      "testbed \(.prefix): kernel \(.kernel), \(.cpus) CPUs",
      "  service address  \(.service.ipv4)  \(.service.ipv6)  (on both servers'"'"' loopback)",
      "  load balancing   \(.lb)\(if .lb_note then "  <- " + .lb_note else "" end)",
      "  link shaping     \(.link // "none (unshaped veth)")  (router <-> server VLAN, both directions)",
      "  CPU pinning      servers on CPU \(.pinning.servers), players/listener/router/switch on CPU \(.pinning.clients)",
      "  receive path     \(.steering.mode): \(.steering.rule)",
      "  profile          \(.profile // "none (settings from the environment)")",
      "  server           \(.server.name) \(.server.version) (\(.server.program)\(if .server.build then ", " + .server.build + " build" else "" end))  workers \(.server.workers), TCP clients \(.server.tcp_clients), TCP timeout \(.server.tcp_timeout_s)s, minimal responses \(.server.minimal_responses)",
      "  DNS over TLS     \(if .server.tls then "port \(.server.tls.port), name \(.server.tls.name), CA \(.server.tls.ca_file)" else "off (SERVER_TLS=no)" end)",
      "  listen backlog   \(.server.listen_backlog) (measured: \([.server.listen_backlog_measured[] | "\(.role) \(.measured | map(tostring) | join("/"))"] | join(", ")))",
      "  zones            \(.zones.variant // "default") (\(.zones.dir))",
      "  SNMP             switch port router-s (router, server VLAN) = ifIndex \(.snmp.router_server_port.ifindex)",
      "  roles:",
      (.roles[] | "    \(.role | . + "         " | .[0:9]) \(.ipv4 | . + "              " | .[0:14]) \(.ipv6)\(if .client_block4 then "   clients \(.client_block4) \(.client_block6)" else "" end)"),
      "  processes:",
      (.processes[] | "    \(.role) \(.process): \(if .running then "running" else "NOT RUNNING" end)")' <<<"$j"
}

# testbed.sh: build, inspect and tear down the root-instance testbed
# (paper §1, Figure 1) out of network namespaces on one machine.
#
# Source after common.sh and topology.sh. The functions read their settings
# from the variables that tb_load_config sets; `up` is declarative: every
# call states the whole configuration (unset variables take the defaults)
# and the running testbed is brought to it.
#
# Its parts, each sourced here: testbed-config.sh (the settings, the
# daemons' configuration and the counters, shared with the lab backend,
# lab.sh; it sources testbed-tls.sh, DoT and DoQ), testbed-cpu.sh (cgroups, the servers' CPU budget),
# testbed-paths.sh (the router's balancing, the shaped link, the receive
# steering), testbed-napi.sh (STEER=napi: each receive in a thread of its
# role's),
# testbed-daemons.sh (snmpd and the server daemons), testbed-status.sh.

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

# tb_is_lab: the prefix's state is a lab's (its config says BACKEND=lab).
tb_is_lab() {
    local line
    [ -f "$TB_CONFIG" ] || return 1
    while IFS= read -r line; do [ "$line" != BACKEND=lab ] || return 0; done < "$TB_CONFIG"
    return 1
}

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
    # cgroup file system from the command it runs. A subshell, not a new
    # bash: it joins them and becomes the command.
    ( echo "$BASHPID" > "$cg/cgroup.procs" && { [ -z "$budget" ] || echo "$BASHPID" > "$budget/cgroup.procs"; } \
        && exec ip netns exec "$(ns_of "$role")" taskset -c "$(cpus_of "$role")" "$@" )
}

. "$RB_TOP/scripts/lib/testbed-cpu.sh"

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

# tb_macs NAME...: for each NAME, one a line, a locally administered unicast
# MAC derived from the prefix and NAME (its md5), by one md5sum for all
# (each NAME in a file of its own under the state directory).
# Fixed MAC addresses: a testbed rebuilt later has the same ones, so
# captures and their filters stay comparable across runs.
tb_macs() {
    local d="$TB_STATE/macs" k=0 n files=()
    mkdir -p "$d"
    for n in "$@"; do
        printf '%s' "$RB_PREFIX/$n" > "$d/$k"; files+=("$d/$k"); k=$((k + 1))
    done
    md5sum "${files[@]}" | sed 's/^\(..\)\(..\)\(..\)\(..\)\(..\).*/02:\1:\2:\3:\4:\5/'
    rm -rf "$d"
}

# tb_switch_bridge_nf_off: a switch forwards frames; it does not run them
# through the host's IP firewall. With br_netfilter in the kernel every
# bridged frame goes through the IP hooks (about a third of the client
# CPU's work per query at 70,000 q/s, measured with perf), so they are off
# in the switch's namespace. Without br_netfilter there is nothing to do.
tb_switch_bridge_nf_off() {
    local k
    for k in iptables ip6tables arptables; do
        if nsx switch test -e "/proc/sys/net/bridge/bridge-nf-call-$k"; then
            sysctl_set switch "net.bridge.bridge-nf-call-$k=0"
        fi
    done
}

# tb_create_switch: the two bridges and, from each role's interface (ports:
# "ROLE IFNAME BRIDGE PORT"), a veth to the switch port named after PORT,
# enslaved to BRIDGE; the veths that are missing made and every MAC set in
# one ip batch per namespace.
tb_create_switch() {
    local sw br have role ifname bridge port k=0 macs=() ports=()
    sw=$(ns_of switch)
    have=" $(ip -n "$sw" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); printf "%s ", $2 }')"
    for role in "${CLIENT_ROLES[@]}"; do ports+=("$role eth0 brc $role"); done
    for role in "${SERVER_ROLES[@]}"; do ports+=("$role eth0 brs $role"); done
    ports+=("router ethc brc router-c" "router eths brs router-s")
    local names=()
    for k in "${!ports[@]}"; do
        read -r role ifname bridge port <<<"${ports[k]}"
        names+=("switch-$(switch_port "$port")" "$role-$ifname")
    done
    mapfile -t macs < <(tb_macs "${names[@]}")
    [ "${#macs[@]}" -eq "${#names[@]}" ] || die "testbed: cannot derive the MAC addresses (md5sum)"
    {
        for br in brc brs; do
            [[ $have == *" $br "* ]] || echo "link add name $br type bridge"
            # No STP, no learning delay: the paper's switch forwarded at once.
            echo "link set $br type bridge stp_state 0 forward_delay 0"
            echo "link set $br up"
        done
        for k in "${!ports[@]}"; do
            read -r role ifname bridge port <<<"${ports[k]}"
            port=$(switch_port "$port")
            [[ $have == *" $port "* ]] || echo "link add name $port type veth peer name $ifname netns $(ns_of "$role")"
            echo "link set $port address ${macs[2 * k]}"
            echo "link set $port master $bridge up"
        done
    } | tb_ip_batch switch
    tb_switch_bridge_nf_off
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}" router; do
        for k in "${!ports[@]}"; do
            read -r _ ifname _ _ <<<"${ports[k]}"
            [ "${ports[k]%% *}" = "$role" ] || continue
            echo "link set $ifname address ${macs[2 * k + 1]}"
            echo "link set $ifname up"
        done | tb_ip_batch "$role"
    done
}

# tb_ip_batch ROLE: the ip commands on stdin (one a line, the family taken
# from the addresses) in ROLE's namespace, by one ip process: a testbed up
# once started ip about 110 times.
tb_ip_batch() { ip -n "$(ns_of "$1")" -batch -; }

tb_address_roles() {
    local role
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}"; do
        {
            echo "addr replace $(role_addr4 "$role")/24 dev eth0"
            echo "addr replace $(role_addr6 "$role")/64 dev eth0 nodad"
            case $role in server*)
                echo "addr replace $SERVICE4/32 dev lo"
                echo "addr replace $SERVICE6/128 dev lo nodad" ;;
            esac
        } | tb_ip_batch "$role"
    done
    tb_ip_batch router <<EOF
addr replace $(role_addr4 router-c)/24 dev ethc
addr replace $(role_addr6 router-c)/64 dev ethc nodad
addr replace $(role_addr4 router-s)/24 dev eths
addr replace $(role_addr6 router-s)/64 dev eths nodad
EOF
}

# Only the benchmarking ranges are routable anywhere: no default routes.
tb_route_roles() {
    local role gw4 gw6 p
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}"; do
        case $role in
            server*) gw4=$(role_addr4 router-s); gw6=$(role_addr6 router-s) ;;
            *)       gw4=$(role_addr4 router-c); gw6=$(role_addr6 router-c) ;;
        esac
        {
            echo "route replace $BENCH_NET4 via $gw4"
            echo "route replace $BENCH_NET6 via $gw6"
            case $role in
                # AnyIP: the player may bind any address of its block.
                player*) echo "route replace local $(player_block4 "$role") dev lo"
                         echo "route replace local $(player_block6 "$role") dev lo" ;;
                probe)   echo "route replace local $(probe_block4) dev lo"
                         echo "route replace local $(probe_block6) dev lo"
                         echo "route replace local $(collateral_block4) dev lo"
                         echo "route replace local $(collateral_block6) dev lo" ;;
                # the victim block: received (and counted, dropped) here
                sink)    echo "route replace local $(victim_block4) dev lo"
                         echo "route replace local $(victim_block6) dev lo" ;;
                # The paper's `route add ... reject` on the Listener: it
                # receives the answers but must never send anything back
                # (no ICMP port unreachable).
                listener) echo "route replace blackhole $SERVICE4/32"
                          echo "route replace blackhole $SERVICE6/128" ;;
            esac
        } | tb_ip_batch "$role"
    done
    sysctl_set router net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
        net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
    {
    for p in player1 player2; do
        echo "route replace $(player_block4 "$p") via $(role_addr4 "$p")"
        echo "route replace $(player_block6 "$p") via $(role_addr6 "$p")"
    done
    echo "route replace $(probe_block4) via $(role_addr4 probe)"
    echo "route replace $(probe_block6) via $(role_addr6 probe)"
    echo "route replace $(victim_block4) via $(role_addr4 sink)"
    echo "route replace $(victim_block6) via $(role_addr6 sink)"
    echo "route replace $(collateral_block4) via $(role_addr4 probe)"
    echo "route replace $(collateral_block6) via $(role_addr6 probe)"
    } | tb_ip_batch router
    # The players' TIME-WAIT sockets: the kernel's default (the host's
    # own), or a cap (0: none kept, so none expire in batches later).
    local tw=$PLAYER_TW_BUCKETS
    [ "$tw" != default ] || tw=$(sysctl -n net.ipv4.tcp_max_tw_buckets)
    for p in player1 player2; do
        sysctl_set "$p" net.ipv4.conf.all.rp_filter=0 net.ipv4.ip_nonlocal_bind=1 \
            net.ipv6.ip_nonlocal_bind=1 net.ipv4.tcp_tw_reuse=1 \
            net.ipv4.ip_local_port_range="1024 65535" net.ipv4.tcp_max_tw_buckets="$tw"
    done
    # the probe binds the addresses of its block (IPv6 needs this for AnyIP)
    sysctl_set probe net.ipv4.ip_nonlocal_bind=1 net.ipv6.ip_nonlocal_bind=1
}

. "$RB_TOP/scripts/lib/testbed-paths.sh"
. "$RB_TOP/scripts/lib/testbed-napi.sh"

# ---------------------------------------------------------------- counters

# nftables counters that experiments read: answers reaching the Listener,
# DNS packets reaching each server (the paper's stray-packet watch), and
# what reaches the sink's victim block.
tb_install_counters() {
    tb_counters_current listener listener
    tb_counters_current sink sink
    local role
    for role in "${SERVER_ROLES[@]}"; do tb_counters_current "$role" server; done
    tb_counters_current router router
}

# tb_counters_current ROLE KIND: ROLE's counters table as KIND's ruleset
# declares it. A table already there is kept (its counts run on across
# experiments) unless it lacks a counter the ruleset has (a testbed brought
# up by an older rootbench): then it is made anew.
tb_counters_current() {
    local role=$1 kind=$2 want have
    want=$(tb_counters_ruleset "$kind" | awk '$1 == "counter" { print $2 }' | sort)
    have=$(nsx "$role" nft -j list counters table inet rootbench 2>/dev/null \
        | jq -r '.nftables[] | .counter.name // empty' | sort) || true
    [ -z "$(comm -23 <(echo "$want") <(echo "$have"))" ] && return 0
    # one transaction, one nft: the table made if missing, deleted, made anew
    { echo 'table inet rootbench { }'; echo 'delete table inet rootbench'; tb_counters_ruleset "$kind"; } \
        | nsx "$role" nft -f -
}

# tb_counters_json: every testbed counter as one JSON object
# {"listener":{"dns_answers":{"packets":N,"bytes":N}},"server1":{...},...,"router":{...},"sink":{...}}.
tb_counters_json() { tb_counters_collect nsx router sink | jq -c -L "$RB_TOP/scripts/lib" 'include "counters"; counters_netns'; }

. "$RB_TOP/scripts/lib/testbed-daemons.sh"

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
    tb_apply_cpu_budget max
    tb_configure_napi
    tb_install_counters
    tb_start_snmpd
    local role
    for role in "${SERVER_ROLES[@]}"; do tb_start_server "$role"; done
    tb_apply_cpu_budget
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
    tb_napi_release
    tb_kill_cgroups
    for ns in $(tb_namespaces_present); do ip netns del "$ns"; done
    tb_remove_cgroups
    tb_remove_cpu_budget
    rm -rf "$TB_STATE"
}

. "$RB_TOP/scripts/lib/testbed-status.sh"

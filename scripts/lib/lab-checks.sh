# lab-checks.sh: the checks a careful operator makes on a lab's hosts at
# `up` (BACKEND=lab): conntrack, the servers' socket buffers, the test
# NIC's queues against the CPUs, irqbalance, the CPU frequency governor,
# the test network kept apart from the management network and the test
# traffic on the test NIC. The facts are read in the SSH round that reads
# the host's other facts (lab_gather_facts), judged by the pure rules of
# scripts/lib/lab-checks.jq, kept in status --json (.hosts[].checks) and
# printed once each as a warning with its fix; nothing is refused or
# changed on the hosts. Sourced by lab.sh.

# lab_checks_cmd ROLE: the host-side shell commands that print the checks'
# facts, a "key=value" line each. Read only, sent nowhere: routes and
# neighbours are the kernel's tables (ip route get decides, sends nothing).
lab_checks_cmd() {
    local role=$1 iface gw far
    iface=$(printf %q "$(lab_host "$role" iface)")
    gw=$(printf %q "$(lab_host "$role" gateway4)")
    # where the host's test traffic goes: the service address from the
    # client side, a player from the servers
    case $role in server*) far=$(lab_host player1 addr4) ;; *) far=$SERVICE4 ;; esac
    far=$(printf %q "$far")
    # shellcheck disable=SC2016 # expanded on the host
    printf '%s\n' \
        'echo conntrack_module=$([ -d /sys/module/nf_conntrack ] && echo 1 || echo 0)' \
        'echo conntrack_entries=$(cat /proc/sys/net/netfilter/nf_conntrack_count 2>/dev/null)' \
        'for k in rmem_default rmem_max wmem_max; do echo $k=$(cat /proc/sys/net/core/$k 2>/dev/null); done' \
        "echo cpus=\$(nproc); echo rx_queues=\$(ls -d /sys/class/net/$iface/queues/rx-* 2>/dev/null | wc -l)" \
        "echo combined_max=\$(ethtool -l $iface 2>/dev/null | awk '/^Combined:/ { print \$2; exit }')" \
        'echo irqbalance=$(grep -qsx irqbalance /proc/[0-9]*/comm && echo 1 || echo 0)' \
        "echo governors=\$(cat /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor 2>/dev/null | sort | uniq -c | awk '{ printf \"%s:%s \", \$2, \$1 }')" \
        'set -- $SSH_CONNECTION; echo ssh_client=$1; echo ssh_local=$3' \
        "echo ssh_local_dev=\$(ip -o addr show to \$3 2>/dev/null | awk '{ print \$2; exit }')" \
        "rdev() { ip -o route get \$1 2>/dev/null | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -n 1; }" \
        "echo ssh_client_dev=\$(rdev \$1); echo gateway=$gw; echo gateway_dev=\$(rdev $gw); echo far=$far; echo far_dev=\$(rdev $far)" \
        "echo neighbours=\$(ip -4 neigh show dev $iface 2>/dev/null | awk '{ print \$1 }' | head -n 64 | tr '\\n' ' ')" \
        'echo forwarding4=$(cat /proc/sys/net/ipv4/ip_forward 2>/dev/null); echo forwarding6=$(cat /proc/sys/net/ipv6/conf/all/forwarding 2>/dev/null)'
}

# lab_checks_ctx: what the rules need besides a host's facts, for every
# host: {ROLE: {iface, mgmt}}; mgmt is every management address the
# inventory names (the hosts' ansible_host, the devices' SNMP agents).
lab_checks_ctx() {
    jq -c '([.hosts[].host, .switch.snmp_host, (.router.snmp_host // empty)] | unique) as $m
           | .hosts | map_values({iface, mgmt: $m})' <<<"$LAB_JSON"
}

# lab_checks_warn FACTS [BEFORE]: the hosts' failed checks (FACTS:
# facts.json), a warning line each, the hosts it holds on named in it;
# when they are those of the up before (BEFORE, its facts.json: a re-up,
# as each experiment makes), one line says so instead.
lab_checks_warn() {
    local now before="" line
    now=$(jq -r -L "$RB_TOP/scripts/lib" 'include "lab-checks"; checks_lines(.)' "$1")
    [ -z "${2:-}" ] || [ ! -s "$2" ] || before=$(jq -r -L "$RB_TOP/scripts/lib" 'include "lab-checks"; checks_lines(.)' "$2" 2>/dev/null) || true
    [ -n "$now" ] || return 0
    if [ "$now" = "$before" ]; then
        log "lab: the hosts' $(grep -c . <<<"$now") warnings of the last up still hold (status --json: hosts[].checks)"
        return 0
    fi
    while IFS= read -r line; do
        warn "lab: $line"
    done <<<"$now"
}

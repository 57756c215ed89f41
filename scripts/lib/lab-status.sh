# lab-status.sh: a real lab's status (JSON and text), where the router's
# server port can be captured, and its teardown (BACKEND=lab). Sourced by
# lab.sh.

# ---------------------------------------------------------------- status

# lab_status_json: the netns backend's object (the same keys, so results
# have the same shape) for the lab, plus backend, inventory and the hosts'
# facts (kernel, CPUs, NIC, daemon version, SSH call overhead).
lab_status_json() {
    tb_load_config
    # (a lab brought up before the defences existed: their defaults)
    tb_defences_defaults
    # Tab-separated facts, read in lab.jq with the namespace testbed's
    # readers (testbed-status.jq: procs_from_tsv, backlogs_from_tsv).
    local procs_tsv="" backlogs_tsv="" role up b
    for role in "${SERVER_ROLES[@]}"; do
        up=false
        lab_ssh "$role" "$(printf %q "$(lab_remote_dir "$role")/bin/rb-server") status $(printf %q "$(lab_remote_dir "$role")/server")" >/dev/null 2>&1 && up=true
        procs_tsv+=$(printf '%s\t%s\t%s' "$role" "$(basename "$(srv "$SERVER" program)")" "$up")$'\n'
        b=$(lab_ssh "$role" "ss -Hltn 'sport = :53'" 2>/dev/null | awk '{ print $3 }' | sort -u | tr '\n' ' ') || true
        backlogs_tsv+=$(printf '%s\t%s' "$role" "$b")$'\n'
    done
    up=false
    lab_snmp_alive switch && up=true
    procs_tsv+=$(printf 'switch\tsnmpd\t%s' "$up")$'\n'
    jq -n --arg prefix "$RB_PREFIX" --arg lb "$LB" --arg zones "${ZONES:-}" --arg zonedir "$TB_ZONEDIR" \
        --arg s4 "$SERVICE4" --arg s6 "$SERVICE6" --arg kind "$SERVER" --arg top "$RB_TOP" \
        --argjson tc "$SERVER_TCP_CLIENTS" --argjson tt "$SERVER_TCP_TIMEOUT" --argjson sc "$SERVER_WORKERS" \
        --arg minimal "$MINIMAL_RESPONSES" --argjson edns "${SERVER_EDNS_SIZE:-1232}" --arg twb "${PLAYER_TW_BUCKETS:-default}" \
        --arg steer "${STEER:-none}" --arg profile "${TB_PROFILE:-}" --arg inv "$INVENTORY" \
        --argjson clock_max_ms "${LAB_CLOCK_MAX_MS:-null}" \
        --slurpfile facts "$TB_STATE/facts.json" --argjson lab "$LAB_JSON" --arg btsv "$backlogs_tsv" \
        --arg prog "$(srv "$SERVER" program | lab_host_paths server1)" --arg name "$(srv "$SERVER" name)" --argjson backlog "$SERVER_BACKLOG" \
        --arg build "$NSD_BUILD" --argjson tls "$(tb_tls_json)" \
        --arg rrl "$SERVER_RRL" --argjson rrl_rate "$SERVER_RRL_RATE" --argjson rrl_slip "$SERVER_RRL_SLIP" \
        --argjson rrl_p4 "$SERVER_RRL_PREFIX4" --argjson rrl_p6 "$SERVER_RRL_PREFIX6" \
        --arg ptsv "$procs_tsv" --arg rtsv "$(tb_roles_tsv)" --arg rsrc "$(lab_release_source)" \
        --arg rname "$(if [ -n "${SERVER_PREFIX:-}" ]; then echo own; else echo "${SERVER_RELEASE:-$RELEASE_HOST}"; fi)" \
        --arg sprefix "${SERVER_PREFIX:-}" --arg sconf "${SERVER_CONF:-}" \
        --arg sconf_md5 "$(lab_own_conf_md5)" -L "$RB_TOP/scripts/lib" \
        'include "lab"; lab_status($ARGS.named)'
}

# lab_release_source: where the servers' programs come from (status
# .server.release.source): the operator's build, an NSD build of this
# machine or the current release's cache entry (as the netns testbed
# says it: release_source), or the hosts' own Debian 12 packages.
lab_release_source() {
    if [ -n "${SERVER_PREFIX:-}" ]; then
        echo "the operator's own build in $SERVER_PREFIX on the server hosts (SERVER_PREFIX)"
    elif [ "$NSD_BUILD" != debian ] && [ "$SERVER" = nsd ]; then
        echo "$(release_source "$SERVER_RELEASE" nsd "$(srv nsd program)"), built on the driving machine, copied to the servers' rb_dir/bin/nsd-$NSD_BUILD"
    elif [ -n "$SERVER_RELEASE_DIR" ]; then
        echo "$(release_source "$SERVER_RELEASE" "$SERVER" "$(srv "$SERVER" program)"), the driving machine's cache entry $(basename "$SERVER_RELEASE_DIR") copied to the servers' rb_dir/bin/release-$SERVER_RELEASE"
    else
        echo "debian bookworm package on the lab's hosts"
    fi
}

# ---------------------------------------------------------------- capture points

# lab_router_server_mac: the router's server-side MAC, as server1's
# neighbour table holds its gateway (rb_gateway4). When it has no entry,
# one UDP datagram to the gateway's discard port makes the kernel resolve
# it (ARP happens whatever the router does with the datagram; bash's
# /dev/udp: Debian's minimal hosts have no ping or arping).
lab_router_server_mac() {
    local gw iface mac
    gw=$(lab_host server1 gateway4); iface=$(lab_host server1 iface)
    mac=$(lab_ssh server1 "m() { ip -4 neigh show $gw dev $iface | grep -oiE 'lladdr ([0-9a-f]{2}:){5}[0-9a-f]{2}'; }; m && exit 0; bash -c 'echo > /dev/udp/$gw/9' 2>/dev/null; for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.1; m && exit 0; done; exit 1" \
          | sed -n 's/^lladdr //p' | head -n1 | tr 'A-F' 'a-f') || true
    [ -n "$mac" ] || die "mac: server1 does not resolve its gateway $gw on $iface (the router's server leg)"
    echo "$mac"
}

# lab_capture_points PORT: where the traffic of a switch port can be
# captured (scripts/testbed capture-points). The lab's switch is a device,
# so the router's server port (router-s) is captured where its traffic
# ends: on both servers' test NICs, each keeping the frames to or from its
# own MAC (a switch floods a frame for an unlearnt MAC to both), server1
# also the router's broadcasts and multicasts (once, not twice). Their
# merge holds the port's frames when nothing but the router and the two
# servers is on that port's VLAN (the assumption stated with it).
lab_capture_points() {
    [ "$1" = router-s ] || die "capture-points: only router-s (the router's server port) on a lab"
    local m1 m2
    m1=$(jq -r '.[] | select(.role == "server1") | .nic.mac' "$TB_STATE/facts.json")
    m2=$(jq -r '.[] | select(.role == "server2") | .nic.mac' "$TB_STATE/facts.json")
    [[ $m1 =~ ^[0-9a-f:]{17}$ && $m2 =~ ^[0-9a-f:]{17}$ ]] || die "capture-points: no NIC MAC of the servers in the facts (scripts/testbed up)"
    jq -n -c --arg m1 "$m1" --arg m2 "$m2" --arg i1 "$(lab_host server1 iface)" --arg i2 "$(lab_host server2 iface)" '
        {port: "router-s", backend: "lab",
         where: "server1 \($i1) and server2 \($i2) (the servers'"'"' test NICs), merged",
         assumption: "the switch'"'"'s router port carries the two servers'"'"' traffic only: nothing else is on the router'"'"'s server-side port or VLAN",
         points: [{role: "server1", iface: "eth0", host_iface: $i1, filter: "ether host \($m1) or (ether multicast and not ether src \($m2))"},
                  {role: "server2", iface: "eth0", host_iface: $i2, filter: "ether host \($m2)"}]}'
}

# ---------------------------------------------------------------- teardown

# lab_teardown: scripts/lab/teardown.yml on every host (make lab-teardown),
# the reverse of site.yml; the testbed's state is forgotten first (lab_down).
# Its recap on stderr; the sum of changed= on stdout's log line.
lab_teardown() {
    need_tools ansible-playbook
    lab_down
    local log rc=0 changed
    log=$(mktemp "${TMPDIR:-/tmp}/rb-lab-teardown.XXXXXX")
    ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_NOCOLOR=1 \
    ANSIBLE_SSH_ARGS="-o ControlMaster=auto -o ControlPersist=60s" ANSIBLE_PIPELINING=True \
        ansible-playbook -i "$INVENTORY" "$RB_TOP/scripts/lab/teardown.yml" > "$log" 2>&1 </dev/null || rc=$?
    sed -n '/^PLAY RECAP/,$p' "$log" >&2
    [ "$rc" -eq 0 ] || die "teardown: ansible-playbook failed (exit $rc; its output: $log): $(grep -E 'fatal|FAILED|ERROR' "$log" | head -n 3)"
    changed=$(sed -n '/^PLAY RECAP/,$p' "$log" | grep -o 'changed=[0-9]*' | awk -F= '{ s += $2 } END { print s + 0 }')
    rm -f "$log"
    log "lab-teardown: $changed changes (a second run changes nothing); Debian packages stay installed"
}

# The commands scripts/testbed calls that are a line each on a lab: the
# status in words, the CPU budget (none on a lab), the SNMP settle time.
lab_status_text() {
    lab_status_json | jq -r '"testbed \(.prefix): lab \(.inventory)", "  service address  \(.service.ipv4)  \(.service.ipv6)", "  lab ranges       \(.allow_ranges | join(" "))", "  router           balances \(.router.lb) (\(.router.model))", "  server           \(.server.name) \(.server.version // "?") (\(.server.program))", "  DNS over TLS     \(if .server.tls then "port \(.server.tls.port), name \(.server.tls.name), CA \(.server.tls.ca_file)" else "off (SERVER_TLS=no)" end)", (.hosts[] | "  \(.role | . + "         " | .[0:9]) \(.hostname) kernel \(.kernel), \(.cpus) CPUs, NIC \(.nic.driver // "?") \(.nic.mac), SSH call \(.ssh_call_us.median) us, clock \(if .clock then "\(.clock.offset_ms) +- \(.clock.uncertainty_ms) ms" else "not read" end)"), (.processes[] | "  \(.role) \(.process): \(if .running then "running" else "NOT RUNNING" end)")'
}
# (a lab's daemons are asked over SSH: the whole status, its processes[])
lab_processes_json() { lab_status_json | jq -c .processes; }
lab_cpu_budget_stat() { die "cpu-budget-stat: a lab's servers run without a CPU budget (SERVER_CPU is a namespace testbed setting)"; }
lab_snmp_settle() { echo "${SNMP_SETTLE_S:-4}"; }

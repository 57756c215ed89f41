# testbed-status.sh: what the namespace testbed is, as JSON (status
# --json, recorded by every experiment) and as text. Sourced by testbed.sh.

# ---------------------------------------------------------------- status

tb_status_json() {
    tb_load_config
    # Tab-separated facts read in the one jq below: a jq per fact made a
    # status 0.3 s, and experiments ask for it after every point.
    local role version backlogs_tsv="" procs_tsv release xdp_tsv=""
    # The release and version as the program says in server1's namespace.
    release=$(release_status_json "$(if [ -n "${SERVER_PREFIX:-}" ]; then echo own; else echo "$SERVER_RELEASE"; fi)" "$SERVER" "$(tb_server_program)" "$(ns_of server1)" "$TB_STATE/server1/server.pid")
    version=$(jq -r .version <<<"$release")
    for role in "${SERVER_ROLES[@]}"; do
        backlogs_tsv+=$(printf '%s\t%s' "$role" "$(tcp_listen_backlogs "$(ns_of "$role")" 53 2>/dev/null | awk '{ print $2 }' | sort -u | tr '\n' ' ')")$'\n'
    done
    procs_tsv=$(tb_procs_tsv)
    # The XDP program on each server's interface (SERVER_XDP=yes: Knot's).
    for role in "${SERVER_ROLES[@]}"; do
        xdp_tsv+=$(printf '%s\teth0\t%s' "$role" "$(ip -n "$(ns_of "$role")" -j -d link show eth0 2>/dev/null | tr -d '\n')")$'\n'
    done
    jq -n --arg prefix "$RB_PREFIX" --arg lb "$LB" --arg link "$LINK" \
        --arg scpu "$SERVER_CPUS" --arg ccpu "$CLIENT_CPUS" --arg zones "${ZONES:-}" --arg zonedir "$TB_ZONEDIR" \
        --arg s4 "$SERVICE4" --arg s6 "$SERVICE6" --arg kind "$SERVER" --arg version "$version" --arg kernel "$(uname -r)" \
        --argjson ncpu "$(nproc)" --argjson ifidx "$(switch_ifindex "$(switch_port router-s)")" \
        --argjson tc "$SERVER_TCP_CLIENTS" --argjson tt "$SERVER_TCP_TIMEOUT" --argjson sc "$SERVER_WORKERS" \
        --arg build "$NSD_BUILD" --arg prog "$(tb_server_program)" --argjson backlog "$SERVER_BACKLOG" --arg minimal "$MINIMAL_RESPONSES" \
        --argjson edns "${SERVER_EDNS_SIZE:-1232}" --arg btsv "$backlogs_tsv" --argjson tls "$(tb_tls_json)" --argjson quic "$(tb_quic_json)" --arg name "$(srv "$SERVER" name)" \
        --arg twb "${PLAYER_TW_BUCKETS:-default}" --arg twv "$(nsx player1 sysctl -n net.ipv4.tcp_max_tw_buckets 2>/dev/null || echo)" \
        --arg steer "${STEER:-none}" --arg ntsv "$(tb_napi_tsv)" --arg profile "${TB_PROFILE:-}" --arg cg "$(tb_cgroup_root)" --arg top "$RB_TOP" \
        --arg ptsv "$procs_tsv" --argjson cpubudget "$(tb_cpu_budget_json)" --argjson defences "$(tb_defences_json)" \
        --argjson release "$release" --arg xtsv "$xdp_tsv" --arg xdp "${SERVER_XDP:-no}" \
        --arg rtsv "$(tb_roles_tsv)" --arg bnf "$(nsx switch sysctl -n net.bridge.bridge-nf-call-iptables 2>/dev/null || true)" -L "$RB_TOP/scripts/lib" \
        'include "testbed-status"; netns_status($ARGS.named)'
}

# tb_procs_tsv: "ROLE<TAB>PROCESS<TAB>true|false" for each server daemon and
# the switch's SNMP agent (procs_from_tsv reads it), from their PID files.
tb_procs_tsv() {
    local role
    for role in "${SERVER_ROLES[@]}"; do
        printf '%s\t%s\t%s\n' "$role" "$(basename "$(tb_server_program)")" \
            "$(tb_pid_alive "$TB_STATE/$role/server.pid" && echo true || echo false)"
    done
    printf 'switch\tsnmpd\t%s\n' "$(tb_pid_alive "$TB_STATE/snmpd/snmpd.pid" && echo true || echo false)"
}

# tb_processes_json: status --json's processes[] alone (the running testbed's
# daemons), without the rest's commands: experiments ask for it after
# every point (exp_servers_down).
tb_processes_json() {
    tb_is_up || die "testbed '$RB_PREFIX' is not up (scripts/testbed up)"
    tb_load_config
    tb_procs_tsv | jq -R -s -c -L "$RB_TOP/scripts/lib" 'include "testbed-status"; procs_from_tsv'
}

tb_status_text() {
    local j; j=$(tb_status_json)
    jq -r -L "$RB_TOP/scripts/lib" 'include "testbed-status"; netns_status_text' <<<"$j"
}

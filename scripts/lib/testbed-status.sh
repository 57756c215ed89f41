# testbed-status.sh: what the namespace testbed is, as JSON (status
# --json, recorded by every experiment) and as text. Sourced by testbed.sh.

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

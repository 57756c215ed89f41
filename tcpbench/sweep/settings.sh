# settings.sh: the TCP sweep's settings (tcpbench/sweep/run sources it):
# what SCALE sets, the settings recorded in summary.json, and what the
# rules (rules.jq) need of them.

# scale_settings: the knobs of SCALE (the registry's tcp "scale"), each
# overridable by its TCP_* variable.
scale_settings() {
    # DNS over TLS: a full handshake costs the server several times a TCP
    # accept (measured: NSD failed 64 % at 4000/s), so the search starts
    # lower (the registry's dot "scale", read first so that it wins).
    [ "${TRANSPORT:-tcp}" != tls ] || exp_scale_read dot
    # a variant of the registry with a scale of its own (tcp-direct), first
    if [ -n "${TCP_NAME:-}" ] && jq -e --arg n "$TCP_NAME" 'any(.experiments[]; .name == $n and .scale != null)' "$EXP_REGISTRY" >/dev/null; then
        exp_scale_read "$TCP_NAME"
    fi
    exp_scale_read tcp
    POINT_S=$TCP_POINT_S REPS=$TCP_REPS START=$TCP_START STEP=$TCP_STEP
    RES=$TCP_RES MAX_POINTS=$TCP_MAX_POINTS BUDGET_S=$TCP_BUDGET_S
    TIMEOUT_MS=${TCP_TIMEOUT_MS:-1000} WORKERS=${TCP_WORKERS:-1} TICK_US=${TCP_TICK_US:-200}
    RERUNS=${TCP_RERUNS:-2} TCP_CLIENTS=${TCP_CLIENTS:-1000}
    local v
    for v in POINT_S REPS START RES MAX_POINTS BUDGET_S TIMEOUT_MS WORKERS TICK_US TCP_CLIENTS; do
        [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v} must be a positive integer"
    done
    # TCP_STEP: added per coarse point (N per server), or *F: multiplied
    # (F from 1.1 to 10), for a sweep that must find a knee whose rate is
    # not known within a factor of ten (the tests' budgeted servers, whose
    # knee moves with the host's speed)
    [[ $STEP =~ ^[1-9][0-9]*$ ]] || { [[ $STEP =~ ^\*[0-9]+(\.[0-9]+)?$ ]] && awk -v f="${STEP#\*}" 'BEGIN { exit !(f >= 1.1 && f <= 10) }'; } \
        || die "TCP_STEP=$STEP must be a positive integer (added per point) or *F with F from 1.1 to 10 (multiplied)"
    [[ $RERUNS =~ ^[0-9]+$ ]] || die "TCP_RERUNS=$RERUNS must be an integer >= 0"
    # empty: the server's own backlog (the testbed's default for SERVER)
    [ -z "${TCP_BACKLOG:-}" ] || [[ $TCP_BACKLOG =~ ^[1-9][0-9]*$ ]] || die "TCP_BACKLOG=$TCP_BACKLOG must be a positive integer"
    [ -z "${TCP_MAX_BURST:-}" ] || [[ $TCP_MAX_BURST =~ ^[1-9][0-9]*$ ]] || die "TCP_MAX_BURST=$TCP_MAX_BURST must be a positive integer"
    TRANSPORT=${TRANSPORT:-tcp} TLS_RESUME=${TLS_RESUME:-no}
    case $TRANSPORT in tcp|tls) ;; *) die "TRANSPORT=$TRANSPORT must be tcp or tls (DNS over TLS)" ;; esac
    case $TLS_RESUME in yes|no) ;; *) die "TLS_RESUME=$TLS_RESUME must be yes or no" ;; esac
    [ "$TRANSPORT" = tls ] || [ "$TLS_RESUME" = no ] || die "TLS_RESUME=yes needs TRANSPORT=tls"
    [ "$TRANSPORT" = tcp ] || [ "${SERVER:-nsd}" != knot ] \
        || die "TRANSPORT=tls with SERVER=knot: Knot DNS 3.2 (Debian 12) serves no DNS over TLS, so there is nothing to measure (SERVER=nsd or SERVER=bind)"
    local dflt=tcp
    [ "$TRANSPORT" = tcp ] || { dflt=tcp-dot; [ "$TLS_RESUME" = no ] || dflt=tcp-dot-resume; }
    TCP_NAME=${TCP_NAME:-$dflt}
    [[ $TCP_NAME =~ ^(tcp|dot)[a-z0-9/-]*$ && $TCP_NAME != *..* ]] || die "TCP_NAME=$TCP_NAME must start with tcp or dot (letters, digits, -, /)"
    IFS=, read -r -a CONFIG_LIST <<<"${CONFIGS:-1p1s,2p1s,2p2s}"
    [ "${#CONFIG_LIST[@]}" -gt 0 ] || die "CONFIGS is empty"
    for v in "${CONFIG_LIST[@]}"; do
        case $v in 1p1s|2p1s|2p2s) ;; *) die "unknown config '$v' in CONFIGS (1p1s, 2p1s, 2p2s)" ;; esac
    done
    if [ -n "${QUERIES:-}" ]; then
        [ -r "$QUERIES" ] || die "QUERIES=$QUERIES is not a readable file"
        QUERIES=$(cd "$(dirname "$QUERIES")" && pwd)/$(basename "$QUERIES")
        QUERY_ARGS=(-q "$QUERIES")
    else
        QUERY_ARGS=(-n ./SOA)
    fi
    read -r -a EXTRA_ARGS <<<"${TCPBENCH_EXTRA:-}"
    # CPU_CHARGE: perf on the servers' CPUs at every run (charge.sh)
    charge_read_settings
    # The file limit caps the rate one tcpbench process can run at this
    # timeout: rate x (timeout + 5 % margin) + 96 descriptors; workers each
    # have their own (docs/tcpbench.md).
    NOFILE_HARD=$(ulimit -Hn)
    if [ "$NOFILE_HARD" = unlimited ]; then PLAYER_CAP=1000000; else
        PLAYER_CAP=$(( (NOFILE_HARD - 96) * 1000 * 100 / (TIMEOUT_MS * 105) / 100 * 100 * WORKERS ))
    fi
}

settings_json() {
    jq -n --arg scale "$SCALE" --argjson d "$POINT_S" --argjson reps "$REPS" --argjson start "$START" \
        --arg step "$STEP" --argjson res "$RES" --argjson mp "$MAX_POINTS" --argjson b "$BUDGET_S" \
        --argjson t "$TIMEOUT_MS" --argjson cap "$PLAYER_CAP" --argjson nofile "${NOFILE_HARD/unlimited/0}" \
        --argjson w "$WORKERS" --argjson tick "$TICK_US" --argjson burst "$MAX_BURST" --argjson reruns "$RERUNS" \
        --argjson backlog "$BACKLOG" --argjson tcpcount "$TCP_CLIENTS" --argjson sample "$SAMPLE_MS" \
        --arg q "${QUERIES:-}" --arg extra "${TCPBENCH_EXTRA:-}" --arg configs "${CONFIG_LIST[*]}" \
        --argjson cf "$COLLAPSE_FRAC" --arg transport "$TRANSPORT" --arg resume "$TLS_RESUME" --argjson charge "$(charge_settings_json)" \
        --arg gen "$TCP_GENERATOR" --arg genv "$(if [ "$TCP_GENERATOR" = kxdpgun ]; then echo "$KXG_TCP_VERSION"; else echo "tcpbench (rootbench)"; fi)" '
        {scale:$scale, generator:{name:$gen, version:$genv}, cpu_charge:$charge, configs:($configs | split(" ")), point_seconds:$d, repetitions:$reps,
         transport:$transport, tls_resume:(if $transport == "tls" then ($resume == "yes") else null end),
         coarse_start_per_server:$start, coarse_step_per_server:($step | tonumber? // $step), resolution_per_server:$res,
         max_points_per_config:$mp, time_budget_s_per_config:$b,
         timeout_ms:$t, workers_per_player:$w, tick_us:$tick, max_burst:$burst, reruns_for_outside_stalls:$reruns,
         rlimit_nofile_hard:$nofile, max_rate_per_player:$cap, backlog:$backlog, tcp_count:$tcpcount,
         sample_interval_ms:$sample, collapse_fraction:$cf,
         queries:(if $q == "" then "-n ./SOA" else $q end),
         tcpbench_extra:(if $extra == "" then null else $extra end),
         target:"unicast addresses of the servers, not the ECMP service address",
         sources:"each player spreads its connections over its AnyIP client block (-b)",
         family:($ENV.FAMILY | tonumber), source_blocks:{player1:$ENV.TCP_SRC1, player2:$ENV.TCP_SRC2},
         close:"FIN (tcpbench default, no --rst-close)"}'
}

# rules_settings CONFIG: what rules.jq needs of the settings.
rules_settings() {
    jq -c --argjson n "$(config_nservers "$1")" --slurpfile tb "$WORK/testbed.json" \
        '{collapse_fraction, backlog, tcp_count, servers: $n, point_seconds,
          cpu_budget: ($tb[0].server.cpu_budget.budget // null),
          server_cpus: ($tb[0].pinning.cpu_names.server // [] | length | if . > 0 then . else null end),
          cpu_pause_bound_us: ($tb[0].server.cpu_budget.longest_pause_bound_us // null),
          steer: ($tb[0].steering.mode // null)}' <<<"$SETTINGS_JSON"
}

# config_pairs CONFIG: "player server share" lines.
config_pairs() {
    case $1 in
        1p1s) echo "player1 server1 1" ;;
        2p1s) echo "player1 server1 0.5"; echo "player2 server1 0.5" ;;
        2p2s) echo "player1 server1 0.5"; echo "player2 server2 0.5" ;;
    esac
}

config_servers() { config_pairs "$1" | awk '{print $2}' | sort -u; }

config_nservers() { config_servers "$1" | wc -l; }

config_title() {
    case $1 in
        1p1s) echo "1 player, 1 server (paper Figure 5)" ;;
        2p1s) echo "2 players, 1 server (paper Figure 6)" ;;
        2p2s) echo "2 players, 2 servers (paper Figure 7)" ;;
    esac
}

# tcp_source_block PLAYER: the sources tcpbench spreads over: the player's
# IPv4 /23, or over IPv6 the 512 addresses ::200-::3ff of its /64 (as many
# as over IPv4; tcpbench takes at most 65,536 sources).
tcp_source_block() {
    if [ "$FAMILY" = 6 ]; then
        local b; b=$(player_block6 "$1")
        echo "${b%::/64}::200/119"
    else
        player_block4 "$1"
    fi
}

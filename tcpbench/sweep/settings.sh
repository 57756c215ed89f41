# settings.sh: the TCP sweep's settings (tcpbench/sweep/run sources it):
# read from their table (settings.json), the settings recorded in summary.json, and what the
# rules (rules.jq) need of them.

TCP_SETTINGS="$RB_TOP/tcpbench/sweep/settings.json"

# scale_settings: the settings of the table (settings.json; defaults by
# SCALE and variant), the computed ones filled in and checked, and the
# short names the sweep uses.
scale_settings() {
    # The variant whose defaults apply: dot (DNS over TLS or QUIC) first, then a
    # registry variant named by TCP_NAME (tcp-direct), then tcp's own.
    local variants=()
    [ "$(settings_get "$TCP_SETTINGS" TCP_TRANSPORT)" = tcp ] || variants+=(dot)
    variants+=("$(settings_get "$TCP_SETTINGS" TCP_NAME)")
    settings_load "$TCP_SETTINGS" "${variants[@]}"
    probe_settings
    POINT_S=$TCP_POINT_S REPS=$TCP_REPS START=$TCP_START STEP=$TCP_STEP
    RES=$TCP_RES MAX_POINTS=$TCP_MAX_POINTS BUDGET_S=$TCP_BUDGET_S
    TIMEOUT_MS=$TCP_TIMEOUT_MS WORKERS=$TCP_WORKERS TICK_US=$TCP_TICK_US RERUNS=$TCP_RERUNS
    TRANSPORT=$TCP_TRANSPORT TLS_RESUME=$TCP_TLS_RESUME TCPBENCH_EXTRA=$TCP_BENCH_EXTRA
    [ "$TRANSPORT" != tcp ] || [ "$TLS_RESUME" = no ] || die "TCP_TLS_RESUME=yes needs TCP_TRANSPORT=tls or quic"
    [ "$TRANSPORT" != tls ] || exp_dot_check "TCP_TRANSPORT=tls with "
    [ "$TRANSPORT" != quic ] || exp_doq_check "TCP_TRANSPORT=quic with "
    local dflt=tcp
    [ "$TRANSPORT" = tcp ] || { dflt=tcp-do${TRANSPORT:0:1}; [ "$TLS_RESUME" = no ] || dflt+=-resume; }
    : "${TCP_NAME:=$dflt}"
    [[ $TCP_NAME != *..* ]] || die "TCP_NAME=$TCP_NAME must not hold '..'"
    read -r -a CONFIG_LIST <<<"${TCP_CONFIGS//,/ }"
    [ "${#CONFIG_LIST[@]}" -gt 0 ] || die "TCP_CONFIGS is empty"
    local c
    for c in "${CONFIG_LIST[@]}"; do config_check "$c"; done
    QUERIES=$TCP_QUERIES
    if [ -n "$QUERIES" ]; then
        [ -r "$QUERIES" ] || die "TCP_QUERIES=$QUERIES is not a readable file"
        QUERIES=$(cd "$(dirname "$QUERIES")" && pwd)/$(basename "$QUERIES")
        QUERY_ARGS=(-q "$QUERIES")
    else
        QUERY_ARGS=(-n ./SOA)
    fi
    read -r -a EXTRA_ARGS <<<"$TCPBENCH_EXTRA"
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

# settings_json: summary.settings: the declared settings the table records
# (settings_summary) and what the sweep found out or derived from them.
settings_json() {
    jq -n --argjson declared "$(settings_summary "$TCP_SETTINGS")" --arg scale "$SCALE" \
        --argjson cap "$PLAYER_CAP" --argjson nofile "${NOFILE_HARD/unlimited/0}" \
        --argjson burst "$MAX_BURST" --argjson backlog "$BACKLOG" --argjson sample "$SAMPLE_MS" \
        --arg q "$QUERIES" --argjson cf "$COLLAPSE_FRAC" --arg resume "$TLS_RESUME" --argjson charge "$(charge_settings_json)" \
        --arg gen "$TCP_GENERATOR" --arg genv "$(if [ "$TCP_GENERATOR" = kxdpgun ]; then echo "$KXG_TCP_VERSION"; else echo "tcpbench (rootbench)"; fi)" \
        --arg genp "$(if [ "$TCP_GENERATOR" = kxdpgun ]; then kxg_program; else echo "$TCPBENCH"; fi)" '
        {scale:$scale, generator:{name:$gen, version:$genv, program:$genp}, cpu_charge:$charge} + $declared
        + {tls_resume:(if $declared.transport != "tcp" then ($resume == "yes") else null end),
         max_burst:$burst, rlimit_nofile_hard:$nofile, max_rate_per_player:$cap, backlog:$backlog,
         sample_interval_ms:$sample, collapse_fraction:$cf,
         queries:(if $q == "" then "-n ./SOA" else $q end),
         target:"unicast addresses of the servers, not the ECMP service address",
         sources:"each player spreads its connections over its AnyIP client block (-b)",
         family:($ENV.FAMILY | tonumber), source_blocks:($ENV.TCP_SRC_BLOCKS | fromjson),
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

# config_pairs CONFIG: "player server" lines: 1p1s player1 alone; 2p1s
# every player (the namespace testbed's two, a lab's players group:
# PLAYER_ROLES) to server1; 2p2s every player, player1, player3, ... to
# server1 and player2, player4, ... to server2. Each server gets an equal
# part of the total, split between its players (run_once,
# players_shares).
config_pairs() {
    local i
    case $1 in
        1p1s) echo "player1 server1" ;;
        2p1s) for i in "${!PLAYER_ROLES[@]}"; do echo "${PLAYER_ROLES[$i]} server1"; done ;;
        2p2s) for i in "${!PLAYER_ROLES[@]}"; do echo "${PLAYER_ROLES[$i]} server$((i % 2 + 1))"; done ;;
    esac
}

# config_check CONFIG: the testbed has the players CONFIG needs (the 2p
# configurations two at least).
config_check() {
    case $1 in
        2p*) [ "${#PLAYER_ROLES[@]}" -ge 2 ] \
                 || die "TCP_CONFIGS: $1 needs two players at least; the testbed has ${#PLAYER_ROLES[@]} (${PLAYER_ROLES[*]}): use 1p1s" ;;
    esac
}

config_servers() { config_pairs "$1" | awk '{print $2}' | sort -u; }

config_nservers() { config_servers "$1" | wc -l; }

config_title() {
    local n=${#PLAYER_ROLES[@]} paper=""
    [ "$n" = 2 ] || paper="; the paper's had 2"
    case $1 in
        1p1s) echo "1 player, 1 server (paper Figure 5)" ;;
        2p1s) echo "$n players, 1 server (paper Figure 6$paper)" ;;
        2p2s) echo "$n players, 2 servers (paper Figure 7$paper)" ;;
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

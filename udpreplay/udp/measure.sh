# measure.sh: one point of the UDP sweep (udpreplay/udp/run sources it):
# tcpreplay from the load's players (LOAD_PLAYERS, each at its share of
# the rate, scripts/lib/players.sh) for DURATION s with the testbed sampler
# and perf on the servers' CPUs (scripts/lib/charge.sh) around it, the
# counters before and after, and the row of points.csv.

# counters_snapshot: testbed nftables counters plus NSD's own query counts
# (null for a daemon stopped by SIGSTOP, which counts nothing while stopped:
# its queries are then the socket's and the Listener's counters' story).
counters_snapshot() {
    local c s q=() stats
    c=$("$TESTBED" counters)
    stats=$("$TESTBED" server-stats)
    for s in server1 server2; do
        q+=("$(jq -r --arg s "$s" '.[$s].queries // empty' <<<"$stats")")
        if [ -z "${q[-1]}" ] && daemon_stopped "$s"; then q[-1]=null; continue; fi
        [[ ${q[-1]} =~ ^[0-9]+$ ]] || die "the server daemon of $s gave no query count (scripts/testbed server-stats)"
    done
    jq -c --argjson q1 "${q[0]}" --argjson q2 "${q[1]}" \
        '.server1.daemon_queries = $q1 | .server2.daemon_queries = $q2' <<<"$c"
}

# daemon_stopped ROLE: on the namespace testbed, every server daemon process
# of ROLE is stopped (state T: SIGSTOP).
daemon_stopped() {
    local p n=0
    [ "$(jq -r '.backend // "netns"' <<<"${TB_JSON:-null}")" = netns ] || return 1
    for p in $(role_pids "$1" nsd knotd named); do
        # (the state follows the name, which may hold spaces: "(nsd: main) T")
        [ "$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)" = T ] || return 1
        n=$((n + 1))
    done
    [ "$n" -gt 0 ]
}

# replay RATE: the generator on the load's players for DURATION s.
replay() {
    if [ "$UDP_GENERATOR" = kxdpgun ]; then replay_kxdpgun "$1"; else replay_tcpreplay "$1"; fi
}

# replay_kxdpgun RATE: kxdpgun on each of the load's players at its share
# of RATE from its block of the sources (players_shares, as tcpreplay's),
# all started at one absolute time on a lab or with several players
# (kxg_players: its first queries at kxg_start_at, each started its fixed
# sleep before by the players' wait on its host); SENT and ACHIEVED come
# from the router's counter after the point (sent_at_router), checked
# against the sum of the players' own counts (KXG_SENT); START_JSON is
# each one's first query against the intended time (players_skew_json),
# KXG_PLAYERS_JSON each one's share and count.
replay_kxdpgun() {
    local rate=$1 at=null
    if one_start; then at=$(kxg_start_at); fi
    kxg_players "$at" "$DURATION" "$KXG_QUERIES" "$WORK/kxdpgun" \
        < <(players_shares "$rate" "$SOURCES" "${LOAD_PLAYERS[@]}" | awk -v t="$FAMILY_SERVICE" '{ print $1, t, $3, $2 }')
    START_JSON=$(players_skew_json "$at" "$KXG_STARTS")
    if run_interrupted; then return 0; fi
    [ "$KXG_RC" -eq 0 ] || die "kxdpgun on $KXG_FAILED failed at $rate q/s (exit $KXG_RC), the point is not measured; the points measured before are kept: $(tail -n 3 "$WORK/kxdpgun-$KXG_FAILED.out" | tr '\n' ' ')"
    # (their lateness is kxdpgun's own start-up: its queries read, XDP
    # attached after it is started; only their spread is warned about)
    [ "$at" = null ] || players_skew_warn "$START_JSON" "at $rate q/s" apart
    ELAPSED=$DURATION
}

# sent_at_router RATE BEFORE AFTER: SENT (the queries the router forwarded
# to the service address during the point, its dns_udp_queries counter,
# which a lab counts at its players' switch ports: scripts/lib/counters.jq)
# and ACHIEVED, SENT_COUNTED_BY (where, in words, for the summary); dies
# when kxdpgun's own count disagrees with it.
sent_at_router() {
    local where=""
    SENT=$(jq -n -r --argjson a "$2" --argjson b "$3" '($b.router.dns_udp_queries.packets // empty) - ($a.router.dns_udp_queries.packets // 0)')
    [[ $SENT =~ ^[0-9]+$ ]] || die "no count of the queries sent at $1 q/s: scripts/testbed counters has no router.dns_udp_queries ($(jq -r '.router.missing.dns_udp_queries // "the namespace testbed counts them at its router, a lab at its players'"'"' switch ports"' <<<"$3"))"
    SENT_COUNTED_BY=$(jq -c '.router.counted_by.dns_udp_queries // null' <<<"$3")
    [ "${BACKEND:-netns}" != lab ] || where=$(jq -r '.router.counted_by.dns_udp_queries' <<<"$3")
    kxg_sent_agrees "$SENT" "$where" || die "at $1 q/s: $KXG_DISAGREES; the point is not measured"
    ACHIEVED=$(awk -v s="$SENT" -v e="$ELAPSED" 'BEGIN { printf "%.2f", s / e }')
}

# replay_tcpreplay RATE: tcpreplay on each of the load's players at its
# share of RATE (players_shares) for DURATION s (bounded also in count),
# each its own rewritten trace (its MAC, its block of the sources: run_lb),
# all started at one absolute time on a lab or with several players
# (players_wait_cmd: the trace's last byte fed at that time on each host);
# sets SENT (the sum of their summaries), ELAPSED (the longest), ACHIEVED
# (the sum of their rates; one player's as tcpreplay wrote them) and
# START_JSON (each one's first packet, tcpreplay's "Test start", against
# the intended time: players_skew_json).
replay_tcpreplay() {
    local rate=$1 p r rc at=null lead=0 pids=() who=() i out sent el pps starts="" st feed
    if one_start; then
        at=$(players_start_at); lead=$PLAYERS_LEAD_S
    fi
    while read -r p r _; do
        [ "$r" -gt 0 ] || continue
        # At one time: tcpreplay started now, its trace fed to it through a
        # FIFO whose last byte comes at the start (players_wait_cmd), so
        # its start-up is done by then; else the trace itself.
        feed=("$(replay_pcap "$p")") PLAYERS_WAIT=()
        [ "$at" = null ] || { players_wait_cmd "$at" "${feed[0]}"; feed=(); }
        # In the background, SIGINT would be ignored: its default again, so
        # that Ctrl-C stops tcpreplay (timeout --foreground keeps it in our
        # process group). TZ=UTC: tcpreplay prints its start in local time.
        env --default-signal=INT,TERM "$TESTBED" exec "$p" -- timeout --foreground $((DURATION + 10 + lead)) \
            "${PLAYERS_WAIT[@]+"${PLAYERS_WAIT[@]}"}" env TZ=UTC tcpreplay -i "${PLAYER_IFACE[$p]}" --preload-pcap --timer="$(ur_timer "$r")" \
            --pps="$r" --loop=0 --duration="$DURATION" --limit=$((r * DURATION * 11 / 10 + 1)) --stats=$((DURATION + 60)) \
            "${feed[@]+"${feed[@]}"}" > "$WORK/tcpreplay-$p.out" 2>&1 &
        pids+=("$!"); who+=("$p")
    done < <(players_shares "$rate" - "${LOAD_PLAYERS[@]}")
    local els=() rates=()
    SENT=0
    for i in "${!pids[@]}"; do
        p=${who[$i]}; rc=0
        while :; do
            rc=0; wait "${pids[$i]}" || rc=$?
            [ "$rc" -gt 128 ] && kill -0 "${pids[$i]}" 2>/dev/null || break
        done
        if run_interrupted; then continue; fi
        out=$(cat "$WORK/tcpreplay-$p.out")
        [ "$rc" -eq 0 ] || die "tcpreplay on $p failed at $rate q/s (exit $rc$( [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ] && echo ": killed by signal $((rc - 128))" || true)), the point is not measured; the points measured before are kept: $(tail -n 3 <<<"$out")"
        sent="" el="" pps=""
        read -r sent el < <(sed -n 's/^Actual: \([0-9]*\) packets .* sent in \([0-9.]*\) seconds.*/\1 \2/p' <<<"$out") || true
        pps=$(sed -n 's/^Rated: .*, \([0-9.]*\) pps.*/\1/p' <<<"$out")
        [ -n "$sent" ] && [ -n "$pps" ] || die "cannot read tcpreplay's summary on $p: $out"
        SENT=$((SENT + sent)) els+=("$el") rates+=("$pps")
        st=$(sed -n 's/^Test start: \([0-9-]* [0-9:]*\)\(\.[0-9]*\).*/\1 \2/p' <<<"$out" | head -n 1)
        if [ -n "$st" ]; then st="$(date -u -d "${st% *}" +%s)${st##* }"; else st=-; fi
        starts+="$p $st"$'\n'
    done
    if run_interrupted; then return 0; fi
    if [ "${#rates[@]}" -eq 1 ]; then ELAPSED=${els[0]} ACHIEVED=${rates[0]}
    else
        ELAPSED=$(printf '%s\n' "${els[@]}" | sort -g | tail -n 1)
        ACHIEVED=$(printf '%s\n' "${rates[@]}" | awk '{ s += $1 } END { printf "%.2f", s }')
    fi
    START_JSON=$(players_skew_json "$at" "$starts")
    players_skew_warn "$START_JSON" "at $rate q/s"
}

# one_start: the load's players start at one absolute time, PLAYERS_LEAD_S
# ahead (on a lab, or with several players), not at once (one player on
# the namespace testbed). start_lead: the seconds from a point's start to
# its players' (0 when they start at once).
one_start() { [ "${#LOAD_PLAYERS[@]}" -gt 1 ] || [ "$BACKEND" = lab ]; }
start_lead() { if one_start; then echo "$PLAYERS_LEAD_S"; else echo 0; fi; }

# replay_pcap PLAYER: the trace rewritten for PLAYER (run_lb).
replay_pcap() { echo "$WORK/replay-$1.pcap"; }

# measure_point RATE [REP]: one row of points.csv, repetition REP
# (default 1) of the rate (reused when kept from an interrupted run with
# identical settings). Sets P_RATIO and P_GENLIM, and PT_RATIO[RATE] (the
# lowest ratio of its repetitions) and PT_GENLIM[RATE] for the search.
# Never call it (or its callers) in a condition: set -e must stay in force.
measure_point() {
    local rate=$1 k=${2:-1} row c0 c1 reused=0 sample win
    # Measured already in this run (the repetitions phase repeats the bisection's points).
    row=$(printf '%s\n' "${POINT_ROWS[@]}" | awk -F, -v r="$rate" -v k="$k" -v lb="$CUR_LB" '$1 == lb && $2 == r && $NF == k { print; exit }')
    if [ -n "$row" ]; then
        point_read "$row"
        return 0
    fi
    row=$(awk -F, -v r="$rate" -v k="$k" -v id="$SETTINGS_ID" '$2 == r && $16 == id && $NF == k { print; exit }' "$CACHE" 2>/dev/null || true)
    if [ -n "$row" ]; then
        reused=1
        row=$(awk -F, -v OFS=, '{ $15 = 1; print }' <<<"$row")
    else
        c0=$(counters_snapshot)
        # (perf first: its second of start stays out of the sampler's window)
        # (kxdpgun sends from about a second after its start: perf watches
        # that too; and the lead of players started at one time)
        win=$(awk -v d="$DURATION" -v l="$(start_lead)" 'BEGIN { print d + l }')
        charge_start "$WORK" "$(if [ "$UDP_GENERATOR" = kxdpgun ]; then kxg_window "$win"; else echo "$win"; fi)"
        sampler_start
        # the RSSAC047 probe from its own client during the load (scripts/lib/probe.sh)
        probe_start "$EXP_DIR/probe" "$(point_stem "$rate" "$k")"
        replay "$rate"
        probe_stop
        if run_interrupted; then charge_discard; sampler_stop; return 0; fi
        sleep "$SETTLE_LEFT"
        sampler_stop
        if run_interrupted; then charge_discard; return 0; fi
        charge_stop "$WORK"
        servers_alive "$rate"
        c1=$(counters_snapshot)
        probe_counted "$EXP_DIR/probe/$(point_stem "$rate" "$k").json" "$c0" "$c1"
        [ "$UDP_GENERATOR" != kxdpgun ] || sent_at_router "$rate" "$c0" "$c1"
        mkdir -p "$EXP_DIR/samples"
        sample="$EXP_DIR/samples/$(point_stem "$rate" "$k").json"
        # the point's sample written and its row (udpreplay/udp/points.py); with
        # kxdpgun's players: each one's share, sources and own count
        printf '%s\n' "$c0" > "$WORK/c0.json"; printf '%s\n' "$c1" > "$WORK/c1.json"
        row=$("${UDP_POINTS[@]}" point --lb "$CUR_LB" --rate "$rate" --rep "$k" --sent "$SENT" --elapsed "$ELAPSED" \
            --achieved "$ACHIEVED" --settings-id "$SETTINGS_ID" --before "$WORK/c0.json" --after "$WORK/c1.json" \
            --sample "$WORK/sample.json" --series "$WORK/series.jsonl" --charge "$WORK/charge.json" \
            --arrivals "$WORK/arrivals.json" --start "$START_JSON" --cpus "$CPUS_JSON" \
            --kxdpgun "$(if [ "$UDP_GENERATOR" = kxdpgun ]; then echo "$KXG_PLAYERS_JSON"; else echo null; fi)" \
            --players "${LOAD_PLAYERS[*]}" --rig "$CHARGE_RIG" --sample-out "$sample" 2> "$WORK/points.err") \
            || die "the row of the point at $rate q/s: $(sed 's/^udp points: error: //' "$WORK/points.err")"
        results_append_line "$CACHE" "$row"
    fi
    POINT_ROWS+=("$row")
    write_points
    point_read "$row"
    printf 'udp: LB=%s %7s q/s%s: sent %9.1f/s, answered %9.1f/s, ratio %.6f, stray %s%s%s%s\n' \
        "$CUR_LB" "$rate" "$( [ "$REPS" -gt 1 ] && echo " (rep $k)" || true)" "$P_ACH" "$P_AQPS" "$P_RATIO" "$P_STRAY" \
        "$( [ -n "$P_RIG" ] && awk -v r="$P_RIG" -v l="$CHARGE_LIMIT" 'BEGIN { printf ", the rig %.1f %% of the server CPU%s", r * 100, (r > l ? " (RIG WORK ON THE SERVER CPU)" : "") }' || true)" \
        "$( [ "$P_GENLIM" = 1 ] && echo ', GENERATOR-LIMITED' || true)" \
        "$( [ "$reused" = 1 ] && echo ' (kept from an earlier run)' || true)" >&2
}

# point_stem RATE REP: the name of the point's files (samples/, probe/).
point_stem() { if [ "$2" = 1 ]; then echo "$CUR_LB-$1"; else echo "$CUR_LB-$1-r$2"; fi; }

# point_read ROW: P_* from a row of points.csv; PT_RATIO/PT_GENLIM of its rate.
point_read() {
    local rate
    IFS=, read -r _ rate P_ACH _ P_SENT _ _ _ P_RATIO P_AQPS _ P_STRAY P_SERVING P_GENLIM _ <<<"$1"
    P_RIG=${1%,*}; P_RIG=${P_RIG##*,}     # the column before rep
    PT_GENLIM[$rate]=$P_GENLIM
    if [ -z "${PT_RATIO[$rate]:-}" ] || awk -v a="$P_RATIO" -v b="${PT_RATIO[$rate]}" 'BEGIN { exit !(a < b) }'; then
        PT_RATIO[$rate]=$P_RATIO
    fi
}

# servers_alive RATE: die, naming it, when a server daemon was killed or
# crashed during the point: its answers missing are not the server's capacity.
servers_alive() {
    local down
    down=$(exp_servers_down server1 server2 | tr '\n' ' ')
    [ -z "$down" ] || die "the server daemon of ${down% } was not running after the point at $1 q/s (killed or crashed); the point is not measured; the points measured before are kept"
}

# sampler_start / sampler_stop: the testbed sampler around one point
# (exp_sampler_start; every layer's counters, every 100 ms).
# With what the switch offered each server, and what its ring and its
# sockets refused, every millisecond (arrivals.json: scripts/lib/arrivals.jq).
sampler_start() { exp_sampler_start "$WORK" --arrivals-out "$WORK/arrivals.json" --arrivals-proto "$(if [ "$FAMILY" = 6 ]; then echo udp6; else echo udp; fi)"; }

sampler_stop() { [ -z "${SAMPLER_PID:-}" ] || exp_sampler_stop "$WORK"; }

write_points() {
    { echo "# $POINT_COLUMNS"; printf '%s\n' "${POINT_ROWS[@]}"; } | results_write "$EXP_DIR/points.csv"
}

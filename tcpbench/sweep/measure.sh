# measure.sh: one point of the TCP sweep (tcpbench/sweep/run sources it):
# every player of a configuration started at once with the testbed sampler
# and perf on the servers' CPUs (scripts/lib/charge.sh) around them, the
# servers' counters before and after, each repetition's record, and the
# point merged over its repetitions (point.jq).

# budget_stat: the servers' CPU budget throttling so far, or null (no budget).
budget_stat() {
    if [ "$(jq -r '.server.cpu_budget.budget // "none"' "$WORK/testbed.json")" = none ]; then echo null; return 0; fi
    "$TESTBED" cpu-budget-stat 2>/dev/null || echo null
}

stop_players() {
    local p
    for p in "${PLAYER_PIDS[@]+"${PLAYER_PIDS[@]}"}"; do pkill -INT -P "$p" 2>/dev/null || true; done
}

stop_sampler() {
    [ -n "$SAMPLER_PID" ] || return 0
    kill -TERM "$SAMPLER_PID" 2>/dev/null || true
    wait_pid "$SAMPLER_PID" || true
    SAMPLER_PID=""
}


# run_once CONFIG TOTAL REP OUT: one repetition of one point: the sampler,
# then every player of the config at its share of TOTAL, all at once; OUT
# gets the run record point.jq reads.
run_once() {
    local cfg=$1 total=$2 rep=$3 out=$4 player server rate i=0 rcs=() t0 t1
    local w="$WORK/run"; rm -rf "$w"; mkdir -p "$w"
    "$TESTBED" server-stats > "$w/stats-before.json"
    budget_stat > "$w/budget-before.json"
    # the counters: what kxdpgun sent (the router's), and the probe's own
    # queries (the router's, or on a lab the servers')
    local counted=0; [ "$TCP_GENERATOR" != kxdpgun ] && ! probe_on || counted=1
    [ "$counted" = 0 ] || "$TESTBED" counters > "$w/counters-before.json"
    # The players start once the sampler has its baseline sample; lead is
    # how long after it, so the samples of the load (point.jq:
    # load_samples) are those from 0.2 s after the start (the first whole
    # 100 ms sample of the load) to the end of the schedule.
    # (perf first: its second of start stays out of the sampler's window)
    # (kxdpgun sends from about a second after its start: perf watches that too)
    charge_start "$w" "$(if [ "$TCP_GENERATOR" = kxdpgun ]; then kxg_window "$POINT_S"; else echo "$POINT_S"; fi)"
    # (with what the switch offered each server every millisecond, and the
    # connections its listeners refused: arrivals.json, scripts/lib/arrivals.jq)
    exp_sampler_start "$w" --arrivals-out "$w/arrivals.json" --arrivals-proto tcp
    PLAYER_PIDS=()
    t0=$(now_ns)
    # On a lab the players are started over SSH one after the other: they
    # get one absolute start, PLAYERS_LEAD_S ahead (docs/real-lab.md),
    # which is t0 (kxdpgun's: its first queries, KXG_SLEEP_S after it is
    # started then: kxg_run's KXG_START_AT).
    local start_args=() at=null
    if [ "$(jq -r '.backend // "netns"' "$WORK/testbed.json")" = lab ]; then
        at=$(awk -v t="$t0" -v l="$PLAYERS_LEAD_S" -v s="$(if [ "$TCP_GENERATOR" = kxdpgun ]; then echo "$KXG_SLEEP_S"; else echo 0; fi)" \
            'BEGIN { printf "%.6f", t / 1e9 + l + s }')
        start_args=(--start-at "$at")
        t0=$(awk -v a="$at" 'BEGIN { printf "%.0f", a * 1e9 }')
    fi
    local lead; lead=$(awk -v a="$SAMPLER_READY_NS" -v b="$t0" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    # the RSSAC047 probe from its own client during the load (scripts/lib/probe.sh)
    probe_start "$w" probe
    while read -r player server rate; do
        # Interrupted before the players started: none start.
        if run_interrupted; then break; fi
        if [ "$TCP_GENERATOR" = kxdpgun ]; then
            kxg_tcp_start "$player" "$server" "$rate" "$w/p$i" "$at"
        else
            "$TESTBED" exec "$player" -- "$TCPBENCH" --quiet -s "$(exp_family_addr "$server")" \
                -b "$(tcp_source_block "$player")" -r "$rate" -d "$POINT_S" -t "$TIMEOUT_MS" \
                -w "$WORKERS" --tick-us "$TICK_US" --max-burst "$MAX_BURST" \
                "${QUERY_ARGS[@]}" "${TARGET_ALLOW_ARGS[@]+"${TARGET_ALLOW_ARGS[@]}"}" "${TLS_ARGS[@]+"${TLS_ARGS[@]}"}" \
                "${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"}" "${start_args[@]+"${start_args[@]}"}" --json "$w/p$i.json" \
                >/dev/null 2>"$w/p$i.err" &
        fi
        PLAYER_PIDS+=("$!")
        printf '%s %s %s\n' "$player" "$server" "$rate" > "$w/p$i.who"
        i=$((i + 1))
    done < <(config_rates "$cfg" "$total")
    local p rc
    for p in "${PLAYER_PIDS[@]}"; do rc=0; wait_pid "$p" || rc=$?; rcs+=("$rc"); done
    PLAYER_PIDS=()
    t1=$(now_ns)
    probe_stop
    sleep 0.2
    stop_sampler
    charge_stop "$w"
    "$TESTBED" server-stats > "$w/stats-after.json"
    budget_stat > "$w/budget-after.json"
    [ "$counted" = 0 ] || "$TESTBED" counters > "$w/counters-after.json"
    [ "$TCP_GENERATOR" != kxdpgun ] || kxg_tcp_results "$w" "$cfg" "$total" "$i" "$at"
    [ "$counted" = 0 ] || probe_counted "$w/probe.json" "$(cat "$w/counters-before.json")" "$(cat "$w/counters-after.json")"
    # A server daemon killed or crashed during the run: the run is an
    # error with that cause (point.jq), never a capacity measurement.
    exp_servers_down $(config_servers "$cfg") | jq -R . | jq -s -c . > "$w/down.json"
    [ -s "$w/sample.json" ] || die "the testbed sampler wrote no summary: $(tail -n 3 "$w/sampler.log")"
    local k players=()
    for k in "${!rcs[@]}"; do
        read -r player server rate < "$w/p$k.who"
        players+=("$(jq -n -c --arg p "$player" --arg s "$server" --argjson r "$rate" --argjson rc "${rcs[$k]}" \
            --arg err "$(tail -n 3 "$w/p$k.err" | tr '\n' ' ')" \
            --argjson res "$(if [ -s "$w/p$k.json" ]; then cat "$w/p$k.json"; else echo null; fi)" \
            '{player:$p, server:$s, rate:$r, rc:$rc, stderr:$err, result:$res}')")
    done
    printf '%s\n' "${players[@]}" > "$w/players.jsonl"
    # each player's start of sending (tcpbench's first connection, on its
    # host's clock) against the one intended (players_skew_json)
    local starts start
    starts=$(jq -r '"\(.player) \(.result.first_start_realtime // "-")"' "$w/players.jsonl")
    start=$(players_skew_json "$at" "$starts")
    # (kxdpgun's lateness is its own start-up: only its players' spread is warned about)
    players_skew_warn "$start" "$cfg at $total/s" "$(if [ "$TCP_GENERATOR" = kxdpgun ]; then echo apart; fi)"
    jq -n -c --arg cfg "$cfg" --argjson total "$total" --argjson rep "$rep" \
        --argjson interrupted "$(run_interrupted && echo true || echo false)" \
        --argjson servers "$(config_servers "$cfg" | jq -R . | jq -s -c .)" --argjson cpus "$CPUS_JSON" \
        --argjson wall "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')" \
        --slurpfile players "$w/players.jsonl" \
        --slurpfile nb "$w/stats-before.json" --slurpfile na "$w/stats-after.json" \
        --slurpfile sample "$w/sample.json" --slurpfile charge "$w/charge.json" --slurpfile series "$w/series.jsonl" --slurpfile down "$w/down.json" \
        --slurpfile ba "$w/budget-before.json" --slurpfile bb "$w/budget-after.json" "${JQ_LIB[@]}" \
        --slurpfile probe <(cat "$w/probe.json" 2>/dev/null || true) \
        --slurpfile arr <(cat "$w/arrivals.json" 2>/dev/null || true) \
        --argjson lead "$lead" --argjson dur "$POINT_S" --arg gen "$TCP_GENERATOR" --arg transport "$TRANSPORT" \
        --argjson start "$start" '
        include "budget";
        include "arrivals";
        # kxdpgun starts sending a second or more after it is started: its
        # load is the samples in which the servers accepted connections
        # (over QUIC: received datagrams), less the first and the last
        # (partial) ones
        ($transport == "quic") as $q
        | def opens_window: [$series[] | select(([$servers[] as $x | .ns[$x] // {}
            | if $q then (.UdpInDatagrams // 0) + (.Udp6InDatagrams // 0) else .TcpPassiveOpens // 0 end] | add) > 0) | .t]
          | if length >= 3 then {from: .[0], to: (.[-1] - 0.1)} else null end;
        {config:$cfg, offered_rate:$total, rep:$rep, servers:$servers,
         per_server_rate:($total / ($servers | length) | floor), cpus:$cpus, wall_s:$wall,
         interrupted:$interrupted, players:$players, start:$start, daemon:{before:$nb[0], after:$na[0]},
         throttle:throttle_delta($ba[0]; $bb[0]),
         generator:$gen,
         load_window_s:(if $gen == "kxdpgun" then opens_window else {from:($lead + 0.2), to:($lead + $dur)} end),
         sample:$sample[0], charge:$charge[0], series:$series, servers_down:$down[0],
         probe:($probe[0] // null)}
        # what reached the servers per millisecond over the load (scripts/lib/arrivals.jq)
        | .arrivals = arrivals_point($arr[0]; .load_window_s; [$sample[0].stalls[] | select(.cpu as $x | $cpus.server | index($x))]; $servers)
        ' | results_write_json "$out"
}

# config_rates CONFIG TOTAL: "player server rate" lines: each server of
# CONFIG an equal part of TOTAL, split between its players
# (players_shares).
config_rates() {
    local s part ps
    for s in $(config_servers "$1"); do
        part=$(awk -v t="$2" -v n="$(config_nservers "$1")" 'BEGIN { printf "%.10g", t / n }')
        mapfile -t ps < <(config_pairs "$1" | awk -v s="$s" '$2 == s { print $1 }')
        players_shares "$part" - "${ps[@]}" | awk -v s="$s" '$2 > 0 { print $1, s, $2 }'
    done
}

# run_server_down RUNFILE: a server daemon of the run was not running after it.
run_server_down() { jq -e '(.servers_down // []) | length > 0' "$1" >/dev/null; }

# run_outside_stall RUNFILE: why a run must be measured again, as
# "LENGTH_MS CPU WHAT", nothing when it need not: the longest stall from
# outside the testbed long enough to matter at the server (half of what
# fills the backlog at this rate); or, when the generator fell behind
# (invalid), a stall of 20 ms or more on a client CPU (the generator was
# starved, not the load too high for it).
run_outside_stall() {
    jq -r "${JQ_LIB[@]}" --argjson b "$BACKLOG" 'include "point";
        (.per_server_rate) as $r | (run_status == "generator_limited") as $gl
        | ([run_stalls[] | select(.source == "outside_testbed")
            | select($r == 0 or .length_ms >= 0.5 * $b / $r * 1000) | . + {what: "outside stall"}]
           + (if $gl then [run_stalls[] | select(.role == "client" and .length_ms >= 20) | . + {what: "generator stall"}] else [] end))
        | sort_by(-.length_ms) | .[0]
        | select(. != null) | "\(.length_ms) \(.cpu) \(.what)"' "$1"
}

# measure_point CONFIG TOTAL: REPS repetitions (a run whose window held an
# outside stall is re-run, up to RERUNS times, and the reason kept); the
# point is appended to points.jsonl and recorded for the search.
measure_point() {
    local cfg=$1 total=$2 dir="$EXP_DIR/$1" p
    if [ -n "${REUSE[$total]:-}" ]; then
        # resumed: the point as the interrupted sweep journaled it
        p=$(resume_journal_line "$dir/points.jsonl" offered_rate "$total")
        [ -n "$p" ] || die "resume: the point at $total/s vanished from $dir/points.jsonl"
        unset "REUSE[$total]"
        N_REUSED=$((N_REUSED + 1))
        point_done "$cfg" "$total" "$p" " (kept from the interrupted sweep, not measured again)"
        return 0
    fi
    measure_new_point "$@"
    p=$(tail -n 1 "$dir/points.jsonl")
    point_done "$cfg" "$total" "$p" ""
    local f="$dir/runs/$total-$(jq -r .reps <<<"$p").json"
    if [ -f "$f" ] && run_server_down "$f"; then
        SERVER_DOWN="$(jq -r '.servers_down | join(", ")' "$f") not running after the point at $total/s of $cfg (killed or crashed)"
        log "$cfg $total/s: error: the server daemon of $SERVER_DOWN; the sweep stops"
    fi
}

# measure_new_point CONFIG TOTAL: measure it and append it to the journals.
measure_new_point() {
    local cfg=$1 total=$2 dir="$EXP_DIR/$1" rep files=() f tries reason reasons=()
    mkdir -p "$dir/runs"
    for ((rep = 1; rep <= REPS; rep++)); do
        f="$dir/runs/$total-$rep.json"
        for ((tries = 0; ; tries++)); do
            run_once "$cfg" "$total" "$rep" "$f"
            if run_interrupted; then break; fi
            run_server_down "$f" && break
            reason=$(run_outside_stall "$f")
            [ -n "$reason" ] || break
            local ms cpu what
            read -r ms cpu what <<<"$reason"
            if [ "$tries" -ge "$RERUNS" ]; then
                reasons+=("rep $rep kept with an $what of $ms ms on $cpu after $RERUNS re-runs")
                jq '.outside_stall_kept = true' "$f" | results_write_json "$f"
                break
            fi
            log "$cfg $total/s rep $rep: an $what of $ms ms on $cpu: measuring again"
            reasons+=("rep $rep re-run: $what of $ms ms on $cpu")
        done
        files+=("$f")
        if run_interrupted; then break; fi
        run_server_down "$f" && break
    done
    # (appended atomically: a full disk leaves no half line)
    local line
    line=$(jq -s -c "${JQ_LIB[@]}" --argjson s "$(rules_settings "$cfg")" --arg rs "$(printf '%s\n' "${reasons[@]+"${reasons[@]}"}")" '
        include "point"; point($s)
        + {reruns: ($rs | split("\n") | map(select(length > 0)))}
        | if any($rs | split("\n")[]; test("kept with an outside stall")) and (.status == "ok" or .status == "generator_limited")
          then .status = "rig_stall" else . end' \
        "${files[@]}")
    results_append_line "$dir/points.jsonl" "$line"
    # per repetition too: each repetition's own knee gives the spread
    for f in "${files[@]}"; do
        line=$(jq -s -c "${JQ_LIB[@]}" --argjson s "$(rules_settings "$cfg")" 'include "point"; point($s) + {rep: .[0].rep}' "$f")
        results_append_line "$dir/points-by-rep.jsonl" "$line"
    done
}

# point_done CONFIG TOTAL POINT_JSON NOTE: the point recorded for the search, and its progress line.
point_done() {
    local cfg=$1 total=$2 p=$3 note=$4
    # a point whose generator fell short because the server failed is a
    # valid one for the search (rules.jq server_shortfall)
    PT_STATUS[$total]=$(jq -r "${JQ_LIB[@]}" 'include "rules"; if server_shortfall then "ok" else .status end' <<<"$p")
    PT_FAIL[$total]=$(jq -r .fail_ratio <<<"$p")
    PT_HANDLED[$total]=$(jq -r .handled_rate <<<"$p")
    N_POINTS=$((N_POINTS + 1))
    log "$(jq -r --arg cfg "$cfg" --argjson n "$N_POINTS" '
        "\($cfg) \($n): offered \(.offered_rate)/s handled \(.handled_rate)/s fail \(.fail_ratio * 100 | . * 1000 | round / 1000)% "
        + (if .latency_us then "p99 \((.latency_us.p99 // 0) / 1000) ms" else "latency not measured (\(.generator.name))" end) + " \(.status); lost: "
        + ([.loss | to_entries[] | select(.value > 0) | "\(.key) \(.value)"] | join(", ") | if . == "" then "nothing counted" else . end)
        + "; longest server stall \([.stalls[] | select(.role == "server") | .length_ms] | max // 0) ms"' <<<"$p")$note"
}

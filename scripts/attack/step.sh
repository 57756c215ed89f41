# step.sh: one step of the attack experiment (scripts/attack/run sources
# it): a flood of one kind at one rate (scripts/lib/attack.sh), and around
# its sending seconds the legitimate side: the RSSAC047 probe from its own
# block (scripts/lib/probe.sh), the collateral client inside the victims'
# /24, the root trace from player2 (answers counted at the Listener) and the
# testbed sampler (the servers' CPU). One line of steps.jsonl per step.
#
# Timing: attack_flood runs kxdpgun, which sends from about a second after
# its start (KXG_LEAD_S, scripts/lib/kxdpgun.sh) for ATTACK_SECONDS; the
# legitimate side starts then and stops when the flood's seconds are over,
# so its figures are the flood's seconds, not the generator's idle ones.

STEP_FLOOD_PID="" STEP_COLL_PID=""

# step_generator_started FILE: wait (at most 15 s) until the flood starts
# kxdpgun (kxg_run makes FILE just before: on either backend, a lab's
# player included); false when the flood ended (or failed) first.
step_generator_started() {
    local i
    # (every 50 ms, a test of the shell's own: the poll runs while the
    # flood's snapshots are taken and should cost them nothing)
    for ((i = 0; i < 300; i++)); do
        [ ! -e "$1" ] || return 0
        kill -0 "$STEP_FLOOD_PID" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# step_collateral_start DIR SECONDS: a UDP-only client from the collateral
# block (inside the victims' /24: RRL's prefix holds both) for SECONDS,
# asking what a validating resolver there asks and the reflection floods
# ask too, `. DNSKEY` with DO and a 1232-byte buffer: RRL counts identical
# answers per prefix, so this is the question whose answers it limits.
step_collateral_start() {
    [ "$ATTACK_COLLATERAL" = on ] && probe_on || return 0
    local src; src=$(collateral_block4) || die "the collateral client has no source block on BACKEND=${BACKEND:-netns}"
    target_guard "$src"
    "$TESTBED" exec probe -- "$PROBE_BIN" --source "$src" --server "$SERVICE4" --udp-rate "$ATTACK_PROBE_RATE" --tcp-rate 0 \
        --qtype DNSKEY --edns 1232 --do --timeout-ms "$PROBE_TIMEOUT_MS" --quiet --duration "$2" --stop-wait-ms "$PROBE_STOP_WAIT_MS" \
        --json "$1/collateral.json" > "$1/collateral.log" 2>&1 &
    STEP_COLL_PID=$!
}

step_collateral_wait() {
    [ -n "$STEP_COLL_PID" ] || return 0
    local rc=0
    wait "$STEP_COLL_PID" || rc=$?
    STEP_COLL_PID=""
    [ "$rc" = 0 ] || die "the collateral client failed (exit $rc): $(tail -n 2 "$1/collateral.log" | tr '\n' ' ')"
    probe_check_result "$1/collateral.json" "$1/collateral.log"
}

# step_background_start SECONDS: the root trace from player2 at
# ATTACK_BACKGROUND_QPS for SECONDS (bounded in count), in the background.
step_background_start() {
    [ "$ATTACK_BACKGROUND_QPS" -gt 0 ] || return 0
    ur_replay player2 "$BG_PCAP" "$ATTACK_BACKGROUND_QPS" $((ATTACK_BACKGROUND_QPS * $1)) > "$WORK/background.log" 2>&1 &
    REPLAY_PID=$!
}

# step_children_stop: whatever of a step still runs, stopped (an error or Ctrl-C).
step_children_stop() {
    probe_discard
    [ -z "$STEP_COLL_PID" ] || { kill -TERM "$STEP_COLL_PID" 2>/dev/null || true; wait "$STEP_COLL_PID" 2>/dev/null || true; STEP_COLL_PID=""; }
    [ -z "${REPLAY_PID:-}" ] || stop_replay
    if [ -n "$STEP_FLOOD_PID" ]; then
        kill -TERM "$STEP_FLOOD_PID" 2>/dev/null || true
        wait "$STEP_FLOOD_PID" 2>/dev/null || true
        STEP_FLOOD_PID=""
    fi
    exp_sampler_end
}

# attack_step SERVER DEFENCE KIND RATE: one step, appended to steps.jsonl.
attack_step() {
    local server=$1 defence=$2 kind=$3 rate=$4 dir c0 c1 rc=0 bg
    dir="$EXP_DIR/steps/$server-$defence/$kind-$rate"
    rm -rf "$dir" "$WORK/sample.json" "$WORK/kxdpgun-started"; mkdir -p "$dir"
    c0=$("$TESTBED" counters)
    KXG_STARTED_FILE="$WORK/kxdpgun-started" attack_flood "$kind" "$rate" "$ATTACK_SECONDS" "$dir/flood" player1 4 > "$dir/flood.log" 2>&1 &
    STEP_FLOOD_PID=$!
    if step_generator_started "$WORK/kxdpgun-started"; then
        sleep "$KXG_LEAD_S"
        exp_sampler_start "$WORK"
        probe_start "$dir" probe
        step_collateral_start "$dir" "$ATTACK_SECONDS"
        step_background_start "$ATTACK_SECONDS"
        sleep "$ATTACK_SECONDS"
        probe_stop
        step_collateral_wait "$dir"
        exp_sampler_stop "$WORK"
    fi
    wait "$STEP_FLOOD_PID" || rc=$?
    STEP_FLOOD_PID=""
    if run_interrupted; then return 0; fi
    [ "$rc" = 0 ] || die "the $kind flood at $rate/s failed (exit $rc): $(tail -n 3 "$dir/flood.log" | tr '\n' ' ')"
    [ -s "$dir/flood/flood.json" ] || die "the $kind flood at $rate/s wrote no flood.json: $(tail -n 3 "$dir/flood.log" | tr '\n' ' ')"
    [ -z "${REPLAY_PID:-}" ] || { wait "$REPLAY_PID" 2>/dev/null || true; REPLAY_PID=""; }
    sleep 0.5    # the last answers of the background reach the Listener
    c1=$("$TESTBED" counters)
    # the step's record (rules.py: the files above, the background's
    # counts from the two snapshots, the servers' CPU from the sampler's
    # summary; probe.json gets the router's count of the probe's queries),
    # then its line
    bg=0; [ "$ATTACK_BACKGROUND_QPS" -eq 0 ] || bg=1
    "${RULES[@]}" step "$dir" "$server" "$defence" "$kind" "$rate" "$ATTACK_SECONDS" "$SETTINGS_ID" "$c0" "$c1" \
        "$WORK/sample.json" "$CPUS_JSON" "$bg" "${PROBE:-on}" > "$WORK/step.json" 2> "$WORK/step.line" \
        || die "the step's record could not be made: $(tail -n 2 "$WORK/step.line" | tr '\n' ' ')"
    results_append_line "$EXP_DIR/steps.jsonl" "$(cat "$WORK/step.json")"
    cat "$WORK/step.line" >&2
}

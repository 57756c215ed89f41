# charge.sh: what the servers' CPU spent each point on, for the capacity
# experiments (the UDP sweep, the TCP sweep and what runs them). perf on
# the servers' CPUs during the load (scripts/sampler/cpu-charge) puts each
# sample in a class: the rig's forwarding (the switch's bridge, the
# router), the servers' own receive path, the daemon, other. The rig's
# share of the busy samples is the point's rig_share; above the limit of
# scripts/lib/charge.jq (read into CHARGE_LIMIT, never restated here) the
# point's figure includes the rig's work and is not the server's own (the
# rules label it).
#
#   CPU_CHARGE=auto|perf|off   auto: perf on the namespace testbed when perf
#                              is installed, else off (a lab's servers are
#                              other hosts); off records the point as not
#                              measured, never as 0
#   CPU_CHARGE_HZ=499          perf's sampling rate (its cost on the server
#                              CPU: docs/methodology.md)
#
#   charge_read_settings       CPU_CHARGE checked, CHARGE_MODE and
#                              CHARGE_LIMIT set
#   charge_settings_json       {mode, hz, why, classes, limit} for a
#                              summary's settings
#   charge_start DIR SECONDS   perf on the servers' CPUs for SECONDS, in the
#                              background (CHARGE_PID); returns once perf
#                              records (its start takes about a second), so
#                              that the load starts inside its window
#   charge_stop DIR            waits for it, writes DIR/charge.json (the
#                              classes; {"measured": false, "why"} when off)
#                              and sets CHARGE_RIG to its rig_share, "" when
#                              not measured; perf.data is removed (not in a
#                              command substitution: it waits for a child)
#   charge_discard             an interrupted point: perf stopped, nothing kept
# Source after common.sh and experiment.sh; TB_JSON is the testbed's status.

CHARGE_PID=""

charge_read_settings() {
    CPU_CHARGE=${CPU_CHARGE:-auto}
    CPU_CHARGE_HZ=${CPU_CHARGE_HZ:-499}
    [[ $CPU_CHARGE_HZ =~ ^[1-9][0-9]*$ ]] && [ "$CPU_CHARGE_HZ" -le 4999 ] \
        || die "CPU_CHARGE_HZ=$CPU_CHARGE_HZ must be a sampling rate from 1 to 4999 Hz"
    CHARGE_WHY=""
    # (a lab's servers are other hosts, where this host's perf does not see
    # them: asked for there, refused before anything starts)
    [ "$CPU_CHARGE" != perf ] || [ "${BACKEND:-netns}" != lab ] \
        || die "CPU_CHARGE=perf needs the namespace testbed: a lab's servers are other hosts (CPU_CHARGE=auto or off)"
    case $CPU_CHARGE in
        perf) need_tools perf; CHARGE_MODE=perf ;;
        off) CHARGE_MODE=off; CHARGE_WHY="CPU_CHARGE=off" ;;
        auto)
            if ! command -v perf >/dev/null 2>&1; then CHARGE_MODE=off; CHARGE_WHY="perf is not installed"
            else CHARGE_MODE=perf; fi ;;
        *) die "CPU_CHARGE=$CPU_CHARGE: auto, perf or off" ;;
    esac
    CHARGE_LIMIT=$(jq -n -L "$RB_TOP/scripts/lib" 'include "charge"; rig_share_limit') \
        || die "scripts/lib/charge.jq unreadable"
}

# charge_for_testbed: after the testbed is up: a lab's servers are other
# hosts, where this host's perf does not see them.
charge_for_testbed() {
    [ "$CHARGE_MODE" = perf ] || return 0
    # (CPU_CHARGE=perf on a lab was refused by charge_read_settings)
    if [ "$(jq -r '.backend // "netns"' <<<"$TB_JSON")" != netns ]; then
        CHARGE_MODE=off; CHARGE_WHY="a lab's servers are other hosts"
    fi
}

charge_settings_json() {
    jq -n -c --arg m "$CHARGE_MODE" --argjson hz "$CPU_CHARGE_HZ" --arg why "$CHARGE_WHY" --argjson limit "$CHARGE_LIMIT" \
        '{mode: $m, hz: (if $m == "perf" then $hz else null end), why: (if $why == "" then null else $why end),
          classes: "rig (the bridge, the router), receive (to a local socket), unplaced receive (split between the two in their proportion), daemon, other",
          limit: $limit}'
}

charge_start() {
    local dir=$1 secs=$2 cpus
    CHARGE_PID=""
    rm -rf "$dir/charge" "$dir/charge.json"
    [ "$CHARGE_MODE" = perf ] || return 0
    cpus=$(jq -r '.pinning.servers // empty' <<<"$TB_JSON")
    [ -n "$cpus" ] || die "the testbed's status names no server CPUs (.pinning.servers)"
    # perf itself (its reading of the samples) runs on the rig's CPUs, so
    # that only its sampling interrupts fall on the servers'
    taskset -c "$(jq -r '.pinning.clients' <<<"$TB_JSON")" "$RB_TOP/scripts/sampler/cpu-charge" record "$cpus" "$secs" "$dir/charge" "$CPU_CHARGE_HZ" \
        > "$dir/charge.log" 2>&1 &
    CHARGE_PID=$!
    local i
    for ((i = 0; i < 500; i++)); do
        [ ! -e "$dir/charge/recording" ] || return 0
        kill -0 "$CHARGE_PID" 2>/dev/null || die "perf on the servers' CPUs did not start: $(tail -n 2 "$dir/charge.log" | tr '\n' ' ')"
        sleep 0.02
    done
    die "perf on the servers' CPUs was not recording within 10 s: $(tail -n 2 "$dir/charge.log" | tr '\n' ' ')"
}

charge_stop() {
    local dir=$1 rc=0
    if [ -z "$CHARGE_PID" ]; then
        jq -n -c --arg why "${CHARGE_WHY:-not started}" '{measured: false, why: $why}' > "$dir/charge.json"
        CHARGE_RIG=""
        return 0
    fi
    wait "$CHARGE_PID" || rc=$?
    CHARGE_PID=""
    [ "$rc" -eq 0 ] || die "perf on the servers' CPUs failed (exit $rc): $(tail -n 2 "$dir/charge.log" | tr '\n' ' ')"
    "$RB_TOP/scripts/sampler/cpu-charge" classify "$dir/charge" | jq -c '. + {measured: true}' > "$dir/charge.json" \
        || die "cannot classify the servers' CPU samples in $dir/charge"
    rm -rf "$dir/charge"
    CHARGE_RIG=$(jq -r '.rig_share // ""' "$dir/charge.json")
}

charge_discard() {
    [ -n "$CHARGE_PID" ] || return 0
    # (perf runs under timeout, a child of cpu-charge: INT to the children
    # stops it at once, then the script ends)
    pkill -INT -P "$CHARGE_PID" 2>/dev/null || true
    wait "$CHARGE_PID" 2>/dev/null || true
    CHARGE_PID=""
}

# probe.sh: RSSAC047's probe (tcpbench/rbprobe, docs/probe.md) from the
# testbed's probe role: a legitimate client's latency, availability and
# correctness over UDP and TCP while a sweep loads the instance, and on the
# idle testbed before it.
#
#   probe_settings        PROBE, PROBE_UDP_RATE, PROBE_TCP_RATE,
#                         PROBE_TIMEOUT_MS, PROBE_STOP_WAIT_MS, PROBE_IDLE_S from the global table
#                         (scripts/lib/settings.json), checked
#   probe_serial          the SOA serial of the zone the testbed serves
#   probe_start DIR NAME  rbprobe --until-signal in the probe role, in the
#                         background, its JSON to DIR/NAME.json (messages in
#                         DIR/NAME.log)
#   probe_stop            SIGTERM, a bounded wait, DIR/NAME.json checked
#   probe_idle DIR [NAME] a PROBE_IDLE_S-second probe: DIR/NAME.json
#                         (NAME: probe-idle)
#   probe_discard         a running probe killed, its result not read
#   probe_stats FILE      {"udp": STATS, "tcp": STATS} of one result
#                         (scripts/lib/probe-stats.jq), compact
# With PROBE=off each is a no-op and probe_stats prints null.
#
# The service address is the family's (FAMILY=6: SERVICE6); the shell
# checks it with the target guard (target.sh) and rbprobe again itself.
# On a lab the probe role is the inventory's probe host (lab_role_host,
# scripts/lib/lab.sh; make lab-setup installs rbprobe there): rbprobe runs
# there over SSH, stopped by a SIGTERM to its `testbed exec` (which the lab
# backend passes on to the host), its JSON fetched back when it ends. A lab
# without a probe host has no probe: PROBE=on given by the user is refused
# (probe_settings), the default is turned off with one warning naming the
# inventory line to add.
#
# Source after common.sh, topology.sh, settings.sh and target.sh; TESTBED
# names scripts/testbed.

PROBE_BIN="$RB_TOP/tcpbench/rbprobe"
PROBE_SETTINGS_TABLE="$RB_TOP/scripts/lib/settings.json"
# The longest a probe_start's rbprobe runs if probe_stop never comes.
PROBE_MAX_DURATION_S=3600
PROBE_EXEC_PID=""       # the background `testbed exec` of probe_start
PROBE_PID=""            # its rbprobe (netns: the same pid namespace)
PROBE_JSON=""           # its result file
PROBE_LOG=""            # and its messages
PROBE_ARGS=()           # rbprobe's options (probe_args)

probe_settings() {
    local given=${PROBE:-}
    settings_fill_defaults "$PROBE_SETTINGS_TABLE" 'PROBE*'
    [ -n "${PROBE_IDLE_S:-}" ] || PROBE_IDLE_S=$(settings_get "$PROBE_SETTINGS_TABLE" PROBE_IDLE_S)
    settings_check_all "$PROBE_SETTINGS_TABLE" 'PROBE*'
    [ "$PROBE" = on ] && probe_lab && ! lab_role_host probe >/dev/null 2>&1 || return 0
    # A lab without a probe host: PROBE=on asked for is refused before
    # anything starts; the default (on) is turned off, said once.
    local add="add host probe to group probes in inventory $INVENTORY (the listener's host variables, its own test address; docs/real-lab.md)"
    [ "$given" != on ] || die "PROBE=on: the lab has no probe host: $add, or PROBE=off"
    warn "the lab has no probe host, so this run has no RSSAC047 probe (PROBE off; its summaries carry \"probe\": null): $add"
    PROBE=off
}

# probe_lab: the testbed is a lab (BACKEND=lab): rbprobe runs on its probe
# host over SSH.
probe_lab() { [ "${BACKEND:-netns}" = lab ]; }

probe_on() { [ "${PROBE:-on}" = on ]; }

# probe_address: the service address of the family measured (FAMILY is 4
# or 6 once exp_family_read has read it; unset: 4).
probe_address() { if [ "${FAMILY:-4}" = 6 ]; then echo "$SERVICE6"; else echo "$SERVICE4"; fi; }

# probe_serial [STATUS]: the served root zone's SOA serial; STATUS: the
# testbed's status --json when the caller has read it already.
probe_serial() {
    probe_on || return 0
    local dir serial st=${1:-}
    [ -n "$st" ] || st=$("$TESTBED" status --json) || die "probe: the testbed's status could not be read"
    dir=$(jq -r '.zones.dir // empty' <<<"$st")
    [ -f "$dir/root.zone" ] || die "probe: no root.zone in the testbed's zone directory '$dir'"
    serial=$(ldns-read-zone -E SOA "$dir/root.zone" | awk '$4 == "SOA" { print $7; exit }')
    [[ $serial =~ ^[0-9]+$ ]] || die "probe: no SOA serial in $dir/root.zone"
    echo "$serial"
}

# probe_sources: the probe's source block of the family (topology.sh),
# nothing where it has none (a lab's probe host).
probe_sources() {
    if [ "${FAMILY:-4}" = 6 ]; then probe_block6 2>/dev/null || true; else probe_block4 2>/dev/null || true; fi
}

# probe_args [STATUS]: rbprobe's options of every run: PROBE_ARGS, made
# once per sweep (probe_idle makes them anew: the testbed may have changed).
probe_args() {
    [ "${#PROBE_ARGS[@]}" -eq 0 ] || return 0
    local addr serial src
    need_program "$PROBE_BIN"
    addr=$(probe_address)
    target_guard "$addr"
    src=$(probe_sources)
    [ -z "$src" ] || target_guard "$src"
    target_allow_args
    serial=$(probe_serial "${1:-}")
    PROBE_ARGS=(${src:+--source "$src"} --server "$addr" --udp-rate "$PROBE_UDP_RATE" --tcp-rate "$PROBE_TCP_RATE"
                --timeout-ms "$PROBE_TIMEOUT_MS" --serial "$serial" --quiet
                "${TARGET_ALLOW_ARGS[@]+"${TARGET_ALLOW_ARGS[@]}"}")
}

# probe_check_result FILE LOG: FILE is an rbprobe result; dies naming it otherwise.
probe_check_result() {
    jq -e -L "$RB_TOP/scripts/lib" 'include "probe-stats"; probe_raw_checked != null' "$1" >/dev/null 2>&1 \
        || die "probe: $1 is missing or not an rbprobe result (rootbench.probe/1); rbprobe said: $(tail -n 3 "$2" 2>/dev/null | tr '\n' ' ')"
}

probe_start() {
    probe_on || return 0
    local dir=$1 name=$2 pidf i
    [ -z "$PROBE_EXEC_PID" ] || die "probe_start: a probe is running already (probe_stop first)"
    [ -d "$dir" ] || die "probe_start: no directory $dir"
    probe_args
    PROBE_JSON="$dir/$name.json"
    PROBE_LOG="$dir/$name.log"
    pidf="$dir/.$name.pid"
    rm -f "$PROBE_JSON" "$pidf"
    local run=("$PROBE_BIN" "${PROBE_ARGS[@]}" --until-signal --max-duration "$PROBE_MAX_DURATION_S"
               --stop-wait-ms "$PROBE_STOP_WAIT_MS" --json "$PROBE_JSON")
    if probe_lab; then
        # The pid file gets the host's pid once rbprobe runs there (lab_exec,
        # RB_EXEC_PIDFILE); probe_stop signals the local `testbed exec`,
        # which passes the SIGTERM on to the host.
        RB_EXEC_PIDFILE=$pidf "$TESTBED" exec probe -- "${run[@]}" > "$PROBE_LOG" 2>&1 &
    else
        # The pid file names rbprobe itself (bash execs it), for probe_stop's signal.
        # shellcheck disable=SC2016
        "$TESTBED" exec probe -- bash -c 'echo $$ > "$1"; shift; exec "$@"' probe "$pidf" "${run[@]}" > "$PROBE_LOG" 2>&1 &
    fi
    PROBE_EXEC_PID=$!
    PROBE_PID=""
    for ((i = 0; i < 250; i++)); do
        [ -s "$pidf" ] && { PROBE_PID=$(cat "$pidf"); break; }
        kill -0 "$PROBE_EXEC_PID" 2>/dev/null || break
        sleep 0.02
    done
    rm -f "$pidf"
    ! probe_lab || [ -z "$PROBE_PID" ] || PROBE_PID=$PROBE_EXEC_PID
    [ -n "$PROBE_PID" ] || die "probe_start: rbprobe did not start: $(tail -n 3 "$PROBE_LOG" | tr '\n' ' ')"
}

probe_stop() {
    probe_on || return 0
    [ -n "$PROBE_EXEC_PID" ] || die "probe_stop: no probe running (probe_start first)"
    local i wait_cs=$(( (PROBE_STOP_WAIT_MS / 1000 + 3) * 50 )) rc=0
    # rbprobe stops sending at SIGTERM and waits for the answers still due
    # (at most PROBE_STOP_WAIT_MS); a second one cuts that to 1 s; then SIGKILL.
    kill -TERM "$PROBE_PID" 2>/dev/null || true
    for ((i = 0; i < wait_cs; i++)); do kill -0 "$PROBE_EXEC_PID" 2>/dev/null || break; sleep 0.02; done
    if kill -0 "$PROBE_EXEC_PID" 2>/dev/null; then
        kill -TERM "$PROBE_PID" 2>/dev/null || true
        for ((i = 0; i < 20; i++)); do kill -0 "$PROBE_EXEC_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$PROBE_PID" 2>/dev/null || true
    fi
    wait "$PROBE_EXEC_PID" 2>/dev/null || rc=$?
    PROBE_EXEC_PID=""
    PROBE_PID=""
    [ "$rc" -eq 0 ] || warn "probe: rbprobe exited $rc"
    probe_check_result "$PROBE_JSON" "$PROBE_LOG"
}

probe_idle() {
    probe_on || return 0
    local dir=$1 name=${2:-probe-idle} rc=0 st
    st=$("$TESTBED" status --json) || die "probe: the testbed's status could not be read"
    # A testbed with no probe role (brought up by an older rootbench and
    # kept): the sweep runs without the probe, said so.
    if ! jq -e 'any(.roles[]?; .role == "probe")' <<<"$st" >/dev/null; then
        warn "PROBE=on but the running testbed has no probe role (scripts/testbed down, then up again): the sweep runs without the probe"
        PROBE=off
        return 0
    fi
    PROBE_ARGS=()
    probe_args "$st"
    "$TESTBED" exec probe -- "$PROBE_BIN" "${PROBE_ARGS[@]}" --duration "$PROBE_IDLE_S" \
        --json "$dir/$name.json" > "$dir/$name.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || die "probe: the idle probe failed (exit $rc): $(tail -n 3 "$dir/$name.log" | tr '\n' ' ')"
    probe_check_result "$dir/$name.json" "$dir/$name.log"
}

# probe_discard: a running probe killed, its result not read (a sweep
# stopping on an error or a signal).
probe_discard() {
    [ -n "${PROBE_EXEC_PID:-}" ] || return 0
    local i
    # On a lab a SIGKILL would end only the local side: two SIGTERMs reach
    # rbprobe on its host (the second cuts its wait to 1 s), then a bounded wait.
    if probe_lab; then
        kill -TERM "$PROBE_EXEC_PID" 2>/dev/null || true
        sleep 0.1
        kill -TERM "$PROBE_EXEC_PID" 2>/dev/null || true
        for ((i = 0; i < 30; i++)); do kill -0 "$PROBE_EXEC_PID" 2>/dev/null || break; sleep 0.1; done
    fi
    kill -KILL ${PROBE_PID:+"$PROBE_PID"} "$PROBE_EXEC_PID" 2>/dev/null || true
    wait "$PROBE_EXEC_PID" 2>/dev/null || true
    PROBE_EXEC_PID="" PROBE_PID=""
}

probe_stats() {
    if ! probe_on; then echo null; return 0; fi
    jq -c -L "$RB_TOP/scripts/lib" 'include "probe-stats"; probe_stats' "$1" \
        || die "probe: $1: not an rbprobe result"
}

# tests/lib.sh: helpers shared by rbsample's integration tests. Source
# after scripts/lib/testlib.sh. A test starts the sampler in the
# background on the test testbed's namespaces (RB_PREFIX, set by
# scripts/check), makes traffic or load, stops it with SIGINT and reads
# the summary and series with jq.

RBSAMPLE=${RBSAMPLE:-$RB_TOP/scripts/sampler/rbsample}
. "$RB_TOP/scripts/lib/topology.sh"

SAMPLER_PID=
HELPER_PIDS=()

# sampler_cleanup: stop what the test started (by pid), remove the scratch dir.
sampler_cleanup() {
    local p
    [ -z "$SAMPLER_PID" ] || kill "$SAMPLER_PID" 2>/dev/null || true
    for p in "${HELPER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${HELPER_PIDS[@]}" $SAMPLER_PID; do wait "$p" 2>/dev/null || true; done
    [ -z "${TEST_TMP:-}" ] || rm -rf "$TEST_TMP"
}

# sampler_setup: scratch directory, cleanup trap, the program.
sampler_setup() {
    need_root
    need_program "$RBSAMPLE"
    need_tools jq
    TEST_TMP=$(mktemp -d /tmp/rbtest-sampler.XXXXXX)
    trap sampler_cleanup EXIT
    SERIES="$TEST_TMP/series.jsonl"
    SUMMARY="$TEST_TMP/summary.json"
}

# all_ns_args: --ns NAME=ROLE for every role of the testbed.
all_ns_args() {
    local role
    for role in "${ROLES[@]}"; do printf -- '--ns\n%s=%s\n' "$(ns_of "$role")" "$role"; done
}

# sampler_start ARGS...: rbsample in the background; returns once its
# first sample line is written (the baseline is taken before that).
sampler_start() {
    "$RBSAMPLE" --quiet --series "$SERIES" --summary "$SUMMARY" "$@" 2>"$TEST_TMP/sampler.err" &
    SAMPLER_PID=$!
    local i
    for i in $(seq 100); do
        [ -s "$SERIES.tmp.$SAMPLER_PID" ] && return 0
        kill -0 "$SAMPLER_PID" 2>/dev/null || break
        sleep 0.05
    done
    fail "rbsample did not start: $(cat "$TEST_TMP/sampler.err")"
}

# sampler_stop: SIGINT after two more samples; it must exit 0 and leave
# both files (and no temporary file).
sampler_stop() {
    sleep 0.25
    kill -INT "$SAMPLER_PID"
    local rc=0
    wait "$SAMPLER_PID" || rc=$?
    SAMPLER_PID=
    [ "$rc" -eq 0 ] || fail "rbsample exited $rc: $(cat "$TEST_TMP/sampler.err")"
    [ -s "$SUMMARY" ] && [ -s "$SERIES" ] || fail "rbsample left no summary or series"
    if ls "$TEST_TMP" | grep -q '\.tmp\.'; then fail "temporary file left behind"; fi
}

# sum_series FILTER: the sum over the series lines of a number (missing = 0).
sum_series() { jq -s "[.[] | ($1) // 0] | add" "$SERIES"; }

# summary_get FILTER: a value of the summary (must exist).
summary_get() { jq -er "$1" "$SUMMARY"; }

# tcpbench/sweep/tests/lib.sh: helpers of the TCP experiment's tests.
# Source after scripts/lib/testlib.sh. The sweeps run on the test testbed
# (RB_PREFIX from scripts/check) into a scratch results directory (RB_RESULTS
# too, so results/latest of the tree is left alone).

SWEEP="$RB_TOP/tcpbench/sweep/run"

# sweep_run RUNDIR [VAR=VALUE...]: a smoke sweep of 1p1s; sets SWEEP_RC and
# SWEEP_SECS, keeps its output in RUNDIR.log.
sweep_run() {
    local run=$1; shift
    local t0=$SECONDS
    SWEEP_RC=0
    env SCALE=smoke TCP_CONFIGS=1p1s RB_RESULTS="$(dirname "$run")" RB_RUN="$run" "$@" "$SWEEP" > "$run.log" 2>&1 || SWEEP_RC=$?
    SWEEP_SECS=$((SECONDS - t0))
    note "sweep $* -> exit $SWEEP_RC in ${SWEEP_SECS}s"
    sed 's/^/  | /' "$run.log"
}

# data_rows CSV: the table's rows (without the # header).
data_rows() { grep -v '^#' "$1" || true; }

# csv_col CSV NAME: the values of one column, by header name.
csv_col() {
    awk -F, -v name="$2" 'NR == 1 { sub(/^# /, ""); for (i = 1; i <= NF; i++) if ($i == name) c = i; if (!c) exit 2; next }
                          { print $c }' "$1"
}

# assert_figure FILE: a real PNG or SVG, not empty.
assert_figure() {
    [ -s "$1" ] || fail "figure $1 missing or empty"
    case $1 in
        *.png) file -b "$1" | grep -q '^PNG image' || fail "$1 is not a PNG: $(file -b "$1")" ;;
        *.svg) grep -q '<svg' "$1" || fail "$1 is not an SVG" ;;
    esac
}

# show_invalid_runs CONFIG_DIR: for every run whose generator fell behind,
# why (tcpbench's invalid_reasons) and the stalls the sampler saw, so that
# a failure caused by the machine leaves its evidence in the test's log.
show_invalid_runs() {
    local f
    for f in "$1"/runs/*.json; do
        [ -f "$f" ] || continue
        jq -r --arg f "${f##*/}" 'select(any(.players[]; .result.valid == false))
            | "  invalid run \($f): \([.players[].result.invalid_reasons[]?] | join("; "))"
              + "; stalls: \([.sample.stalls // [] | .[] | "\(.cpu) \(.length_ms) ms \(.kind)"] | join(", "))"
              + "; steal ms: \([.sample.cpu // {} | to_entries[] | "\(.key) \(.value.steal_ms // 0)"] | join(", "))"' "$f"
    done
}

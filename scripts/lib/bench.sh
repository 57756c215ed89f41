# bench.sh: what the testbed benchmarks in bash (udpreplay/smoothness,
# peer-bench, budget-validation/run) share: a results
# directory of their own and an end that always brings their testbed down.
#
#   bench_start NAME [CLEANUP_FN]   BENCH_OUT=$RB_RESULTS/NAME-<UTC stamp>,
#                          made; the run's lifecycle begun
#                          (scripts/lib/lifecycle.sh): at its end
#                          CLEANUP_FN (if any), then the testbed down;
#                          Ctrl-C says where the results are, exit 130
#
# Source after common.sh.
. "$RB_TOP/scripts/lib/lifecycle.sh"

BENCH_OUT=""
BENCH_CLEANUP=""

# run_children_stop: the bench's cleanup, then its testbed down.
run_children_stop() {
    [ -z "$BENCH_CLEANUP" ] || "$BENCH_CLEANUP" || true
    "$RB_TOP/scripts/testbed" down >/dev/null 2>&1 || true
}

bench_interrupted() { log "interrupted; what was measured so far is in $BENCH_OUT"; exit 130; }

bench_start() {
    BENCH_OUT=${RB_RESULTS:-$RB_TOP/results}/$1-$(date -u +%Y%m%dT%H%M%SZ)
    BENCH_CLEANUP=${2:-}
    mkdir -p "$BENCH_OUT"
    run_begin bench_interrupted
}

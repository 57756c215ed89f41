# results.sh: the results layout every experiment writes (docs/results.md).
#
#   results/<UTC stamp>/            one run (RB_RUN); results/latest -> it
#     testbed.json                  `scripts/testbed status --json` at start
#     <experiment>/summary.json     schema, status ok|failed|interrupted, error, ...
#     <experiment>/*.csv            tables: '#' header line, comma separated
#     <experiment>/*.png, *.svg     figures, made by gnuplot from the tables
#
# Source after common.sh.

RB_RESULTS=${RB_RESULTS:-$RB_TOP/results}

# The run directory (RB_RUN) is fixed when this library is sourced, in the
# script's own shell, so calls inside $( ) all agree on it. `make bench`
# exports RB_RUN so every experiment of one run shares it; an experiment
# run alone gets a new one. It is created on first use.
RB_RUN=${RB_RUN:-$RB_RESULTS/$(utc_stamp)}
export RB_RUN

# results_run_dir: the run directory, created; results/latest points at it.
results_run_dir() {
    mkdir -p "$RB_RUN"
    # results/latest follows runs kept under results/ only.
    [ "$(cd "$(dirname "$RB_RUN")" && pwd)" = "$(mkdir -p "$RB_RESULTS" && cd "$RB_RESULTS" && pwd)" ] \
        && ln -sfn "$(basename "$RB_RUN")" "$RB_RESULTS/latest" 2>/dev/null || true
    echo "$RB_RUN"
}

# results_experiment_dir NAME: <run>/<NAME>, created.
results_experiment_dir() {
    local d; d="$(results_run_dir)/$1"
    mkdir -p "$d"
    echo "$d"
}

# results_write FILE: atomically replace FILE with standard input, so a
# reader never sees half a file. A write that fails (the results disk
# full) removes its temporary file and dies naming FILE and the cause;
# FILE keeps its earlier content.
results_write() {
    local tmp="$1.tmp.$$" err
    if ! err=$( { cat > "$tmp"; } 2>&1 ) || ! err=$(mv -f "$tmp" "$1" 2>&1); then
        rm -f "$tmp"
        die "cannot write $1: ${err:-write failed}$(results_disk_note "$1")"
    fi
}

# results_write_json FILE: like results_write, but the input must be valid
# JSON; invalid JSON and a failed write are told apart.
results_write_json() {
    local tmp="$1.tmp.$$" err
    if ! err=$( { jq . > "$tmp"; } 2>&1 ); then
        rm -f "$tmp"
        case $err in
            *"writing output failed"*|*"No space left"*|*"Disk quota"*|*"Read-only"*)
                die "cannot write $1: ${err#Error: }$(results_disk_note "$1")" ;;
            *) die "refusing to write invalid JSON to $1: $err" ;;
        esac
    fi
    err=$(mv -f "$tmp" "$1" 2>&1) || { rm -f "$tmp"; die "cannot write $1: $err"; }
}

# results_append_line FILE LINE: FILE with LINE added at its end, replaced
# atomically: a full disk cannot leave half a line in it.
results_append_line() {
    { [ ! -f "$1" ] || cat "$1"; printf '%s\n' "$2"; } | results_write "$1"
}

# results_disk_note FILE: what a failed write of FILE means, with the space
# left on its file system.
results_disk_note() {
    local avail
    avail=$(df -Pk "$(dirname "$1")" 2>/dev/null | awk 'NR == 2 { print $4 }')
    [ -n "$avail" ] || return 0
    printf ' (%s KiB free on the results file system%s)' "$avail" "$([ "$avail" -lt 1024 ] && echo ': disk full' || true)"
}

# results_record_testbed [STATUS]: the testbed's configuration beside the
# results; STATUS: its status --json when the caller has just read it (one
# read fewer, 0.2 s).
results_record_testbed() {
    if [ -n "${1:-}" ]; then printf '%s\n' "$1"; else "$RB_TOP/scripts/testbed" status --json; fi \
        | results_write_json "$(results_run_dir)/testbed.json"
    results_record_zones
}

# results_mark_failed EXPDIR SCHEMA MESSAGE: a summary that says the
# experiment failed and why; the report shows it instead of numbers.
results_mark_failed() { results_mark_status "$1" "$2" failed "$3"; }

# results_mark_skipped EXPDIR SCHEMA REASON: a summary that says the
# experiment was not run because this testbed cannot do what it needs
# (status "skipped", the reason as its error).
results_mark_skipped() { results_mark_status "$1" "$2" skipped "$3"; }

# results_mark_status EXPDIR SCHEMA STATUS MESSAGE: a summary of a status
# and a message only.
results_mark_status() {
    jq -n --arg schema "$2" --arg st "$3" --arg err "$4" --arg exp "$(basename "$1")" --arg t "$(date -u +%FT%TZ)" \
        '{schema:$schema, experiment:$exp, status:$st, error:$err, finished:$t}' \
        | results_write_json "$1/summary.json"
}

# results_record_zones: the manifests of the zone variants built in this
# tree (zones/build/<variant>/variant.json) beside the results, as
# zones/<variant>.json, so the report names serials and keys even when the
# tree changes later. Nothing is written when no variant is built.
results_record_zones() {
    local m v d
    for m in "$RB_TOP"/zones/build/*/variant.json; do
        [ -f "$m" ] || continue
        v=$(basename "$(dirname "$m")")
        d="$(results_run_dir)/zones"
        mkdir -p "$d"
        if jq -e . "$m" >/dev/null 2>&1; then
            jq . "$m" | results_write_json "$d/$v.json"
        else
            warn "zone manifest $m is not JSON; not recorded"
        fi
    done
    return 0
}

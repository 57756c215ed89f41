# lifecycle.sh: one run's life, the same in every bash experiment (the
# Python ones and make bench: rootbench.lifecycle, which holds the same
# lock): its results directory held against a second run, Ctrl-C told
# from a failure, and a summary that says how the run ended, whatever
# ended it, with what was measured kept.
#
#   run_begin [ON_SIGNAL]  INTERRUPTED=0, SUMMARY_WRITTEN=0; INT and TERM
#                          set INTERRUPTED=1, then call ON_SIGNAL (stop the
#                          point in progress, or run_exit_now); the EXIT trap
#                          run_end; the interrupt witness (below)
#   run_lock DIR           DIR (created) belongs to this run until it ends:
#                          a second run on DIR refuses, naming it
#   run_interrupted        true once the run was interrupted (the handler
#                          or the witness saw it)
#   run_finish STATUS [ERROR]  the summary of STATUS (ok, interrupted,
#                          failed), written by the experiment's
#                          run_summary_write; interrupted then exits 130
#   run_end                (the EXIT trap) what runs in the background
#                          stopped (run_children_stop); a run that wrote no
#                          summary gets one: interrupted, or failed with
#                          the error die recorded (last_error); WORK
#                          removed, the testbed released when the run
#                          brought it up, exit 130 when interrupted
#
# One naming: EXP_DIR (the directory the summary goes to, empty until the
# run has one), INTERRUPTED (0 or 1), SUMMARY_WRITTEN (0 or 1), WORK
# (scratch, removed at the end). The experiment may define:
#   run_children_stop            stop its generators, samplers, captures
#                                (called again at the end: harmless twice)
#   run_summary_write STATUS [ERROR]  its summary of what was measured;
#                                without it (or when it fails) the summary
#                                is the status and the error alone
#                                (results_mark_status, SCHEMA)
#
# The interrupt witness: Bash 5.2 (Debian 12's 5.2.15) can run a pending
# trap while it is parsing a command substitution; the trap's own text
# then fails to parse ("interrupt trap: line 2: unexpected EOF while
# looking for matching `)'"), the handler never runs, and set -e ends the
# script with status 2, as if it had failed. A few percent of Ctrl-Cs land
# there in a script that runs many command substitutions. The witness is a
# process in the script's process group with SIGINT and SIGTERM at their
# defaults: Ctrl-C (or a signal to the group) ends it too, and its absence
# is the evidence the handler missed. It exits by itself within a second
# of the script's end.
#   interrupt_arm HANDLER   trap INT and TERM with HANDLER, start the witness
#   interrupt_witnessed     true when the witness died (the group was signalled)
#   interrupt_disarm        stop the witness (at the end of a run)
#
# Source after common.sh (and results.sh for a run with an EXP_DIR).

EXP_DIR=""
WORK=""         # never the environment's: run_end removes it
INTERRUPTED=0
SUMMARY_WRITTEN=0
RUN_ON_SIGNAL=""
RUN_LOCK_PID=""

# run_close_fds: close every descriptor above 2 of this (sub)shell, so a
# helper process holds no lock, pipe or log of the script's.
run_close_fds() {
    local fd
    for fd in /proc/"$BASHPID"/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
    done
    return 0
}

interrupt_arm() {
    trap "$1" INT TERM
    # Its own descriptors only: an inherited lock or pipe would outlive the
    # script for up to a second, or hold a reader open.
    (
        run_close_fds
        exec env --default-signal=INT,TERM tail -f --pid="$$" /dev/null
    ) </dev/null >/dev/null 2>&1 &
    INTERRUPT_WITNESS=$!
}

interrupt_witnessed() {
    local pid=${INTERRUPT_WITNESS:-} _p _c state
    [ -n "$pid" ] || return 1
    # no command substitution here: this runs from traps and EXIT handlers
    read -r _p _c state _ 2>/dev/null < "/proc/$pid/stat" || return 0
    [ "$state" = Z ] || [ "$state" = X ]
}

interrupt_disarm() {
    [ -n "${INTERRUPT_WITNESS:-}" ] || return 0
    kill "$INTERRUPT_WITNESS" 2>/dev/null || true
    wait "$INTERRUPT_WITNESS" 2>/dev/null || true
    INTERRUPT_WITNESS=
}

# run_signal: the INT/TERM handler.
run_signal() {
    INTERRUPTED=1
    [ -z "$RUN_ON_SIGNAL" ] || "$RUN_ON_SIGNAL"
}

# run_exit_now: an ON_SIGNAL for a run that stops at once (its summary
# then says what was measured before).
run_exit_now() { log "interrupt: stopping"; exit 130; }

run_begin() {
    INTERRUPTED=0 SUMMARY_WRITTEN=0 RUN_ON_SIGNAL=${1:-}
    trap run_end EXIT
    interrupt_arm run_signal
}

# run_lock DIR: the lock is flock(1) on the directory itself (no file is
# added to the results), held by a process of its own that ignores INT and
# TERM and ends with the script: the script's children inherit no lock, a
# Ctrl-C keeps it until the interrupted summary is written, and a killed
# run's lock is gone within a second (a new run waits that long for it).
# (Its tail writes to /dev/null: tail -f ends when its output is a pipe
# whose reader went away.)
run_lock() {
    local dir=$1 ok="" pid=""
    mkdir -p "$dir" || die "cannot create $dir"
    read -r ok pid < <(
        run_close_fds
        exec flock -w 2 -E 75 "$dir" env --ignore-signal=INT,TERM \
            bash -c 'echo locked "$$"; exec tail -f --pid="$1" /dev/null >/dev/null' _ "$$" </dev/null 2>/dev/null
    ) || true
    [ "$ok" = locked ] \
        || die "$dir is being written by another run (it holds the directory's lock); wait for it, or give another RB_RUN"
    RUN_LOCK_PID=$pid
}

# run_unlock: the lock released (its holder ignores TERM).
run_unlock() {
    [ -n "$RUN_LOCK_PID" ] || return 0
    kill -KILL "$RUN_LOCK_PID" 2>/dev/null || true
    RUN_LOCK_PID=""
}

run_interrupted() {
    interrupt_witnessed && INTERRUPTED=1
    [ "$INTERRUPTED" = 1 ]
}

run_finish() {
    case $1 in ok|interrupted|failed) ;; *) die "run_finish: status '$1' is not ok, interrupted or failed" ;; esac
    # (not in a condition: an error writing it ends the run, failed)
    if declare -F run_summary_write >/dev/null; then run_summary_write "$@"
    else results_mark_status "$EXP_DIR" "${SCHEMA:-}" "$1" "${2:-}"; fi
    SUMMARY_WRITTEN=1
    [ "$1" != interrupted ] || exit 130
}

# run_summary_rescue STATUS ERROR: at the end of a run that wrote no
# summary, the experiment's summary of what was measured, or the status
# and error alone when it has none or it fails. (In a subshell: whatever
# the run left unset or half done, the end goes on.)
run_summary_rescue() {
    { declare -F run_summary_write >/dev/null && ( run_summary_write "$@" ); } \
        || results_mark_status "$EXP_DIR" "${SCHEMA:-}" "$1" "$2" || true
    SUMMARY_WRITTEN=1
}

run_end() {
    local rc=$? err
    trap - EXIT INT TERM
    # an interrupt whose handler bash lost
    [ "$rc" -eq 0 ] || ! interrupt_witnessed || INTERRUPTED=1
    [ "$INTERRUPTED" = 0 ] || rc=130
    ! declare -F run_children_stop >/dev/null || run_children_stop || true
    if [ -n "$EXP_DIR" ] && [ "$SUMMARY_WRITTEN" = 0 ]; then
        if [ "$INTERRUPTED" = 1 ]; then
            run_summary_rescue interrupted "interrupted before ${RB_PROG:-${0##*/}} wrote its summary"
            log "interrupted: summary in $EXP_DIR/summary.json (status interrupted)"
        else
            [ "$rc" -ne 0 ] || rc=1
            err=$(last_error)
            run_summary_rescue failed "${err:-${RB_PROG:-${0##*/}} exited with status $rc before it wrote its summary}"
            log "failed: summary in $EXP_DIR/summary.json (status failed)"
        fi
    fi
    [ -z "$WORK" ] || rm -rf "$WORK"
    ! declare -F exp_testbed_release >/dev/null || exp_testbed_release
    interrupt_disarm
    run_unlock
    exit "$rc"
}

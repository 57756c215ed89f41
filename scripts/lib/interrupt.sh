# interrupt.sh: telling Ctrl-C from a failure, also when bash loses the trap.
#
# Bash 5.2 (Debian 12's 5.2.15) can run a pending trap while it is parsing
# a command substitution; the trap's own text then fails to parse
# ("interrupt trap: line 2: unexpected EOF while looking for matching `)'"),
# the handler never runs, and set -e ends the script with status 2, as if
# it had failed. A few percent of Ctrl-Cs land there in a script that runs
# many command substitutions. The witness is a process in the script's
# process group with SIGINT and SIGTERM at their defaults: Ctrl-C (or a
# signal to the group) ends it too, and its absence is the evidence the
# handler missed. It exits by itself within a second of the script's end.
#
#   interrupt_arm HANDLER   trap INT and TERM with HANDLER, start the witness
#   interrupt_witnessed     true when the witness died (the group was signalled)
#   interrupt_disarm        stop the witness (at the end of a run)
#
# Source common.sh first.

interrupt_arm() {
    trap "$1" INT TERM
    # Its own descriptors only: an inherited lock or pipe would outlive the
    # script for up to a second, or hold a reader open.
    (
        local fd
        for fd in /proc/"$BASHPID"/fd/*; do
            fd=${fd##*/}
            [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
        done
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

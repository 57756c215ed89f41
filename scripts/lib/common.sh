# common.sh: shell helpers shared by every rootbench script.
# Source it; it defines functions and RB_TOP (and puts the built jq on
# PATH), and changes no other state.

RB_TOP=${RB_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export RB_TOP

# jq 1.7, built from Debian's source by make deps (scripts/jq/build-jq),
# first on PATH when it is there: Debian 12's jq 1.6 spends ten times as
# long starting, and the scripts run jq thousands of times.
if [ -x "$RB_TOP/scripts/jq/build/bin/jq" ] && [[ ":$PATH:" != *":$RB_TOP/scripts/jq/build/bin:"* ]]; then
    PATH="$RB_TOP/scripts/jq/build/bin:$PATH"
    export PATH
fi

log()  { printf '%s: %s\n' "${RB_PROG:-${0##*/}}" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "${RB_PROG:-${0##*/}}" "$*" >&2; }
# die MESSAGE: print and exit 1. With RB_ERROR_FILE set, the message is also
# appended there (from subshells too), so an experiment's EXIT handler can
# put it in the summary of a failed run (last_error). It starts empty: a
# run sets it, the environment's never receives a run's messages.
RB_ERROR_FILE=""
die() {
    printf '%s: error: %s\n' "${RB_PROG:-${0##*/}}" "$*" >&2
    # one line there (a message quoting a tool's output spans several), so
    # last_error gives the whole message, not its last line
    local m="$*"
    [ -z "${RB_ERROR_FILE:-}" ] || printf '%s\n' "${m//$'\n'/ | }" >> "$RB_ERROR_FILE" 2>/dev/null || true
    exit 1
}

# last_error: the message of the last die, when RB_ERROR_FILE caught one.
last_error() {
    [ -n "${RB_ERROR_FILE:-}" ] && [ -s "$RB_ERROR_FILE" ] && tail -n 1 "$RB_ERROR_FILE"
    return 0
}

need_root() {
    [ "$EUID" -eq 0 ] || die "must run as root (network namespaces need CAP_NET_ADMIN)"
}

# need_tools TOOL...: stop with the make-deps hint when one is not on PATH.
need_tools() {
    local t
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 || die "missing $t: run make deps"
    done
}

# need_program PATH: a rootbench binary that `make` builds.
need_program() {
    [ -x "$1" ] || die "missing $1: run make"
}

# now_ns: monotonic-ish wall clock in nanoseconds (for durations only;
# bash's own clock, to the microsecond: no process started).
now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

# utc_stamp: the results directory name of a run.
utc_stamp() { date -u +%Y%m%dT%H%M%SZ; }

# wait_pid PID: its exit status, also when a trapped signal interrupts wait.
wait_pid() {
    local rc
    while :; do
        rc=0; wait "$1" || rc=$?
        if [ "$rc" -gt 128 ] && kill -0 "$1" 2>/dev/null; then continue; fi
        return "$rc"
    done
}

# json_get FILE FILTER: one value from a JSON file, errors if absent.
json_get() { jq -er "$2" "$1"; }

# settings_py VERB ARGS...: the settings rules (scripts/rootbench/settings.py,
# `settings_py --help`), by Debian's Python, isolated from the
# environment's Python settings and site packages.
settings_py() { /usr/bin/python3 -I -S "$RB_TOP/scripts/rootbench/settings.py" "$@"; }

# script_help: the calling script's header comment (line 2 up to the line
# before `set -euo pipefail`), as its --help text.
# A script with a settings table (script_settings_table) adds the settings
# declared there (settings_py help).
script_help() {
    local t
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//p}' "$0"
    t=$(script_settings_table "$0")
    [ -z "$t" ] || { echo; settings_py help "$t" --file "${t#"$RB_TOP"/}"; }
}

# script_settings_table SCRIPT: the settings table of SCRIPT: SCRIPT.settings.json,
# or settings.json beside a script named run; nothing when it has none.
script_settings_table() {
    local s
    s=$(cd "$(dirname "$1")" && pwd)/${1##*/}
    if [ -f "$s.settings.json" ]; then echo "$s.settings.json"
    elif [ "${s##*/}" = run ] && [ -f "${s%/*}/settings.json" ]; then echo "${s%/*}/settings.json"; fi
}

# help_if_asked ARGS...: with -h or --help as the first argument, print the
# script's help on stdout and exit 0, before the script does anything else
# (a benchmark or a test runner must not start on --help).
help_if_asked() {
    case ${1:-} in -h|--help) script_help; exit 0 ;; esac
    return 0
}

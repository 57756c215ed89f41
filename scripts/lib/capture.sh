# capture.sh: packet captures (tcpdump) inside testbed namespaces, started
# before an experiment sends and stopped cleanly after it, so that the pcap
# holds every packet the kernel handed to the capture.
#
#   capture_start NAME ROLE IFACE FILE FILTER [SNAPLEN]   start, wait until it
#                            listens (SNAPLEN 128: headers only; 0: whole frames)
#   capture_stop NAME        SIGTERM, wait for the exit (bounded), check stats
#   capture_stop_all         every capture still running (for traps)
#   capture_stats NAME       "captured received dropped" from tcpdump's exit
#   capture_dropped NAME     packets the kernel dropped ("" when unknown)
#   capture_own_filter ROLE IFACE FILTER   FILTER, only frames to/from the
#                            interface's own MAC address
#   capture_measure_again N JSONL CMD...   runs CMD (one measured point that
#                            appends its line to JSONL) up to N times, while
#                            a capture it stopped was incomplete
#   CAPTURE_INCOMPLETE       1 once a capture_stop found its pcap incomplete
#
# How tcpdump is run so that it keeps up: scripts/lib/tcpdump.sh.
#
# Two lessons are built in: without --immediate-mode tcpdump reads the
# kernel ring a block at a time (up to a second late) and SIGTERM loses the
# last block ("0 packets captured, 200 received by filter"); and a capture
# tcpdump resets SIGINT to its own handler, so a Ctrl-C would end it before
# the sender stops: it runs in a session of its own and only capture_stop
# ends it (a capture that ended by itself is reported as incomplete).
# capture_stop fails when tcpdump captured fewer packets than its filter
# received or the kernel dropped some: the pcap is then incomplete.
#
# Source after common.sh and topology.sh; the testbed must be up.

. "$RB_TOP/scripts/lib/tcpdump.sh"

declare -gA CAPTURE_PID=() CAPTURE_FILE=() CAPTURE_LOG=()
CAPTURE_INCOMPLETE=0

# capture_start NAME ROLE IFACE FILE FILTER [SNAPLEN]: tcpdump in ROLE's
# namespace writing FILE (snap length 128, headers only, unless SNAPLEN says
# otherwise; 0 keeps whole frames), its messages in FILE.log.
capture_start() {
    local name=$1 role=$2 iface=$3 file=$4 filter=$5 snaplen=${6:-128} pid i
    [ -z "${CAPTURE_PID[$name]:-}" ] || { warn "capture $name is already running"; return 1; }
    : > "$file.log"
    # Through the testbed's command line (either backend): `testbed capture`
    # execs tcpdump in the role's namespace, pinned to its CPUs and in a
    # session of its own (a Ctrl-C at the terminal must not end the capture
    # before the experiment has stopped sending; capture_stop ends it); a
    # lab host's tcpdump is stopped and its pcap fetched at SIGTERM.
    "$RB_TOP/scripts/testbed" capture "$role" "$iface" "$snaplen" "$file" "$filter" 2>"$file.log" </dev/null &
    pid=$!
    CAPTURE_PID[$name]=$pid CAPTURE_FILE[$name]=$file CAPTURE_LOG[$name]=$file.log
    for i in $(seq 100); do
        grep -q '^tcpdump: listening on' "$file.log" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    warn "capture $name in $role did not start: $(tr '\n' ' ' < "$file.log")"
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    unset "CAPTURE_PID[$name]"
    return 1
}

# capture_own_filter ROLE IFACE FILTER: a filter that keeps only the
# frames the role's stack sends or receives. A bridge floods a frame to
# every port while its forwarding entry for the destination MAC has aged
# out, so a capture on a server also sees the first frames meant for the
# other server (the kernel drops them, a capture without this would count
# them as having reached the wrong server).
capture_own_filter() {
    local mac
    mac=$("$RB_TOP/scripts/testbed" mac "$1" "$2") || return 1
    echo "($3) and ether host $mac"
}

# capture_stop NAME: stop the capture and wait (10 s at most, then SIGKILL)
# for tcpdump to close its file. Fails when the pcap is incomplete.
capture_stop() {
    local name=$1 pid i
    pid=${CAPTURE_PID[$name]:-}
    [ -n "$pid" ] || return 0
    unset "CAPTURE_PID[$name]"
    if ! kill -TERM "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null || true
        warn "capture $name had ended before it was stopped: its pcap misses the end ($(tail -n1 "${CAPTURE_LOG[$name]}"))"
        CAPTURE_INCOMPLETE=1
        return 1
    fi
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        warn "capture $name did not stop within 10 s; killed, its pcap may be cut short"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        CAPTURE_INCOMPLETE=1
        return 1
    fi
    wait "$pid" 2>/dev/null || true
    local captured received dropped
    read -r captured received dropped <<<"$(capture_stats "$name")"
    if [ "$captured" = "?" ]; then
        warn "capture $name: tcpdump left no statistics in ${CAPTURE_LOG[$name]}"
        CAPTURE_INCOMPLETE=1
        return 1
    fi
    if [ "$captured" -lt "$received" ] || [ "$dropped" -gt 0 ]; then
        warn "capture $name incomplete: $captured captured, $received received by filter, $dropped dropped by kernel"
        CAPTURE_INCOMPLETE=1
        return 1
    fi
    return 0
}

# capture_stop_all: stop every running capture; fails if one was incomplete.
capture_stop_all() {
    local name rc=0
    for name in "${!CAPTURE_PID[@]}"; do capture_stop "$name" || rc=1; done
    return $rc
}

# capture_stats NAME: "captured received dropped" as tcpdump reported them
# when it exited ("? ? ?" before that).
capture_stats() {
    local log=${CAPTURE_LOG[$1]:-}
    [ -n "$log" ] && [ -f "$log" ] || { echo "? ? ?"; return 0; }
    awk '/packets captured$/ {c=$1} /packets received by filter$/ {r=$1}
         /packets dropped by kernel$/ {d=$1}
         END { if (c == "" || r == "" || d == "") print "? ? ?"; else print c, r, d }' "$log"
}

# capture_dropped NAME: packets the kernel dropped for the capture, as
# tcpdump reported when it exited ("" before that).
capture_dropped() {
    local d
    read -r _ _ d <<<"$(capture_stats "$1")"
    [ "$d" = "?" ] || echo "$d"
}

# capture_measure_again N JSONL CMD...: one measured point, measured again
# (up to N runs in all) while a capture it stopped was incomplete: a
# capture the machine's load made drop packets says nothing about the
# server, so the point is repeated rather than reported failed. Each
# rejected run's line is taken off JSONL; the last run's line stays, flagged
# by CMD as it saw it. CMD runs as a plain command, not in a condition
# (which would turn set -e off inside it): a CMD that fails ends the
# script as it would without this wrapper.
capture_measure_again() {
    local n=$1 jsonl=$2 attempt; shift 2
    [[ $n =~ ^[1-9][0-9]*$ ]] || { warn "capture_measure_again: '$n' is not a count"; return 1; }
    for ((attempt = 1; ; attempt++)); do
        CAPTURE_INCOMPLETE=0
        "$@"
        [ "$CAPTURE_INCOMPLETE" = 1 ] && [ "$attempt" -lt "$n" ] || return 0
        warn "a capture was incomplete: measuring this point again ($((attempt + 1)) of $n)"
        [ ! -s "$jsonl" ] || sed -i '$d' "$jsonl"
    done
}

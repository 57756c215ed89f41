# pcap-capture.sh: start and stop tcpdump captures inside testbed
# namespaces, for experiments that record what crossed a link while they
# ran (the sizes experiment: the Listener's answers and the switch's
# router-s port).
#
#   capture_start ROLE IFACE FILTER FILE   start tcpdump (full frames, -s 0);
#                                          returns once it is capturing;
#                                          CAPTURE_PID is its process id
#   capture_stop [FILE...]                 stop the captures of these files
#                                          (default: all started), wait for
#                                          the file to be flushed and closed
#   capture_dropped FILE                   packets the kernel dropped for the
#                                          capture of FILE (from tcpdump's
#                                          final report), "" when unknown
#
# tcpdump runs as root (-Z root) so it can write anywhere the caller can,
# unpinned (so it does not compete with a pinned player for one CPU), with
# a 16 MiB buffer. Its messages go to FILE.log. Source after common.sh and
# topology.sh (ns_of); needs RB_PREFIX.

declare -gA CAPTURE_PIDS=()
CAPTURE_PID=""

# capture_start ROLE IFACE FILTER FILE
capture_start() {
    local role=$1 iface=$2 filter=$3 file=$4 ns i
    need_tools tcpdump
    ns=$(ns_of "$role")
    ip netns list | grep -q "^$ns\( \|$\)" || die "capture: no namespace $ns (is testbed $RB_PREFIX up?)"
    rm -f "$file" "$file.log"
    # shellcheck disable=SC2086
    ip netns exec "$ns" tcpdump -n -s 0 -B 16384 -Z root -i "$iface" -w "$file" $filter \
        > "$file.log" 2>&1 &
    CAPTURE_PID=$!
    CAPTURE_PIDS[$file]=$CAPTURE_PID
    # tcpdump says "listening on IFACE" once the socket is bound.
    for i in $(seq 100); do
        grep -q 'listening on' "$file.log" 2>/dev/null && return 0
        kill -0 "$CAPTURE_PID" 2>/dev/null || break
        sleep 0.05
    done
    kill -TERM "$CAPTURE_PID" 2>/dev/null || true
    unset "CAPTURE_PIDS[$file]"
    die "capture: tcpdump on $role:$iface did not start: $(tail -n 2 "$file.log" 2>/dev/null | tr '\n' ' ')"
}

# capture_stop [FILE...]: SIGTERM (tcpdump flushes and writes its report
# on it) and wait at most 15 s for each to exit.
capture_stop() {
    local files=("$@") f pid i
    [ ${#files[@]} -gt 0 ] || files=("${!CAPTURE_PIDS[@]}")
    for f in "${files[@]}"; do
        pid=${CAPTURE_PIDS[$f]:-}
        [ -n "$pid" ] || continue
        kill -TERM "$pid" 2>/dev/null || true
    done
    for f in "${files[@]}"; do
        pid=${CAPTURE_PIDS[$f]:-}
        [ -n "$pid" ] || continue
        for i in $(seq 150); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            warn "capture: tcpdump $pid ($f) did not stop on TERM; killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
        unset "CAPTURE_PIDS[$f]"
    done
}

# capture_dropped FILE: "N packets dropped by kernel" of tcpdump's report.
capture_dropped() {
    sed -n 's/^\([0-9]\+\) packets\{0,1\} dropped by kernel.*/\1/p' "$1.log" 2>/dev/null | tail -n 1
}

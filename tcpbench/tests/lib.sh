# tests/lib.sh: helpers shared by tcpbench's integration tests. Source
# after scripts/lib/testlib.sh.
#
# Each test runs in a private network namespace of its own (unshare -n):
# its loopback, NSD, drop rules and helper servers are invisible to the
# rest of the machine and to other tests, and vanish with the test.

TCPBENCH="$RB_TOP/tcpbench/tcpbench"

# tcpb_enter_netns "$@": re-run the calling test in a fresh network namespace.
tcpb_enter_netns() {
    if [ -z "${TCPB_IN_NETNS:-}" ]; then
        need_root
        exec unshare --net env TCPB_IN_NETNS=1 "$0" "$@"
    fi
    ip link set lo up
}

TCPB_PIDS=()
# tcpb_cleanup: stop what the test started (by pid), remove the scratch dir.
tcpb_cleanup() {
    local p i
    for p in "${TCPB_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${TCPB_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    # NSD daemonizes (no child of ours to wait for) and writes its last
    # files as it exits: wait (5 s at most) until every pid is gone, or the
    # scratch directory is removed while it still writes there.
    for p in "${TCPB_PIDS[@]}"; do
        for ((i = 0; i < 50; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    done
    [ -n "${TEST_TMP:-}" ] && rm -rf "$TEST_TMP"
}

# tcpb_setup: scratch directory and cleanup trap.
tcpb_setup() {
    TEST_TMP=$(mktemp -d /tmp/rbtest-tcpb.XXXXXX)
    trap tcpb_cleanup EXIT
}

# tcpb_start_nsd ADDR [TLSDIR]: NSD serving the minimal root zone on ADDR
# port 53; with TLSDIR (scripts/lib/tls.sh's files) DNS over TLS on 853 too.
tcpb_start_nsd() {
    local addr=$1 tlsdir=${2:-} dir="$TEST_TMP/nsd" tls=""
    mkdir -p "$dir"
    [ -z "$tlsdir" ] || tls="    ip-address: $addr@853
    tls-port: 853
    tls-service-key: $tlsdir/server.key
    tls-service-pem: $tlsdir/server.pem"
    cat > "$dir/nsd.conf" <<EOF2
server:
    ip-address: $addr
$tls
    port: 53
    server-count: 1
    tcp-count: 1000
    tcp-timeout: 3
    rrl-ratelimit: 0
    rrl-whitelist-ratelimit: 0
    username: ""
    chroot: ""
    database: ""
    zonesdir: "$RB_TOP/zones/minimal"
    zonelistfile: "$dir/zone.list"
    xfrdfile: "$dir/xfrd.state"
    xfrdir: "$dir"
    pidfile: "$dir/nsd.pid"
    logfile: "$dir/nsd.log"
    verbosity: 1
remote-control:
    control-enable: no
zone:
    name: "."
    zonefile: "root.zone"
EOF2
    nsd -c "$dir/nsd.conf" || fail "nsd did not start: $(cat "$dir/nsd.log" 2>/dev/null)"
    local i
    for i in $(seq 100); do
        [ -s "$dir/nsd.pid" ] && dig +tcp +time=1 +tries=1 +short @"$addr" . SOA 2>/dev/null | grep -q . && break
        sleep 0.1
    done
    TCPB_PIDS+=("$(cat "$dir/nsd.pid")")
    dig +tcp +time=1 +tries=1 +short @"$addr" . SOA | grep -q . || fail "nsd does not answer on $addr"
}

# tcpb_start_rst_server ADDR PORT: the accept-and-reset helper.
tcpb_start_rst_server() { tcpb_start_answer_server "$1" "$2" rst; }

# tcpb_start_answer_server ADDR PORT MODE: tests/answer-server answering
# every query as MODE says (good, short, badid, noqr, tiny).
tcpb_start_answer_server() {
    local out="$TEST_TMP/answer-$3.out"
    "$RB_TOP/tcpbench/tests/answer-server" "$1" "$2" 60 "$3" > "$out" 2>"$TEST_TMP/answer-$3.err" &
    TCPB_PIDS+=("$!")
    local i
    for i in $(seq 50); do grep -q ready "$out" && return 0; sleep 0.1; done
    fail "answer-server $3 did not come up: $(cat "$TEST_TMP/answer-$3.err")"
}

# tcpb_run JSON ARGS...: run tcpbench, JSON to the file; sets TCPB_RC.
tcpb_run() {
    local json=$1; shift
    TCPB_RC=0
    "$TCPBENCH" --quiet --json "$json" "$@" || TCPB_RC=$?
}

# jnum FILE FILTER: a JSON value (must exist).
jnum() { jq -er "$2" "$1"; }

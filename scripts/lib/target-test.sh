# target-test.sh: what the target-guard tests of tcpbench, the UDP replay
# and lb-verify share (tcpbench/tests/90-, udpreplay/tests/60-,
# scripts/tests/24-target-guard.test). The testbed's player1 gets a route
# to the documentation ranges 192.0.2.0/24 and 2001:db8::/32 (via the
# router, which drops them), so that a packet that got past the guard
# would leave player1's eth0 instead of failing with "network unreachable";
# a capture on that eth0 counts what did. 8.8.8.8 gets no route: it is only
# ever a target that must be refused.
#
#   guard_setup                 testbed up, routes, scratch dir, cleanup trap
#   guard_run CMD...            run CMD while player1's eth0 is captured;
#                               sets GUARD_RC, GUARD_OUT (stdout and stderr)
#                               and GUARD_SENT (packets to or from the test
#                               addresses that left player1)
#   guard_expect_refused ADDR   the last run was refused before it sent
#                               (ADDR a grep pattern):
#                               exit 1, a message naming ADDR, the allowed
#                               ranges and how to declare a lab's, 0 packets
#
# Source after testlib.sh.

. "$RB_TOP/scripts/lib/topology.sh"
. "$RB_TOP/scripts/lib/testbed.sh"
. "$RB_TOP/scripts/lib/capture.sh"

GUARD_LAB4=192.0.2.0/24
GUARD_LAB6=2001:db8::/32
GUARD_FILTER="net $GUARD_LAB4 or host 8.8.8.8 or net $GUARD_LAB6"
GUARD_N=0

guard_cleanup() {
    capture_stop_all >/dev/null 2>&1 || true
    nsx player1 ip route del "$GUARD_LAB4" 2>/dev/null || true
    nsx player1 ip -6 route del "$GUARD_LAB6" 2>/dev/null || true
    [ -n "${TEST_TMP:-}" ] && rm -rf "$TEST_TMP"
}

guard_setup() {
    need_root
    TEST_TMP=$(mktemp -d /tmp/rbtest-guard.XXXXXX)
    trap guard_cleanup EXIT
    "$TESTBED" up >/dev/null
    guard_routes
}

# guard_routes: (again) the routes of the documentation ranges in player1;
# an experiment that brings the testbed to its profile keeps them, but a
# test may call this after one to be sure.
guard_routes() {
    nsx player1 ip route replace "$GUARD_LAB4" via "$(role_addr4 router-c)"
    nsx player1 ip -6 route replace "$GUARD_LAB6" via "$(role_addr6 router-c)"
}

guard_run() {
    local pcap="$TEST_TMP/guard.$((GUARD_N += 1)).pcap"
    capture_start guard player1 eth0 "$pcap" "$GUARD_FILTER" || fail "capture in player1 did not start"
    GUARD_RC=0
    GUARD_OUT=$("$@" 2>&1) || GUARD_RC=$?
    # Frames still queued toward eth0 reach the capture within this.
    sleep 0.3
    capture_stop guard || fail "the capture in player1 is incomplete: its count proves nothing"
    read -r GUARD_SENT _ _ <<<"$(capture_stats guard)"
    note "exit $GUARD_RC, $GUARD_SENT packets left player1: $*"
}

guard_expect_refused() {
    assert_eq "$GUARD_RC" 1 "exit status for target $1"
    assert_contains "$GUARD_OUT" "$1 is not an address rootbench may send to" "refusal names $1"
    assert_contains "$GUARD_OUT" "loopback (127.0.0.0/8, ::1), the benchmarking ranges (198.18.0.0/15, 2001:2::/48)" "refusal names the allowed ranges"
    assert_contains "$GUARD_OUT" 'RB_ALLOW_RANGES="CIDR ..."' "refusal says how to declare a lab range"
    assert_eq "$GUARD_SENT" 0 "packets that left player1 for a refused target $1"
}

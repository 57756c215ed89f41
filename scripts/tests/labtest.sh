# labtest.sh: the simulated lab of a lab-backend test (scripts/lab/simlab),
# sourced after scripts/lib/testlib.sh and tmpdir_for_test.
#
#   labtest_up NET      build it on the management /24 NET (each lab test
#                       has its own, so that they can run at once in the
#                       shared lanes; SIMLAB_MGMT_NET overrides), export
#                       BACKEND=lab INVENTORY=$INV (and SNMP_SETTLE_S=0: the
#                       simulated switch's agent has no cache), and remove
#                       it all at exit
#   labtest_setup       make lab-setup on it; its output on stdout
#
# Prefixes of their own: the simulated lab's namespaces (SIMLAB_PREFIX) and
# the lab backend's state (RB_PREFIX); the lane's own prefix stays in
# NS_PREFIX for a comparison run on the namespace testbed.
SIM="$RB_TOP/scripts/lab/simlab"
INV="$TEST_TMP/lab.yml"
NS_PREFIX=$RB_PREFIX
export SIMLAB_PREFIX="${RB_PREFIX}s" RB_PREFIX="${RB_PREFIX}l"

labtest_cleanup() {
    BACKEND=lab INVENTORY="$INV" "$TESTBED" down >/dev/null 2>&1 || true
    BACKEND=netns INVENTORY= RB_PREFIX="$NS_PREFIX" "$TESTBED" down >/dev/null 2>&1 || true
    "$SIM" down >/dev/null 2>&1 || true
    rm -rf "$TEST_TMP"
}

labtest_up() {
    export SIMLAB_MGMT_NET=${SIMLAB_MGMT_NET:-$1}
    trap labtest_cleanup EXIT
    # The lab serves the unsigned build when there is one, else the minimal
    # zone: build it first, so that another test building it meanwhile
    # cannot change what the lab serves between two provisioning runs.
    make -s -C "$RB_TOP" zones >/dev/null
    "$SIM" down >/dev/null 2>&1 || true
    "$SIM" up "$INV" >/dev/null
    export BACKEND=lab INVENTORY="$INV"
    # The simulated switch's agent reads the kernel's counters at every
    # request (simlab turns its interface cache off): no reading needs the
    # lab's default wait for an agent's cache (SNMP_SETTLE_S, 4 s).
    [ "$(cat "${RB_STATE_ROOT:-/run/rootbench}/$SIMLAB_PREFIX/simlab/snmpd/cache-timeout" 2>/dev/null)" != 0 ] \
        || export SNMP_SETTLE_S=0
}

labtest_setup() { make -s -C "$RB_TOP" lab-setup INVENTORY="$INV" 2>&1; }

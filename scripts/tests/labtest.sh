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
# One lab for two tests (one provisioning fewer: simlab up and lab-setup
# cost about 15 s of CPU): in check's shared lanes, where tests run at
# once, a guest test (72-lab-servers) runs on the lab of a host test
# (70-lab) while the host waits, between the host's own use and its
# teardown; run alone or without the host beside it, the guest builds its
# own. The hand-over, through a folder of the check run (RB_CHECK_DIR):
#   labtest_host_open HOST_TEST  (host, before labtest_up; its own path
#                       from the project's top) says it is there
#   labtest_host_lend   (host, before its teardown) lends the provisioned
#                       lab to a guest that asked, waits until the guest
#                       has finished (or died), and closes the offer
#   labtest_guest_join HOST_TEST  (guest) asks for the host's lab and
#                       waits for it: 0 and the lab's settings exported
#                       (BACKEND, INVENTORY, INV, the prefixes) when lent,
#                       1 when there is no host (then build your own)
# A host that fails before lending closes the offer (its exit trap), so a
# waiting guest builds its own lab.
# Prefixes of their own: the simulated lab's namespaces (SIMLAB_PREFIX) and
# the lab backend's state (RB_PREFIX); the lane's own prefix stays in
# NS_PREFIX for a comparison run on the namespace testbed.
SIM="$RB_TOP/scripts/lab/simlab"
INV="$TEST_TMP/lab.yml"
NS_PREFIX=$RB_PREFIX
export SIMLAB_PREFIX="${RB_PREFIX}s" RB_PREFIX="${RB_PREFIX}l"

labtest_cleanup() {
    labtest_host_close
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

# The hand-over folder of HOST_TEST (a path from the project's top) in this
# check run; nothing when the run is not check's shared lanes with it.
labtest_share_dir() {
    [ -n "${RB_CHECK_DIR:-}" ] && grep -qxF "$RB_TOP/$1" "$RB_CHECK_DIR/shared" 2>/dev/null || return 1
    echo "$RB_CHECK_DIR/lab-share-$(basename "$1" .test)"
}

LABTEST_SHARE=""
labtest_host_open() {
    LABTEST_SHARE=$(labtest_share_dir "$1") || { LABTEST_SHARE=""; return 0; }
    mkdir -p "$LABTEST_SHARE"
    echo "$BASHPID" > "$LABTEST_SHARE/host.tmp" && mv "$LABTEST_SHARE/host.tmp" "$LABTEST_SHARE/host"
}

# labtest_host_close: no guest can join any more.
labtest_host_close() {
    [ -n "$LABTEST_SHARE" ] || return 0
    flock "$LABTEST_SHARE/lock" touch "$LABTEST_SHARE/closed"
}

labtest_host_lend() {
    local s=$LABTEST_SHARE guest t0 v
    [ -n "$s" ] || return 0
    exec 8> "$s/lock"; flock 8
    if [ ! -s "$s/guest" ]; then touch "$s/closed"; exec 8>&-; return 0; fi
    for v in BACKEND INVENTORY INV SIMLAB_PREFIX SIMLAB_MGMT_NET RB_PREFIX SNMP_SETTLE_S; do
        [ -z "${!v+x}" ] || printf 'export %s=%q\n' "$v" "${!v}"
    done > "$s/env"
    touch "$s/ready"; exec 8>&-
    guest=$(cat "$s/guest") t0=$(date +%s)
    while [ ! -e "$s/guest-done" ] && kill -0 "$guest" 2>/dev/null; do sleep 0.5; done
    note "lent the lab to a guest test for $(( $(date +%s) - t0 )) s ($([ -e "$s/guest-done" ] && echo finished || echo died))"
    labtest_host_close
}

labtest_guest_join() {
    local s i
    s=$(labtest_share_dir "$1") || return 1
    mkdir -p "$s"
    # Both start together (the longest shared tests first): wait a little
    # for the host to say it is there.
    for ((i = 0; i < 60; i++)); do [ ! -e "$s/host" ] || break; sleep 1; done
    exec 8> "$s/lock"; flock 8
    if [ ! -e "$s/host" ] || [ -e "$s/closed" ]; then exec 8>&-; return 1; fi
    echo "$BASHPID" > "$s/guest"; exec 8>&-
    while [ ! -e "$s/ready" ] && [ ! -e "$s/closed" ] && kill -0 "$(cat "$s/host")" 2>/dev/null; do sleep 1; done
    [ -e "$s/ready" ] || return 1
    # shellcheck disable=SC1091
    . "$s/env"
    trap 'touch "'"$s"'/guest-done"; rm -rf "$TEST_TMP"' EXIT
}

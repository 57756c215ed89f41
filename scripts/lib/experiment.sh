# experiment.sh: an experiment's testbed. Each experiment states the
# testbed settings it needs in a profile file of its own (KEY=VALUE lines,
# see `scripts/testbed up --profile`); before it measures it brings the
# testbed to exactly that profile plus its own documented settings, through
# the testbed's command line, and records what it got. Settings another
# experiment left behind (or exported) cannot leak in. A testbed that was
# down is brought down again when the experiment ends.
#
# Source after common.sh.

EXP_TESTBED_STARTED=0

# exp_testbed_up PROFILE [KEY=VALUE...]: the testbed at PROFILE's settings
# plus the arguments (an empty value means the testbed's default).
exp_testbed_up() {
    local profile=$1 out; shift
    if ! "$RB_TOP/scripts/testbed" status >/dev/null 2>&1; then
        [ "$EXP_TESTBED_STARTED" = 1 ] || log "testbed '$RB_PREFIX' is down: bringing it up (and down again at the end)"
        EXP_TESTBED_STARTED=1
    fi
    # The instance under test is the user's choice, not a leaked setting:
    # SERVER (nsd, knot, bind) and MINIMAL_RESPONSES pass to every experiment.
    out=$("$RB_TOP/scripts/testbed" up --profile "$profile" SERVER="${SERVER:-}" \
        MINIMAL_RESPONSES="${MINIMAL_RESPONSES:-}" "$@" 2>&1) \
        || die "testbed up with profile ${profile#"$RB_TOP"/} $*: $(printf '%s\n' "$out" | tail -n 3)"
}

# exp_testbed_json: the running testbed's configuration (status --json).
exp_testbed_json() { "$RB_TOP/scripts/testbed" status --json; }

# exp_testbed_release: down again if this experiment brought it up.
exp_testbed_release() {
    if [ "$EXP_TESTBED_STARTED" = 1 ]; then
        "$RB_TOP/scripts/testbed" down >/dev/null 2>&1 || warn "testbed down failed"
        EXP_TESTBED_STARTED=0
    fi
    return 0
}

# exp_servers_down ROLE...: the roles among ROLE... whose server daemon is
# not running (killed or crashed), one a line, from the testbed's status.
# A stopped (SIGSTOP) or stalled daemon is alive: it is the experiment's
# to measure, not a fault of the rig.
exp_servers_down() {
    local st
    st=$("$RB_TOP/scripts/testbed" status --json) || die "scripts/testbed status failed: is the testbed '$RB_PREFIX' still up?"
    jq -r --arg roles "$*" '($roles | split(" ")) as $r
        | .processes[] | select(.role as $x | $r | index($x)) | select(.running | not) | .role' <<<"$st"
}

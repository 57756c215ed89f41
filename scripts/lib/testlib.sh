# testlib.sh: assertions for integration tests (*/tests/*.test).
# A test sources this, states what must hold, and exits non-zero through
# fail() when it does not.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
RB_PROG=${0##*/}
TESTBED="$RB_TOP/scripts/testbed"
# The tests' sweeps, unless a test says otherwise: perf on the servers'
# CPU off (its start and its reading cost about a second a point; the
# tests of the charge turn it on), so that make check fits its time
# (docs/development.md).
export CPU_CHARGE=${CPU_CHARGE:-off}
# Likewise the RSSAC047 probe (its idle second and about 0.1-0.25 s a
# point): the tests about it turn it on (PROBE=on: the probe's own tests,
# the TCP smoke sweep, the bench smoke).
export PROBE=${PROBE:-off}

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
note() { printf '# %s\n' "$*"; }

assert_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: got '$1', want '$2'"; }
assert_ne() { [ "$1" != "$2" ] || fail "${3:-values equal}: both '$1'"; }
# assert_ge A B [MSG]: integer A >= B
assert_ge() { [ "$1" -ge "$2" ] || fail "${3:-too small}: $1 < $2"; }
assert_le() { [ "$1" -le "$2" ] || fail "${3:-too large}: $1 > $2"; }
# assert_fails CMD...: the command must exit non-zero.
assert_fails() { if "$@"; then fail "expected failure: $*"; fi; }
assert_contains() { grep -q -- "$2" <<<"$1" || fail "${3:-missing text}: '$2' not in output"; }
assert_not_contains() { ! grep -q -- "$2" <<<"$1" || fail "${3:-unexpected text}: '$2' in output"; }
# has_host_speed FILE: FILE (a summary.json, bench.json) records the
# host's speed at its start and at its end (host_speed: scripts/lib/
# experiment.sh exp_host_speed), each with its time and, for every server
# CPU and rig CPU it names (one of each at least), a number of ns per
# loop. A check, not an assertion: a test's control runs it on a record
# without one (assert_fails has_host_speed ...).
has_host_speed() {
    jq -e '[.host_speed.start, .host_speed.end]
           | all(.[]; type == "object" and (.at | type) == "string"
                 and all(.server, .rig; type == "object" and length > 0 and all(.[]; (.ns_per_iter_median | type) == "number")))' \
        "$1" >/dev/null
}

# fixture_host_speed AT0 AT1 NS: a host_speed of a fixture part (TEST
# FIXTURE, not a measurement), timed at AT0 and AT1 (UTC), NS ns per loop
# on the server CPU cpu1 and the rig CPU cpu0 at both.
fixture_host_speed() {
    jq -n -c --arg a "$1" --arg b "$2" --argjson v "$3" '
        def one($at): {at: $at, unit: "ns per iteration (fixture)",
                       server: {cpu1: {ns_per_iter_median: $v, steal_ms: 0}}, rig: {cpu0: {ns_per_iter_median: $v, steal_ms: 0}}};
        {start: one($a), end: one($b)}'
}

# tmpdir_for_test: a scratch directory removed when the test exits.
tmpdir_for_test() {
    TEST_TMP=$(mktemp -d "/tmp/rbtest.XXXXXX")
    trap 'rm -rf "$TEST_TMP"' EXIT
}

# replay.sh: what a slow-replay experiment in bash (scripts/attack/run;
# analysis/sizes/run and analysis/sizes-matrix/run are Python) uses: the check that the service serves the
# zone variant asked for, the Listener's answer counter, the switch's SNMP
# octets of router-s, stopping a background replay and the captures, and
# the table of answer sizes; and the libraries it uses, sourced here once.
# Callers set TESTBED (scripts/testbed) and REPLAY_PID; everything goes
# through the testbed's command line. Source after common.sh.

. "$RB_TOP/scripts/lib/topology.sh"
. "$RB_TOP/scripts/lib/results.sh"
. "$RB_TOP/scripts/lib/plot.sh"
. "$RB_TOP/scripts/lib/capture.sh"
. "$RB_TOP/scripts/lib/experiment.sh"
. "$RB_TOP/scripts/lib/settings.sh"
. "$RB_TOP/scripts/lib/lifecycle.sh"
. "$RB_TOP/scripts/lib/switch-octets.sh"
. "$RB_TOP/udpreplay/lib.sh"

# check_served VARIANT [ADDRESS]: the service (ADDRESS, default the
# family's service address) answers the root SOA, with an RRSIG exactly
# when VARIANT is signed.
check_served() {
    local addr=${2:-${FAMILY_SERVICE:-$SERVICE4}} signed out rrsig
    signed=$(jq -r .signed "$RB_TOP/zones/build/$1/variant.json")
    out=$("$TESTBED" exec player1 -- dig +dnssec +norec +time=2 +tries=3 @"$addr" . SOA) \
        || die "no answer to '. SOA' from $addr after serving $1"
    rrsig=$(grep -c $'\tRRSIG\tSOA' <<<"$out" || true)
    if [ "$signed" = true ] && [ "$rrsig" -eq 0 ]; then die "$1 is signed but '. SOA' came without RRSIG"; fi
    if [ "$signed" = false ] && [ "$rrsig" -gt 0 ]; then die "$1 is unsigned but '. SOA' came with an RRSIG"; fi
}

# listener_answers: the Listener's count of answers received.
listener_answers() { "$TESTBED" counters | jq -er .listener.dns_answers.packets; }

# settle_answers: wait (at most 10 s) until the Listener's answer counter
# stops; prints it.
settle_answers() {
    local last=-1 now i
    for i in $(seq 20); do
        now=$(listener_answers)
        [ "$now" = "$last" ] && { echo "$now"; return 0; }
        last=$now; sleep 0.5
    done
    echo "$now"
}

# stop_replay: the background replay (REPLAY_PID) is a subshell running
# timeout, which runs tcpreplay in its own process group; TERM to timeout
# reaches the whole group. Wait (at most 10 s) until they are gone.
stop_replay() {
    local kids k i alive
    kids=$(pgrep -P "$REPLAY_PID" 2>/dev/null || true)
    for k in $kids; do kill -TERM "$k" 2>/dev/null || true; done
    kill -TERM "$REPLAY_PID" 2>/dev/null || true
    for i in $(seq 100); do
        alive=0
        for k in $kids; do kill -0 "$k" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    wait "$REPLAY_PID" 2>/dev/null || true
    REPLAY_PID=""
}

# answer_size_table OUT KEYS FILE...: OUT, the CSV of answer sizes (DNS
# message length): a column per key of KEYS (space separated) from its
# dnsstat answers.json (the FILEs, in that order), the share of its
# answers in each bin; with no key, the header only. The rule is the sizes
# experiment's (analysis/sizes/rules.py reply_sizes), written once.
answer_size_table() {
    local out=$1 keys=$2; shift 2
    [ $# -gt 0 ] || { echo "# size_lo" | results_write "$out"; return 0; }
    /usr/bin/python3 -I -S "$RB_TOP/analysis/sizes/rules.py" reply-sizes "$keys" "$@" | results_write "$out"
}

# replay_stop: what runs in the background of a slow replay stopped (the
# replay and the captures): the experiments' run_children_stop
# (scripts/lib/lifecycle.sh).
replay_stop() {
    [ -z "$REPLAY_PID" ] || stop_replay
    capture_stop_all 2>/dev/null || true
}

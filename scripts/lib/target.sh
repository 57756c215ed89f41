# target.sh: the target guard for the shell senders (the UDP replay, the LB
# check, the TCP sweeps). Before anything is sent, analysis/target-check --
# the rule of analysis/lib/target.c, written once, in C -- says whether the
# addresses, or every packet of a trace to be replayed, may be sent to:
# loopback, the benchmarking ranges 198.18.0.0/15 and 2001:2::/48, and the
# ranges a real lab declares as its own in RB_ALLOW_RANGES ("CIDR CIDR ...",
# spaces or commas; a lab backend sets it from its inventory).
#
#   target_guard ADDR... | --pcap FILE...   die with the refusal unless allowed
#   target_check ADDR... | --pcap FILE...   the same, but return 1 and leave
#                                          the message in TARGET_REFUSAL
#   target_allow_args                      TARGET_ALLOW_ARGS: RB_ALLOW_RANGES
#                                          as options of tcpbench
#
# Source after common.sh.

TARGET_CHECK="$RB_TOP/analysis/target-check"

target_allow_args() {
    TARGET_ALLOW_ARGS=()
    [ -z "${RB_ALLOW_RANGES:-}" ] || TARGET_ALLOW_ARGS=(--allow-range "$RB_ALLOW_RANGES")
}

target_check() {
    local out
    need_program "$TARGET_CHECK"
    target_allow_args
    TARGET_REFUSAL=
    out=$("$TARGET_CHECK" "${TARGET_ALLOW_ARGS[@]+"${TARGET_ALLOW_ARGS[@]}"}" "$@" 2>&1) && return 0
    # Its own prefixes off; a bad lab range came from RB_ALLOW_RANGES.
    out=${out//target-check: /}
    out=${out//error: --allow-range:/RB_ALLOW_RANGES:}
    TARGET_REFUSAL=${out#error: }
    return 1
}

target_guard() {
    target_check "$@" || die "$TARGET_REFUSAL"
}

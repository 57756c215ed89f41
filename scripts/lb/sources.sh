# sources.sh: the stickiness check's traffic (scripts/lb/run sources it):
# the source addresses, one per virtual interface on player1 as in the
# paper, and the TCP queries each sends, classified by how they ended.

# source_list4 BLOCK N: the first N addresses of BLOCK (a /23 or larger)
# that do not end in .0 or .255: a /23 without its network and broadcast
# address and the /24 boundary pair (x.x.4.255, x.x.5.0, which old stacks
# and filters take for a broadcast/network address) leaves the paper's 508.
source_list4() {
    local net=${1%/*} len=${1#*/} n=$2 a b c d base i addr
    IFS=. read -r a b c d <<<"$net"
    base=$(( (a << 24) | (b << 16) | (c << 8) | d ))
    for (( i = 1; i < (1 << (32 - len)) - 1 && n > 0; i++ )); do
        addr=$(( base + i ))
        (( (addr & 255) == 0 || (addr & 255) == 255 )) && continue
        printf '%d.%d.%d.%d\n' $(( addr >> 24 & 255 )) $(( addr >> 16 & 255 )) $(( addr >> 8 & 255 )) $(( addr & 255 ))
        n=$(( n - 1 ))
    done
}

# source_list6 BLOCK N: PREFIX::1 .. PREFIX::N (hex) of a /64.
source_list6() {
    local prefix=${1%/*} n=$2 i
    prefix=${prefix%::}
    for (( i = 1; i <= n; i++ )); do printf '%s::%x\n' "$prefix" "$i"; done
}

# source_up ADDR / source_down ADDR: the paper's per-address virtual
# interface: the address on the player's loopback (AnyIP routes the whole
# block there already; the address makes it explicit, as the paper did).
# A Ctrl-C can kill the `ip` command itself, hence the retries.
source_up() {
    local i
    CURRENT_ADDR=$1
    for i in 1 2 3; do
        if [ "$IP_FAMILY" = ipv6 ]; then "$TESTBED" exec "$PLAYER" -- ip -6 addr replace "$1/128" dev lo nodad && return 0
        else "$TESTBED" exec "$PLAYER" -- ip addr replace "$1/32" dev lo && return 0; fi
        run_interrupted || break
    done
    run_interrupted || die "cannot add $1 to lo on $PLAYER"
}

source_down() {
    local i len=32
    [ "$IP_FAMILY" = ipv6 ] && len=128
    for i in 1 2 3; do
        # (one exec, 45 ms, for the delete and the list it is checked in)
        if ! "$TESTBED" exec "$PLAYER" -- sh -c 'ip addr del "$1" dev lo 2>/dev/null; ip -o addr show dev lo' sh "$1/$len" \
            | grep -qF " $1/$len "; then
            CURRENT_ADDR=
            return 0
        fi
    done
    warn "could not remove $1 from lo on $PLAYER"
}

# query_source ADDR: M queries over TCP from ADDR, one dig process. dig's
# batch mode opens a new TCP connection for every line (checked against the
# captures: connections seen >= queries answered). +tcp must be on the
# command line: dig 9.18 ignores it on a batch line and silently sends UDP.
# Prints "ok refused reset timeout eof rcode other missing server1 server2".
query_source() {
    local addr=$1 out="$WORK/dig.out"
    # In the foreground: a Ctrl-C reaches dig itself and ends it at once;
    # a SIGTERM to this script alone waits for dig (a second or so when the
    # servers answer, at most M x 2 s when one is silent). A background dig
    # killed from the trap made bash's `wait` hang (bash 5.2).
    "${DIG_CMD[@]}" -b "$addr" @"$SERVICE" -f "$BATCH" > "$out" 2>&1 || true
    classify_dig_output "$QUERIES" < "$out"
}

# source_up_query ADDR: source_up, then query_source, in one testbed exec
# (45 ms fewer a source): the address added as source_up adds it, then
# dig as query_source runs it (in the foreground too). When the add fails
# (exit 97, dig not started), source_up with its retries, then query_source.
source_up_query() {
    local addr=$1 out="$WORK/dig.out" rc=0 len=32 nodad=""
    CURRENT_ADDR=$addr
    [ "$IP_FAMILY" = ipv6 ] && len=128 nodad=nodad
    "$TESTBED" exec "$PLAYER" -- sh -c 'ip "$1" addr replace "$2" dev lo $3 || exit 97; shift 3; exec "$@"' \
        sh "-${IP_FAMILY#ipv}" "$addr/$len" "$nodad" "${DIG_CMD[@]:4}" -b "$addr" @"$SERVICE" -f "$BATCH" > "$out" 2>&1 || rc=$?
    if [ "$rc" -eq 97 ]; then
        source_up "$addr"
        run_interrupted || query_source "$addr"
        return 0
    fi
    classify_dig_output "$QUERIES" < "$out"
}

# classify_dig_output M: one outcome per query from dig's output. An answer
# is a ->>HEADER<<- line (NOERROR = success, other rcodes = failure
# "rcode"); a failure ends with "no servers could be reached", its cause
# on the line before ("connection refused", "connection reset", "timed
# out", "end of file"). Queries with no outcome at all (dig killed or
# crashed) count as "missing".
classify_dig_output() {
    awk -v m="$1" -f "$RB_TOP/scripts/lb/dig-outcomes.awk"
}

# kxdpgun.sh: the TCP sweep's second generator (TCP_GENERATOR=kxdpgun):
# Knot DNS's kxdpgun -T, one TCP connection per query (SYN, query, answer,
# FIN) made through AF_XDP on the player's interface, at a third of
# tcpbench's CPU per connection (docs/methodology.md). It measures no
# latency and is not our code, so what it did is counted where it happens
# and its own summary is only checked against that:
#  - the SYNs it sent: the router's dns_tcp_syns counter (every first SYN
#    to port 53 it forwards; a lab counts them where they reach its
#    servers, scripts/lib/counters.jq); its own count must agree within 1 % (and 10),
#    and they must reach 99 % of the connections asked, else the run is
#    generator-limited, as tcpbench's self-check would say;
#  - the answers: the server daemons' own TCP query counters; kxdpgun's
#    count of replies may not exceed them (by 1 % and 10);
#  - a disagreement makes the run an error with both counts in words.
# DNS over QUIC (TCP_TRANSPORT=quic, kxdpgun -U to UDP 853: a QUIC
# connection per query, a full handshake each, or with TCP_TLS_RESUME=yes
# its TLS session resumed and the query sent as 0-RTT data): kxdpgun's
# count of connections begun (its "initials") must be at most the
# router's count of Initial-led datagrams (dns_quic_initials: one to three
# a connection, so a bound, not a count) and reach 99 % of those asked;
# its answers at most the daemons' own count of queries over QUIC.
# Each player's run gets a record in tcpbench's JSON form (point.jq reads
# it), with latency null and the counts above under "counted".
# Sourced by tcpbench/sweep/run after scripts/lib/kxdpgun.sh.
#
#   kxg_tcp_settings             TCP_GENERATOR checked (before the testbed)
#   kxg_tcp_prepare              the query file (QUERIES, or . SOA)
#   kxg_tcp_start PLAYER SERVER RATE BASE [AT]   kxdpgun in the background
#                                (its pid in $!), output in BASE.out; AT
#                                (seconds since the epoch; null or none:
#                                at once) the one absolute time of its
#                                first query (kxg_run's KXG_START_AT: on a
#                                lab, as tcpbench's --start-at)
#   kxg_tcp_results W CONFIG TOTAL N [AT]   the records W/p0..N-1.json of the
#                                run's N players from their outputs, the
#                                router's counters (W/counters-before
#                                and -after.json, which run_once reads with
#                                `testbed counters`) and the daemons' (its
#                                W/stats-before and -after.json)
#                                (kxdpgun-result.jq), each with its
#                                start_at (AT) and first_start_realtime
#                                (its first query on its host's clock:
#                                kxg_start_of), as tcpbench's records have
#                                them; sets rcs[] (run_once's)
#                                and KXG_SYNS_COUNTED_BY (where the counters
#                                counted the SYNs, for the summary)

kxg_tcp_settings() {
    if [ "$TCP_GENERATOR" != kxdpgun ]; then
        [ "$TRANSPORT" != quic ] || die "TCP_TRANSPORT=quic: tcpbench speaks no QUIC; DNS over QUIC is sent by kxdpgun (TCP_GENERATOR=kxdpgun)"
        return 0
    fi
    [ -x "$(kxg_program)" ] || need_tools kxdpgun
    [ "$TRANSPORT" != tls ] || die "TCP_GENERATOR=kxdpgun with TCP_TRANSPORT=tls: kxdpgun sends no DNS over TLS (TCP_GENERATOR=tcpbench)"
    [ -z "$TCPBENCH_EXTRA" ] || die "TCP_BENCH_EXTRA is tcpbench's: not with TCP_GENERATOR=kxdpgun"
    # no file descriptor per connection: the file limit caps nothing
    PLAYER_CAP=1000000
}

kxg_tcp_prepare() {
    [ "$TCP_GENERATOR" = kxdpgun ] || return 0
    # the kxdpgun of the testbed's release (kxg_program), named in the records
    KXG_RELEASE=$(jq -r '.server.release.name // "debian12"' "$WORK/testbed.json")
    KXG_TCP_QUERIES="$WORK/kxdpgun-queries"
    if [ -n "$QUERIES" ]; then
        kxg_query_file "$QUERIES" "$KXG_TCP_QUERIES"
    else
        printf '. SOA\n' > "$KXG_TCP_QUERIES"
    fi
    KXG_TCP_VERSION=$(kxg_version)
}

kxg_tcp_start() {
    local player=$1 server=$2 rate=$3 base=$4 at=${5:-null} r mode=tcp
    # DoQ: a full handshake each (--quic=0), or resumed (-U, 0-RTT)
    [ "$TRANSPORT" != quic ] || { mode=quic:0; [ "$TLS_RESUME" = no ] || mode=quic; }
    r=$(awk -v x="$rate" 'BEGIN { printf "%d", x + 0.5 }')
    # (the guard in the foreground: a refusal stops the sweep, not one player)
    target_guard "$(exp_family_addr "$server")" "$(tcp_source_block "$player")"
    ( if [ "$at" != null ]; then KXG_START_AT=$at; fi
      kxg_run "$player" "$(exp_family_addr "$server")" "$(tcp_source_block "$player")" "$r" "$POINT_S" \
          "$KXG_TCP_QUERIES" "$base.out" "$mode"
      exit "$KXG_RC" ) 2> "$base.err" &
}

kxg_tcp_results() {
    local w=$1 cfg=$2 total=$3 n=$4 at=${5:-null} k syns est rep clo line
    : > "$w/kxg-counts"
    for ((k = 0; k < n; k++)); do
        read -r syns est rep clo < <(kxg_tcp_counts "$w/p$k.out"; echo) || true
        printf '%s %s %s %s %s %s\n' "$k" "${syns:--}" "${est:--}" "${rep:--}" "${clo:--}" "$(kxg_start_of "$w/p$k.out")" >> "$w/kxg-counts"
    done
    jq -n -c --rawfile counts "$w/kxg-counts" \
        --slurpfile cb "$w/counters-before.json" --slurpfile ca "$w/counters-after.json" \
        --slurpfile sb "$w/stats-before.json" --slurpfile sa "$w/stats-after.json" \
        --argjson asked "$(awk -v t="$total" -v d="$POINT_S" 'BEGIN { printf "%d", t * d + 0.5 }')" \
        --argjson servers "$(config_servers "$cfg" | jq -R . | jq -s -c .)" \
        --argjson interrupted "$(run_interrupted && echo true || echo false)" --arg version "$KXG_TCP_VERSION" \
        --arg proto "$TRANSPORT" --arg program "$(kxg_program)" --argjson at "$at" \
        -f "$SWEEP/kxdpgun-result.jq" > "$w/kxg-results.jsonl"
    KXG_SYNS_COUNTED_BY=$(jq -c --arg c "$(if [ "$TRANSPORT" = quic ]; then echo dns_quic_initials; else echo dns_tcp_syns; fi)" \
        '.router.counted_by[$c] // null' "$w/counters-after.json")
    # one line per player, in order: its record, and its rc and error
    k=0
    while IFS= read -r line; do
        jq -c .result <<<"$line" > "$w/p$k.json"
        { read -r rcs[k]; cat >> "$w/p$k.err"; } < <(jq -r '.rc, (.error // empty)' <<<"$line")
        k=$((k + 1))
    done < "$w/kxg-results.jsonl"
}

# kxdpgun.sh: Knot DNS's kxdpgun (Debian's knot-dnsutils: queries sent
# through AF_XDP, about a third of tcpreplay's CPU per query) as a load
# generator on the testbed. It is not our code, so:
#  - every destination and every source prefix passes the target guard
#    (scripts/lib/target.sh) before it runs;
#  - it runs in a player's namespace (on a lab, on the player's host, over
#    `scripts/testbed exec`), bounded in time (its -t, and timeout);
#  - what it sent is counted where it passes (the caller reads the router's
#    counter of the queries forwarded to the service address, which a lab
#    counts at its players' switch ports: scripts/lib/counters.jq; a
#    switch port also counts kxdpgun's own ping of the gateway and, on
#    the simulated lab's veths, the IPv6 reports its XDP attach sets off);
#    its own summary is only compared with that count (kxg_sent_agrees).
#
#   kxg_query_file LIST OUT      a query list of from-pcap/tracegen
#                                ("NAME TYPE [edns=N] [do] [rd]") in kxdpgun's
#                                form ("NAME TYPE [E|D]": EDNS, EDNS with DO),
#                                a type kxdpgun cannot name as TYPEn
#   kxg_run ROLE TARGET SOURCES RATE SECONDS QFILE OUT [MODE]
#                                one run from ROLE to TARGET, its queries from
#                                the addresses SOURCES (a CIDR); OUT gets its
#                                output; sets KXG_RC, KXG_SENT (its own
#                                count of queries, or of SYNs, sent),
#                                KXG_RECEIVED (its count of answers: UDP
#                                replies with udp-recv, DNS replies over TCP;
#                                empty with udp) and KXG_ARGS (its arguments).
#                                MODE udp (default): the answers go to
#                                SOURCES (the Listener's, the sink's), not
#                                back to kxdpgun, whose receiving is off (-r);
#                                udp-recv: kxdpgun receives and counts them
#                                (SOURCES must route back to ROLE); tcp (-T:
#                                SYN, query, answer, FIN per query) and tcp:N
#                                (--tcp=N, kxdpgun's debug mode N: 1 SYN
#                                only, 2 handshake then nothing, ...; its
#                                man page): kxdpgun makes each handshake
#                                itself, so SOURCES routes back to ROLE, or
#                                (mode 1) to where its SYN-ACKs may go;
#                                quic (-U, to UDP port 853: a QUIC connection
#                                per query, its TLS session resumed from an
#                                earlier one's ticket), quic:0 (--quic=0: a
#                                full handshake each) and quic:R (--quic=R:
#                                connections kept, a query per stream): as
#                                tcp, SOURCES routes back to ROLE.
#                                KXG_STARTED_FILE, when set, is made just
#                                before kxdpgun starts (its caller times its
#                                own work from it: kxdpgun sends KXG_LEAD_S
#                                later; with KXG_START_AT, before the wait
#                                for it). KXG_START_AT, when set (seconds
#                                since the epoch), is when its first query
#                                is to go: kxdpgun is started on the host
#                                KXG_SLEEP_S before it, by the players'
#                                start-at wait (players_wait_cmd of
#                                scripts/lib/players.sh, sourced then), and
#                                KXG_START is its first query as measured
#                                on the host's clock (kxg_start_of; - when
#                                not measured, as without KXG_START_AT).
#                                On a lab it checks the player host
#                                first (kxg_lab_check) and sends to the
#                                router's client-side MAC (rb_mac_client,
#                                as tcpreplay's frames are addressed):
#                                left to find it, kxdpgun pings the
#                                gateway, a frame the switch's port would
#                                count as load; and its threads start on
#                                the host's first CPU of rb_cpus (-F: it
#                                pins each itself, one a NIC queue, from
#                                CPU 0 unless told, whatever taskset says)
#   kxg_players AT SECONDS QFILE BASE [MODE] < PLAN
#                                kxg_run on every player of PLAN (lines
#                                "PLAYER TARGET SOURCES RATE": its share),
#                                all at once, each in a subshell of its own:
#                                every line through the target guard before
#                                any starts; started at the one absolute
#                                time AT (KXG_START_AT; null: at once, their
#                                starts not measured); each player's output
#                                in BASE-PLAYER.out, its results in
#                                BASE-PLAYER.res; then KXG_RC (0, or the
#                                first failed player's exit, KXG_FAILED that
#                                player), KXG_SENT and KXG_RECEIVED (the sums
#                                of the players'; empty when one's is),
#                                KXG_STARTS ("PLAYER START" lines: its first
#                                query on its host's clock, or -) and
#                                KXG_PLAYERS_JSON ([{player, rate, sources,
#                                sent, received, start}])
#   kxg_start_at                 an AT for kxg_players: its first queries
#                                KXG_SLEEP_S after the players' start-at
#                                (players_start_at), so that kxdpgun is
#                                started PLAYERS_LEAD_S ahead like the others
#   kxg_start_of OUT             the first query's time in a run's output
#                                (its host's clock), or - when not measured
#   kxg_lab_check ROLE           (BACKEND=lab) the player host has this
#                                machine's kxdpgun, the version recorded
#   kxg_detach ROLE [IFACE]      the XDP program off ROLE's interface (a run
#                                killed before it detached it leaves it there,
#                                where it would take the next run's packets)
#   kxg_tcp_counts OUT           "SYNS ESTABLISHED REPLIES CLOSED" from a TCP
#                                run's output, "INITIALS HANDSHAKES REPLIES -"
#                                from a QUIC run's (its full handshakes:
#                                a resumed one is not counted there);
#                                nothing when it has none
#   kxg_sent_agrees COUNTED [WHERE]   kxdpgun's own count within 1 % (and
#                                10 packets) of COUNTED (counted WHERE, in
#                                words: default the router), else 1 with
#                                KXG_DISAGREES
#   kxg_version                  "kxdpgun 3.2.6" (its -V)
#   kxg_program                  the kxdpgun that runs: the release's with
#                                SERVER_RELEASE=current (3.4.6: its QUIC
#                                completes handshakes with Knot 3.4; Debian
#                                12's 3.2.6 is built without QUIC), else
#                                the host's (KXG_RELEASE, when set, is
#                                the release instead of SERVER_RELEASE)
#   kxg_window SECONDS           the seconds from kxdpgun's start to the end
#                                of a SECONDS-long sending: it sleeps
#                                KXG_LEAD_S before its first query (a fixed
#                                1 s in its main; strace: 1.04 s), so what
#                                watches its load (perf on the servers'
#                                CPUs) watches that long
# Source after common.sh and target.sh; TESTBED is scripts/testbed.

# (the release's programs: release_program)
. "$RB_TOP/scripts/lib/server-release.sh"

# The types kxdpgun (libknot 3.2's descriptor table) reads by name; any
# other is written in RFC 3597's generic form, TYPEn, which it reads too
# ("romker. X25" made it refuse the whole list: "faulty type").
KXG_KNOWN_TYPES="A NS MD MF CNAME SOA MB MG MR NULL PTR HINFO MINFO MX TXT RP AFSDB RT SIG KEY PX AAAA LOC NXT SRV NAPTR KX CERT DNAME OPT APL DS SSHFP IPSECKEY RRSIG NSEC DNSKEY DHCID NSEC3 NSEC3PARAM TLSA SMIMEA CDS CDNSKEY OPENPGPKEY CSYNC ZONEMD SVCB HTTPS SPF NID L32 L64 LP EUI48 EUI64 TKEY TSIG IXFR AXFR ANY URI CAA"
# The codes of the other mnemonics ldns writes (IANA's registry).
KXG_TYPE_CODES="WKS=11 X25=19 ISDN=20 NSAP=22 NSAP-PTR=23 GPOS=27 EID=31 NIMLOC=32 ATMA=34 A6=38 SINK=40 HIP=55 NINFO=56 RKEY=57 TALINK=58 UINFO=100 UID=101 GID=102 UNSPEC=103 MAILB=253 MAILA=254 AVC=258 DOA=259 AMTRELAY=260 RESINFO=261 WALLET=262 TA=32768 DLV=32769"

kxg_query_file() {
    local left
    awk -v known="$KXG_KNOWN_TYPES" -v codes="$KXG_TYPE_CODES" -v out="$2" '
        BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1
                n = split(codes, c, " "); for (i = 1; i <= n; i++) { split(c[i], kv, "="); code[kv[1]] = kv[2] } }
        { t = toupper($2)
          if (!(t in ok)) {
              if (t in code) t = "TYPE" code[t]
              else if (t !~ /^TYPE[0-9]+$/) { left[t]++; next }
          }
          f = ""
          for (i = 3; i <= NF; i++) { if ($i == "do") f = "D"; else if ($i ~ /^edns=/ && f == "") f = "E" }
          if (f == "") print $1, t > out; else print $1, t, f > out }
        END { for (t in left) printf "%s %d\n", t, left[t] }' "$1" > "$2.left" || die "cannot write kxdpgun's query file $2"
    left=$(tr '\n' ' ' < "$2.left"); rm -f "$2.left"
    # a type with neither a name kxdpgun reads nor a known code: left out, said
    [ -z "$left" ] || warn "kxdpgun: queries of types it cannot read and without a known code left out (type count): $left"
    [ -s "$2" ] || die "no queries in $1 for kxdpgun"
}

# (kxdpgun's fixed sleep before its first query, rounded up)
KXG_LEAD_S=1.1
kxg_window() { awk -v s="$1" -v l="$KXG_LEAD_S" 'BEGIN { print s + l }'; }
# (the sleep itself: its main thread sleeps 1 s once its sending threads
# are made, then lets them send; strace of 3.2.6: the first query 1.0001 s
# after that sleep began)
KXG_SLEEP_S=1

# The start of one player's kxdpgun on its host (after the start-at wait):
# its output passed on line by line, the line its sending thread writes
# once it is ready, as the main thread begins its fixed sleep ("using
# interface ...": strace of 3.2.6, 4 ms after the sleep began) preceded
# by the host's clock then ("kxdpgun-start: EPOCH"); its exit status
# kxdpgun's (timeout's), which stays its direct child, so that timeout can
# stop it.
# shellcheck disable=SC2016
KXG_STAMP='set -o pipefail; "$@" 2>&1 | while IFS= read -r l; do
    if [ -z "${s:-}" ] && [[ $l == "using interface"* ]]; then s=1; printf "kxdpgun-start: %s\n" "${EPOCHREALTIME/,/.}"; fi
    printf "%s\n" "$l"; done'

kxg_start_of() {
    local t
    t=$(sed -n '/^kxdpgun-start: [0-9][0-9]*\.[0-9]*$/{s/^kxdpgun-start: //p;q}' "$1" 2>/dev/null)
    if [ -z "$t" ]; then echo -; return 0; fi
    awk -v t="$t" -v s="$KXG_SLEEP_S" 'BEGIN { printf "%.6f\n", t + s }'
}

kxg_start_at() { awk -v a="$(players_start_at)" -v s="$KXG_SLEEP_S" 'BEGIN { printf "%.6f\n", a + s }'; }

# (the generator is the release's, never the operator's own server build:
# SERVER_PREFIX names the servers' programs)
kxg_program() {
    local rel=${KXG_RELEASE:-${SERVER_RELEASE:-debian12}}
    if [ "$rel" = debian12 ]; then command -v kxdpgun || echo kxdpgun
    else SERVER_PREFIX="" SERVER_RELEASE=$rel release_program kxdpgun /usr/sbin/kxdpgun; fi
}
# 3.2: "kxdpgun (Knot DNS), version 3.2.6"; 3.4: "kxdpgun, Knot DNS 3.4.6".
kxg_version() {
    local prog
    prog=$(kxg_program)
    command -v "$prog" >/dev/null || die "kxdpgun not found ($prog): run make deps (Debian package knot-dnsutils), or make servers-current for SERVER_RELEASE=current"
    "$prog" -V 2>&1 | sed -n '1s/^kxdpgun\( (Knot DNS), version\|, Knot DNS\) /kxdpgun /p'
}

kxg_run() {
    local role=$1 target=$2 sources=$3 rate=$4 secs=$5 qfile=$6 out=$7 proto=${8:-udp} iface limit mode=() prog
    prog=$(kxg_program)
    [ -x "$prog" ] || need_tools kxdpgun
    target_guard "$target" "$sources"
    [[ $rate =~ ^[1-9][0-9]*$ ]] || die "kxdpgun: rate '$rate' is not a positive integer"
    [[ $secs =~ ^[1-9][0-9]*$ ]] || die "kxdpgun: duration '$secs' is not a whole number of seconds"
    case $proto in
        udp) mode=(-r) ;; udp-recv) ;; tcp) mode=(-T) ;;
        # (0 is QUIC's only; 4 and 6 are none)
        tcp:[1235789]) mode=("--tcp=${proto#tcp:}") ;;
        quic) mode=(-U) ;; quic:[0R]) mode=("--quic=${proto#quic:}") ;;
        *) die "kxg_run: mode '$proto' (udp, udp-recv, tcp, tcp:N with N one of kxdpgun's TCP debug modes 1 2 3 5 7 8 9, quic, quic:0, quic:R)" ;;
    esac
    iface=$("$TESTBED" iface "$role")
    local nexthop=()
    if [ "${BACKEND:-netns}" = lab ]; then
        kxg_lab_check "$role"
        local cpus; cpus=$(lab_host "$role" cpus)
        nexthop=(-R "$("$TESTBED" mac router ethc)" -F "${cpus%%[!0-9]*}s1")
    fi
    # (QUIC: kxdpgun waits 4 s for the last answers, and --quic=R longer
    # for its kept connections)
    limit=$((secs + 10)); case $proto in quic*) limit=$((secs + 25)) ;; esac
    KXG_RC=0
    KXG_ARGS=(-t "$secs" -Q "$rate" -i "$qfile" -I "$iface" "${nexthop[@]+"${nexthop[@]}"}" -l "$sources" "${mode[@]}" "$target")
    # At one absolute time: started its fixed sleep before it, by the
    # players' wait on the host (bounded: at most PLAYERS_WAIT_MAX_S
    # ahead), its start stamped there (KXG_STAMP).
    local wait=()
    if [ -n "${KXG_START_AT:-}" ]; then
        players_wait_cmd "$(awk -v a="$KXG_START_AT" -v s="$KXG_SLEEP_S" 'BEGIN { printf "%.6f", a - s }')"
        wait=("${PLAYERS_WAIT[@]}" bash -c "$KXG_STAMP" kxg-stamp)
    fi
    [ -z "${KXG_STARTED_FILE:-}" ] || : > "$KXG_STARTED_FILE"
    # timeout --foreground keeps kxdpgun in our process group: Ctrl-C stops
    # it too (its default again, as a player started in the background
    # would have it ignored).
    env --default-signal=INT,TERM "$TESTBED" exec "$role" -- "${wait[@]+"${wait[@]}"}" timeout --foreground "$limit" "$prog" "${KXG_ARGS[@]}" \
        > "$out" 2>&1 || KXG_RC=$?
    kxg_detach "$role" "$iface"
    KXG_START=$(kxg_start_of "$out")
    case $proto in
    tcp*|quic*)
        KXG_SENT=$(kxg_tcp_counts "$out" | awk '{ print $1 }')
        KXG_RECEIVED=$(kxg_tcp_counts "$out" | awk '{ print $3 }') ;;
    *)
        KXG_SENT=$(sed -n '/^total queries:/{s/^total queries: *\([0-9][0-9]*\) .*/\1/p;q}' "$out")
        KXG_RECEIVED=$(sed -n '/^total replies:/{s/^total replies: *\([0-9][0-9]*\) .*/\1/p;q}' "$out") ;;
    esac
}

kxg_players() {
    local at=$1 secs=$2 qfile=$3 base=$4 proto=${5:-udp} p t src r plan=() pids=() who=() i rc res
    while read -r p t src r; do
        # (a share of 0 sends nothing)
        [ -n "$p" ] && [ "$r" != 0 ] || continue
        # (in the foreground: a refusal stops every player before any starts)
        target_guard "$t" "$src"
        plan+=("$p $t $src $r")
    done
    [ "${#plan[@]}" -gt 0 ] || die "kxg_players: no players to run"
    for i in "${!plan[@]}"; do
        read -r p t src r <<<"${plan[$i]}"
        rm -f "$base-$p.res"
        ( if [ "$at" != null ]; then KXG_START_AT=$at; fi
          kxg_run "$p" "$t" "$src" "$r" "$secs" "$qfile" "$base-$p.out" "$proto"
          printf '%s %s %s %s\n' "$KXG_RC" "${KXG_SENT:--}" "${KXG_RECEIVED:--}" "$KXG_START" > "$base-$p.res"
          exit "$KXG_RC" ) &
        pids+=("$!") who+=("$p")
    done
    KXG_RC=0 KXG_FAILED="" KXG_SENT=0 KXG_RECEIVED=0 KXG_STARTS=""
    local rows="" sent recv start
    for i in "${!pids[@]}"; do
        p=${who[$i]}
        rc=0; wait_pid "${pids[$i]}" || rc=$?
        res=$(cat "$base-$p.res" 2>/dev/null || true)
        read -r _ sent recv start <<<"${res:-$rc - - -}"
        [ "$rc" -eq 0 ] || [ "$KXG_RC" -ne 0 ] || { KXG_RC=$rc KXG_FAILED=$p; }
        if [ "$sent" = - ] || [ -z "$KXG_SENT" ]; then KXG_SENT=""; else KXG_SENT=$((KXG_SENT + sent)); fi
        if [ "$recv" = - ] || [ -z "$KXG_RECEIVED" ]; then KXG_RECEIVED=""; else KXG_RECEIVED=$((KXG_RECEIVED + recv)); fi
        KXG_STARTS+="$p $start"$'\n'
        read -r _ _ src r <<<"${plan[$i]}"
        rows+="$p $r $src $sent $recv $start"$'\n'
    done
    KXG_PLAYERS_JSON=$(jq -R -s -c 'def n: if . == "-" then null else tonumber end;
        [split("\n")[] | select(length > 0) | split(" ")
         | {player: .[0], rate: (.[1] | tonumber), sources: .[2], sent: (.[3] | n), received: (.[4] | n), start: (.[5] | n)}]' <<<"$rows")
}

kxg_lab_check() {
    local role=$1 prog have want
    prog=$(kxg_program)
    want=$(kxg_version)
    have=$("$TESTBED" exec "$role" -- sh -c "$(printf '%q -V 2>&1 | head -n 1' "$prog")" 2>&1) || true
    have=$(sed -n '1s/^kxdpgun\( (Knot DNS), version\|, Knot DNS\) /kxdpgun /p' <<<"$have")
    [ -n "$have" ] || die "kxdpgun: $role has no $prog (the players' knot-dnsutils: run make lab-setup INVENTORY=$INVENTORY)"
    [ "$have" = "$want" ] || die "kxdpgun: $role runs $have, this machine $want: the version recorded would not be the one that ran (the same knot-dnsutils on both)"
}

kxg_detach() {
    "$TESTBED" exec "$1" -- ip link set dev "${2:-$("$TESTBED" iface "$1")}" xdp off >/dev/null 2>&1 || true
}

kxg_tcp_counts() {
    awk '$1 == "total" && $3 ~ /^[0-9]+$/ { n[$2] = $3 }
         END { if (("SYNs:" in n) && ("established:" in n) && ("replies:" in n) && ("closed:" in n))
                   print n["SYNs:"], n["established:"], n["replies:"], n["closed:"]
               else if (("initials:" in n) && ("handshakes:" in n) && ("replies:" in n))
                   print n["initials:"], n["handshakes:"], n["replies:"], "-" }' "$1"
}

kxg_sent_agrees() {
    KXG_DISAGREES=""
    [ -n "${KXG_SENT:-}" ] || { KXG_DISAGREES="kxdpgun printed no count of queries sent"; return 1; }
    awk -v k="$KXG_SENT" -v c="$1" 'BEGIN { d = k - c; if (d < 0) d = -d; exit !(d <= 10 || d <= 0.01 * c) }' && return 0
    KXG_DISAGREES="kxdpgun says it sent $KXG_SENT queries; ${2:+counted where they passed ($2): $1}${2:-the router forwarded $1 to the service address}"
    return 1
}

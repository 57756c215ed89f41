# measure.sh: one run of the sizes experiment (analysis/sizes/run sources
# it): a zone variant served, the router-s port captured, a trace replayed
# slowly, SNMP octets read before and after, and the capture checked
# against them (the accounting).

# The frames a link carries for itself, whatever the experiment sends:
# ARP, IPv6 neighbour discovery and MLD (ICMPv6, MLD behind a hop-by-hop
# header), IGMP. An IPv6 run's port sees a few neighbour solicitations and
# advertisements between the SNMP readings (about 1.5 bytes per query over
# 200 queries), which are not the replay's bytes.
LINK_OWN_FRAMES="arp or icmp6 or (ip6 and ip6[6] == 0) or igmp"

# testbed_serve VARIANT: the experiment's profile (analysis/sizes/profile)
# serving VARIANT; nothing else from the environment.
testbed_serve() {
    exp_testbed_up "$RB_TOP/analysis/sizes/profile" ZONES="$1"
}

# frames_bytes PCAP BPF: "FRAMES BYTES" of the frames matching BPF.
frames_bytes() {
    local f=()
    [ -n "$2" ] && f=(-f "$2")
    "$DNSSTAT" --json "${f[@]}" "$1" | jq -er '"\(.frames) \(.frame_bytes)"' \
        || die "dnsstat cannot read $1"
}

# accounting_json SNMP_IN SNMP_OUT PCAP ROUTER_MAC [DROPPED [START END]]:
# the SNMP deltas against the capture of the same port, per direction
# (in = frames the router sent into the switch, i.e. from its MAC; out =
# all others). With START and END (epoch seconds: when the two SNMP
# readings were taken) only the frames between them are compared; those
# outside are reported, with the ratios over the whole capture.
accounting_json() {
    local sin=$1 sout=$2 pcap=$3 mac=$4 dropped=${5:-} start=${6:-} end=${7:-}
    local cin cout arp ip6 other all="" win="" whole_in="" whole_out=""
    [[ $sin =~ ^[0-9]+$ && $sout =~ ^[0-9]+$ ]] || die "check-accounting: SNMP deltas must be integers"
    [ -f "$pcap" ] || die "check-accounting: no such capture: $pcap"
    [[ $mac =~ ^[0-9a-f]{2}(:[0-9a-f]{2}){5}$ ]] || die "check-accounting: '$mac' is not a MAC address"
    if [ -n "$start" ]; then
        [[ $start =~ ^[0-9]+(\.[0-9]+)?$ && $end =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "check-accounting: START and END must be epoch seconds"
        all=$(frames_bytes "$pcap" "")
        whole_in=$(frames_bytes "$pcap" "ether src $mac")
        whole_out=$(frames_bytes "$pcap" "not ether src $mac")
        win=$(mktemp "${TMPDIR:-/tmp}/rb-sizes-window.XXXXXX")
        editcap -F pcap -A "$start" -B "$end" "$pcap" "$win" 2>/dev/null || { rm -f "$win"; die "editcap cannot cut $pcap"; }
        pcap=$win
    fi
    cin=$(frames_bytes "$pcap" "ether src $mac")
    cout=$(frames_bytes "$pcap" "not ether src $mac")
    arp=$(frames_bytes "$pcap" "arp")
    ip6=$(frames_bytes "$pcap" "ip6 and not (udp port 53)")
    # The link's own frames, by direction: the part of the SNMP octets that
    # is not the replay's (bytes per query of DNS alone subtract it).
    local lk_in lk_out
    lk_in=$(frames_bytes "$pcap" "ether src $mac and ($LINK_OWN_FRAMES)")
    lk_out=$(frames_bytes "$pcap" "not ether src $mac and ($LINK_OWN_FRAMES)")
    other=$(frames_bytes "$pcap" "not arp and not ip6 and not (udp port 53)")
    local inwin=""
    [ -n "$win" ] && { inwin=$(frames_bytes "$win" ""); rm -f "$win"; }
    jq -n -L "$RULES_DIR" --argjson sin "$sin" --argjson sout "$sout" \
        --arg cin "$cin" --arg cout "$cout" --arg arp "$arp" --arg ip6 "$ip6" --arg other "$other" \
        --arg lk_in "$lk_in" --arg lk_out "$lk_out" --arg lk_filter "$LINK_OWN_FRAMES" \
        --arg dropped "$dropped" --arg all "$all" --arg inwin "$inwin" --arg win_in "$whole_in" --arg win_out "$whole_out" \
        --arg wstart "$start" --arg wend "$end" --arg where "$PORT_WHERE" '
        include "rules";
        {snmp_in: $sin, snmp_out: $sout, capture_in: $cin, capture_out: $cout, arp: $arp, ip6: $ip6, other: $other,
         link_in: $lk_in, link_out: $lk_out, link_filter: $lk_filter, dropped: $dropped, where: $where,
         start: $wstart, "end": $wend, all: $all, in_window: $inwin, whole_in: $win_in, whole_out: $win_out}
        | accounting'
}

# port_points: where router-s's traffic is captured, from the testbed
# (CAPTURE_POINTS: scripts/testbed capture-points router-s); PORT_WHERE
# says it in words.
port_points() {
    CAPTURE_POINTS=$("$TESTBED" capture-points router-s) \
        || die "the testbed does not say where the traffic of router-s can be captured (scripts/testbed capture-points router-s)"
    jq -e '.points | length > 0' <<<"$CAPTURE_POINTS" >/dev/null || die "capture-points router-s: no capture point: $CAPTURE_POINTS"
    PORT_WHERE=$(jq -r .where <<<"$CAPTURE_POINTS")
}

# port_capture_start: one capture per point (port0, port1, ...), whole
# frames, each with its point's filter.
port_capture_start() {
    local i role iface filter
    for i in $(jq -r '.points | keys[]' <<<"$CAPTURE_POINTS"); do
        IFS=$'\t' read -r role iface filter < <(jq -r --argjson i "$i" '.points[$i] | [.role, .iface, .filter] | @tsv' <<<"$CAPTURE_POINTS")
        capture_start "port$i" "$role" "$iface" "$WORK/port$i.pcap" "$filter" 0 \
            || die "cannot start the capture of router-s's traffic on $role $iface"
    done
}

# port_capture_stop OUT: stop the captures, merge them (chronologically,
# mergecap) into OUT; PORT_DROPPED: the packets the kernels dropped for them
# ("" when one is unknown). Not in a subshell (capture_stop forgets the
# captures it stopped). The merge is judged by the accounting check, so a
# short capture flags the run instead of ending it.
port_capture_stop() {
    local out=$1 i files=() d dropped=0
    for i in $(jq -r '.points | keys[]' <<<"$CAPTURE_POINTS"); do
        capture_stop "port$i" || true
        files+=("$WORK/port$i.pcap")
        d=$(capture_dropped "port$i")
        if [ -z "$d" ] || [ "$dropped" = "" ]; then dropped=""; else dropped=$((dropped + d)); fi
    done
    if [ "${#files[@]}" = 1 ]; then
        mv -f "${files[0]}" "$out"
    else
        mergecap -F pcap -w "$out" "${files[@]}" 2> "$WORK/mergecap.log" \
            || die "mergecap cannot merge the captures of router-s's traffic: $(tail -n 2 "$WORK/mergecap.log")"
        rm -f "${files[@]}"
    fi
    rm -f "$WORK"/port[0-9]*.pcap.log
    PORT_DROPPED=$dropped
}

# measure KEY VARIANT QUERIES REPLAY_PCAP: serve, capture, replay, read.
# Appends the run's JSON line to $WORK/runs.jsonl.
measure() {
    local key=$1 variant=$2 n=$3 trace=$4 d="$EXP_DIR/$1"
    local t0 rmac snmp0 snmp1 a0 a1 sent failed_pk rlog acct kept flags=() si0 so0 si1 so1
    mkdir -p "$d"
    t0=$(date +%s)
    testbed_serve "$variant"
    check_served "$variant"
    ur_rewrite_for_testbed "$trace" "$WORK/replay.pcap" player1 "" "$FAMILY" > "$WORK/rewrite.out"
    kept=$(awk '{print $2}' "$WORK/rewrite.out")
    [ "${kept:-0}" -ge "$n" ] || die "the rewritten trace has ${kept:-0} queries, fewer than $n: $(cat "$WORK/rewrite.out")"
    rmac=$(ur_mac_of router eths)

    capture_start answers listener eth0 "$d/answers.pcap" "udp and src port 53" 0 \
        || die "cannot start the answer capture at the Listener"
    port_capture_start
    # the readings are taken when snmpget runs, after snmp-octets' settle time
    local settle w0 w1
    settle=$("$TESTBED" snmp-settle)
    w0=$(awk -v t="$(date +%s.%N)" -v s="$settle" 'BEGIN { printf "%.6f", t + s }')
    snmp0=$(snmp_both "$WORK/snmp0")
    a0=$(listener_answers)
    rlog="$d/replay.log"
    # in the background, so a signal to this script is handled at once
    ur_replay player1 "$WORK/replay.pcap" "$SIZES_PPS" "$n" > "$rlog" 2>&1 &
    REPLAY_PID=$!
    wait "$REPLAY_PID" || die "tcpreplay failed for $key (see $rlog)"
    REPLAY_PID=""
    a1=$(settle_answers)
    w1=$(awk -v t="$(date +%s.%N)" -v s="$settle" 'BEGIN { printf "%.6f", t + s }')
    snmp1=$(snmp_both "$WORK/snmp1")
    # Completeness is judged below from the drop counts, so a short capture
    # flags the run instead of ending it.
    capture_stop answers || true
    port_capture_stop "$WORK/port.pcap"

    sent=$(sed -n 's/^[[:space:]]*Successful packets:[[:space:]]*\([0-9]\+\).*/\1/p' "$rlog" | tail -n 1)
    failed_pk=$(sed -n 's/^[[:space:]]*Failed packets:[[:space:]]*\([0-9]\+\).*/\1/p' "$rlog" | tail -n 1)
    [[ $sent =~ ^[0-9]+$ ]] || die "cannot read the packets sent from $rlog"
    [ "$sent" = "$n" ] || flags+=("sent $sent of $n queries (tcpreplay failed ${failed_pk:-?})")
    [ "$((a1 - a0))" = "$sent" ] || flags+=("Listener counted $((a1 - a0)) answers for $sent queries")

    "$DNSSTAT" --json --bin "$SIZES_BIN" -o "$d/answers.json" "$d/answers.pcap" \
        || die "dnsstat failed on $d/answers.pcap"
    "$DNSSTAT" --json --bin "$SIZES_BIN" -o "$d/port.json" "$WORK/port.pcap" \
        || die "dnsstat failed on the capture of router-s's traffic ($PORT_WHERE)"
    read -r si0 so0 <<<"$snmp0"; read -r si1 so1 <<<"$snmp1"
    acct=$(accounting_json "$((si1 - si0))" "$((so1 - so0))" "$WORK/port.pcap" "$rmac" \
        "$PORT_DROPPED" "$w0" "$w1")
    printf '%s\n' "$acct" | results_write_json "$d/accounting.json"
    [ "$(jq -r .pass <<<"$acct")" = true ] || flags+=("SNMP and capture disagree beyond $(jq -r '.tolerance * 100' <<<"$acct")%")
    local captured; captured=$(jq -r .responses "$d/answers.json")
    [ "$captured" = "$sent" ] || flags+=("the Listener capture holds $captured answers for $sent queries")
    local dropped_ans; dropped_ans=$(capture_dropped answers)
    [ "${dropped_ans:-0}" = 0 ] || flags+=("answer capture dropped $dropped_ans packets")
    if [ "$SIZES_KEEP_PCAPS" = 1 ]; then mv "$WORK/port.pcap" "$d/port.pcap"; else rm -f "$WORK/port.pcap"; fi

    jq -n -c --arg key "$key" --arg variant "$variant" --argjson n "$n" --argjson sent "$sent" \
        --argjson pps "$SIZES_PPS" --argjson answers "$((a1 - a0))" \
        --argjson sin "$((si1 - si0))" --argjson sout "$((so1 - so0))" \
        --argjson acct "$acct" --argjson secs "$(( $(date +%s) - t0 ))" \
        --arg ptest "$(paper_test "$key")" --arg where "$PORT_WHERE" \
        --argjson flags "$(printf '%s\n' "${flags[@]+"${flags[@]}"}" | jq -R . | jq -s 'map(select(. != ""))')" \
        --slurpfile zone "$RB_TOP/zones/build/$variant/variant.json" \
        --slurpfile ans "$d/answers.json" --slurpfile port "$d/port.json" '
        def r1: . * 10 | round / 10;
        def r4: . * 10000 | round / 10000;
        $zone[0] as $z | $ans[0] as $a | $port[0] as $p
        | {key: $key, zone_variant: $variant, paper_test: (if $ptest == "" then null else $ptest end),
           queries: $sent, queries_planned: $n, pps: $pps,
           bytes_in: $sin, bytes_out: $sout,
           bytes_per_query_in: (if $sent > 0 then $sin / $sent | r1 else null end),
           bytes_per_query_out: (if $sent > 0 then $sout / $sent | r1 else null end),
           dns_bytes_per_query_in: (if $sent > 0 then ($sin - $acct.link_own_frames.in.bytes) / $sent | r1 else null end),
           dns_bytes_per_query_out: (if $sent > 0 then ($sout - $acct.link_own_frames.out.bytes) / $sent | r1 else null end),
           link_own_frames: ($acct.link_own_frames | {in, out}),
           growth_vs_unsigned: null,
           answered: ($answers == $sent and $sent == $n), answers: $answers,
           flags: $flags, seconds: $secs,
           snmp_vs_capture: ($acct | {in_ratio, out_ratio, pass, explanation, capture_in_bytes, capture_out_bytes, capture_dropped,
                                      outside_window_frames: (.window.outside_frames // null)}),
           signed: $z.signed, algorithm: ($z.algorithm.name // null), algorithm_number: ($z.algorithm.number // null),
           ksk_bits: $z.ksk_bits, zsk_bits: $z.zsk_bits, denial: $z.denial, nsec3: $z.nsec3,
           responses: $a.responses, rcodes: $a.rcodes,
           rcode_shares: ($a.rcodes | with_entries(.value = (.value / $a.responses | r4))),
           no_dnssec: {method: "answer_opt",
             by_rcode: ($a.edns_by_rcode | with_entries(.value = .value.answer.no_opt_or_do0_share)),
             overall: ([$a.edns_by_rcode[] | .answer.no_opt + .answer.do0] | add / $a.responses | r4)},
           no_dnssec_matched_query: {method: "matched_query", source: "the capture of router-s'"'"'s traffic (queries and answers): \($where)",
             by_rcode: ($p.edns_by_rcode | with_entries(.value = .value.query.no_opt_or_do0_share)),
             matched: ([$p.edns_by_rcode[] | .query.matched] | add)},
           reply_dns_bytes: ($a.sizes.response_dns | {mean, median: .p50, max}),
           reply_frame_mean: $a.sizes.response_frame.mean,
           tc_responses: $a.tc_responses,
           sections: $a.response_sections,
           files: {answers_pcap: "\($key)/answers.pcap", answers_stats: "\($key)/answers.json",
                   port_stats: "\($key)/port.json", accounting: "\($key)/accounting.json"}}' \
        >> "$WORK/runs.jsonl"
    progress_line "$(tail -n 1 "$WORK/runs.jsonl")"
}

# progress_line RUN_JSON: one line per measured run.
progress_line() {
    jq -r '"\(.key) (\(.zone_variant)): \(.queries) queries at \(.pps) q/s in \(.seconds) s: in \(.bytes_per_query_in) B/q, out \(.bytes_per_query_out) B/q; answered \(.answers)/\(.queries); SNMP/capture in \(.snmp_vs_capture.in_ratio) out \(.snmp_vs_capture.out_ratio)"
           + (if (.flags | length) > 0 then "; FLAGGED: " + (.flags | join("; ")) else "" end)' <<<"$1" >&2
}

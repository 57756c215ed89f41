# measure.sh: one cell of the sizing matrix (analysis/sizes-matrix/run
# sources it): a zone state served, its DNSKEY answer asked for, the
# cell's trace (DO share, EDNS buffer) replayed slowly, and the bytes and
# answers counted.

serve_state() {
    exp_testbed_up "$RB_TOP/analysis/sizes-matrix/profile" ZONES="$1"
}

# dnskey_json VARIANT: the DNSKEY answer (DO=1) as the server sends it:
# whole over TCP (its size is the answer's size), and over UDP at buffers
# of 4096 and 1232 (size, and whether it came truncated: a server caps its
# UDP answers at its own EDNS size, NSD's default being 1232).
dnskey_json() {
    local tcp big small q=(+dnssec +norec +time=2 +tries=3)
    tcp=$("$TESTBED" exec player1 -- dig "${q[@]}" +tcp @"$SERVICE4" . DNSKEY) \
        || die "no answer to '. DNSKEY' over TCP serving $1"
    big=$("$TESTBED" exec player1 -- dig "${q[@]}" +ignore +bufsize=4096 @"$SERVICE4" . DNSKEY) \
        || die "no answer to '. DNSKEY' (UDP, 4096) serving $1"
    small=$("$TESTBED" exec player1 -- dig "${q[@]}" +ignore +bufsize=1232 @"$SERVICE4" . DNSKEY) \
        || die "no answer to '. DNSKEY' (UDP, 1232) serving $1"
    jq -n --arg tcp "$tcp" --arg big "$big" --arg small "$small" --slurpfile m "$RB_TOP/zones/build/$1/variant.json" '
        def msgsize: capture(";; MSG SIZE +rcvd: (?<n>[0-9]+)").n | tonumber;
        def tc: test(";; flags:[^;]* tc[ ;]");
        def count($t): [splits("\n") | select(test("^\\.\\s+[0-9]+\\s+IN\\s+" + $t + "\\s"))] | length;
        {bytes: ($tcp | msgsize), dnskeys: ($tcp | count("DNSKEY")), rrsigs: ($tcp | count("RRSIG")),
         udp_4096: {bytes: ($big | msgsize), tc: ($big | tc)},
         udp_1232: {bytes: ($small | msgsize), tc: ($small | tc)},
         method: "dig +dnssec +norec . DNSKEY from player1: over TCP (the whole answer, DNS message size), over UDP with +bufsize=4096 and 1232",
         keys: [$m[0].zones.root.dnskeys[]? | {role, keytag, algorithm, bits, signs}]}'
}

# The answers the roadmap compares (docs/sizes-matrix.md): the priming
# answer, the DNSKEY answer, a TLD referral (NS, DS and its RRSIG, glue) and
# an NXDOMAIN with its NSEC proofs. "example." is not delegated (RFC 2606).
ROADMAP_QUERIES=("priming|. NS" "dnskey|. DNSKEY" "referral|www.example.com. A" "nxdomain|www.example. A")

# probes_json VARIANT: each roadmap answer (DO=1) as the server sends it
# whole over TCP: its size (dig's MSG SIZE), rcode and records per section;
# the DNSKEY answer's size is also predicted from the zone file
# (root_dnskey_answer_bytes), a check on the measurement. dig's output is
# kept as probes/<variant>/<answer>.txt in the experiment's directory.
probes_json() {
    local q name qname qtype out all="{}" dir="$EXP_DIR/probes/$1"
    mkdir -p "$dir"
    for q in "${ROADMAP_QUERIES[@]}"; do
        IFS='|' read -r name qname <<<"$q"
        read -r qname qtype <<<"$qname"
        out=$("$TESTBED" exec player1 -- dig +dnssec +norec +tcp +time=2 +tries=3 @"$SERVICE4" "$qname" "$qtype") \
            || die "no answer to '$qname $qtype' over TCP serving $1"
        printf '%s\n' "$out" > "$dir/$name.txt"
        all=$(jq -c --arg n "$name" --arg q "$qname $qtype" --arg out "$out" --arg file "probes/$1/$name.txt" '
            def msgsize: capture(";; MSG SIZE +rcvd: (?<n>[0-9]+)").n | tonumber;
            def sect($s): ($out | capture(";; flags:[^;]*; QUERY: [0-9]+, ANSWER: (?<answer>[0-9]+), AUTHORITY: (?<authority>[0-9]+), ADDITIONAL: (?<additional>[0-9]+)") | .[$s] | tonumber);
            . + {($n): {query: $q, file: $file, bytes: ($out | msgsize),
                        rcode: ($out | capture("status: (?<r>[A-Z]+)").r),
                        answer: sect("answer"), authority: sect("authority"), additional: sect("additional"),
                        rrsigs: ([$out | splits("\n") | select(test("^[^;].*\\sIN\\sRRSIG\\s"))] | length)}}' <<<"$all") \
            || die "cannot read dig's answer to '$qname $qtype' serving $1"
    done
    jq -c --argjson p "$(root_dnskey_answer_bytes "$RB_TOP/zones/build/$1/root.zone")" \
        '. + {method: "dig +dnssec +norec +tcp from player1 (DO=1, the whole answer: its DNS message size)"}
         | .dnskey.predicted_bytes = $p' <<<"$all"
}

# trace_for PROFILE EDNS: the cell's trace (made once per profile, buffer,
# query count, seed and root size: a trace of other settings is never
# reused), its names from the unsigned root of the zone states.
trace_for() {
    local p=$1 e=$2 dir="$EXP_DIR/traces/$1-$2-$MATRIX_QUERIES-$MATRIX_SEED${MATRIX_TLDS:+-tlds$MATRIX_TLDS}" args
    if [ ! -f "$dir/trace.pcap" ]; then
        mkdir -p "$dir"
        args="$(profile_args "$p") $(edns_args "$e")"
        # shellcheck disable=SC2086
        "$UR_BUILD/tracegen" -n "$MATRIX_QUERIES" -s "$MATRIX_SEED" $args -r 2500 -c 10000 \
            -z "$RB_TOP/zones/build/$(state_variant unsigned)/root.zone" -o "$dir/trace.pcap.tmp" -q "$dir/trace.queries" \
            > "$WORK/tracegen.log" 2>&1 || die "tracegen ($args) failed: $(tail -n 2 "$WORK/tracegen.log")"
        mv "$dir/trace.pcap.tmp" "$dir/trace.pcap"
        "$DNSSTAT" --json -o "$dir/trace.json" "$dir/trace.pcap" || die "dnsstat failed on the trace $dir"
        printf '%s\n' "$args" > "$dir/tracegen.args"
    fi
    echo "$dir"
}

# measure_cell CELL DNSKEY_JSON PROBES_JSON: replay the cell's trace, read SNMP before
# and after, capture the answers; appends the cell to $WORK/cells.jsonl.
# SNMP_PREV holds the previous reading of this zone state ("" = take one).
measure_cell() {
    local cell=$1 dnskey=$2 probes=$3 state profile edns variant key d tdir
    IFS=: read -r state profile edns <<<"$cell"
    variant=$(state_variant "$state"); key=$(cell_key "$cell"); d="$EXP_DIR/$key"
    mkdir -p "$d"
    tdir=$(trace_for "$profile" "$edns")
    ur_rewrite_for_testbed "$tdir/trace.pcap" "$WORK/replay.pcap" player1 > "$WORK/rewrite.out"
    local kept; kept=$(awk '{print $2}' "$WORK/rewrite.out")
    [ "${kept:-0}" -ge "$MATRIX_QUERIES" ] || die "the rewritten trace has ${kept:-0} queries, fewer than $MATRIX_QUERIES"
    capture_start answers listener eth0 "$d/answers.pcap" "udp and src port 53" 0 \
        || die "cannot start the answer capture at the Listener"
    local s0 s1 a0 a1 t0 flags=() rlog="$d/replay.log"
    if [ -z "$SNMP_PREV" ]; then s0=$(snmp_both "$WORK/snmp"); else s0=$SNMP_PREV; fi
    a0=$(listener_answers)
    t0=$(date +%s)
    ur_replay player1 "$WORK/replay.pcap" "$MATRIX_PPS" "$MATRIX_QUERIES" > "$rlog" 2>&1 &
    REPLAY_PID=$!
    wait "$REPLAY_PID" || die "tcpreplay failed for $cell (see $rlog)"
    REPLAY_PID=""
    a1=$(settle_answers)
    s1=$(snmp_both "$WORK/snmp")
    SNMP_PREV=$s1
    capture_stop answers || flags+=("the answer capture is incomplete")
    local sent si0 so0 si1 so1
    sent=$(sed -n 's/^[[:space:]]*Successful packets:[[:space:]]*\([0-9]\+\).*/\1/p' "$rlog" | tail -n 1)
    [[ $sent =~ ^[0-9]+$ ]] || die "cannot read the packets sent from $rlog"
    [ "$sent" = "$MATRIX_QUERIES" ] || flags+=("sent $sent of $MATRIX_QUERIES queries")
    [ "$((a1 - a0))" = "$sent" ] || flags+=("Listener counted $((a1 - a0)) answers for $sent queries")
    "$DNSSTAT" --json --bin "$MATRIX_BIN" -o "$d/answers.json" "$d/answers.pcap" || die "dnsstat failed on $d/answers.pcap"
    local captured; captured=$(jq -r .responses "$d/answers.json")
    [ "$captured" = "$sent" ] || flags+=("the Listener capture holds $captured answers for $sent queries")
    read -r si0 so0 <<<"$s0"; read -r si1 so1 <<<"$s1"
    rm -f "$d/answers.pcap.log"
    jq -n -c --arg cell "$cell" --arg key "$key" --arg state "$state" --arg variant "$variant" \
        --arg profile "$profile" --arg edns "$edns" --arg targs "$(cat "$tdir/tracegen.args")" \
        --argjson n "$MATRIX_QUERIES" --argjson sent "$sent" --argjson answers "$((a1 - a0))" \
        --argjson sin "$((si1 - si0))" --argjson sout "$((so1 - so0))" --argjson pps "$MATRIX_PPS" \
        --argjson secs "$(( $(date +%s) - t0 ))" --argjson dnskey "$dnskey" --argjson probes "$probes" \
        --argjson flags "$(printf '%s\n' "${flags[@]+"${flags[@]}"}" | jq -R . | jq -s 'map(select(. != ""))')" \
        --slurpfile a "$d/answers.json" --slurpfile tr "$tdir/trace.json" --arg tdir "$tdir" \
        --slurpfile z "$RB_TOP/zones/build/$variant/variant.json" '
        def r1: . * 10 | round / 10;
        def r4: . * 10000 | round / 10000;
        $a[0] as $a | $tr[0] as $t | $z[0] as $z
        | {cell: $cell, key: $key, zone_state: $state, zone_variant: $variant, profile: $profile, edns: $edns,
           algorithm: ($z.algorithm.name // null), ksk_bits: $z.ksk_bits, zsk_bits: $z.zsk_bits,
           denial: $z.denial, roll: ($z.roll // null),
           tracegen: $targs, queries: $sent, queries_planned: $n, pps: $pps, answers: $answers,
           trace_do_share: (if $t.queries > 0 then ($t.query_edns.do1 / $t.queries | r4) else null end),
           trace_no_opt_share: (if $t.queries > 0 then ($t.query_edns.no_opt / $t.queries | r4) else null end),
           bytes_in: $sin, bytes_out: $sout,
           bytes_per_query_in: (if $sent > 0 then ($sin / $sent | r1) else null end),
           bytes_per_query_out: (if $sent > 0 then ($sout / $sent | r1) else null end),
           frames_out_per_query: (if $sent > 0 then ($a.frames / $sent | r4) else null end),
           frames_in_per_query: (if $t.queries > 0 then ($t.frames / $t.queries | r4) else null end),
           responses: $a.responses, tc_responses: $a.tc_responses,
           answer_bytes: ($a.sizes.response_dns | {mean: (.mean | r1), median: .p50, p90: (.p90 // null), p99: (.p99 // null), max}),
           rcodes: $a.rcodes,
           dnskey: $dnskey, probes: $probes, size_model: ($z.size_model // null), flags: $flags, seconds: $secs,
           files: {answers_stats: "\($key)/answers.json", trace: ("traces/" + ($tdir | split("/") | last) + "/trace.pcap")}}' \
        >> "$WORK/cells.jsonl"
    rm -f "$d/answers.pcap"
    jq -r '"\(.cell): out \(.bytes_per_query_out) B/q, in \(.bytes_per_query_in) B/q, TC \(.tc_responses)/\(.responses), answered \(.answers)/\(.queries)"
           + (if (.flags | length) > 0 then "; FLAGGED: " + (.flags | join("; ")) else "" end)' <<<"$(tail -n 1 "$WORK/cells.jsonl")" >&2
}

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
    local q=(+dnssec +norec +time=2 +tries=3)
    "$TESTBED" exec player1 -- dig "${q[@]}" +tcp @"$SERVICE4" . DNSKEY > "$WORK/dnskey.tcp" \
        || die "no answer to '. DNSKEY' over TCP serving $1"
    "$TESTBED" exec player1 -- dig "${q[@]}" +ignore +bufsize=4096 @"$SERVICE4" . DNSKEY > "$WORK/dnskey.4096" \
        || die "no answer to '. DNSKEY' (UDP, 4096) serving $1"
    "$TESTBED" exec player1 -- dig "${q[@]}" +ignore +bufsize=1232 @"$SERVICE4" . DNSKEY > "$WORK/dnskey.1232" \
        || die "no answer to '. DNSKEY' (UDP, 1232) serving $1"
    # the record (rules.py dnskey_record): sizes, keys, signatures, TC
    "${RULES[@]}" dnskey "$WORK/dnskey.tcp" "$WORK/dnskey.4096" "$WORK/dnskey.1232" "$RB_TOP/zones/build/$1/variant.json" \
        || die "cannot read dig's DNSKEY answers serving $1"
}

# probes_json VARIANT: each roadmap answer (DO=1; the queries are
# rules.py's ROADMAP_QUERIES: the priming answer, the DNSKEY answer, a TLD
# referral and an NXDOMAIN) as the server sends it
# whole over TCP: its size (dig's MSG SIZE), rcode and records per section
# (rules.py probes_record); the DNSKEY answer's size is also predicted from
# the zone file (root_dnskey_answer_bytes), a check on the measurement.
# dig's output is kept as probes/<variant>/<answer>.txt in the
# experiment's directory.
probes_json() {
    local q name qname qtype out dir="$EXP_DIR/probes/$1" p qs=()
    mkdir -p "$dir"
    mapfile -t qs < <("${RULES[@]}" roadmap-queries)
    [ "${#qs[@]}" -gt 0 ] || die "cannot read the roadmap's queries (analysis/sizes-matrix/rules.py roadmap-queries)"
    for q in "${qs[@]}"; do
        IFS='|' read -r name qname <<<"$q"
        read -r qname qtype <<<"$qname"
        out=$("$TESTBED" exec player1 -- dig +dnssec +norec +tcp +time=2 +tries=3 @"$SERVICE4" "$qname" "$qtype") \
            || die "no answer to '$qname $qtype' over TCP serving $1"
        printf '%s\n' "$out" > "$dir/$name.txt"
    done
    p=$(root_dnskey_answer_bytes "$RB_TOP/zones/build/$1/root.zone")
    "${RULES[@]}" probes "$dir" "$1" "$p" || die "cannot read dig's answers serving $1"
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
    read -r si0 so0 <<<"$s0"; read -r si1 so1 <<<"$s1"
    rm -f "$d/answers.pcap.log"
    # the record (rules.py cell_record, which also flags a capture holding
    # other than one answer per query sent), its progress line on stderr
    local fl=() f
    for f in "${flags[@]+"${flags[@]}"}"; do fl+=("flag=$f"); done
    "${RULES[@]}" cell "$d/answers.json" "$tdir/trace.json" "$RB_TOP/zones/build/$variant/variant.json" \
        cell="$cell" key="$key" zone_state="$state" zone_variant="$variant" profile="$profile" edns="$edns" \
        tracegen="$(cat "$tdir/tracegen.args")" queries_planned="$MATRIX_QUERIES" sent="$sent" pps="$MATRIX_PPS" \
        answers="$((a1 - a0))" bytes_in="$((si1 - si0))" bytes_out="$((so1 - so0))" seconds="$(( $(date +%s) - t0 ))" \
        dnskey="$dnskey" probes="$probes" trace_dir="$tdir" "${fl[@]+"${fl[@]}"}" >> "$WORK/cells.jsonl" \
        || die "cannot record the cell $cell"
    rm -f "$d/answers.pcap"
}

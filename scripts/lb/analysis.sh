# analysis.sh: the stickiness check's evidence (scripts/lb/run sources it):
# the two servers' captures read for which sources reached which server,
# split connections and IPv6 flow labels, and the results files written
# by the rules (rules.jq).

# segments_to_service PCAP: "src sport syn isn label" for every
# client->server segment (syn 1 for a SYN without ACK, isn its sequence
# number (absolute: -S), "-" on a segment that has none, label the IPv6
# flow label as 0x and six hex digits, "-" over IPv4). Read by tcpdump -v,
# which continues an IPv4 packet on an indented line (tshark gave the same
# lines for a third of a second of CPU per capture).
segments_to_service() {
    tcpdump -r "$1" -n -S -v 'tcp dst port 53' 2>/dev/null | awk '
        function emit(l,   w, n, i, src, port, k, syn, isn, label) {
            n = split(l, w, " ")
            for (i = 2; i <= n; i++) if (w[i] == ">") break
            if (i > n) return
            src = w[i - 1]; k = match(src, /\.[0-9]+$/)
            if (!k) return
            port = substr(src, k + 1); src = substr(src, 1, k - 1)
            syn = (l ~ /Flags \[S\]/) ? 1 : 0
            isn = match(l, /seq [0-9]+/) ? substr(l, RSTART + 4, RLENGTH - 4) : "-"
            label = "-"
            if (match(l, /flowlabel 0x[0-9a-f]+/)) {
                label = substr(l, RSTART + 12, RLENGTH - 12)
                while (length(label) < 6) label = "0" label
                label = "0x" label
            }
            print src, port, syn, isn, label
        }
        /^[ \t]/ { line = line " " $0; next }
        { if (line != "") emit(line); line = $0 }
        END { if (line != "") emit(line) }'
}

# flow_label_json: over IPv6, what the captures say about the flow label
# and the router's hash (lb_flow_label in scripts/lb/rules.jq); null over
# IPv4.
flow_label_json() {
    [ "$IP_FAMILY" = ipv6 ] || { echo null; return; }
    local pol fields auto s
    # (the testbed's router; a lab's router is a device: not read)
    pol=$("$TESTBED" exec router -- sysctl -n net.ipv6.fib_multipath_hash_policy 2>/dev/null || echo "")
    fields=$("$TESTBED" exec router -- sysctl -n net.ipv6.fib_multipath_hash_fields 2>/dev/null || echo "")
    auto=$("$TESTBED" exec "$PLAYER" -- sysctl -n net.ipv6.auto_flowlabels 2>/dev/null || echo "")
    for s in server1 server2; do
        awk -v s="$s" '$3 == 1 { print "syn", s, $1, $5 } { print "seg", $1 "/" $2, $5 }' "$WORK/$s.seg"
    done | jq -R -s -L "$RULES_DIR" --arg lb "$LB" --arg pol "$pol" --arg fields "$fields" --arg auto "$auto" \
        'include "rules"; [split("\n")[] | select(length > 0) | split(" ")] | lb_flow_label($lb; $pol; $fields; $auto)'
}

# analyse_captures: per server the sources, the connections (a connection
# is a SYN: source, port and initial sequence number, so a port that dig
# happens to reuse later counts twice) and the (source, port) pairs; then
# the sources seen by both servers and the split connections: a (source,
# port) with segments at both servers. A balancer that hashes sends a
# reused port to the same server again, so a reuse cannot fake a split.
analyse_captures() {
    local s
    for s in server1 server2; do
        if [ -s "$EXP_DIR/$s.pcap" ]; then
            segments_to_service "$EXP_DIR/$s.pcap" > "$WORK/$s.seg"
        else
            : > "$WORK/$s.seg"
        fi
        awk '{print $1}' "$WORK/$s.seg" | sort -u > "$WORK/$s.sources"
        awk '{print $1 " " $2}' "$WORK/$s.seg" | sort -u > "$WORK/$s.pairs"
        awk '$3 == 1 {print $1, $2, $4}' "$WORK/$s.seg" | sort -u > "$WORK/$s.conns"
        awk '$3 == 1' "$WORK/$s.seg" | wc -l > "$WORK/$s.syns"
    done
    comm -12 "$WORK/server1.sources" "$WORK/server2.sources" > "$WORK/overlap"
    comm -12 "$WORK/server1.pairs" "$WORK/server2.pairs" > "$WORK/split"
    sort -u "$WORK/server1.conns" "$WORK/server2.conns" | wc -l > "$WORK/conns_total"
}

write_results() {
    local status=$1 finished dur
    finished=$(date -u +%FT%TZ)
    dur=$(awk -v a="$START_NS" -v b="$(now_ns)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    local ok refused reset timeout eof rcode other missing a1 a2
    read -r ok refused reset timeout eof rcode other missing a1 a2 <<<"$TOTALS"
    local failed=$(( refused + reset + timeout + eof + rcode + other + missing ))
    local overlap split conns
    overlap=$(wc -l < "$WORK/overlap"); split=$(wc -l < "$WORK/split"); conns=$(cat "$WORK/conns_total")

    local per_server
    per_server=$(for s in server1 server2; do
        jq -n --arg s "$s" --argjson src "$(wc -l < "$WORK/$s.sources")" \
            --argjson c "$(wc -l < "$WORK/$s.conns")" --argjson syn "$(cat "$WORK/$s.syns")" \
            --argjson seg "$(wc -l < "$WORK/$s.seg")" --arg stats "$(capture_stats "$s")" \
            '{($s): {sources:$src, connections:$c, syns:$syn, segments_in:$seg,
                     capture:($stats | split(" ") | {captured:(.[0]|tonumber? // null),
                        received:(.[1]|tonumber? // null), dropped:(.[2]|tonumber? // null)})}}'
    done | jq -s add)

    jq -n --arg schema "$SCHEMA" --arg status "$status" --arg started "$STARTED" --arg finished "$finished" \
        --slurpfile paper "$RB_TOP/analysis/paper.json" \
        --argjson dur "$dur" --arg lb "$LB" \
        --argjson testbed "$TB_JSON" --argjson host_speed "$(exp_host_speed_pair "$TB_JSON")" \
        --argjson sources "$MEASURED" --argjson planned "$SOURCES" --argjson m "$QUERIES" --argjson sent "$SENT" \
        --argjson ok "$ok" --argjson refused "$refused" --argjson reset "$reset" --argjson timeout "$timeout" \
        --argjson eof "$eof" --argjson rcode "$rcode" --argjson other "$other" --argjson missing "$missing" \
        --argjson failed "$failed" --argjson a1 "$a1" --argjson a2 "$a2" \
        --argjson per_server "$per_server" --argjson conns "$conns" \
        --argjson overlap "$overlap" --argjson overlap_sample "$(head -n "$SAMPLE" "$WORK/overlap" | jq -R . | jq -s .)" \
        --argjson split "$split" --argjson split_sample "$(head -n "$SAMPLE" "$WORK/split" | awk '{print $1 " port " $2}' | jq -R . | jq -s .)" \
        --argjson capture_ok "$([ -n "$CAPTURE_OK" ] && echo true || echo false)" \
        --argjson interrupted "$([ "$INTERRUPTED" = 1 ] && echo true || echo false)" \
        --argjson syns1 "$(cat "$WORK/server1.syns")" --argjson syns2 "$(cat "$WORK/server2.syns")" \
        --arg family "$IP_FAMILY" --arg player "$PLAYER" --arg block "$BLOCK" --argjson flow "$(flow_label_json)" \
        --arg first "$FIRST_ADDR" --arg last "$LAST_ADDR" --arg service "$SERVICE" \
        --arg dig "${DIG_CMD[*]:7} -b SOURCE @$SERVICE -f BATCH" --arg q "$QUERY_NAME $QUERY_CLASS $QUERY_TYPE" \
        -L "$RULES_DIR" 'include "rules";
        ({failed:$failed, sent:$sent, split:$split, capture_ok:$capture_ok, connections:$conns, answered:$ok,
          lb:$lb, family:$family, overlap:$overlap, interrupted:$interrupted, measured:$sources, planned:$planned,
          syns:{server1:$syns1, server2:$syns2}} | lb_verdict) as $v
        | {schema:$schema, experiment:"lb", family:($family | ltrimstr("ipv") | tonumber), status:$status, started:$started, finished:$finished,
         duration_s:$dur,
         settings:{lb:$lb, sources:$planned, queries_per_source:$m, family:$family, player:$player,
                   block:$block, first_source:$first, last_source:$last,
                   source_rule:"the block in order, without addresses ending in .0 or .255 (IPv4); PREFIX::1.. (IPv6)",
                   service:$service, query:$q, dig:$dig},
         testbed:$testbed, host_speed:$host_speed,
         lb:$lb, verdict:$v.verdict, reasons:$v.reasons, notes:$v.notes,
         sources:$sources, queries:$sent, queries_per_source:$m, answered:$ok,
         failed:{total:$failed, refused:$refused, reset:$reset, timeout:$timeout, eof:$eof,
                 rcode:$rcode, other:$other, missing:$missing},
         answered_by:{server1:$a1, server2:$a2},
         per_server:$per_server, connections:$conns,
         overlap_sources:{count:$overlap, sample:$overlap_sample},
         split_connections:{count:$split, sample:$split_sample},
         flow_label:$flow,
         paper:$paper[0].lb}' \
        | results_write_json "$EXP_DIR/summary.json"
    render_report "$EXP_DIR/summary.json" | results_write "$EXP_DIR/report.txt"
    cat "$EXP_DIR/report.txt"
}

# render_report SUMMARY: the text report (lb_report_text).
render_report() { jq -r -L "$RULES_DIR" 'include "rules"; lb_report_text' "$1"; }

# outputs.sh: the sizes experiment's results files (analysis/sizes/run
# sources it): summary.json, the per-variant tables and their plots.

# variants_json: the runs as {key: {...}}, growth filled in from "unsigned".
variants_json() {
    [ -s "$WORK/runs.jsonl" ] || { echo '{}'; return; }
    jq -s '
        (map(select(.key == "unsigned")) | .[0].bytes_per_query_out // null) as $u
        | map(.growth_vs_unsigned = (if $u == null or $u == 0 or .bytes_per_query_out == null then null
                                     else ((.bytes_per_query_out - $u) / $u * 10000 | round / 10000) end))
        | map({key: .key, value: del(.key)}) | from_entries' "$WORK/runs.jsonl"
}

# write_summary STATUS [ERROR]
write_summary() {
    local status=$1 err=${2:-}
    jq -n --arg schema "$SCHEMA" --arg status "$status" --arg err "$err" \
        --arg started "$STARTED" --arg finished "$(date -u +%FT%TZ)" \
        --argjson settings "$SETTINGS_JSON" --argjson testbed "$TESTBED_JSON" \
        --argjson host_speed "$(exp_host_speed_pair "$TESTBED_JSON")" \
        --argjson variants "$(variants_json)" \
        --slurpfile paper "$RB_TOP/analysis/paper.json" \
        --argjson trace "$( [ -f "$EXP_DIR/trace/trace.json" ] && jq -c '{queries, no_opt: .query_edns.no_opt, do_bit: .query_edns.do1}' "$EXP_DIR/trace/trace.json" || echo null)" '
        {schema: $schema, experiment: "sizes", family: $settings.family, status: $status}
        + (if $err == "" then {} else {error: $err} end)
        + {started: $started, finished: $finished, settings: $settings, testbed: $testbed, host_speed: $host_speed,
           variants: $variants,
           flagged: [$variants | to_entries[] | select((.value.flags | length) > 0) | .key],
           table4_method: "answer_opt: the answer'"'"'s own OPT record and DO bit (the Listener sees answers only); no_dnssec_matched_query: the matching query'"'"'s, from the capture of router-s'"'"'s traffic (settings.port_capture)",
           trace: $trace,
           paper: ($paper[0].sizes | {section, growth_vs_unsigned, no_dnssec,
                   tests: [.tests | to_entries[] | {test: .key} + .value]})}' \
        | results_write_json "$EXP_DIR/summary.json"
}

# write_tables: the CSV tables and the figure from the runs' reports.
write_tables() {
    local v; v=$(variants_json)
    jq -r '"# variant,zone_variant,queries,bytes_in,bytes_out,bytes_per_query_in,bytes_per_query_out,growth_vs_unsigned,answered,snmp_capture_in_ratio,snmp_capture_out_ratio,accounting_pass",
        (to_entries[] | .key as $k | .value | [$k, .zone_variant, .queries, .bytes_in, .bytes_out,
          .bytes_per_query_in, .bytes_per_query_out, (.growth_vs_unsigned // ""), (if .answered then 1 else 0 end),
          .snmp_vs_capture.in_ratio, .snmp_vs_capture.out_ratio, (if .snmp_vs_capture.pass then 1 else 0 end)] | map(tostring) | join(","))' \
        <<<"$v" > "$WORK/t2"
    # the paper's Table 2 rows, for comparison
    jq -r '.sizes.tests | to_entries[] | .value | ["paper " + .label, "paper", .queries, .bytes_in, .bytes_out,
          .bytes_per_query_in, .bytes_per_query_out, "", "", "", "", ""] | map(tostring) | join(",")' \
        "$RB_TOP/analysis/paper.json" >> "$WORK/t2"
    results_write "$EXP_DIR/table2_bytes.csv" < "$WORK/t2"

    jq -r '"# variant,rcode,responses,share",
        (to_entries[] | .key as $k | .value | .responses as $n | .rcodes | to_entries[]
          | [$k, .key, .value, (.value / $n * 10000 | round / 10000)] | map(tostring) | join(","))' <<<"$v" \
        | results_write "$EXP_DIR/table3_rcodes.csv"

    local key
    {
        echo "# variant,method,rcode,responses,no_opt,do0,do1,no_opt_or_do0_share"
        for key in $(jq -r 'keys_unsorted[]' <<<"$v"); do
            jq -r --arg k "$key" '
                def row($m; $rc; $n; $e): [$k, $m, $rc, $n, $e.no_opt, $e.do0, $e.do1,
                    (if $n > 0 then (($e.no_opt + $e.do0) / $n * 10000 | round / 10000) else "" end)] | map(tostring) | join(",");
                .edns_by_rcode as $e
                | (($e | to_entries[] | row("answer_opt"; .key; .value.responses; .value.answer)),
                   row("answer_opt"; "ALL"; ([$e[].responses] | add);
                       {no_opt: ([$e[].answer.no_opt] | add), do0: ([$e[].answer.do0] | add), do1: ([$e[].answer.do1] | add)}))' \
                "$EXP_DIR/$key/answers.json"
            jq -r --arg k "$key" '
                def row($m; $rc; $n; $e): [$k, $m, $rc, $n, $e.no_opt, $e.do0, $e.do1,
                    (if $n > 0 then (($e.no_opt + $e.do0) / $n * 10000 | round / 10000) else "" end)] | map(tostring) | join(",");
                .edns_by_rcode as $e
                | (($e | to_entries[] | row("matched_query"; .key; .value.query.matched; .value.query)),
                   row("matched_query"; "ALL"; ([$e[].query.matched] | add);
                       {no_opt: ([$e[].query.no_opt] | add), do0: ([$e[].query.do0] | add), do1: ([$e[].query.do1] | add)}))' \
                "$EXP_DIR/$key/port.json"
        done
    } | results_write "$EXP_DIR/table4_no_dnssec.csv"

    local tj="$EXP_DIR/trace/trace.json"
    jq -r '.queries as $q | .query_edns as $e
        | "# udp_size,queries,share_of_edns_queries,share_of_all_queries",
          (($e.udp_sizes | [to_entries[] | .value] | add) as $ne
           | ($e.udp_sizes | to_entries | sort_by(-.value)[]
              | [.key, .value, (.value / $ne * 10000 | round / 10000), (.value / $q * 10000 | round / 10000)] | map(tostring) | join(","))),
          (["no_opt", $e.no_opt, "", ($e.no_opt / $q * 10000 | round / 10000)] | map(tostring) | join(","))' "$tj" \
        | results_write "$EXP_DIR/table5_edns_sizes.csv"
    jq -r '.queries as $q | "# qtype,queries,share",
        (.qtypes | to_entries | sort_by(-.value)[] | [.key, .value, (.value / $q * 10000 | round / 10000)] | map(tostring) | join(","))' "$tj" \
        | results_write "$EXP_DIR/qtypes.csv"

    write_reply_sizes "$v"
    plot_sizes
}

# write_reply_sizes VARIANTS_JSON: reply_sizes.csv, one column per run:
# the share of its answers (DNS message length) in each bin.
write_reply_sizes() {
    local keys files=() k
    keys=$(jq -r 'keys_unsorted | join(" ")' <<<"$1")
    for k in $keys; do files+=("$EXP_DIR/$k/answers.json"); done
    answer_size_table "$EXP_DIR/reply_sizes.csv" "$keys" "${files[@]}"
}

# plot_sizes: sizes.png, .svg and .pdf from reply_sizes.csv (analysis/sizes/sizes.gp).
plot_sizes() {
    local titles n
    titles=$(head -n 1 "$EXP_DIR/reply_sizes.csv" | sed 's/^# size_lo,//; s/,/ /g')
    n=$(wc -w <<<"$titles")
    local xmax ymax
    # the same axes in every panel, so the runs compare at a glance
    read -r xmax ymax < <(awk -F, -v b="$SIZES_BIN" '!/^#/ { if ($1 + b > x) x = $1 + b; for (i = 2; i <= NF; i++) if ($i > y) y = $i }
        END { printf "%d %.4f\n", x, y * 100 * 1.05 }' "$EXP_DIR/reply_sizes.csv")
    plot_render "$RB_TOP/analysis/sizes/sizes.gp" "$EXP_DIR/sizes" \
        "datafile='$EXP_DIR/reply_sizes.csv'; titles='$titles'; n=$n; binw=$SIZES_BIN; xmax=$xmax; ymax=$ymax"
}

# outputs.sh: the sizing matrix's results files (analysis/sizes-matrix/run
# sources it): summary.json with the derived checks (rules.py), the tables
# and the plot.

# derived: the summary's {cells, checks, roadmap} from the measured cells
# (the rules: rules.py, the roadmap's roadmap.py), into $WORK/derived.json.
# Cells and results go through files: with the roadmap's answers a
# matrix's JSON outgrows what one command-line argument may hold.
derived() {
    [ -s "$WORK/cells.jsonl" ] || : > "$WORK/cells.jsonl"
    "${RULES[@]}" derive "$WORK/cells.jsonl" "$LINKS_JSON" "$CEILING_JSON" "$TCP_JSON" "$SETTINGS_JSON" \
        > "$WORK/derived.json" || die "the matrix's rules failed on the measured cells"
}

write_summary() {
    local status=$1 err=${2:-}
    derived
    jq -n --arg schema "$SCHEMA" --arg status "$status" --arg err "$err" \
        --arg started "$STARTED" --arg finished "$(date -u +%FT%TZ)" \
        --argjson settings "$SETTINGS_JSON" --argjson testbed "$TESTBED_JSON" \
        --argjson host_speed "$(exp_host_speed_pair "$TESTBED_JSON")" \
        --argjson ceiling "$CEILING_JSON" --argjson tcp "$TCP_JSON" --argjson links "$LINKS_JSON" --slurpfile d "$WORK/derived.json" '
        $d[0] as $d
        | {schema: $schema, experiment: "sizes-matrix", status: $status}
        + (if $err == "" then {} else {error: $err} end)
        + {started: $started, finished: $finished, settings: $settings, testbed: $testbed, host_speed: $host_speed,
           server_udp_ceiling: $ceiling, server_tcp_capacity: $tcp, links_bps: $links,
           cells: $d.cells, checks: $d.checks, roadmap: $d.roadmap,
           flagged: [$d.cells[] | select((.flags | length) > 0) | .cell]}' \
        | results_write_json "$EXP_DIR/summary.json"
}

# rederive: the rules applied again to a finished run's measured cells,
# with the server ceiling its results directory holds now (a udp-unshaped
# run made after the matrix); the measured values are left as they are.
rederive() {
    local s="$EXP_DIR/summary.json" run
    jq -e '.schema == "rootbench.sizes-matrix/1"' "$s" >/dev/null || die "$s is not a sizes-matrix summary"
    run=$(dirname "$EXP_DIR")
    RB_RUN=$run read_ceiling "$run"
    RB_RUN=$run read_tcp_capacity "$run"
    SETTINGS_JSON=$(jq -c .settings "$s")
    jq -c '[.cells[] | del(.tc_share, .answered_share, .links, .breakeven_link_bps)]' "$s" \
        | jq -c '.[]' > "$WORK/cells.jsonl"
    derived
    jq --argjson ceiling "$CEILING_JSON" --argjson tcp "$TCP_JSON" --slurpfile d "$WORK/derived.json" '
        $d[0] as $d
        | .server_udp_ceiling = $ceiling | .server_tcp_capacity = $tcp
        | .cells = $d.cells | .checks = $d.checks | .roadmap = $d.roadmap
        | .rederived = (now | todate)' "$s" | results_write_json "$s"
}

# write_tables: the #-headed CSV tables (rules.py's: cells, bytes_by_zone,
# tc_by_edns, crossover, dnskey, roadmap) and the figures, from summary.json.
write_tables() {
    "${RULES[@]}" tables "$EXP_DIR/summary.json" "$EXP_DIR" "$BASE_PROFILE" "$BASE_EDNS" \
        || die "cannot write the tables of $EXP_DIR"
    write_answer_sizes
    plot_matrix
}

# write_answer_sizes: answer_sizes.csv, one column per cell: the share of
# its answers (DNS message length) in each bin.
write_answer_sizes() {
    local keys files=() k
    keys=$(jq -r '[.cells[] | .key] | join(" ")' "$EXP_DIR/summary.json")
    for k in $keys; do files+=("$EXP_DIR/$k/answers.json"); done
    answer_size_table "$EXP_DIR/answer_sizes.csv" "$keys" "${files[@]}"
}

# plot_matrix: the three figures from the tables (analysis/sizes-matrix/sizes-matrix.gp).
plot_matrix() {
    local fig zs ceil pu ps
    zs=$(head -n 1 "$EXP_DIR/tc_by_edns.csv" | sed 's/^# idx,edns,\{0,1\}//; s/,/ /g')
    ceil=$(jq -r '.server_udp_ceiling | if .qps then "\(.qps) queries/s" else "not measured" end' "$EXP_DIR/summary.json")
    # the paper's bytes per query out (unsigned, signed), marked on bytes_by_zone
    read -r pu ps < <(jq -r '[.sizes.tests.unsigned.bytes_per_query_out, .sizes.tests.signed.bytes_per_query_out] | map(. // 0 | tostring) | join(" ")' "$RB_TOP/analysis/paper.json")
    for fig in bytes_by_zone tc_by_edns crossover roadmap; do
        [ "$(grep -vc '^#' "$EXP_DIR/$fig.csv")" -gt 0 ] || { rm -f "$EXP_DIR/$fig".{png,svg,pdf}; continue; }
        plot_render "$RB_TOP/analysis/sizes-matrix/sizes-matrix.gp" "$EXP_DIR/$fig" \
            "fig='$fig'; datafile='$EXP_DIR/$fig.csv'; zs='$zs'; ceil='$ceil'; paper_unsigned=$pu; paper_signed=$ps" \
            1000 "$([ "$fig" = crossover ] && echo 680 || echo 560)"
    done
}

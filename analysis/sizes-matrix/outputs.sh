# outputs.sh: the sizing matrix's results files (analysis/sizes-matrix/run
# sources it): summary.json with the derived checks (rules.jq), the tables
# and the plot.

# derived: the summary's {cells, checks, roadmap} from the measured cells
# (the rules; the roadmap's in roadmap.jq), into $WORK/derived.json. Cells
# and results go through files: with the roadmap's answers a matrix's JSON
# outgrows what one command-line argument may hold.
derived() {
    [ -s "$WORK/cells.jsonl" ] || : > "$WORK/cells.jsonl"
    jq -s -L "$RULES_DIR" -L "$RULES_LIB" --argjson links "$LINKS_JSON" --argjson ceiling "$CEILING_JSON" \
        --argjson tcp "$TCP_JSON" --argjson settings "$SETTINGS_JSON" \
        'include "rules"; include "roadmap";
         matrix_summary($links; $ceiling)
         | . + {roadmap: (.cells | roadmap($tcp; $settings.roadmap_rate_qps // 100000; $settings.roadmap_tcp_cpus // 1))}' \
        "$WORK/cells.jsonl" > "$WORK/derived.json"
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
    jq -L "$RULES_DIR" -L "$RULES_LIB" --argjson ceiling "$CEILING_JSON" --argjson tcp "$TCP_JSON" --slurpfile d "$WORK/derived.json" '
        $d[0] as $d
        | .server_udp_ceiling = $ceiling | .server_tcp_capacity = $tcp
        | .cells = $d.cells | .checks = $d.checks | .roadmap = $d.roadmap
        | .rederived = (now | todate)' "$s" | results_write_json "$s"
}

# write_tables: the #-headed CSV tables and the figures, from summary.json.
write_tables() {
    local s="$EXP_DIR/summary.json"
    jq -r '"# cell,zone_state,zone_variant,profile,edns,queries,answers,bytes_per_query_in,bytes_per_query_out,tc_share,answer_mean,answer_median,answer_max,dnskey_bytes,link_qps_100m,link_qps_1g,link_qps_10g,first_ceiling_100m,first_ceiling_1g,first_ceiling_10g",
        (.cells[] | [.cell, .zone_state, .zone_variant, .profile, .edns, .queries, .answers, .bytes_per_query_in, .bytes_per_query_out,
          (.tc_share // ""), .answer_bytes.mean, .answer_bytes.median, .answer_bytes.max, (.dnskey.bytes // ""),
          (.links[0].link_qps // ""), (.links[1].link_qps // ""), (.links[2].link_qps // ""),
          .links[0].first_ceiling, .links[1].first_ceiling, .links[2].first_ceiling] | map(tostring) | join(","))' "$s" \
        | results_write "$EXP_DIR/cells.csv"
    # bytes per query by zone state (the baseline profile and buffer where
    # present, else the zone state's first cell), in groups: today's root,
    # the matrix's zone variants, the algorithm roll in its order, the
    # control, the size models (roadmap.jq's kinds); the tic names each
    # state with its group
    jq -r -L "$RULES_DIR" --arg bp "$BASE_PROFILE" --arg be "$BASE_EDNS" '
        include "roadmap";
        ([roadmap_phases | to_entries[] | {(.value.state): {kind: .value.kind, order: .key}}] | add) as $ph
        | def group: ($ph[.] // null) as $x
            | if . == "root" then {rank: 0, name: "today", order: 0}
              elif $x == null then {rank: 1, name: "variant", order: 0}
              elif $x.kind == "roll" then {rank: 2, name: "roll", order: $x.order}
              elif $x.kind == "control" then {rank: 3, name: "control", order: $x.order}
              else {rank: 4, name: "size model", order: $x.order} end;
        "# idx,zone_state,profile,edns,bytes_per_query_in,bytes_per_query_out,dnskey_bytes,group,tic",
        ([.cells | group_by(.zone_state)[] | (map(select(.profile == $bp and .edns == $be)) + .)[0]]
         | map(. + {g: (.zone_state | group)}) | sort_by(.g.rank, .g.order, .bytes_per_query_out) | to_entries[]
         | [.key, .value.zone_state, .value.profile, .value.edns, .value.bytes_per_query_in, .value.bytes_per_query_out, (.value.dnskey.bytes // ""),
            .value.g.name, "\(.value.g.name): \(.value.zone_state)"]
         | map(tostring) | join(","))' "$s" | results_write "$EXP_DIR/bytes_by_zone.csv"
    # TC share by buffer: one row per buffer, one column per zone state
    # (baseline profile) measured at more than one buffer (else every state)
    jq -r --arg bp "$BASE_PROFILE" '
        [.cells[] | select(.profile == $bp)] as $c
        | ([$c[] | .zone_state] | unique) as $all
        | ([$all[] as $z | select([$c[] | select(.zone_state == $z) | .edns] | unique | length > 1) | $z]) as $multi
        | (if ($multi | length) > 0 then $multi else $all end) as $zs
        | ["trace", "512", "1232", "4096"] as $es
        | "# idx,edns," + ($zs | join(",")),
          ($es | to_entries[] | .key as $i | .value as $e
           | select([$c[] | select(.edns == $e)] | length > 0)
           | [$i, $e] + [$zs[] as $z | ([$c[] | select(.zone_state == $z and .edns == $e) | .tc_share][0] // "")]
           | map(tostring) | join(","))' "$s" | results_write "$EXP_DIR/tc_by_edns.csv"
    # crossover rate (query-bound -> byte-bound) per link speed and cell
    jq -r '"# idx,cell,server_ceiling_qps,link_qps_100m,link_qps_1g,link_qps_10g,crossover_qps_100m,crossover_qps_1g,crossover_qps_10g,breakeven_link_bps",
        (.server_udp_ceiling.qps // "") as $c
        | (.cells | to_entries[] | .key as $i | .value
           | [$i, .cell, $c, .links[0].link_qps, .links[1].link_qps, .links[2].link_qps,
              (.links[0].crossover_qps // ""), (.links[1].crossover_qps // ""), (.links[2].crossover_qps // ""), (.breakeven_link_bps // "")]
           | map(tostring) | join(","))' "$s" | results_write "$EXP_DIR/crossover.csv"
    jq -r '"# zone_state,zone_variant,dnskey_bytes,dnskeys,rrsigs,udp_4096_tc,udp_1232_tc,keytags",
        ([.cells[] | select(.dnskey != null)] | unique_by(.zone_state)[]
         | [.zone_state, .zone_variant, .dnskey.bytes, .dnskey.dnskeys, .dnskey.rrsigs, (if .dnskey.udp_4096.tc then 1 else 0 end),
            (if .dnskey.udp_1232.tc then 1 else 0 end), ([.dnskey.keys[] | "\(.role):\(.keytag)"] | join(" "))] | map(tostring) | join(","))' "$s" \
        | results_write "$EXP_DIR/dnskey.csv"
    write_answer_sizes
    write_roadmap_table
    plot_matrix
}

# write_roadmap_table: roadmap.csv, one row per roadmap state measured (the
# roll's order, then the control and the size models): its four answers'
# sizes, TC shares at 1232 and the TCP connections/s they ask for.
write_roadmap_table() {
    jq -r '"# idx,state,kind,priming_bytes,dnskey_bytes,referral_bytes,nxdomain_bytes,tc_share_mix,tc_share_do100,bytes_per_query_out_mix,tcp_conn_needed,tcp_cpus_needed",
        ([.roadmap.phases[]? | select(.measured)] | to_entries[] | .key as $i | .value
         | [$i, .state, .kind] + [.answers[] | .bytes]
           + [(.tc_share_mix // ""), (.tc_share_do100 // ""), (.bytes_per_query_out_mix // ""), (.tcp_conn_needed // ""), (.tcp_cpus_needed // "")]
         | map(tostring) | join(","))' "$EXP_DIR/summary.json" | results_write "$EXP_DIR/roadmap.csv"
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

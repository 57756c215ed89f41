# summary.sh: the TCP sweep's results files (tcpbench/sweep/run sources
# it): each configuration's summary.json and points.csv, and the sweep's
# summary.json, all by the rules of rules.jq.

# config_summary CONFIG STATUS: <config>/summary.json from its points.
config_summary() {
    local cfg=$1 status=$2 dir="$EXP_DIR/$1"
    jq -s -c . "$dir/points.jsonl" | results_write_json "$dir/points.json"
    jq -n "${JQ_LIB[@]}" --arg cfg "$cfg" --arg status "$status" --arg title "$(config_title "$cfg")" \
        --argjson s "$(rules_settings "$cfg")" --argjson notes "$(printf '%s\n' "${SEARCH_NOTES[@]+"${SEARCH_NOTES[@]}"}" | jq -R -s -c 'split("\n") | map(select(length > 0))')" \
        --slurpfile pts "$dir/points.json" --slurpfile byrep <(jq -s -c . "$dir/points-by-rep.jsonl") \
        --slurpfile idle <(cat "$dir/probe-idle.json" 2>/dev/null || true) --argjson players "$(config_players_json "$cfg")" '
        include "rules"; $pts[0] | config_summary($cfg; ($ENV.FAMILY | tonumber); $status; $title; $s; $notes; $byrep[0]; $idle[0] // null)
        + {players: $players}' | results_write_json "$dir/summary.json"
    # The tables gnuplot and the report read.
    { echo "# $(jq -r -n "${JQ_LIB[@]}" 'include "point"; point_csv_columns | join(",")')"
      jq -r "${JQ_LIB[@]}" 'include "point"; sort_by(.offered_rate)[] | point_csv_row' "$dir/points.json"
    } | results_write "$dir/points.csv"
}

# config_players_json CONFIG: its players, each one's sources, and the
# worst start skew of its runs (players.jq players_sweep; a run's start is
# in its record, runs/*.json).
config_players_json() {
    local dir="$EXP_DIR/$1" f files=()
    for f in "$dir"/runs/*.json; do [ ! -s "$f" ] || files+=("$f"); done
    jq -n -c -L "$RB_TOP/scripts/lib" --argjson blocks "$TCP_SRC_BLOCKS" --arg ps "$(config_pairs "$1" | awk '{ print $1 }')" \
        --argjson lead "$(if [ "$(jq -r '.backend // "netns"' "$WORK/testbed.json")" = lab ]; then echo "$PLAYERS_LEAD_S"; else echo null; fi)" '
        include "players";
        players_sweep([$ps | split("\n")[] | select(length > 0) | {player: ., sources: $blocks[.], shared: false}];
                      $lead; [inputs | .start | select(. != null)])' "${files[@]+"${files[@]}"}" < /dev/null
}

# write_top_summary STATUS [ERROR]
write_top_summary() {
    local status=$1 err=${2:-} files=() cfg
    for cfg in "${DONE_CONFIGS[@]+"${DONE_CONFIGS[@]}"}"; do files+=("$EXP_DIR/$cfg/summary.json"); done
    jq -n "${JQ_LIB[@]}" --arg schema "$SCHEMA" --arg status "$status" --arg err "$err" --arg started "$STARTED" --arg fin "$(date -u +%FT%TZ)" \
        --argjson settings "$SETTINGS_JSON" --slurpfile tb "$WORK/testbed.json" \
        --argjson host_speed "$(exp_host_speed_pair "$(cat "$WORK/testbed.json")")" \
        --argjson syns_by "$KXG_SYNS_COUNTED_BY" \
        --slurpfile cs <(if [ "${#files[@]}" -gt 0 ]; then jq -s -c . "${files[@]}"; else echo '[]'; fi) '
        include "rules"; $cs[0] | top_summary($schema; $status; $err; $started; $fin; $settings; $tb[0])
            + {host_speed: $host_speed, counted_by: tcp_counted_by($settings.generator.name; $syns_by)}' \
        | results_write_json "$EXP_DIR/summary.json"
}

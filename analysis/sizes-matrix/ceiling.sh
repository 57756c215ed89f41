# ceiling.sh: what the sizing matrix (analysis/sizes-matrix/run sources it)
# reads from other experiments of a results directory: the server's
# unshaped UDP ceiling (udp-unshaped) and its TCP capacity per CPU (tcp).

# read_ceiling [DIR]: CEILING_JSON from DIR/udp-unshaped/summary.json
# (default MATRIX_CEILING_RUN, else RB_RUN): the server's unshaped UDP
# ceiling, or qps null ("not measured") when that experiment did not run,
# failed or found none. Never a number of our own.
read_ceiling() {
    local dir=${1:-${MATRIX_CEILING_RUN:-$RB_RUN}} f
    f="$dir/udp-unshaped/summary.json"
    if [ ! -f "$f" ]; then
        CEILING_JSON=$(jq -n --arg f "$f" '{qps: null, status: "not measured", source: null,
            note: "no udp-unshaped results in this results directory (\($f)): run make udp UDP_LINK=none UDP_NAME=udp-unshaped, or make bench"}')
        return 0
    fi
    # A ceiling measured under a server CPU budget (UDP_SERVER_CPU, SERVER_CPU)
    # is the budget's, not the instance's: recorded, never compared with a link.
    CEILING_JSON=$(jq -c --arg f "${f#"$dir"/}" --arg dir "$dir" '
        (.testbed.server.cpu_budget.budget // null) as $budget
        | if $budget != null and .status == "ok" and .ceiling_qps != null then
            {qps: null, budgeted_qps: .ceiling_qps, budget: $budget,
             status: "not used (udp-unshaped ran with its servers limited to \($budget) CPU each: the budget'"'"'s ceiling, not the instance'"'"'s)",
             source: (if $dir == env.RB_RUN then $f else "\($dir)/\($f)" end)}
          else
        {qps: (if .status == "ok" then .ceiling_qps else null end),
         low_qps: (if .status == "ok" then (.ceiling_low_qps // null) else null end),
         high_qps: (if .status == "ok" and .ceiling_qps != null then (.ceiling_high_qps // null) else null end),
         status: (if .status != "ok" then "not measured (udp-unshaped \(.status))"
                  elif .ceiling_qps == null then "not measured (udp-unshaped found no ceiling: \(.ceiling // "?"))"
                  else "measured" end),
         caused_by: (.verdict.caused_by // null),
         source: (if $dir == env.RB_RUN then $f else "\($dir)/\($f)" end),
         zone: (.testbed.zones.variant // (.testbed.zones.dir // null | if . then split("/") | last else null end)),
         note: (if .status == "ok" and .ceiling_qps != null and (.verdict.caused_by // "") != "server"
                then "the unshaped ceiling was set by \(.verdict.caused_by // "an undetermined layer"), not shown to be the server'"'"'s: a lower bound of the server'"'"'s"
                else null end)} end' "$f") || die "cannot read $f"
}

# read_tcp_capacity [DIR]: TCP_JSON, the server's TCP capacity per CPU
# from DIR/tcp/summary.json (default MATRIX_CEILING_RUN, else RB_RUN), as
# roadmap.jq's tcp_capacity reads it ("not measured" without one).
read_tcp_capacity() {
    local dir=${1:-${MATRIX_CEILING_RUN:-$RB_RUN}} f
    f="$dir/tcp/summary.json"
    if [ ! -f "$f" ]; then
        TCP_JSON=$(jq -n -c -L "$RULES_DIR" 'include "roadmap"; null | tcp_capacity(null)')
        return 0
    fi
    TCP_JSON=$(jq -c -L "$RULES_DIR" --arg f "${f#"$dir"/}" 'include "roadmap"; tcp_capacity($f)' "$f") \
        || die "cannot read $f"
}

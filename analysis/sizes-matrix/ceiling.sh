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
    # read through udp's accessors (their schema checked), by the matrix's
    # rules (rules.jq server_ceiling)
    CEILING_JSON=$(jq -c -L "$RULES_DIR" -L "$RB_TOP/scripts/lib" \
        --arg shown "$(if [ "$dir" = "${RB_RUN:-}" ]; then echo "${f#"$dir"/}"; else echo "$f"; fi)" \
        'include "rules"; server_ceiling($shown)' "$f") || die "cannot read $f"
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

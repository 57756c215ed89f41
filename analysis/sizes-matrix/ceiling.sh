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
    # read through udp's schema check, by the matrix's rules (rules.py
    # server_ceiling); no summary: not measured
    CEILING_JSON=$("${RULES[@]}" ceiling "$f" \
        "$(if [ "$dir" = "${RB_RUN:-}" ]; then echo "${f#"$dir"/}"; else echo "$f"; fi)") || die "cannot read $f"
}

# read_tcp_capacity [DIR]: TCP_JSON, the server's TCP capacity per CPU
# from DIR/tcp/summary.json (default MATRIX_CEILING_RUN, else RB_RUN), as
# roadmap.py's tcp_capacity reads it ("not measured" without one).
read_tcp_capacity() {
    local dir=${1:-${MATRIX_CEILING_RUN:-$RB_RUN}} f
    f="$dir/tcp/summary.json"
    TCP_JSON=$("${RULES[@]}" tcp-capacity "$f" "${f#"$dir"/}") || die "cannot read $f"
}

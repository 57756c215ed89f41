# probe-plot.sh: the probe's latency figure of a sweep (docs/latency.md),
# drawn by scripts/lib/probe-latency.gp from the sweep's summary.json
# probe block; the UDP and TCP sweeps' plot scripts call probe_plot.
# Source after common.sh and plot.sh.

# probe_plot SUMMARY OUTBASE TITLE UNIT: OUTBASE.{png,svg,pdf}, the probe's
# median and p99 latency (UDP and TCP) against the sweep's offered load
# (in UNIT), with RSSAC047's thresholds as the summary's probe.rssac047
# holds them (else analysis/rssac047.json's) and its ceiling; nothing
# when there is no summary or it has no probe block (PROBE=off, or an
# older sweep); a probe block of another schema is refused (probe.jq).
probe_plot() {
    local summary=$1 out=$2 ttl=$3 unit=$4 data counts vars rc=0
    [ -s "$summary" ] || return 0
    jq -e '(.probe | type) == "object"' "$summary" >/dev/null 2>&1 || return 0
    data=$(mktemp /tmp/rb-probe-plot.XXXXXX)
    jq -r -L "$RB_TOP/scripts/lib" 'include "probe"; probe_plot_rows(.probe)' "$summary" > "$data" \
        || { rm -f "$data"; die "probe_plot: the probe block of $summary is not readable (scripts/lib/probe.jq)"; }
    counts=$(jq -r -L "$RB_TOP/scripts/lib" 'include "probe"; probe_plot_counts(.probe)' "$summary")
    vars=$(jq -r -L "$RB_TOP/scripts/lib" 'include "probe";
        (.probe.rssac047.thresholds // null) as $t | probe_thresholds as $f
        | "thr_udp=\($t.udp_latency_ms // $f.latency_ms_max.udp); thr_tcp=\($t.tcp_latency_ms // $f.latency_ms_max.tcp); "
          + "timeout=\($t.timeout_ms // $f.timeout_ms); ceil=\(.probe.ceiling // 0)"' "$summary")
    if [ "$counts" = "0 0 0 0" ]; then rm -f "$data"; log "probe_plot: no latency measured in $summary: no figure"; return 0; fi
    ( plot_render "$RB_TOP/scripts/lib/probe-latency.gp" "$out" \
        "datafile='$data'; counts='$counts'; ttl='${ttl//\'/}'; unit='$unit'; $vars" ) || rc=$?
    rm -f "$data"
    [ "$rc" -eq 0 ] || die "probe_plot: the latency figure $out failed"
}

# probe-sweep.sh: what a sweep adds to the RSSAC047 probe's result of a
# point (scripts/lib/probe.sh runs the probe): the probe's queries and
# connections as the router counted them (probe-sweep.jq).

# probe_counted_at_router FILE BEFORE AFTER: adds counted_at_router to the
# probe's result FILE from two `scripts/testbed counters` objects (JSON
# strings); nothing when the probe did not run (PROBE=off, no FILE).
probe_counted_at_router() {
    local f=$1
    [ -s "$f" ] || return 0
    jq -c -L "$RB_TOP/scripts/lib" --argjson a "$2" --argjson b "$3" \
        'include "probe-sweep"; . + {counted_at_router: probe_router_count($a; $b)}' "$f" > "$f.tmp" \
        && mv "$f.tmp" "$f" || die "cannot add the router's count to the probe's result $f"
}

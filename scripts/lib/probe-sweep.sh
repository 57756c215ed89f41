# probe-sweep.sh: what a sweep adds to the RSSAC047 probe's result of a
# point (scripts/lib/probe.sh runs the probe): the probe's queries and
# connections as the router or the servers counted them (probe-sweep.jq).

# probe_counted FILE BEFORE AFTER: adds to the probe's result FILE its
# queries and connections as counted apart between two `scripts/testbed
# counters` objects (JSON strings): at the router (counted_at_router, the
# namespace testbed), else at the servers (counted_at_servers, a lab);
# nothing when the probe did not run (PROBE=off, no FILE).
probe_counted() {
    local f=$1
    [ -s "$f" ] || return 0
    jq -c -L "$RB_TOP/scripts/lib" --argjson a "$2" --argjson b "$3" \
        'include "probe-sweep"; . + probe_counted($a; $b)' "$f" > "$f.tmp" \
        && mv "$f.tmp" "$f" || die "cannot add the count of the probe's queries to its result $f"
}

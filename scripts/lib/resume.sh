# resume.sh: resuming an interrupted sweep without losing or redoing a point.
#
# A sweep journals every point it completes (one JSON line each, appended
# atomically) and records, in <experiment>/resume.json, what its points
# depend on (settings, testbed). A rate search is deterministic given the
# points it has seen, so a resumed sweep replays the search: a rate the
# journal holds complete is taken from it (its raw files are left as they
# are: not measured again), a rate it holds interrupted or failed is
# measured again, and the search goes on from where it stopped. A resume
# with other settings, or on another testbed, is refused.
#
#   resume_record FILE JSON          write what the points depend on
#   resume_check FILE JSON           die unless FILE records the same
#   resume_journal_keep JOURNAL KEEP keep the journal's lines for which the
#                                    jq filter KEEP is true (atomically)
#   resume_journal_line JOURNAL KEY VALUE   the line whose .KEY == VALUE
#
# Source after common.sh and results.sh. (The UDP sweep keeps its points
# in a cache keyed by its settings instead: udpreplay/udp/run, docs/udp.md.)

# resume_record FILE JSON
resume_record() {
    jq -n --argjson what "$2" --arg t "$(date -u +%FT%TZ)" \
        '{schema: "rootbench.resume/1", written: $t, depends_on: $what}' | results_write_json "$1"
}

# resume_check FILE JSON: the recorded dependencies equal JSON, else die
# naming the keys that differ.
resume_check() {
    [ -f "$1" ] || die "cannot resume: no $1 (not a sweep's results directory, or one written before resume existed)"
    jq -e . "$1" >/dev/null 2>&1 || die "cannot resume: $1 is not valid JSON"
    local diff
    diff=$(jq -r --argjson now "$2" '
        def leaves: [paths(scalars, arrays) as $p | {key: ($p | map(tostring) | join(".")), value: getpath($p)}] | from_entries;
        (.depends_on | leaves) as $o | ($now | leaves) as $n
        | [($o | keys[]), ($n | keys[])] | unique[]
        | select($o[.] != $n[.]) | "\(.) was \($o[.] | tojson), now \($n[.] | tojson)"' "$1") \
        || die "cannot resume: $1 has no depends_on"
    [ -z "$diff" ] || die "cannot resume with other settings or another testbed (run it again with the settings of the interrupted sweep): $(paste -s -d';' <<<"$diff" | sed 's/;/; /g')"
}

# resume_journal_keep JOURNAL KEEP: drop the lines KEEP (a jq filter) rejects.
resume_journal_keep() {
    [ -f "$1" ] || return 0
    local kept
    kept=$(jq -c "select($2)" "$1") || die "cannot resume: $1 is not a journal of JSON lines"
    if [ -n "$kept" ]; then printf '%s\n' "$kept"; fi | results_write "$1"
}

# resume_journal_line JOURNAL KEY VALUE: the (first) line whose KEY is VALUE.
resume_journal_line() {
    [ -f "$1" ] || return 0
    jq -c --arg k "$2" --argjson v "$3" 'select(.[$k] == $v)' "$1" | head -n 1
}

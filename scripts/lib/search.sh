# search.sh: the coarse-to-fine rate search every rate sweep uses.
#
# Coarse: from START, rates rise by STEP ("+N": add N; "*F": multiply by F)
# up to CAP, until the caller says stop, a point is an error, two points in
# a row are invalid (the generator, not the system under test, was
# measured), or the budget runs out. Fine: for each threshold, bisection
# between the highest valid point below the lowest valid point that
# crosses it, down to RES; an invalid midpoint ends that refinement.
#
# The caller defines (rates are integers):
#   search_measure RATE          measure the point (record it however it likes)
#   search_state RATE            print ok, invalid or error for a measured rate
#   search_crosses RATE TH       exit 0 when the point crosses threshold TH
#   search_stop RATE             exit 0 when the coarse phase should end there
#                                (a collapse, repeated heavy failure, ...)
#   search_budget_left           exit 0 while points and time remain
# and reads SEARCH_NOTES (why each phase ended) afterwards.
#
# Source after common.sh.

declare -A SEARCH_SEEN=()
SEARCH_NOTES=()

search_reset() { SEARCH_SEEN=(); SEARCH_NOTES=(); }

search_point() {
    SEARCH_SEEN[$1]=1
    search_measure "$1"
}

# search_next RATE STEP: the next coarse rate.
search_next() {
    case $2 in
        +*) echo $(( $1 + ${2#+} )) ;;
        \**) awk -v r="$1" -v f="${2#\*}" 'BEGIN { printf "%d\n", r * f }' ;;
        *) die "search step '$2' is neither +N nor *F" ;;
    esac
}

# search_coarse START STEP CAP
search_coarse() {
    local rate=$1 step=$2 cap=$3 bad=0 st
    while search_budget_left && [ "$rate" -le "$cap" ]; do
        search_point "$rate"
        st=$(search_state "$rate")
        if [ "$st" = ok ]; then
            bad=0
            if search_stop "$rate"; then SEARCH_NOTES+=("coarse search stopped at $rate/s"); return 0; fi
        else
            bad=$((bad + 1))
            if [ "$st" = error ] || [ "$bad" -ge 2 ]; then
                SEARCH_NOTES+=("coarse search stopped: $st at $rate/s"); return 0
            fi
        fi
        rate=$(search_next "$rate" "$step")
    done
    [ "$rate" -le "$cap" ] || SEARCH_NOTES+=("coarse search reached the cap of $cap/s")
    search_budget_left || SEARCH_NOTES+=("coarse search stopped by the budget")
    return 0
}

# search_bracket TH: "LO HI": HI the lowest valid rate crossing TH, LO the
# highest valid rate below it (0 when none). Nothing when none crosses.
search_bracket() {
    local r lo=0
    for r in $(printf '%s\n' "${!SEARCH_SEEN[@]}" | sort -n); do
        [ "$(search_state "$r")" = ok ] || continue
        if search_crosses "$r" "$1"; then echo "$lo $r"; return 0; fi
        lo=$r
    done
}

# search_refine TH RES
search_refine() {
    local th=$1 res=$2 b lo hi mid
    while search_budget_left; do
        b=$(search_bracket "$th")
        [ -n "$b" ] || return 0
        read -r lo hi <<<"$b"
        [ "$lo" -gt 0 ] || return 0
        [ $(( hi - lo )) -gt "$res" ] || return 0
        mid=$(( (lo + hi) / 2 / res * res ))
        [ "$mid" -gt "$lo" ] || mid=$(( lo + res ))
        [ "$mid" -lt "$hi" ] || return 0
        [ -z "${SEARCH_SEEN[$mid]:-}" ] || return 0
        search_point "$mid"
        if [ "$(search_state "$mid")" != ok ]; then
            SEARCH_NOTES+=("refinement of the $th crossing stopped: $mid/s was $(search_state "$mid")")
            return 0
        fi
    done
}

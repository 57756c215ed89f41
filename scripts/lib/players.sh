# players.sh: the load of a sweep split over the players (the namespace
# testbed's two, a lab's players group: PLAYER_ROLES of topology.sh) and
# started on all of them at one absolute time: each player's share of the
# rate and of the source block (players.jq player_shares), the wait on
# each host for the start, and each player's measured start against it,
# the start skew (players.jq start_skew).
#
#   players_first N|all          the first N players (all: every one)
#   players_shares RATE SOURCES PLAYER...
#                                "PLAYER RATE SOURCES SHARED" a line each:
#                                its share of RATE and its block of SOURCES
#                                (a CIDR, or - for none), SHARED 1 when
#                                SOURCES was too small to split
#   players_start_at             the absolute start: PLAYERS_LEAD_S ahead of
#                                now, seconds since the epoch (far above
#                                the SSH cost of starting the players)
#   players_wait_cmd EPOCH       sets PLAYERS_WAIT, the command words that
#                                run the command after them on a host once
#                                its clock reads EPOCH (testbed exec ROLE --
#                                "${PLAYERS_WAIT[@]}" CMD...): bounded, it
#                                refuses a start more than PLAYERS_WAIT_MAX_S
#                                ahead or 1 s past
#   players_skew_json EPOCH STARTS
#                                the start skew ({at, players[], late_ms_max,
#                                skew_ms, measured}) from STARTS, lines
#                                "PLAYER START" (START on its host's clock,
#                                - when not measured)
#
# Source after common.sh and topology.sh.

PLAYERS_LEAD_S=1
PLAYERS_WAIT_MAX_S=60

players_first() {
    local n=$1
    [ "$n" = all ] && n=${#PLAYER_ROLES[@]}
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "players: '$1' is not a number of players (1 to ${#PLAYER_ROLES[@]}, or all)"
    [ "$n" -le "${#PLAYER_ROLES[@]}" ] || die "players: $n players asked for; the testbed has ${#PLAYER_ROLES[@]} (${PLAYER_ROLES[*]})"
    printf '%s\n' "${PLAYER_ROLES[@]:0:$n}"
}

players_shares() {
    local rate=$1 src=$2; shift 2
    jq -n -r -L "$RB_TOP/scripts/lib" --argjson rate "$rate" --arg src "$src" 'include "players";
        player_shares($ARGS.positional; $rate; (if $src == "-" then null else $src end))[]
        | "\(.player) \(.rate) \(.sources // "-") \(if .sources_shared then 1 else 0 end)"' --args "$@" \
        || die "players: cannot split $rate over $* (sources $src)"
}

players_start_at() {
    awk -v t="$EPOCHREALTIME" -v l="$PLAYERS_LEAD_S" 'BEGIN { printf "%.6f\n", t + l }'
}

# (the host's own clock, date +%s.%N, says when: the players' clocks are
# checked against this machine's at up on a lab, lab_clock_check)
players_wait_cmd() {
    [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "players: start time '$1' is not seconds since the epoch"
    # shellcheck disable=SC2016
    PLAYERS_WAIT=(sh -c 'at=$1; shift
        d=$(awk -v a="$at" -v n="$(date +%s.%N)" -v m="'"$PLAYERS_WAIT_MAX_S"'" "BEGIN { d = a - n; if (d < -1 || d > m) exit 1; printf \"%.6f\", (d > 0 ? d : 0) }") \
            || { echo "start-at: $at is not within '"$PLAYERS_WAIT_MAX_S"' s ahead on this host'"'"'s clock ($(date +%s.%N))" >&2; exit 2; }
        sleep "$d"; exec "$@"' start-at "$1")
}

players_skew_json() {
    jq -R -s -c -L "$RB_TOP/scripts/lib" --argjson at "$1" 'include "players";
        start_skew($at; [split("\n")[] | select(length > 0) | split(" ")
                         | {player: .[0], start: (if .[1] == "-" then null else (.[1] | tonumber) end)}])' <<<"$2"
}

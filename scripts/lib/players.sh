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
#   players_wait_cmd EPOCH [FILE]
#                                sets PLAYERS_WAIT, the command words that
#                                run the command after them on a host once
#                                its clock reads EPOCH (testbed exec ROLE --
#                                "${PLAYERS_WAIT[@]}" CMD...); with FILE, CMD
#                                starts at once and reads FILE from a FIFO,
#                                its last argument, whose last byte comes at
#                                EPOCH; bounded: a start more than
#                                PLAYERS_WAIT_MAX_S ahead or 1 s past is
#                                refused
#   players_skew_json EPOCH STARTS
#                                the start skew ({at, players[], late_ms_max,
#                                skew_ms, measured}) from STARTS, lines
#                                "PLAYER START" (START on its host's clock,
#                                - when not measured)
#   players_skew_warn JSON WHAT [apart]
#                                a warning naming WHAT when its players
#                                started PLAYERS_LATE_MS or more late (the
#                                lead was too short for starting them: a
#                                loaded machine), or that far apart; with
#                                apart only the spread (a generator whose
#                                start-up follows the start, kxdpgun: its
#                                lateness is that start-up, recorded)
#
# Source after common.sh and topology.sh.

# (2 s: starting three players over SSH from this loaded 2-CPU machine
# took over a second at times; a real lab's SSH calls take milliseconds)
PLAYERS_LEAD_S=2
PLAYERS_WAIT_MAX_S=60
PLAYERS_LATE_MS=100

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
    awk -v t="${EPOCHREALTIME/,/.}" -v l="$PLAYERS_LEAD_S" 'BEGIN { printf "%.6f\n", t + l }'
}

# The wait runs on the host, in bash (Debian's, on every host): its own
# clock (EPOCHREALTIME) and its own timer (read -t on a FIFO that never
# has data), no process started between the computed wait and the start;
# the players' clocks are checked against this machine's at up on a lab
# (lab_clock_check). With FILE, the command is started at once, FILE's
# content fed to it through a FIFO (its last argument) but for the last
# byte, which is written at EPOCH: a reader that takes all of it first
# (tcpreplay --preload-pcap) has everything ready and starts within a few
# ms of EPOCH, where starting the command then would cost its start-up
# (tcpreplay: 50-110 ms here, varying).
players_wait_cmd() {
    [[ $1 =~ ^[0-9]+\.[0-9]{6}$ ]] || die "players: start time '$1' is not seconds since the epoch to the microsecond"
    # shellcheck disable=SC2016
    # (the clock in microseconds: its digits, whatever the decimal mark of
    # the locale SSH passed on)
    PLAYERS_WAIT=(bash -c 'at=${1//[!0-9]/} feed=$2; shift 2
        d=$((at - ${EPOCHREALTIME//[!0-9]/}))
        if [ "$d" -lt -1000000 ] || [ "$d" -gt '"$PLAYERS_WAIT_MAX_S"'000000 ]; then
            echo "start-at: $1 is not within '"$PLAYERS_WAIT_MAX_S"' s ahead on this host'"'"'s clock ($EPOCHREALTIME)" >&2; exit 2
        fi
        dir=$(mktemp -d) && mkfifo "$dir/timer" && exec 4<>"$dir/timer" || exit 2
        wait_until() {
            local d=$((at - ${EPOCHREALTIME//[!0-9]/})) f
            printf -v f "%06d" $((d % 1000000))
            [ "$d" -le 0 ] || read -r -t "$((d / 1000000)).$f" -u 4 _ || true
        }
        if [ "$feed" = - ]; then rm -rf "$dir"; wait_until; exec 4>&- "$@"; fi
        mkfifo "$dir/feed" || exit 2
        # (in the background SIGINT would be ignored: Ctrl-C stops it too)
        env --default-signal=INT,TERM "$@" "$dir/feed" & pid=$!
        exec 3<>"$dir/feed"
        last=$(tail -c 1 "$feed" | od -An -tx1) && last=${last// /} && head -c -1 "$feed" >&3 || exit 2
        wait_until
        printf "\\x$last" >&3
        exec 3>&- 4>&-
        rc=0; wait "$pid" || rc=$?; rm -rf "$dir"; exit "$rc"' start-at "$1" "${2:--}")
}

players_skew_json() {
    jq -R -s -c -L "$RB_TOP/scripts/lib" --argjson at "$1" 'include "players";
        start_skew($at; [split("\n")[] | select(length > 0) | split(" ")
                         | {player: .[0], start: (if .[1] == "-" then null else (.[1] | tonumber) end)}])' <<<"$2"
}

players_skew_warn() {
    local w
    w=$(jq -r --argjson l "$PLAYERS_LATE_MS" --arg apart "${3:-}" '
        select(((.late_ms_max // 0) >= $l and $apart != "apart") or (.skew_ms // 0) >= $l)
        | "the players started up to \(.late_ms_max) ms late, \(.skew_ms) ms apart (the lead, '"$PLAYERS_LEAD_S"' s, was too short to start them)"' <<<"$1")
    [ -z "$w" ] || warn "$2: $w"
}

# settings.sh: the UDP sweep's settings (udpreplay/udp/run sources it):
# read from their table (settings.json) and checked, recorded in
# summary.json, and the identity of the settings a kept point must share
# to be reused.

UDP_SETTINGS="$RB_TOP/udpreplay/udp/settings.json"

# read_settings: the settings of the table (settings.json; defaults by
# SCALE), the computed defaults filled in and checked, and the short names
# the sweep uses.
read_settings() {
    settings_load "$UDP_SETTINGS"
    probe_settings
    case $UDP_SWEEP in
        search) : "${UDP_LO:=5000}" "${UDP_HI:=1000000}" ;;
        linear)
            : "${UDP_LO:=100}" "${UDP_HI:=100000}"
            # the linear sweep measures every rate once: a UDP_REPS given
            # is refused, not dropped (the SCALE's default is left aside)
            [[ " ${SETTINGS_GIVEN[*]-} " != *" UDP_REPS="* ]] || [ "$UDP_REPS" = 1 ] \
                || die "UDP_REPS=$UDP_REPS: UDP_SWEEP=linear measures every rate once; repetitions are the search's (UDP_SWEEP=search)"
            UDP_REPS=1 ;;
    esac
    : "${UDP_TRACE:=$RB_TOP/udpreplay/build/trace.pcap}"
    if [ "$FAMILY" = 6 ]; then
        : "${UDP_SOURCES:=$(role_addr6 listener)/128}"
        [[ $UDP_SOURCES == *:* ]] || die "UDP_SOURCES=$UDP_SOURCES is not an IPv6 CIDR (FAMILY=6)"
    else
        : "${UDP_SOURCES:=$(role_addr4 listener)/32}"
        [[ $UDP_SOURCES != *:* ]] || die "UDP_SOURCES=$UDP_SOURCES is an IPv6 CIDR: add FAMILY=6"
    fi
    [ "$UDP_LO" -le "$UDP_HI" ] || die "UDP_LO=$UDP_LO is above UDP_HI=$UDP_HI"
    UDP_THRESHOLD=$(awk -v t="$UDP_THRESHOLD" 'BEGIN { printf "%g", t }')   # valid JSON (.998 -> 0.998)
    TRACE=$UDP_TRACE SWEEP=$UDP_SWEEP LO=$UDP_LO HI=$UDP_HI STEP=$UDP_STEP RES_PCT=$UDP_RES_PCT REPS=$UDP_REPS
    DURATION=$UDP_DURATION THRESHOLD=$UDP_THRESHOLD SETTLE=$UDP_SETTLE SOURCES=$UDP_SOURCES FRESH=$UDP_FRESH
    read -r -a LB_MODES <<<"${UDP_LB//,/ }"
    [ ${#LB_MODES[@]} -ge 1 ] || die "UDP_LB is empty"
    # (the link is UDP_LINK's: a LINK the user gave stays theirs, for
    # exp_testbed_up to name as not taken)
    # UDP_SERVER_CPU: the servers' CPU budget for an unshaped sweep only, as
    # TCP_SERVER_CPU is the TCP sweeps' (the shaped sweep measures the link,
    # on whole servers)
    if [ -n "$UDP_SERVER_CPU" ]; then
        if [ "$UDP_LINK" = none ]; then
            [ "${SERVER_CPU:-}" = "$UDP_SERVER_CPU" ] || exp_not_taken SERVER_CPU "this experiment sets SERVER_CPU=$UDP_SERVER_CPU (UDP_SERVER_CPU)"
            export SERVER_CPU=$UDP_SERVER_CPU
        else log "UDP_SERVER_CPU=$UDP_SERVER_CPU is for unshaped sweeps: this one (UDP_LINK=$UDP_LINK) runs with SERVER_CPU=${SERVER_CPU:-max}"; fi
    fi
    # STEER=napi by default (settings.json): the rig's forwarding stays off
    # the server CPU and the servers' receive runs on theirs, so that the
    # server CPU's busy time is the server's whole cost per query
    # (docs/methodology.md, "The rig's work on the server CPU"); every
    # point's rig share says so.
    [ "$UDP_GENERATOR" != kxdpgun ] || need_tools kxdpgun
    # The players the load is split over (players.sh), by either
    # generator: by default every player of a lab; on the namespace
    # testbed player1 alone.
    local np=$UDP_PLAYERS
    if [ "$np" = auto ]; then
        if [ "$BACKEND" = lab ]; then np=all; else np=1; fi
    fi
    mapfile -t LOAD_PLAYERS < <(players_first "$np")
    [ "${#LOAD_PLAYERS[@]}" -gt 0 ] || die "UDP_PLAYERS=$UDP_PLAYERS: no players"
    # SETTLE_LEFT: the wait after the generator has exited. kxdpgun waits 1 s
    # after its last query before it exits (its extra wait, fixed in kxdpgun
    # 3.2; -r only drops the answers it would read meanwhile), so the
    # answers have had that second of SETTLE already; tcpreplay exits at
    # its last packet.
    SETTLE_LEFT=$SETTLE
    [ "$UDP_GENERATOR" != kxdpgun ] || SETTLE_LEFT=$(awk -v s="$SETTLE" 'BEGIN { s -= 1; printf "%g", (s > 0 ? s : 0) }')
    ur_timer 1 >/dev/null
    # CPU_CHARGE: perf on the servers' CPUs at every point (charge.sh)
    charge_read_settings
    [ -f "$TRACE" ] || die "no trace at $TRACE: run make trace (or give UDP_TRACE=path)"
}

# settings_json: summary.settings: the declared settings the table records
# (settings_summary) and what the run found out (service, generator, ...).
settings_json() {
    jq -n --argjson declared "$(settings_summary "$UDP_SETTINGS")" --argjson fam "$FAMILY" \
        --arg service "$FAMILY_SERVICE" --arg rw "$REWRITE_OUT" --arg gen "$UDP_GENERATOR" --arg genv "$GENERATOR_VERSION" \
        --arg timer "$(if [ "$UDP_GENERATOR" = tcpreplay ]; then echo "$UDP_TIMER"; fi)" --argjson charge "$(charge_settings_json)" \
        --arg sha "$TRACE_SHA" --arg link "$UDP_LINK" \
        '{family:$fam, service:$service, generator:$gen, generator_version:$genv,
          generator_timer:(if $timer == "" then null elif $timer == "auto" then "auto: nano up to 4000 q/s, gtod above" else $timer end), rewrite:$rw}
          + $declared
          + {trace_sha256:$sha, link:(if $link == "none" then null else $link end), cpu_charge:$charge}'
}

# point_settings_id: what a point's result depends on (trace, duration,
# sources, testbed configuration and zone content); a kept point is reused
# only when this is identical.
point_settings_id() {
    local zsum
    zsum=$(cat "$(jq -r .zones.dir <<<"$TB_JSON")"/*.zone | md5sum | cut -c1-16)
    jq -c --arg sha "$TRACE_SHA" --arg d "$DURATION" --arg s "$SOURCES" --arg settle "$SETTLE" --arg z "$zsum" \
        --arg fam "$FAMILY" --arg gen "$UDP_GENERATOR" --arg timer "$UDP_TIMER" --arg charge "$CHARGE_MODE:$CPU_CHARGE_HZ" \
        --arg players "${LOAD_PLAYERS[*]}" '{rows:6, charge:$charge, family:$fam, generator:$gen, timer:$timer, sha:$sha, d:$d, s:$s, settle:$settle, z:$z, players:$players, lb, link, pinning, server, zones:.zones.dir}' <<<"$TB_JSON" \
        | md5sum | cut -c1-16
}

# link_bps RATE: a tc rate in bit/s (100mbit -> 100000000), or null.
link_bps() {
    [ "$1" = none ] && { echo null; return; }
    awk -v r="$1" 'BEGIN {
        n = r + 0; u = r; sub(/^[0-9.]+/, "", u)
        m["bit"]=1; m["kbit"]=1e3; m["mbit"]=1e6; m["gbit"]=1e9; m["tbit"]=1e12
        m["bps"]=8; m["kbps"]=8e3; m["mbps"]=8e6; m["gbps"]=8e9; m["tbps"]=8e12
        if (!(u in m)) exit 1
        printf "%.0f\n", n * m[u] }'
}

# settings.sh: the UDP sweep's settings (udpreplay/udp/run sources it):
# read and checked, recorded in summary.json, and the identity of the
# settings a kept point must share to be reused.

read_settings() {
    TRACE=${TRACE:-$RB_TOP/udpreplay/build/trace.pcap}
    SWEEP=${SWEEP:-search}
    # SCALE sets the defaults (the registry's udp "scale"): smoke is a
    # coarse search (5,000 q/s resolution, one repetition, 2 s points),
    # quick 5 s points, a 5 % resolution (the run-to-run noise near the
    # ceiling is about that) and three repetitions around the transition;
    # paper the paper's 10 s points at 2 % (the defaults below).
    exp_scale_read udp
    case $SWEEP in
        search) : "${LO:=5000}" "${HI:=1000000}" "${STEP:=100}" ;;
        linear) : "${LO:=100}" "${HI:=100000}" "${STEP:=100}" ;;
        *) die "SWEEP=$SWEEP: search or linear" ;;
    esac
    DURATION=${DURATION:-10}
    THRESHOLD=${THRESHOLD:-0.998}
    REPS=${REPS:-3}
    RES_PCT=${RES_PCT:-2}
    [ "$SWEEP" = search ] || REPS=1     # the linear sweep measures every rate once
    SETTLE=${SETTLE:-0.5}
    if [ "$FAMILY" = 6 ]; then
        SOURCES=${SOURCES:-$(role_addr6 listener)/128}
        [[ $SOURCES == *:* ]] || die "SOURCES=$SOURCES is not an IPv6 CIDR (FAMILY=6)"
    else
        SOURCES=${SOURCES:-$(role_addr4 listener)/32}
        [[ $SOURCES != *:* ]] || die "SOURCES=$SOURCES is an IPv6 CIDR: add FAMILY=6"
    fi
    LB_MODES=(${LB:-l3})
    LINK=${UDP_LINK:-none}
    UDP_ZONES=${UDP_ZONES:-}
    # UDP_SERVER_CPU: the servers' CPU budget for an unshaped sweep only, as
    # TCP_SERVER_CPU is the TCP sweeps' (make bench UDP_SERVER_CPU=F budgets
    # udp-unshaped and leaves the shaped sweep, which measures the link, on
    # whole servers)
    if [ -n "${UDP_SERVER_CPU:-}" ]; then
        if [ "$LINK" = none ]; then export SERVER_CPU=$UDP_SERVER_CPU
        else log "UDP_SERVER_CPU=$UDP_SERVER_CPU is for unshaped sweeps: this one (UDP_LINK=$LINK) runs with SERVER_CPU=${SERVER_CPU:-max}"; fi
    fi
    # UDP_GENERATOR: tcpreplay (the paper's) replays the rewritten trace;
    # kxdpgun (Knot's, AF_XDP) sends the trace's queries (names, types, DO)
    # for a third of the CPU. The unshaped sweep keeps tcpreplay and
    # STEER=none by default: the profile that would keep the rig's work
    # off the server CPU (kxdpgun with STEER=rps) was measured and did not
    # yet (docs/methodology.md, "The rig's work on the server CPU"); every
    # point's rig share says how much of the server CPU was the rig's.
    UDP_GENERATOR=${UDP_GENERATOR:-tcpreplay}
    # Under a server CPU budget the servers' receive path runs on their CPU
    # (RPS), so that its busy time is the server's whole cost per query.
    UDP_STEER=$(exp_budget_steer "${UDP_STEER:-}"); UDP_STEER=${UDP_STEER:-none}
    case $UDP_STEER in none|rps|rig) ;; *) die "UDP_STEER=$UDP_STEER: none, rps or rig" ;; esac
    case $UDP_GENERATOR in tcpreplay) ;; kxdpgun) need_tools kxdpgun ;;
        *) die "UDP_GENERATOR=$UDP_GENERATOR: tcpreplay or kxdpgun" ;; esac
    # UDP_TIMER: tcpreplay's timing, auto (nano up to 4,000 q/s, gtod
    # above), gtod or nano (udpreplay/lib.sh ur_timer)
    UDP_TIMER=${UDP_TIMER:-auto}
    ur_timer 1 >/dev/null
    # CPU_CHARGE: perf on the servers' CPUs at every point (charge.sh)
    charge_read_settings
    UDP_NAME=${UDP_NAME:-udp}
    [[ $UDP_NAME =~ ^udp[a-z0-9-]*$ ]] || die "UDP_NAME=$UDP_NAME must start with udp (letters, digits, -)"
    local n
    for n in LO HI STEP DURATION REPS; do
        [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n=${!n} must be a positive integer"
    done
    [[ $RES_PCT =~ ^[0-9]+$ ]] && [ "$RES_PCT" -le 50 ] || die "RES_PCT=$RES_PCT must be an integer percentage, 0 to 50"
    [ "$LO" -le "$HI" ] || die "LO=$LO is above HI=$HI"
    [[ $THRESHOLD =~ ^0?\.[0-9]+$|^1(\.0*)?$ ]] || die "THRESHOLD=$THRESHOLD must be a ratio in [0,1]"
    THRESHOLD=$(awk -v t="$THRESHOLD" 'BEGIN { printf "%g", t }')   # valid JSON (.998 -> 0.998)
    [[ $SETTLE =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "SETTLE=$SETTLE must be seconds"
    [ -f "$TRACE" ] || die "no trace at $TRACE: run make trace (or give TRACE=path)"
    [ ${#LB_MODES[@]} -ge 1 ] || die "LB is empty"
}

settings_json() {
    jq -n --arg trace "$TRACE" --arg sha "$TRACE_SHA" --arg sweep "$SWEEP" --argjson lo "$LO" \
        --argjson hi "$HI" --argjson step "$STEP" --argjson reps "$REPS" --argjson res "$RES_PCT" --argjson dur "$DURATION" \
        --argjson thr "$THRESHOLD" --arg src "$SOURCES" --arg link "$LINK" --argjson settle "$SETTLE" \
        --argjson lbs "$(printf '%s\n' "${LB_MODES[@]}" | jq -R . | jq -s .)" --argjson fam "$FAMILY" \
        --arg service "$FAMILY_SERVICE" --arg rw "$REWRITE_OUT" --arg gen "$UDP_GENERATOR" --arg genv "$GENERATOR_VERSION" \
        --arg timer "$(if [ "$UDP_GENERATOR" = tcpreplay ]; then echo "$UDP_TIMER"; fi)" --argjson charge "$(charge_settings_json)" \
        '{family:$fam, service:$service, generator:$gen, generator_version:$genv,
          generator_timer:(if $timer == "" then null elif $timer == "auto" then "auto: nano up to 4000 q/s, gtod above" else $timer end), rewrite:$rw, trace:$trace, trace_sha256:$sha, sweep:$sweep, lo_qps:$lo, hi_qps:$hi, step_qps:$step,
          resolution_pct:$res, reps:$reps, duration_s:$dur, threshold:$thr, sources:$src, lb:$lbs,
          link:(if $link == "none" then null else $link end), settle_s:$settle, cpu_charge:$charge}'
}

# point_settings_id: what a point's result depends on (trace, duration,
# sources, testbed configuration and zone content); a kept point is reused
# only when this is identical.
point_settings_id() {
    local zsum
    zsum=$(cat "$(jq -r .zones.dir <<<"$TB_JSON")"/*.zone | md5sum | cut -c1-16)
    jq -c --arg sha "$TRACE_SHA" --arg d "$DURATION" --arg s "$SOURCES" --arg settle "$SETTLE" --arg z "$zsum" \
        --arg fam "$FAMILY" --arg gen "$UDP_GENERATOR" --arg timer "$UDP_TIMER" --arg charge "$CHARGE_MODE:$CPU_CHARGE_HZ" '{rows:5, charge:$charge, family:$fam, generator:$gen, timer:$timer, sha:$sha, d:$d, s:$s, settle:$settle, z:$z, lb, link, pinning, server, zones:.zones.dir}' <<<"$TB_JSON" \
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

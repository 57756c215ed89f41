# lab-measure.sh: what experiments read from a real lab (BACKEND=lab): the
# counters and the daemons' own, the switch's SNMP octets, addresses and
# interfaces, the sampler over SSH and SNMP, captures on the hosts.
# Sourced by lab.sh.

# lab_remote_stop_cmd PID: the host-side command that sends PID SIGTERM and
# waits up to 10 s for it to exit; its status is 0 when it did. The process
# is an orphan on the host, so once it has exited it is a zombie, which
# kill -0 still finds until the host's init reaps it (seconds, on the
# simulated lab): a zombie counts as exited.
lab_remote_stop_cmd() {
    printf '%s' "kill -TERM $1 2>/dev/null; i=0; while [ \$i -lt 100 ] && kill -0 $1 2>/dev/null && [ \"\$(cut -d' ' -f3 /proc/$1/stat 2>/dev/null)\" != Z ]; do sleep 0.1; i=\$((i + 1)); done; [ \$i -lt 100 ]"
}

# ---------------------------------------------------------------- queries

# lab_counters_json: the nftables counters of the listener, the servers
# and the sink (when the lab has one), the same object as the netns
# backend's: the router's counters a lab has no router for are counted
# at the switch's ports and at the servers (scripts/lib/counters.jq
# lab_counters, which says where in router.counted_by), the switch read
# once its agent's cache has settled (SNMP_SETTLE_S, as snmp-octets),
# while the hosts are read. An agent that does not answer is warned
# about; the counters that need it are then left out (router.missing).
lab_counters_json() {
    local tmp pid roles=() ports=/dev/null
    tmp=$(mktemp -d)
    # (the agent's passphrases read here, before the reading's subshell)
    lab_snmp_prepare
    ( sleep "${SNMP_SETTLE_S:-4}"; lab_snmp_ports switch ) > "$tmp/ports.json" 2> "$tmp/ports.err" & pid=$!
    ! lab_role_host sink >/dev/null || roles+=(sink)
    tb_counters_collect lab_ssh "${roles[@]+"${roles[@]}"}" > "$tmp/hosts.json" || { kill "$pid" 2>/dev/null; rm -rf "$tmp"; return 1; }
    if wait "$pid" && [ -s "$tmp/ports.json" ]; then ports=$tmp/ports.json
    else warn "counters: the switch's SNMP agent did not answer: the counters at its ports are left out ($(head -n 1 "$tmp/ports.err"))"; fi
    jq -c -L "$RB_TOP/scripts/lib" --argjson lab "$LAB_JSON" --slurpfile ports "$ports" \
        'include "counters"; lab_counters($ports[0] // null; $lab)' "$tmp/hosts.json"
    rm -rf "$tmp"
}

# lab_server_stats_json ROLE: the daemon's own counters ({} when it does not answer).
# rb-server reads them on the host with the netns testbed's command
# (srv_<kind>_stats_cmd); they are parsed and shaped here by the same
# rules (srv_<kind>_stats_parse, srv_stats_shape).
lab_server_stats_json() {
    local raw
    raw=$(lab_ssh "$1" "$(printf %q "$(lab_remote_dir "$1")/bin/rb-server") stats $(printf %q "$(lab_remote_dir "$1")/server")" 2>/dev/null \
          | srv "$SERVER" stats_parse) || true
    [ -n "$raw" ] || { echo '{}'; return 0; }
    srv_stats_shape "$SERVER" <<<"$raw"
}

# lab_snmp_octets in|out [PORT]: IF-MIB octets of a switch port, from the
# switch's own agent (after net-snmp's cache settles, as the netns one):
# the router's server-side port (router-s, the default), or a host's port
# (a role with rb_switch_ifindex in the inventory: player1, sink, ...).
lab_snmp_octets() {
    local oid idx port=${2:-router-s}
    case $1 in in) oid=1.3.6.1.2.1.31.1.1.1.6 ;; out) oid=1.3.6.1.2.1.31.1.1.1.10 ;; *) die "snmp-octets: in or out" ;; esac
    if [ "$port" = router-s ]; then
        idx=$(jq -r .switch.router_port_ifindex <<<"$LAB_JSON")
    else
        lab_is_host "$port" || die "snmp-octets: no switch port '$port' (router-s, or a lab host's)"
        idx=$(lab_host "$port" switch_ifindex) && [ "$idx" != null ] \
            || die "snmp-octets: the inventory gives $port no switch port (rb_switch_ifindex: its ifIndex on the switch)"
    fi
    lab_snmp_prepare die
    sleep "${SNMP_SETTLE_S:-4}"
    lab_snmp switch snmpget -t 2 -r 1 -Oqv -- "$oid.$idx"
}

# lab_mac ROLE [IFACE]: the MAC address of the role's test interface (the
# router: its client leg, ethc, from the inventory; its server leg, eths,
# as server1 resolves its gateway: lab_router_server_mac).
lab_mac() {
    if [ "$1" = router ]; then
        case ${2:-ethc} in
            ethc) jq -r .router.mac_client <<<"$LAB_JSON" ;;
            eths) lab_router_server_mac ;;
            *) die "mac: the router's legs are ethc (client side) and eths (server side), not $2" ;;
        esac
        return
    fi
    lab_is_host "$1" || die "mac: unknown role $1"
    lab_ssh "$1" "cat /sys/class/net/$(lab_host "$1" iface)/address"
}

# lab_iface ROLE: the test interface's name on the host.
lab_iface() {
    lab_is_host "$1" || die "iface: $1 is not a lab host (${LAB_HOSTS[*]})"
    lab_host "$1" iface
}

# lab_sample ARGS: rbsample on every host up reaches (lab_reached_hosts:
# the players, the listener, the servers and the probe host when the lab
# has one; each in its own namespace and role cgroup), started together,
# stopped together at SIGTERM/SIGINT or
# --duration; the summaries merged into one (roles keep their keys; CPUs
# are named ROLE/cpuN). The switch (and the router, when the inventory
# gives it an agent) is read over SNMP at the start and the end: its ports'
# octets, discards and errors as the interfaces of its role in "dev"
# (lab_snmp_summary); a device not read is listed in "not_sampled".
lab_sample() {
    local series="" summary="" ready="" rest=() a
    while [ $# -gt 0 ]; do
        case $1 in
            --series) series=$2; shift 2 ;;
            --summary) summary=$2; shift 2 ;;
            --ready) ready=$2; shift 2 ;;
            # A lab's switch is read over SNMP, seconds apart: no
            # per-millisecond arrivals (the summary's arrivals is null).
            --arrivals-out|--arrivals-proto) shift 2 ;;
            *) rest+=("$1"); shift ;;
        esac
    done
    [ -n "$series" ] && [ -n "$summary" ] || die "sample: --series FILE and --summary FILE are needed"
    local role dir pids=() stop=0 snmpdir snmp_pid hosts=()
    declare -A RPID=()
    mapfile -t hosts < <(lab_reached_hosts)
    snmpdir=$(mktemp -d)
    # (the passphrases read here, once, for both readings' subshells)
    lab_snmp_prepare
    lab_snmp_read start "$snmpdir" & snmp_pid=$!
    for role in "${hosts[@]}"; do
        dir=$(lab_remote_dir "$role")
        RPID[$role]=$(lab_ssh "$role" "mkdir -p $dir/run/sample && cg=$(lab_cgroup "$role"); cga=''; [ -d \$cg ] && cga=\"--cgroup $role=\$cg\"; setsid $dir/bin/rbsample --ns =$role \$cga --series $dir/run/sample/series.jsonl --summary $dir/run/sample/summary.json $(lab_quote "${rest[@]+"${rest[@]}"}") > $dir/run/sample/log 2>&1 < /dev/null & echo \$!") \
            || die "sample: cannot start rbsample on $role"
    done
    wait "$snmp_pid" || true
    # The hosts' samplers were started in the background over SSH: 0.3 s for
    # their first samples before the caller's load (asking would load them).
    if [ -n "$ready" ]; then sleep 0.3; : > "$ready"; fi
    # Until a signal, or --duration: nothing is asked of the hosts meanwhile
    # (a poll over SSH would load the hosts being measured).
    local dur="" i
    for ((i = 0; i < ${#rest[@]}; i++)); do
        [ "${rest[$i]}" = --duration ] && dur=${rest[$((i + 1))]:-}
    done
    trap 'stop=1' TERM INT
    if [ -n "$dur" ]; then
        sleep "$dur" & wait $! || true
        [ "$stop" = 1 ] || sleep 0.5
    else
        while [ "$stop" = 0 ]; do sleep 1 & wait $! || true; done
    fi
    trap '' TERM INT
    lab_snmp_read end "$snmpdir" & snmp_pid=$!
    # once rbsample has exited its summary is written
    for role in "${hosts[@]}"; do
        lab_ssh "$role" "$(lab_remote_stop_cmd "${RPID[$role]}")" &
        pids+=("$!")
    done
    for a in "${pids[@]}"; do wait "$a" || true; done
    local tmp; tmp=$(mktemp -d)
    for role in "${hosts[@]}"; do
        dir=$(lab_remote_dir "$role")
        lab_pull "$role" "$dir/run/sample/summary.json" "$tmp/$role.json" \
            || die "sample: no summary from $role: $(lab_ssh "$role" "tail -n 3 $dir/run/sample/log" 2>/dev/null)"
        lab_pull "$role" "$dir/run/sample/series.jsonl" "$tmp/$role.series" 2>/dev/null || : > "$tmp/$role.series"
        jq -c --arg r "$role" '{role: $r} + .' "$tmp/$role.series" >> "$tmp/series"
    done
    mv "$tmp/series" "$series"
    local files=()
    for role in "${hosts[@]}"; do files+=("$tmp/$role.json"); done
    wait "$snmp_pid" || true
    lab_snmp_summary "$snmpdir" > "$tmp/snmp.json"
    rm -rf "$snmpdir"
    jq -s -L "$RB_TOP/scripts/lib" --slurpfile snmp "$tmp/snmp.json" --argjson roles "$(printf '%s\n' "${hosts[@]}" | jq -R . | jq -s .)" \
        'include "lab"; sample_merge($snmp[0]; $roles)' "${files[@]}" > "$summary.tmp"
    mv "$summary.tmp" "$summary"
    rm -rf "$tmp"
}

# lab_capture ROLE IFACE SNAPLEN FILE FILTER: tcpdump on the host's test
# interface (IFACE is the netns name, e.g. eth0: the host's rb_iface is
# used) until SIGTERM; then the pcap comes back to FILE and tcpdump's
# messages (its statistics) go to stderr. SIGINT is ignored (capture.sh).
lab_capture() {
    local role=$1 snaplen=$3 file=$4 filter=$5 dir iface rpid i
    lab_is_host "$role" || die "capture: $role is a lab device: capture on a host"
    dir=$(lab_remote_dir "$role"); iface=$(lab_host "$role" iface)
    local r="$dir/run/cap-$$"
    trap '' INT
    local mtu opts
    mtu=$(lab_ssh "$role" "cat /sys/class/net/$iface/mtu") || die "capture: cannot read the MTU of $iface on $role"
    opts=$(capture_tcpdump_args "$snaplen" "$mtu") || die "capture: bad snap length or MTU on $role"
    rpid=$(lab_ssh "$role" "mkdir -p $dir/run; setsid nice -n $CAPTURE_NICE taskset -c $(lab_host "$role" cpus) tcpdump -i $iface $opts -w $r.pcap $(printf %q "$filter") > $r.log 2>&1 < /dev/null & echo \$!") \
        || die "capture: cannot start tcpdump on $role"
    for i in $(seq 100); do
        lab_ssh "$role" "grep -q '^tcpdump: listening on' $r.log" && break
        lab_ssh "$role" "kill -0 $rpid 2>/dev/null" || break
        sleep 0.1
    done
    lab_ssh "$role" "cat $r.log" >&2
    # Until SIGTERM; nothing is asked of the host meanwhile (a tcpdump that
    # ended early shows at the end: no statistics, an incomplete capture).
    local stop=0
    trap 'stop=1' TERM
    while [ "$stop" = 0 ]; do sleep 1 & wait $! || true; done
    trap '' TERM
    # once tcpdump has exited its log is complete
    lab_ssh "$role" "$(lab_remote_stop_cmd "$rpid"); tail -n +2 $r.log" >&2 || true
    lab_pull "$role" "$r.pcap" "$file" || warn "capture: cannot fetch the pcap from $role"
    lab_ssh "$role" "rm -f $r.pcap $r.log" || true
}

# ---------------------------------------------------------------- devices over SNMP

# lab_snmp_ports DEVICE: every port's IF-MIB counters (ifTable and
# ifXTable walked, numeric OIDs) as {IFINDEX: {name, in_octets, ...}}
# (scripts/lib/lab-snmp.jq); non-zero when the agent does not answer.
lab_snmp_ports() {
    local base out="" walk
    for base in 1.3.6.1.2.1.2.2.1 1.3.6.1.2.1.31.1.1.1; do
        walk=$(lab_snmp "$1" snmpbulkwalk -t 2 -r 1 -Cr25 -On -OQ -Oe -- "$base") || return 1
        out+=$walk$'\n'
    done
    jq -R -s -c -L "$RB_TOP/scripts/lib" 'include "lab-snmp"; snmp_ports' <<<"$out"
}

# lab_snmp_read start|end DIR: every SNMP device's ports into
# DIR/snmp-PHASE-NAME.json (a device that does not answer: its error in
# DIR/snmp-PHASE-NAME.err). The end reading waits SNMP_SETTLE_S first: an
# agent serves its counters from a cache (net-snmp's refreshes every few
# seconds), so a reading right after the traffic may not hold its end yet.
lab_snmp_read() {
    local phase=$1 dir=$2 name host
    [ "$phase" = start ] || sleep "${SNMP_SETTLE_S:-4}"
    while read -r name host; do
        date +%s.%N | cut -c1-14 > "$dir/snmp-$phase-$name.time"
        lab_snmp_ports "$name" > "$dir/snmp-$phase-$name.json" 2> "$dir/snmp-$phase-$name.err" \
            && [ -s "$dir/snmp-$phase-$name.json" ] && rm -f "$dir/snmp-$phase-$name.err" \
            || { echo "no answer from $host" >> "$dir/snmp-$phase-$name.err"; rm -f "$dir/snmp-$phase-$name.json"; }
    done < <(lab_snmp_devices)
}

# lab_snmp_summary DIR: what the devices' ports counted between the two
# readings, for the sampler summary: {dev: {NAME: {port: deltas}},
# snmp: {NAME: {host, ports, start, end, settle_s} or {host, error}}}.
lab_snmp_summary() {
    local dir=$1 name host parts=()
    while read -r name host; do
        if [ -s "$dir/snmp-start-$name.json" ] && [ -s "$dir/snmp-end-$name.json" ]; then
            parts+=("$(jq -n -c -L "$RB_TOP/scripts/lib" --arg n "$name" --arg h "$host" --arg settle "${SNMP_SETTLE_S:-4}" \
                --slurpfile a "$dir/snmp-start-$name.json" --slurpfile b "$dir/snmp-end-$name.json" \
                --arg t0 "$(cat "$dir/snmp-start-$name.time")" --arg t1 "$(cat "$dir/snmp-end-$name.time")" '
                include "lab-snmp";
                snmp_dev($a[0]; $b[0]) as $d
                | {dev: {($n): $d}, snmp: {($n): {host: $h, ports: ($d | length), mib: "IF-MIB ifTable/ifXTable",
                   start: ($t0 | tonumber), end: ($t1 | tonumber), settle_s: ($settle | tonumber)}}}')")
        else
            warn "sample: the $name's SNMP agent ($host) did not answer: its ports are not sampled ($(cat "$dir"/snmp-*-"$name".err 2>/dev/null | head -n 1))"
            parts+=("$(jq -n -c --arg n "$name" --arg h "$host" --arg e "$(cat "$dir"/snmp-*-"$name".err 2>/dev/null | head -n 1)" \
                '{dev: {}, snmp: {($n): {host: $h, error: $e}}}')")
        fi
    done < <(lab_snmp_devices)
    printf '%s\n' "${parts[@]+"${parts[@]}"}" | jq -s -c '{dev: (map(.dev) | add // {}), snmp: (map(.snmp) | add // {})}'
}

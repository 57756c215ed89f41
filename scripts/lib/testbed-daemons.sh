# testbed-daemons.sh: the namespace testbed's daemons: the switch's snmpd
# and the server daemons (NSD, Knot or BIND) started, checked and stopped.
# Sourced by testbed.sh.

# ---------------------------------------------------------------- daemons

# tb_pid_running PID: the process is running. A killed daemon whose
# parent (init, for a daemon) has not reaped it yet is a zombie, which
# kill -0 still finds: that one is dead (it holds no socket any more).
tb_pid_running() {
    local state
    [[ $1 =~ ^[0-9]+$ ]] || return 1
    state=$(tb_pid_state "$1") || return 1
    [ -n "$state" ] && [[ $state != Z* ]]
}

# tb_pid_state PID: the process's state letter (R, S, T, Z, ...), as
# ps -o stat= starts it, read from /proc/PID/stat (no process started:
# the testbed asks this in its waiting loops); fails when there is no
# such process. The state is the field after the command's name, which
# is in parentheses and may itself hold spaces or parentheses.
tb_pid_state() {
    local line
    { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 1
    line=${line##*) }
    echo "${line%% *}"
}

# tb_pid_alive PIDFILE: the process the file names is running.
tb_pid_alive() {
    local pid
    [ -f "$1" ] && pid=$(cat "$1") && tb_pid_running "$pid"
}

# SNMP: net-snmp in the switch namespace, on its loopback only. It reads the
# namespace's /proc/net/dev, so IF-MIB covers exactly the switch ports.
tb_start_snmpd() {
    local dir="$TB_STATE/snmpd"
    mkdir -p "$dir"
    tb_pid_alive "$dir/snmpd.pid" && return 0
    # The write community reaches only the agent's cache timeouts
    # (NET-SNMP-AGENT-MIB nsCacheTimeout), from the switch's own loopback.
    cat > "$dir/snmpd.conf" <<EOF
agentAddress udp:127.0.0.1:161
rocommunity public 127.0.0.1
rwcommunity rbcache 127.0.0.1 $TB_SNMP_CACHE_TIMEOUT_OID
EOF
    rm -f "$dir/cache-timeout"
    SNMP_PERSISTENT_DIR="$dir" in_ns switch snmpd -C -c "$dir/snmpd.conf" -M /nonexistent -m "" \
        -p "$dir/snmpd.pid" -Lf "$dir/snmpd.log"
    tb_wait_for "snmpd in $(ns_of switch)" tb_snmp_ready
    tb_snmp_cache_off "$dir"
}

# net-snmp keeps the interface table (ifTable, which ifXTable reads too) in
# a cache for 3 s. With its timeout at 0 every reading is the kernel's
# counter of that moment (test 12 compares them with sysfs), and no
# reading needs to wait; the timeout read back is kept in
# DIR/cache-timeout for snmp_settle.
TB_SNMP_CACHE_TIMEOUT_OID=.1.3.6.1.4.1.8072.1.5.3.1.2
TB_SNMP_IFTABLE_OID=1.3.6.1.2.1.2.2     # the row index: the cache's OID
tb_snmp_cache_off() {
    local t
    nsx switch snmpset -M /nonexistent -m "" -v2c -c rbcache -t 1 -r 1 127.0.0.1 \
        "$TB_SNMP_CACHE_TIMEOUT_OID.$TB_SNMP_IFTABLE_OID" i 0 >/dev/null 2>&1 || true
    t=$(nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 1 -r 1 -Oqv 127.0.0.1 \
        "$TB_SNMP_CACHE_TIMEOUT_OID.$TB_SNMP_IFTABLE_OID" 2>/dev/null || true)
    if [ "$t" = 0 ]; then echo 0 > "$1/cache-timeout"
    else warn "snmpd's interface cache could not be turned off (timeout '${t:-unread}'): each SNMP reading waits ${SNMP_SETTLE_S:-4} s"
    fi
}

# snmp_settle: the seconds an SNMP reading waits before it is taken:
# SNMP_SETTLE_S when set; else 0 when the agent's interface cache is off,
# 4 (longer than its 3 s) when it is not.
snmp_settle() {
    if [ -n "${SNMP_SETTLE_S:-}" ]; then echo "$SNMP_SETTLE_S"
    elif [ "$(cat "$TB_STATE/snmpd/cache-timeout" 2>/dev/null)" = 0 ]; then echo 0
    else echo 4
    fi
}

tb_snmp_ready() {
    nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 1 -r 0 -Oqv 127.0.0.1 1.3.6.1.2.1.1.3.0 >/dev/null 2>&1
}

# snmp_octets IFINDEX in|out: ifHCInOctets / ifHCOutOctets of a switch port,
# never older than the traffic that came before the call: taken after
# snmp_settle's wait (none while the agent's cache is off).
snmp_octets() {
    sleep "$(snmp_settle)"
    local oid
    case $2 in in) oid=1.3.6.1.2.1.31.1.1.1.6 ;; out) oid=1.3.6.1.2.1.31.1.1.1.10 ;; *) return 1 ;; esac
    nsx switch snmpget -M /nonexistent -m "" -v2c -c public -t 2 -r 1 -Oqv 127.0.0.1 "$oid.$1"
}

# switch_ifindex PORT: the SNMP ifIndex (= kernel ifindex) of a switch port.
switch_ifindex() { nsx switch cat "/sys/class/net/$1/ifindex"; }

# tb_server_program: the daemon the servers run.
tb_server_program() { srv "$SERVER" program; }

# tb_server_stats_json ROLE: the daemon's own counters (srv_stats_json):
# {"queries": N, "udp": N, "tcp": N, "counters": {...}}, {} when it does
# not answer within 3 s (stalled), and at once when its main process is
# stopped (SIGSTOP: it cannot answer).
tb_server_stats_json() {
    local pid state=""
    pid=$(cat "$TB_STATE/$1/server.pid" 2>/dev/null) || pid=""
    [[ $pid =~ ^[0-9]+$ ]] && state=$(tb_pid_state "$pid" || true)
    if [[ $state == T* ]]; then echo '{}'; return 0; fi
    srv_stats_json "$SERVER" "$1" "$TB_STATE/$1"
}

tb_stop_pidfile() {
    local pidfile=$1 pid i
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    # SIGTERM, then SIGKILL after 1 s: the testbed's daemons keep nothing
    # worth a slow exit (Knot takes 1.3-1.7 s to stop when idle, longer
    # under load).
    kill "$pid" 2>/dev/null || true
    for i in $(seq 10); do tb_pid_running "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    # Gone, not only signalled: a daemon still exiting keeps its sockets,
    # and the next daemon's queries could be handed to them, unanswered.
    # A zombie has closed them: it is gone (tb_pid_running).
    for i in $(seq 100); do tb_pid_running "$pid" || break; sleep 0.1; done
    tb_pid_running "$pid" && die "daemon $pid ($pidfile) did not exit 11 s after SIGTERM and SIGKILL"
    rm -f "$pidfile"
}

# tb_server_fail ROLE WHAT: die with WHAT and the last lines of the
# server's own log, after bringing the whole testbed down: a testbed whose
# server cannot serve is not left half working.
tb_server_fail() {
    local role=$1 dir="$TB_STATE/$1" msg
    msg="$2 (SERVER=$SERVER on $role)"
    if [ -s "$dir/server.log" ]; then
        msg+=$'; its log:\n'$(tb_server_log_lines "$dir/server.log")
    fi
    tb_down
    die "$msg; the testbed is down"
}

# tb_pin_server_threads ROLE: every thread of the role's processes on the
# role's CPUs. The daemon starts under taskset, but a server may pin its
# own threads: Knot DNS puts its UDP worker on CPU 0 of the host (measured:
# one knotd thread of six on CPU 0, the rig's), where it would run beside
# the generator and out of the server CPU's counts.
tb_pin_server_threads() {
    local role=$1 cpus mask p t bad=""
    cpus=$(cpus_of "$role"); mask=$(cpu_mask "$cpus")
    for p in $(ip netns pids "$(ns_of "$role")" 2>/dev/null); do
        taskset -a -p -c "$cpus" "$p" >/dev/null 2>&1 || true
        for t in /proc/"$p"/task/*; do
            [ -d "$t" ] || continue
            [ "$(taskset -p "${t##*/}" 2>/dev/null | sed 's/.*: //')" = "$mask" ] || bad+=" ${t##*/}"
        done
    done
    [ -z "$bad" ] || tb_server_fail "$role" "threads$bad of $SERVER in $(ns_of "$role") are not on CPUs $cpus"
}

# tb_start_server ROLE: the server daemon with the current configuration
# (restarted only when the configuration, the zones or the program
# changed); dies with the daemon's own message when its configuration or a
# zone is refused or it does not answer within SERVER_START_S seconds.
tb_start_server() {
    local role=$1 dir="$TB_STATE/$1" new out
    mkdir -p "$dir"
    # SYN cookies: a sysctl, set without a restart
    tb_defences_syncookies "$role"
    [ "$SERVER_TLS" = no ] && [ "$SERVER_QUIC" = no ] || tb_make_tls_certs
    new=$(tb_render_server_conf "$role")
    # whether the daemon runs under a CPU budget's cgroup: a change restarts it
    local budget=none; [ "$SERVER_CPU" = max ] || budget=cgroup
    if tb_pid_alive "$dir/server.pid" && [ "$new" = "$(cat "$dir/server.conf" 2>/dev/null)" ] \
        && [ "$budget" = "$(cat "$dir/cpu_budget" 2>/dev/null || echo none)" ]; then
        return 0
    fi
    echo "$budget" > "$dir/cpu_budget"
    tb_stop_pidfile "$dir/server.pid"
    # Knot leaves its XDP program on the interface when it stops (measured,
    # 3.2.6 and 3.4.6): off, so that only SERVER_XDP=yes has one.
    ip -n "$(ns_of "$role")" link set dev eth0 xdp off 2>/dev/null || true
    rm -f "$dir/server.log"
    printf '%s\n' "$new" > "$dir/server.conf"
    out=$(srv "$SERVER" checkconf "$dir") || tb_server_fail "$role" "$SERVER's configuration check refused $dir/server.conf: $(tail -n 5 <<<"$out")"
    # The kernel caps listen()'s backlog at the namespace's somaxconn.
    sysctl_set "$role" net.core.somaxconn="$SERVER_BACKLOG"
    out=$(srv "$SERVER" start "$role" "$dir" 2>&1) || tb_server_fail "$role" "$SERVER failed to start in $(ns_of "$role"): $(tail -n 3 <<<"$out")"
    local i
    for i in $(seq $(( ${SERVER_START_S:-15} * 10 ))); do
        tb_server_answers "$role" && { tb_server_answers_tls "$role"; tb_server_answers_quic "$role"; tb_pin_server_threads "$role"; return 0; }
        # A daemon that exited, or logged an error, will not answer: say so at once.
        if [ "$i" -gt 10 ] && ! tb_pid_alive "$dir/server.pid"; then
            tb_server_fail "$role" "$SERVER exited after start"
        fi
        if [ "$i" -gt 5 ] && tb_server_log_has_error "$dir"; then
            tb_server_fail "$role" "$SERVER logged an error and does not answer SOA for ."
        fi
        sleep 0.1
    done
    tb_server_fail "$role" "$SERVER did not answer SOA for . within ${SERVER_START_S:-15} s of start (a zone not loaded?)"
}

# tb_server_log_lines LOG: what a daemon said about a failure: its error
# and warning lines (at most 8), else its last 5 lines.
tb_server_log_lines() {
    local errs
    errs=$(grep -iE 'error|warning|fail|fatal|critical' "$1" | tail -n 8 || true)
    if [ -n "$errs" ]; then printf '%s\n' "$errs"; else tail -n 5 "$1"; fi
}

# tb_server_log_has_error DIR: the daemon logged an error (a zone that did
# not load): no need to wait for the start timeout.
tb_server_log_has_error() { grep -qiE '(^|[^a-z])(error|fatal|critical)' "$1/server.log" 2>/dev/null; }

# tb_wait_for WHAT CMD...: poll CMD for up to 15 s.
tb_wait_for() {
    local what=$1 i; shift
    for i in $(seq 150); do
        "$@" && return 0
        sleep 0.1
    done
    die "$what did not come up within 15 s"
}

# lab-up.sh: bringing a real lab up and down (BACKEND=lab): the settings
# checked against the inventory, the daemons' configuration rendered and
# pushed, the provisioning playbook, the hosts' programs and facts
# checked. Sourced by lab.sh.

# ---------------------------------------------------------------- up / down

# lab_apply_defaults: the settings `up` was given, over the lab's own
# (the router's balancing, the inventory's server and zones).
lab_apply_defaults() {
    : "${LB:=$(jq -r .router.lb <<<"$LAB_JSON")}"
    : "${LINK:=none}"
    : "${SERVER:=$(jq -r .server <<<"$LAB_JSON")}"
    # (whether a release was asked for: SERVER_PREFIX, the operator's own build, excludes one)
    LAB_RELEASE_GIVEN=${SERVER_RELEASE:-}
    : "${SERVER_RELEASE:=$RELEASE_HOST}"
    release_select "$SERVER_RELEASE"
    [ -n "${ZONES:-}" ] || [ -n "${ZONE_DIR:-}" ] || ZONES=$(jq -r .zones <<<"$LAB_JSON")
    : "${SERVER_WORKERS:=1}" "${SERVER_TCP_CLIENTS:=1000}" "${SERVER_TCP_TIMEOUT:=3}"
    : "${MINIMAL_RESPONSES:=no}" "${STEER:=none}" "${PLAYER_TW_BUCKETS:=default}"
    srv_check_kind "$SERVER"
    : "${SERVER_BACKLOG:=$(srv "$SERVER" default_backlog)}" "${SERVER_TLS:=no}" "${SERVER_EDNS_SIZE:=1232}"
    tb_defences_defaults
    # As on the netns testbed: another NSD backlog than Debian's 256 is the rebuilt NSD.
    # (the operator's own build stands in for the package: lab_own_check)
    if [ -z "${NSD_BUILD:-}" ]; then
        if [ "$SERVER" != nsd ] || [ "$SERVER_BACKLOG" = "$NSD_DEBIAN_BACKLOG" ] || [ -n "${SERVER_PREFIX:-}" ]; then NSD_BUILD=debian; else NSD_BUILD=rebuilt; fi
    fi
    # Pinning is per host, from the inventory (rb_cpus).
    SERVER_CPUS=$(lab_host server1 cpus); CLIENT_CPUS=$(lab_host player1 cpus)
}

# lab_validate: what a lab cannot be told by a setting (its router and its
# wires are hardware), refused before any host is touched.
lab_validate() {
    local rlb; rlb=$(jq -r .router.lb <<<"$LAB_JSON")
    [ "$LB" = "$rlb" ] || die "LB=$LB: the lab's router balances $rlb (inventory: router rb_lb); configure the router, then its rb_lb"
    [ "$LINK" = none ] || die "LINK=$LINK: a lab's links are its wires; shaping is not configured by rootbench in a lab (LINK=none; the UDP ceiling on the lab's own link is make udp-unshaped, each host's NIC speed in status --json)"
    [ "${SERVER_CPU:-max}" = max ] || die "SERVER_CPU=$SERVER_CPU: a lab's servers run without a CPU budget (a namespace testbed setting)"
    # Rate limiting is in the servers' configuration, as on the namespace
    # testbed; SYN cookies are the hosts' own sysctl, not set by rootbench.
    settings_check_all "$TB_SETTINGS_TABLE" "$TB_DEFENCES_SETTINGS"
    tb_defences_check
    [ "$SERVER_SYNCOOKIES" = kernel ] || die "SERVER_SYNCOOKIES=$SERVER_SYNCOOKIES: a lab's servers keep their own net.ipv4.tcp_syncookies (a namespace testbed setting; set it on the hosts)"
    lab_validate_server
    # (a lab's hosts keep their own receive path: STEER is recorded, not set)
    case $STEER in none|rps|rig|napi) ;; *) die "unknown STEER=$STEER" ;; esac
    case $MINIMAL_RESPONSES in yes|no) ;; *) die "MINIMAL_RESPONSES=$MINIMAL_RESPONSES must be yes or no" ;; esac
    tb_check_edns_size
    local n
    for n in SERVER_WORKERS SERVER_TCP_CLIENTS SERVER_TCP_TIMEOUT; do
        [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "$n=${!n} must be a positive integer"
    done
    [ "$PLAYER_TW_BUCKETS" = default ] || [[ $PLAYER_TW_BUCKETS =~ ^[0-9]+$ ]] \
        || die "PLAYER_TW_BUCKETS=$PLAYER_TW_BUCKETS must be 'default' or a number"
    TB_ZONEDIR=$(tb_zone_dir)
    lab_check_ranges
    # (the hosts' clocks are checked at up against this limit: lab_clock_check)
    settings_fill_defaults "$TB_SETTINGS_TABLE" LAB_CLOCK_MAX_MS
    settings_check "$TB_SETTINGS_TABLE" LAB_CLOCK_MAX_MS
}

# lab_validate_server: the server software a lab host runs: NSD, Knot DNS
# or BIND 9 of a release (SERVER_RELEASE: Debian 12's packages, which
# site.yml installs, or the current release's from this machine's cache,
# which `up` copies to the servers: make servers-current), an NSD build of
# this machine (the rebuilt NSD, make nsd-backlog; the recvmmsg build, make
# nsd-recvmmsg; site.yml copies it), or the operator's own build
# (SERVER_PREFIX, scripts/lib/lab-own.sh), with each one's listen backlog
# and DNS over TLS where the server has it (the netns testbed's rules:
# tb_check_server_build, srv_<kind>_backlog_check, _tls_check).
lab_validate_server() {
    srv_check_kind "$SERVER"
    release_check_name "$SERVER_RELEASE"
    [ "${SERVER_XDP:-no}" = no ] || die "SERVER_XDP=yes: Knot over XDP runs on the namespace testbed only (the lab's servers keep their sockets)"
    case $NSD_BUILD in
        debian|rebuilt|recvmmsg) ;;
        *) die "unknown NSD_BUILD=$NSD_BUILD (debian: the release's package, backlog $NSD_DEBIAN_BACKLOG; rebuilt: make nsd-backlog, any backlog; recvmmsg: make nsd-recvmmsg, with SERVER_RELEASE=current)" ;;
    esac
    [[ $SERVER_BACKLOG =~ ^[1-9][0-9]*$ ]] && [ "$SERVER_BACKLOG" -le 65535 ] \
        || die "SERVER_BACKLOG=$SERVER_BACKLOG must be a positive integer, at most 65535"
    lab_own_check
    if [ -z "${SERVER_PREFIX:-}" ]; then
        tb_check_server_build
        # Debian's NSD's and Knot's are fixed; BIND's tcp-listen-queue and the
        # rebuilt NSD's take SERVER_BACKLOG, through the servers' somaxconn
        # (RB_SOMAXCONN: rb-server raises it to the backlog, never lowers it).
        srv "$SERVER" backlog_check "$SERVER_BACKLOG"
    fi
    case $SERVER_TLS in
        # (an own build's DoT is checked on the hosts: up's dig +tls)
        yes) [ -n "${SERVER_PREFIX:-}" ] || srv "$SERVER" tls_check ;;
        no) ;;
        *) die "SERVER_TLS=$SERVER_TLS must be yes or no (DNS over TLS on port $TB_TLS_PORT)" ;;
    esac
    [ "${SERVER_QUIC:-no}" = no ] || die "SERVER_QUIC=$SERVER_QUIC: DNS over QUIC is a namespace testbed setting (a lab's servers are rendered without it)"
}

# lab_nsd_build_dir: this machine's NSD build the servers run (NSD_BUILD
# rebuilt or recvmmsg; nothing for the release's package).
lab_nsd_build_dir() {
    case $NSD_BUILD in rebuilt) echo "$NSD_REBUILT_DIR" ;; recvmmsg) echo "$NSD_RECVMMSG_DIR" ;; esac
}

# lab_render DIR: every server's configuration for the current settings,
# as the hosts will have it (their rb_dir), in DIR/ROLE/server.conf, the
# daemon's command lines in DIR/ROLE/server.env (rb-server's), the zones in
# DIR/zones, and with SERVER_TLS=yes the testbed's CA and server
# certificate in DIR/tls (what site.yml copies).
lab_render() {
    local out=$1 role rdir
    rm -rf "$out"; mkdir -p "$out/zones"
    cp "$TB_ZONEDIR"/*.zone "$out/zones/"
    lab_render_tls "$out"
    for role in "${SERVER_ROLES[@]}"; do
        rdir=$(lab_remote_dir "$role")
        mkdir -p "$out/$role"
        # The testbed's own renderer, then its paths made the host's.
        { tb_render_server_conf "$role" | lab_host_paths "$role"
          # New certificates (a new CA after down and up) reconfigure the server too.
          [ "$SERVER_TLS" = no ] || printf '# tls: %s\n' "$(cat "$out/tls/server.pem" | md5sum | cut -c1-16)"
        } > "$out/$role/server.conf"
        lab_own_merge "$role" "$out/$role/server.conf"
        { srv_host_env "$SERVER" "$rdir/server" "$(role_addr4 "$role")" | lab_host_paths "$role"
          # The servers' net.core.somaxconn: the backlog where the daemon asks
          # listen() for more (the rebuilt NSD asks 65535; BIND asks its
          # tcp-listen-queue), else the host's own (netns: the namespace's).
          if [ "$NSD_BUILD" = rebuilt ] || [ "$SERVER" = bind ]; then
              printf 'RB_SOMAXCONN=%s\n' "$SERVER_BACKLOG"
          else
              printf 'RB_SOMAXCONN=default\n'
          fi
          # A new build of an NSD of this machine, of the current release's
          # cache entry or of the operator's own is copied (theirs: found)
          # and restarted too.
          [ "$NSD_BUILD" = debian ] || printf '# nsd build: %s\n' "$(lab_nsd_build_sum)"
          [ -z "$SERVER_RELEASE_DIR" ] || [ -n "${SERVER_PREFIX:-}" ] || printf '# release %s: %s\n' "$SERVER_RELEASE" "$(cat "$SERVER_RELEASE_DIR/MANIFEST.sha256")"
          [ -z "${SERVER_PREFIX:-}" ] || printf '# own build %s: %s\n' "$SERVER_PREFIX" "$(lab_own_sum "$role")"
        } > "$out/$role/server.env"
    done
    lab_render_counters "$out"
}

# lab_host_paths ROLE: stdin with this machine's paths of the testbed (the
# zones, the role's state, the TLS directory, the NSD builds, the current
# release's cache entry) made the host's (its rb_dir).
lab_host_paths() {
    local rdir rel=(); rdir=$(lab_remote_dir "$1")
    [ -z "${SERVER_RELEASE_DIR:-}" ] || rel=(-e "s|$SERVER_RELEASE_DIR/|$rdir/bin/release-$SERVER_RELEASE/|g")
    sed -e "s|$TB_ZONEDIR|$rdir/zones|g" -e "s|$TB_STATE/$1|$rdir/server|g" \
        -e "s|$TB_TLS_DIR|$rdir/tls|g" -e "s|$NSD_REBUILT_DIR/|$rdir/bin/nsd-rebuilt/|g" \
        -e "s|$NSD_RECVMMSG_DIR/|$rdir/bin/nsd-recvmmsg/|g" "${rel[@]+"${rel[@]}"}"
}

# lab_nsd_build_sum: the programs' checksum of the NSD build in use.
lab_nsd_build_sum() { (cd "$(lab_nsd_build_dir)" && cat nsd nsd-checkconf nsd-control | md5sum | cut -c1-16); }

# lab_ship_release: the current release's cache entry (SERVER_RELEASE of
# prepared packages, make servers-current) on every server host, in
# rb_dir/bin/release-NAME, copied over the master connection when the
# host's MANIFEST differs and checked there against it (sha256sum) before
# it replaces the old one.
lab_ship_release() {
    [ -n "$SERVER_RELEASE_DIR" ] && [ -z "${SERVER_PREFIX:-}" ] || return 0
    local role d want have
    want=$(cat "$SERVER_RELEASE_DIR/MANIFEST.sha256")
    for role in "${SERVER_ROLES[@]}"; do
        d="$(lab_remote_dir "$role")/bin/release-$SERVER_RELEASE"
        have=$(lab_ssh "$role" "cat $(printf %q "$d/MANIFEST.sha256") 2>/dev/null") || have=""
        [ "$have" != "$want" ] || continue
        log "lab: copying the $SERVER_RELEASE release ($(basename "$SERVER_RELEASE_DIR")) to $role"
        lab_ssh_opts "$role"
        tar -C "$SERVER_RELEASE_DIR" -cf - . | "${LAB_SSH[@]}" -- "d=$(printf %q "$d"); rm -rf \$d.new && mkdir -p \$d.new && tar -C \$d.new -xf - && cd \$d.new && sha256sum -c --quiet --strict MANIFEST >/dev/null && [ \"\$(sha256sum < MANIFEST | cut -d' ' -f1)\" = \"\$(cat MANIFEST.sha256)\" ] && rm -rf \$d && mv \$d.new \$d" \
            || die "lab: the $SERVER_RELEASE release could not be copied to $role, or its copy there does not match its MANIFEST"
    done
}

# lab_render_tls DIR: with SERVER_TLS=yes, the testbed's CA and server
# certificate (scripts/lib/tls.sh; the same names and addresses as on the
# netns testbed: the service addresses and both servers') made in the
# testbed's state, and the server's key and certificate copied to DIR/tls
# for the servers. The CA's key stays on this machine; the players get
# the CA certificate from `exec` (an argument under the TLS directory is
# carried to the host, as any file of this machine).
lab_render_tls() {
    [ "$SERVER_TLS" = yes ] || return 0
    tb_make_tls_certs
    mkdir -p "$1/tls"; chmod 700 "$1/tls"
    cp "$TB_TLS_DIR/server.pem" "$TB_TLS_DIR/ca.pem" "$1/tls/"
    install -m 600 "$TB_TLS_DIR/server.key" "$1/tls/server.key"
}

# lab_render_counters DIR: the nftables counters the experiments read: the
# listener's, the servers' (with what a lab counts there under the
# router's names, scripts/lib/counters.jq) and, when the lab has a sink
# host, the sink's.
lab_render_counters() {
    tb_counters_ruleset listener > "$1/counters-listener.nft"
    tb_counters_ruleset server-lab > "$1/counters-server.nft"
    if lab_role_host sink >/dev/null; then tb_counters_ruleset sink > "$1/counters-sink.nft"; fi
}

# lab_playbook ARGS...: scripts/lab/site.yml on the inventory with the
# rendered files; its recap on stderr, the output in $TB_STATE/ansible.log.
lab_playbook() {
    local log="$TB_STATE/ansible.log" rc=0
    ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_NOCOLOR=1 \
    ANSIBLE_SSH_ARGS="-o ControlMaster=auto -o ControlPersist=60s" ANSIBLE_PIPELINING=True \
        ansible-playbook -i "$INVENTORY" "$RB_TOP/scripts/lab/site.yml" \
        -e "rb_top=$RB_TOP rb_render=$TB_STATE/render rb_prefix=$RB_PREFIX rb_tls=$SERVER_TLS" \
        -e "rb_nsd_build=$NSD_BUILD rb_nsd_dir=$(lab_nsd_build_dir)" "$@" > "$log" 2>&1 </dev/null || rc=$?
    sed -n '/^PLAY RECAP/,$p' "$log" >&2
    [ "$rc" -eq 0 ] || die "ansible-playbook failed (exit $rc): $(grep -E 'fatal|FAILED|ERROR' "$log" | head -n 3)"
}

# lab_changed_total: the sum of changed= over the last playbook's recap.
lab_changed_total() {
    sed -n '/^PLAY RECAP/,$p' "$TB_STATE/ansible.log" | grep -o 'changed=[0-9]*' | awk -F= '{ s += $2 } END { print s + 0 }'
}

# lab_setup: provision every host (make lab-setup): the full playbook.
lab_setup() {
    tb_defaults_lab
    lab_validate
    mkdir -p "$TB_STATE"
    lab_render "$TB_STATE/render"
    lab_own_programs_check
    lab_ship_release
    lab_playbook
    log "lab-setup: $(lab_changed_total) changes (a second run changes nothing)"
}

tb_defaults_lab() { lab_apply_defaults; }

# lab_check: what up would refuse, refused the same way, no host reached
# (scripts/testbed check).
lab_check() {
    lab_apply_defaults
    lab_validate
    # SERVER_CONF against the configuration the suite would render
    [ -n "${SERVER_CONF:-}" ] || return 0
    local role tmp; tmp=$(mktemp -d)
    for role in "${SERVER_ROLES[@]}"; do
        tb_render_server_conf "$role" | lab_host_paths "$role" > "$tmp/$role.conf"
        ( lab_own_merge "$role" "$tmp/$role.conf" ) || { rm -rf "$tmp"; exit 1; }
    done
    rm -rf "$tmp"
}

# lab_connect: one master connection per host, opened in parallel.
lab_connect() {
    local role pids=() failed="" hosts=()
    mapfile -t hosts < <(lab_reached_hosts)
    for role in "${hosts[@]}"; do
        ( lab_ssh "$role" true ) & pids+=("$!")
    done
    local i=0
    for role in "${hosts[@]}"; do
        wait "${pids[$i]}" || failed+=" $role"
        i=$((i + 1))
    done
    [ -z "$failed" ] || die "lab: cannot reach$failed over SSH (inventory $INVENTORY)"
}

# lab_clock_measure: each host's clock against this machine's, from five
# calls of `date +%s.%N` over its master connection, each timed here
# (lab.jq clock_offset: the shortest round trip's offset and its
# uncertainty, half that round trip), into $TB_STATE/clock.json as
# [{role, clock}]: every host up reaches (lab_reached_hosts), the probe
# host's too, whose probe's start and times are on its own clock.
lab_clock_measure() {
    local role i t0 t1 r rows=() s
    for role in $(lab_reached_hosts); do
        lab_ssh_opts "$role"
        s=""
        for i in 1 2 3 4 5; do
            # (a decimal point whatever the locale's mark)
            t0=${EPOCHREALTIME/,/.}
            r=$("${LAB_SSH[@]}" -n -- 'date +%s.%N') || die "lab: cannot read the clock of $role"
            t1=${EPOCHREALTIME/,/.}
            [[ $r =~ ^[0-9]+\.[0-9]+$ ]] || die "lab: $role's clock read as '$r' (date +%s.%N)"
            s+="{\"t0\":$t0,\"t1\":$t1,\"remote\":$r}"$'\n'
        done
        rows+=("$(jq -s -c -L "$RB_TOP/scripts/lib" --arg r "$role" 'include "lab"; {role: $r, clock: clock_offset(.)}' <<<"$s")")
    done
    printf '%s\n' "${rows[@]}" | jq -s . > "$TB_STATE/clock.json"
}

# lab_clock_check FILE MAX_MS: dies naming every host of FILE (as
# lab_clock_measure writes it) whose clock is off this machine's by more
# than MAX_MS beyond its uncertainty (lab.jq clock_refused): players start
# together at an absolute time of their own clocks, and the probe's
# results are placed against the load by its host's.
lab_clock_check() {
    local bad
    bad=$(jq -r -L "$RB_TOP/scripts/lib" --argjson m "$2" 'include "lab"; clock_refused($m)' "$1") \
        || die "lab: the clock readings in $1 could not be read"
    [ -z "$bad" ] || die "lab: refused: $(paste -s -d ';' <<<"$bad" | sed 's/;/; /g') (the players start at one absolute time of their own clocks, the probe's start is its host's: synchronise the hosts, chrony or PTP; docs/real-lab.md)"
}

# lab_check_programs: the hosts run this build's programs (make lab-setup
# installs them; a rebuild needs it again).
lab_check_programs() {
    local role p want have
    for p in tcpbench/tcpbench tcpbench/rbprobe scripts/sampler/rbsample; do
        need_program "$RB_TOP/$p"
    done
    want=$(cd "$RB_TOP" && md5sum tcpbench/tcpbench tcpbench/rbprobe scripts/sampler/rbsample scripts/lab/rb-server | awk '{ print $1 }' | tr '\n' ' ')
    for role in $(lab_reached_hosts); do
        have=$(lab_ssh "$role" "cd $(printf %q "$(lab_remote_dir "$role")")/bin 2>/dev/null && md5sum tcpbench rbprobe rbsample rb-server 2>/dev/null" | awk '{ print $1 }' | tr '\n' ' ') || true
        [ "$have" = "$want" ] || die "lab: $role does not run this build's programs (or was never provisioned): run make lab-setup INVENTORY=$INVENTORY"
    done
}

# lab_up: check and configure: settings refused or accepted, every host
# reached, the devices' SNMP agents answering, this build's programs there, the servers' configuration
# brought to the settings (the playbook's server part, only when it
# differs), the players' TIME-WAIT setting, and the hosts' facts recorded.
lab_up() {
    need_tools ssh ansible-playbook jq snmpget snmpbulkwalk
    lab_apply_defaults
    lab_validate
    # The devices' SNMP passphrases readable (before any host is contacted),
    # then, with the hosts reached, their agents answering with them.
    lab_snmp_prepare die
    mkdir -p "$TB_STATE"
    lab_connect
    lab_snmp_check
    lab_clock_measure
    lab_clock_check "$TB_STATE/clock.json" "$LAB_CLOCK_MAX_MS"
    lab_check_programs
    lab_render "$TB_STATE/render"
    lab_own_programs_check
    lab_ship_release
    local role want have stale=0
    for role in "${SERVER_ROLES[@]}"; do
        want=$(cat "$TB_STATE/render/$role/server.conf" "$TB_STATE/render/$role/server.env" | md5sum | cut -c1-32)
        have=$(lab_ssh "$role" "cd $(printf %q "$(lab_remote_dir "$role")/server") 2>/dev/null && cat server.conf server.env 2>/dev/null | md5sum; $(printf %q "$(lab_remote_dir "$role")/bin/rb-server") status $(printf %q "$(lab_remote_dir "$role")/server") >/dev/null && echo running" | tr '\n' ' ') || true
        [ "$have" = "$want  - running " ] || stale=1
    done
    if [ "$stale" = 1 ]; then
        log "lab: configuring the servers (SERVER=$SERVER${SERVER_TLS:+ SERVER_TLS=$SERVER_TLS} zones ${ZONES:-$TB_ZONEDIR})"
        lab_playbook --tags server --limit servers
    fi
    lab_check_answers
    local tw
    for role in "${LAB_PLAYERS[@]}"; do
        if [ "$PLAYER_TW_BUCKETS" = default ]; then tw=$(lab_ssh "$role" "cat $(printf %q "$(lab_remote_dir "$role")")/run/tw_default 2>/dev/null || sysctl -n net.ipv4.tcp_max_tw_buckets")
        else tw=$PLAYER_TW_BUCKETS; fi
        lab_ssh "$role" "d=$(printf %q "$(lab_remote_dir "$role")")/run; mkdir -p \$d; [ -f \$d/tw_default ] || sysctl -n net.ipv4.tcp_max_tw_buckets > \$d/tw_default; sysctl -q -w net.ipv4.tcp_max_tw_buckets=$tw"
    done
    lab_gather_facts
    tb_save_config
    printf 'BACKEND=lab\nINVENTORY=%q\nLAB_CLOCK_MAX_MS=%q\n' "$INVENTORY" "$LAB_CLOCK_MAX_MS" >> "$TB_CONFIG"
    log "up (lab $INVENTORY): LB=$LB (the router's), servers $SERVER, zones $TB_ZONEDIR${TB_PROFILE:+, profile $TB_PROFILE}"
}

# lab_check_answers: each server answers SOA for . on its own address, from
# its own host (dig, within 15 s), and with SERVER_TLS=yes over TLS too, its
# certificate verified against the testbed's CA (as the netns testbed's
# tb_server_answers and tb_server_answers_tls); dies with the daemon's log
# otherwise.
lab_check_answers() {
    local role rdir a4 q tls what
    for role in "${SERVER_ROLES[@]}"; do
        rdir=$(lab_remote_dir "$role"); a4=$(role_addr4 "$role")
        # An answer is a line of +short's output not starting with ';' (dig
        # prints its errors there too, and exits 0 on a failed TLS handshake).
        q="dig +time=1 +tries=1 +short @$a4 . SOA 2>/dev/null | grep -q '^[^;]'"
        tls=true
        [ "$SERVER_TLS" = no ] || tls="dig +tls +tls-ca=$(printf %q "$rdir/tls/ca.pem") +tls-hostname=$TLS_SERVICE_NAME -p $TB_TLS_PORT +time=1 +tries=1 +short @$a4 . SOA 2>/dev/null | grep -q '^[^;]'"
        what=$(lab_ssh "$role" "ok=0; for i in \$(seq 150); do $q && ok=1 && break; sleep 0.1; done; [ \$ok = 1 ] || { echo 'over UDP'; exit 1; }; for i in \$(seq 50); do $tls && exit 0; sleep 0.1; done; echo 'over TLS on port $TB_TLS_PORT (its certificate verified against the testbed CA)'; exit 1") \
            || die "lab: $SERVER on $role does not answer SOA for . on $a4 ${what:-(not reached)}; its log: $(lab_ssh "$role" "tail -n 5 $(printf %q "$rdir/server/server.log")" 2>/dev/null | tr '\n' ' ')"
    done
}

# lab_gather_facts: the roles' cgroups made (so the sampler counts every
# role from the start), and what the hosts are (kernel, CPUs, NIC, daemon version),
# the SSH per-call overhead over the master connection (median of 5) and
# the clock's offset (lab_clock_measure's), into $TB_STATE/facts.json, with
# the checks of each host (lab-checks.sh, read in the same SSH round),
# whose warnings are printed once.
lab_gather_facts() {
    local role f all=() vcmd vsed ctx
    ctx=$(lab_checks_ctx)
    # The version of the server software in use, read as the netns testbed
    # reads it (srv_<kind>_version_cmd and _version_sed), on every host
    # (null where it is not installed).
    # Its build options too (status .server.release, as the netns testbed's
    # release_status_json reads them), and on the servers the program file
    # the daemon runs (the one its process has mapped).
    vsed="srv_${SERVER}_version_sed"; vsed=$(printf %q "${!vsed}")
    local bsed prog bcmd run
    bsed=$(printf %q "$(srv_var "$SERVER" build_sed)")
    for role in $(lab_reached_hosts); do
        vcmd=$(srv "$SERVER" version_cmd | lab_host_paths "$role")
        prog=$(srv "$SERVER" program | lab_host_paths "$role")
        bcmd=true
        [[ " ${SERVER_ROLES[*]} " != *" $role "* ]] || bcmd="$(printf %q "$prog") $(srv "$SERVER" build_flag)"
        run="p=\$(cat $(printf %q "$(lab_remote_dir "$role")/server/server.pid") 2>/dev/null); [ -z \"\$p\" ] || awk -v p=/$(basename "$prog") 'substr(\$6, length(\$6) - length(p) + 1) == p { print \$6; exit }' /proc/\$p/maps 2>/dev/null"
        # (lines 9 and 10: the build options and the program run; the host checks' after them)
        f=$(lab_ssh "$role" "mkdir -p $(lab_cgroup "$role") 2>/dev/null; iface=$(lab_host "$role" iface); printf '%s\n' \"\$(uname -r)\" \"\$(nproc)\" \"\$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)\" \"\$(basename \"\$(readlink /sys/class/net/\$iface/device/driver 2>/dev/null)\" 2>/dev/null)\" \"\$(cat /sys/class/net/\$iface/speed 2>/dev/null)\" \"\$(cat /sys/class/net/\$iface/address)\" \"\$($vcmd 2>&1 | sed -n $vsed | head -n1)\" \"\$(hostname)\" \"\$($bcmd 2>&1 | sed -n $bsed | head -n1)\" \"\$($run)\"; $(lab_checks_cmd "$role")") \
            || die "lab: cannot read facts from $role"
        local t ts=() i
        lab_ssh_opts "$role"
        for i in 1 2 3 4 5; do
            t=$(now_ns); "${LAB_SSH[@]}" -n -- true; ts+=($(( ($(now_ns) - t) / 1000 )))
        done
        all+=("$(jq -n -L "$RB_TOP/scripts/lib" --arg r "$role" --arg f "$f" --argjson ts "$(printf '%s\n' "${ts[@]}" | jq -s .)" --argjson ctx "$ctx" '
            include "lab-checks";
            ($f | split("\n")) as $v |
            {role:$r, hostname:$v[7], kernel:$v[0], cpus:($v[1] | tonumber? // null), cpu_model:$v[2],
             nic:{driver:(if $v[3] == "" then null else $v[3] end), speed_mbit:($v[4] | tonumber? // null), mac:$v[5]},
             daemon_version:(if $v[6] == "" then null else $v[6] end),
             daemon_build_options:(if ($v[8] // "") == "" then null else $v[8] end),
             daemon_running:(if ($v[9] // "") == "" then null else $v[9] end),
             ssh_call_us:{median:($ts | sort | .[2]), samples:$ts},
             checks:host_checks($r; $v[10:] | checks_facts; $ctx[$r])}')")
    done
    [ ! -f "$TB_STATE/facts.json" ] || mv "$TB_STATE/facts.json" "$TB_STATE/facts.before.json"
    printf '%s\n' "${all[@]}" | jq -s --slurpfile c "$TB_STATE/clock.json" \
        '($c[0] | map({(.role): .clock}) | add) as $k | map(. + {clock: $k[.role]})' > "$TB_STATE/facts.json"
    lab_checks_warn "$TB_STATE/facts.json" "$TB_STATE/facts.before.json"
    rm -f "$TB_STATE/facts.before.json"
}

# lab_down: close the master connections and forget the state. The hosts
# stay provisioned and their server daemons keep running (make lab-setup
# made them so).
lab_down() {
    local role s
    if [ -d "$TB_STATE/ssh" ]; then
        # (every host a connection was opened to: the sink's and the
        # probe's too, which are not in LAB_HOSTS)
        for s in "$TB_STATE"/ssh/*; do
            [ -S "$s" ] || continue
            role=${s##*/}
            lab_is_host "$role" || continue
            # The role's cgroup, once nothing runs in it (the daemon keeps its own).
            lab_ssh "$role" "rmdir $(lab_cgroup "$role") 2>/dev/null; rmdir $(dirname "$(lab_cgroup "$role")") 2>/dev/null; true" || true
            ssh -o "ControlPath=$TB_STATE/ssh/$role" -O exit dummy >/dev/null 2>&1 || true
        done
    fi
    rm -rf "$TB_STATE"
}

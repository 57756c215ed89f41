# lab.sh: the lab backend of scripts/testbed (BACKEND=lab INVENTORY=file.yml):
# the same roles on separate hosts, described by an Ansible inventory,
# provisioned by scripts/lab/site.yml (make lab-setup) and reached over SSH
# only (one multiplexed connection per host). docs/real-lab.md is the
# operator's guide and shows the inventory.
#
# Two halves:
#   lab_topology_load        the address plan from the inventory (sourced by
#                            topology.sh when BACKEND=lab): SERVICE4/6,
#                            role_addr4/6, player_block4/6, and RB_ALLOW_RANGES
#                            (exported: the target guard's lab ranges)
#   lab_up, lab_down, lab_exec, lab_counters_json, lab_server_stats_json,
#   lab_snmp_octets, lab_sample, lab_capture, lab_mac, lab_status_json,
#   lab_capture_points, lab_teardown
#                            the testbed command line's backend (scripts/testbed)
#
# Source after common.sh.

LAB_HOSTS=(player1 player2 listener server1 server2)
LAB_STATE_ROOT=${RB_STATE_ROOT:-/run/rootbench}

# ---------------------------------------------------------------- inventory

# lab_inventory_normalise: `ansible-inventory --list` (stdin) as the lab's
# description (stdout), or the first thing missing from it (stderr, exit 1).
lab_inventory_normalise() {
    jq -c --arg inv "$1" --arg sha "$2" '
      ._meta.hostvars as $hv |
      def hostsof($g): (.[$g].hosts // []);
      def need($h; $k): ($hv[$h][$k] // error("inventory \($inv): host \($h) has no \($k)"));
      def str: tostring;
      (hostsof("players") + hostsof("listeners") + hostsof("servers")) as $managed |
      (["player1","player2","listener","server1","server2"] - $managed) as $missing |
      if ($missing | length) > 0 then error("inventory \($inv): no host \($missing | join(", ")) (groups players: player1 player2, listeners: listener, servers: server1 server2)") else . end |
      ($hv["router"] // error("inventory \($inv): no router (group devices, host router)")) as $r |
      ($hv["switch"] // error("inventory \($inv): no switch (group devices, host switch)")) as $s |
      ($hv["player1"]) as $any |
      {inventory: $inv, sha: $sha,
       service4: ($any.rb_service4 // error("inventory \($inv): no rb_service4 (the service address)")),
       service6: ($any.rb_service6 // error("inventory \($inv): no rb_service6")),
       allow_ranges: ($any.rb_allow_ranges // error("inventory \($inv): no rb_allow_ranges (the address ranges the lab declares as its own)")
                      | if type == "array" then . else [.] end | map(str)),
       server: ($any.rb_server // "nsd"), zones: ($any.rb_zones // ""),
       router: {lb: ($r.rb_lb // "l3"), addr4_client: need("router"; "rb_addr4_client"), addr6_client: need("router"; "rb_addr6_client"),
                addr4_server: need("router"; "rb_addr4_server"), addr6_server: need("router"; "rb_addr6_server"),
                mac_client: need("router"; "rb_mac_client"), model: ($r.rb_model // "not described"),
                snmp_host: ($r.rb_snmp_host // null), community: ($r.rb_snmp_community // "public")},
       switch: {snmp_host: need("switch"; "rb_snmp_host"), community: ($s.rb_snmp_community // "public"),
                router_port_ifindex: need("switch"; "rb_router_port_ifindex"), model: ($s.rb_model // "not described")},
       hosts: ([$managed[] | . as $h | {key: $h, value: {
           host: ($hv[$h].ansible_host // $h), port: ($hv[$h].ansible_port // 22 | str),
           user: ($hv[$h].ansible_user // "root"), key: ($hv[$h].ansible_ssh_private_key_file // ""),
           ssh_args: ($hv[$h].ansible_ssh_common_args // ""),
           dir: ($hv[$h].rb_dir // "/opt/rootbench"), iface: need($h; "rb_iface"),
           addr4: need($h; "rb_addr4"), addr6: need($h; "rb_addr6"),
           gateway4: need($h; "rb_gateway4"), gateway6: need($h; "rb_gateway6"),
           cpus: (need($h; "rb_cpus") | str),
           block4: ($hv[$h].rb_block4 // ""), block6: ($hv[$h].rb_block6 // ""),
           cgroup: (($hv[$h].rb_cgroup_root // "/sys/fs/cgroup/rootbench-lab")
                    | if test("^/sys/fs/cgroup/[A-Za-z0-9._/-]+$") then . else error("inventory \($inv): rb_cgroup_root \(.) is not a directory under /sys/fs/cgroup") end
                    | . + "/" + $h)}}] | from_entries)}'
}

# lab_topology_load: read INVENTORY and define the address plan from it.
# What it derives is kept as a shell file per prefix while the inventory is
# unchanged (every testbed call loads it: one file, no parsing).
lab_topology_load() {
    [ -n "${INVENTORY:-}" ] || die "BACKEND=lab needs INVENTORY=file.yml (an Ansible inventory: docs/real-lab.md)"
    [ -r "$INVENTORY" ] || die "INVENTORY=$INVENTORY: not readable"
    INVENTORY=$(cd "$(dirname "$INVENTORY")" && pwd)/$(basename "$INVENTORY")
    local sha cache="$LAB_STATE_ROOT/${RB_PREFIX:-rb}/lab.env" out err
    sha=$(sha256sum "$INVENTORY" | cut -c1-16)
    declare -gA LAB_F=()
    if [ -f "$cache" ] && [ "$(head -n1 "$cache")" = "# $sha $INVENTORY" ]; then
        # shellcheck disable=SC1090
        . "$cache"
    else
        command -v ansible-inventory >/dev/null || die "ansible-inventory not found: run make deps (Debian package ansible)"
        err=$(mktemp)
        out=$(ansible-inventory -i "$INVENTORY" --list 2>"$err" </dev/null) || { out=$(tail -n 3 "$err"); rm -f "$err"; die "INVENTORY=$INVENTORY: ansible-inventory: $out"; }
        rm -f "$err"
        LAB_JSON=$(lab_inventory_normalise "$INVENTORY" "$sha" <<<"$out" 2>&1) \
            || die "$(sed -n 's/^jq: error (at [^)]*): //p' <<<"$LAB_JSON" | head -n1)"
        out=$(lab_topology_env "$sha")
        eval "$out"
        mkdir -p "$(dirname "$cache")" 2>/dev/null && printf '%s\n' "$out" > "$cache.tmp.$$" \
            && mv "$cache.tmp.$$" "$cache" || true
    fi
    export RB_ALLOW_RANGES
}

# lab_topology_env SHA: the derived plan as shell assignments: LAB_JSON,
# every host's fields (LAB_F[ROLE.FIELD], read by lab_host), the service
# addresses, the lab's declared ranges (RB_ALLOW_RANGES: the target guard
# admits them besides loopback and the benchmarking ranges), and the
# address table "ROLE addr4 addr6 block4 block6" (LAB_ADDRS).
lab_topology_env() {
    printf '# %s %s\n' "$1" "$INVENTORY"
    printf 'LAB_JSON=%q\n' "$LAB_JSON"
    jq -r '(.hosts | to_entries[] | .key as $r | .value | to_entries[] | "LAB_F[\($r).\(.key)]=\(.value | tostring | @sh)"),
           "SERVICE4=\(.service4 | @sh)", "SERVICE6=\(.service6 | @sh)",
           "RB_ALLOW_RANGES=\(.allow_ranges | join(" ") | @sh)",
           "LAB_ADDRS=\([(.hosts | to_entries[] | [.key, .value.addr4, .value.addr6, (if (.value.block4 // "") == "" then "-" else .value.block4 end), (if (.value.block6 // "") == "" then "-" else .value.block6 end)] | join(" ")),
                          ("router-c " + .router.addr4_client + " " + .router.addr6_client + " - -"),
                          ("router-s " + .router.addr4_server + " " + .router.addr6_server + " - -")] | join("\n") | @sh)"' <<<"$LAB_JSON"
}

lab_addr_field() {
    local v
    v=$(awk -v r="$1" -v f="$2" '$1 == r { print $f; exit }' <<<"$LAB_ADDRS")
    [ -n "$v" ] && [ "$v" != - ] || return 1
    echo "$v"
}
lab_role_addr4() { lab_addr_field "$1" 2; }
lab_role_addr6() { lab_addr_field "$1" 3; }
lab_player_block4() { case $1 in player*) lab_addr_field "$1" 4 ;; *) return 1 ;; esac; }
lab_player_block6() { case $1 in player*) lab_addr_field "$1" 5 ;; *) return 1 ;; esac; }

# lab_host ROLE FIELD: a field of a managed host's description.
lab_host() { [ -n "${LAB_F[$1.$2]+x}" ] || return 1; printf '%s\n' "${LAB_F[$1.$2]}"; }

lab_is_host() { [[ " ${LAB_HOSTS[*]} " == *" $1 "* ]]; }

# lab_check_ranges: every address the lab sends to or from lies in the
# ranges its inventory declares as its own (strictly: the benchmarking
# ranges count only when declared). Dies with the first one outside.
lab_check_ranges() {
    local a addrs=() out
    addrs=("$SERVICE4" "$SERVICE6")
    while read -r _ a4 a6 b4 b6; do
        addrs+=("$a4" "$a6")
        [ "$b4" = - ] || addrs+=("${b4%/*}" "$(lab_block_last "$b4")")
        [ "$b6" = - ] || addrs+=("${b6%/*}")
    done <<<"$LAB_ADDRS"
    need_program "$RB_TOP/analysis/target-check"
    local rc
    for a in "${addrs[@]}"; do
        rc=0
        out=$("$RB_TOP/analysis/target-check" --within "$RB_ALLOW_RANGES" "$a" 2>&1) || rc=$?
        case $rc in
            0) ;;
            1) die "lab: refused before anything is touched: $a is outside the ranges inventory $INVENTORY declares as the lab's own (rb_allow_ranges: $RB_ALLOW_RANGES)" ;;
            *) die "lab: inventory $INVENTORY: ${out#target-check: error: }" ;;
        esac
    done
}

# lab_block_last CIDR4: the last address of an IPv4 block.
lab_block_last() {
    local net=${1%/*} len=${1#*/} a b c d n
    IFS=. read -r a b c d <<<"$net"
    n=$(( ((a << 24) | (b << 16) | (c << 8) | d) | ((1 << (32 - len)) - 1) ))
    printf '%d.%d.%d.%d\n' $((n >> 24 & 255)) $((n >> 16 & 255)) $((n >> 8 & 255)) $((n & 255))
}

# ---------------------------------------------------------------- SSH

# lab_ssh_opts ROLE: the ssh options for a host: batch mode, one master
# connection per host kept 10 minutes (ControlMaster), its socket in the
# testbed's state.
lab_ssh_opts() {
    local role=$1 key args
    mkdir -p "$TB_STATE/ssh"
    LAB_SSH=(ssh -o BatchMode=yes -o ConnectTimeout=5 -o ControlMaster=auto
             -o "ControlPath=$TB_STATE/ssh/$role" -o ControlPersist=600
             -o ServerAliveInterval=5 -o LogLevel=ERROR)
    key=$(lab_host "$role" key) || true
    [ -z "$key" ] || LAB_SSH+=(-i "$key")
    args=$(lab_host "$role" ssh_args) || true
    # shellcheck disable=SC2206
    [ -z "$args" ] || LAB_SSH+=($args)
    LAB_SSH+=(-p "$(lab_host "$role" port)" -l "$(lab_host "$role" user)" "$(lab_host "$role" host)")
}

# lab_ssh ROLE CMDLINE: run a shell command line on the host. Standard
# input is not forwarded (ssh would read it up, e.g. the rest of a `while
# read` loop's list); lab_push sends a file.
lab_ssh() {
    local role=$1; shift
    lab_ssh_opts "$role"
    "${LAB_SSH[@]}" -n -- "$*"
}

# lab_quote ARGS: the arguments as one shell-quoted command line.
lab_quote() { local a out=""; for a in "$@"; do out+=$(printf '%q ' "$a"); done; printf '%s' "${out% }"; }

# lab_push ROLE LOCAL REMOTE: copy a file over the master connection.
lab_push() {
    lab_ssh_opts "$1"
    "${LAB_SSH[@]}" -- "mkdir -p $(printf %q "$(dirname "$3")") && cat > $(printf %q "$3.tmp") && mv $(printf %q "$3.tmp") $(printf %q "$3")" < "$2"
}

# lab_pull ROLE REMOTE LOCAL: copy a file back (written whole, then renamed).
lab_pull() {
    lab_ssh_opts "$1"
    "${LAB_SSH[@]}" -n -- "cat $(printf %q "$2")" > "$3.tmp.$$" && mv "$3.tmp.$$" "$3"
}

# lab_cgroup ROLE: the role's cgroup (v2) on its host: what runs there for
# rootbench (commands, the server daemon, not the sampler) is counted in it
# (rb_cgroup_root/ROLE; the simulated lab gives each lab a root of its own,
# since its hosts share this machine's cgroup tree).
lab_cgroup() { lab_host "$1" cgroup 2>/dev/null || echo "/sys/fs/cgroup/rootbench-lab/$1"; }

# lab_remote_dir ROLE: where rootbench lives on the host.
lab_remote_dir() { lab_host "$1" dir; }

# ---------------------------------------------------------------- exec

# lab_local_path PATH: PATH is this machine's, to be carried to the host:
# under the tree, the results, or the temporary directory (where the
# experiments keep their traces, query lists and outputs), or the
# testbed's TLS directory (the CA certificate tcpbench --tls-ca verifies
# with). Any other path is the host's own (/etc/..., a log of its own).
lab_local_path() {
    local p
    for p in "$RB_TOP" "${RB_RESULTS:-$RB_TOP/results}" "${TMPDIR:-/tmp}" "$TB_TLS_DIR"; do
        [[ $1 == "${p%/}"/* ]] && return 0
    done
    return 1
}

# lab_exec ROLE CMD...: CMD on the host, in the role's cgroup, pinned to its
# CPUs (rb_cpus). Arguments that name files of this machine (lab_local_path)
# are carried: a program of this build (under RB_TOP) runs as the copy make
# lab-setup installed in rb_dir/bin; an existing file is copied to the host
# first (rb_dir/run/stage, once per content); a path in an existing
# directory that names no file yet is an output: written on the host and
# fetched back to the path when the command ends. Standard input is not
# forwarded.
lab_exec() {
    local role=$1; shift
    lab_is_host "$role" || die "exec: $role is a lab device, not a host reached over SSH (hosts: ${LAB_HOSTS[*]})"
    local dir args=() a outs_l=() outs_r=() n=0 sum rpath
    dir=$(lab_remote_dir "$role")
    for a in "$@"; do
        if ! lab_local_path "$a"; then
            args+=("$a")
        elif [ -f "$a" ] && [ -x "$a" ] && [[ $a == "$RB_TOP"/* ]]; then
            args+=("$dir/bin/$(basename "$a")")
        elif [ -f "$a" ]; then
            sum=$(md5sum < "$a" | cut -c1-16)
            rpath="$dir/run/stage/$sum-$(basename "$a")"
            lab_ssh "$role" "test -f $(printf %q "$rpath")" || lab_push "$role" "$a" "$rpath" \
                || die "exec: cannot copy $a to $role"
            args+=("$rpath")
        elif [ ! -e "$a" ] && [ -d "$(dirname "$a")" ]; then
            rpath="$dir/run/out/$$-$n-$(basename "$a")"; n=$((n + 1))
            outs_l+=("$a"); outs_r+=("$rpath")
            args+=("$rpath")
        else
            args+=("$a")
        fi
    done
    local cg cpus rc=0 i
    cg=$(lab_cgroup "$role")
    cpus=$(lab_host "$role" cpus)
    lab_ssh "$role" "mkdir -p $(printf %q "$dir/run/out") && { mkdir -p $cg 2>/dev/null && echo \$\$ > $cg/cgroup.procs 2>/dev/null || true; } && exec taskset -c $cpus $(lab_quote "${args[@]}")" || rc=$?
    for i in "${!outs_r[@]}"; do
        if lab_ssh "$role" "test -f $(printf %q "${outs_r[$i]}")"; then
            lab_pull "$role" "${outs_r[$i]}" "${outs_l[$i]}" || warn "exec: cannot fetch ${outs_l[$i]} from $role"
            lab_ssh "$role" "rm -f $(printf %q "${outs_r[$i]}")" || true
        fi
    done
    return "$rc"
}

# ---------------------------------------------------------------- up / down

# lab_apply_defaults: the settings `up` was given, over the lab's own
# (the router's balancing, the inventory's server and zones).
lab_apply_defaults() {
    : "${LB:=$(jq -r .router.lb <<<"$LAB_JSON")}"
    : "${LINK:=none}"
    : "${SERVER:=$(jq -r .server <<<"$LAB_JSON")}"
    [ -n "${ZONES:-}" ] || [ -n "${ZONE_DIR:-}" ] || ZONES=$(jq -r .zones <<<"$LAB_JSON")
    : "${SERVER_WORKERS:=1}" "${SERVER_TCP_CLIENTS:=1000}" "${SERVER_TCP_TIMEOUT:=3}"
    : "${MINIMAL_RESPONSES:=no}" "${STEER:=none}" "${PLAYER_TW_BUCKETS:=default}"
    srv_check_kind "$SERVER"
    : "${SERVER_BACKLOG:=$(srv "$SERVER" default_backlog)}" "${SERVER_TLS:=no}" "${SERVER_EDNS_SIZE:=1232}"
    # As on the netns testbed: another NSD backlog than Debian's 256 is the rebuilt NSD.
    if [ -z "${NSD_BUILD:-}" ]; then
        if [ "$SERVER" != nsd ] || [ "$SERVER_BACKLOG" = "$NSD_DEBIAN_BACKLOG" ]; then NSD_BUILD=debian; else NSD_BUILD=rebuilt; fi
    fi
    # Pinning is per host, from the inventory (rb_cpus).
    SERVER_CPUS=$(lab_host server1 cpus); CLIENT_CPUS=$(lab_host player1 cpus)
}

# lab_validate: what a lab cannot be told by a setting (its router and its
# wires are hardware), refused before any host is touched.
lab_validate() {
    local rlb; rlb=$(jq -r .router.lb <<<"$LAB_JSON")
    [ "$LB" = "$rlb" ] || die "LB=$LB: the lab's router balances $rlb (inventory: router rb_lb); configure the router, then its rb_lb"
    [ "$LINK" = none ] || die "LINK=$LINK: a lab's links are its wires; shaping is not configured by rootbench in a lab (LINK=none)"
    [ "${SERVER_CPU:-max}" = max ] || die "SERVER_CPU=$SERVER_CPU: a lab's servers run without a CPU budget (a namespace testbed setting)"
    lab_validate_server
    case $STEER in none|rps) ;; *) die "unknown STEER=$STEER" ;; esac
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
}

# lab_validate_server: the server software a lab host runs: NSD, Knot DNS
# or BIND 9 from Debian's packages (site.yml installs all three), or the
# rebuilt NSD (make nsd-backlog on this machine; site.yml copies it to
# the servers), with each one's listen backlog, and DNS over TLS where
# the server has it (the netns testbed's rules: srv_<kind>_backlog_check,
# _tls_check).
lab_validate_server() {
    srv_check_kind "$SERVER"
    case $NSD_BUILD in
        debian|rebuilt) ;;
        *) die "unknown NSD_BUILD=$NSD_BUILD (debian: /usr/sbin/nsd, backlog $NSD_DEBIAN_BACKLOG; rebuilt: make nsd-backlog, any backlog)" ;;
    esac
    [ "$SERVER" = nsd ] || [ "$NSD_BUILD" = debian ] || die "NSD_BUILD=$NSD_BUILD applies to SERVER=nsd only (SERVER=$SERVER)"
    [[ $SERVER_BACKLOG =~ ^[1-9][0-9]*$ ]] && [ "$SERVER_BACKLOG" -le 65535 ] \
        || die "SERVER_BACKLOG=$SERVER_BACKLOG must be a positive integer, at most 65535"
    # Debian's NSD's and Knot's are fixed; BIND's tcp-listen-queue and the
    # rebuilt NSD's take SERVER_BACKLOG, through the servers' somaxconn
    # (RB_SOMAXCONN: rb-server raises it to the backlog, never lowers it).
    srv "$SERVER" backlog_check "$SERVER_BACKLOG"
    case $SERVER_TLS in
        yes) srv "$SERVER" tls_check ;;
        no) ;;
        *) die "SERVER_TLS=$SERVER_TLS must be yes or no (DNS over TLS on port $TB_TLS_PORT)" ;;
    esac
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
        { srv_host_env "$SERVER" "$rdir/server" "$(role_addr4 "$role")" | lab_host_paths "$role"
          # The servers' net.core.somaxconn: the backlog where the daemon asks
          # listen() for more (the rebuilt NSD asks 65535; BIND asks its
          # tcp-listen-queue), else the host's own (netns: the namespace's).
          if [ "$NSD_BUILD" = rebuilt ] || [ "$SERVER" = bind ]; then
              printf 'RB_SOMAXCONN=%s\n' "$SERVER_BACKLOG"
          else
              printf 'RB_SOMAXCONN=default\n'
          fi
          # A new build of the rebuilt NSD is copied and restarted too.
          [ "$NSD_BUILD" = debian ] || printf '# nsd build: %s\n' "$(lab_nsd_rebuilt_sum)"
        } > "$out/$role/server.env"
    done
    lab_render_counters "$out"
}

# lab_host_paths ROLE: stdin with this machine's paths of the testbed (the
# zones, the role's state, the TLS directory, the rebuilt NSD) made the
# host's (its rb_dir).
lab_host_paths() {
    local rdir; rdir=$(lab_remote_dir "$1")
    sed -e "s|$TB_ZONEDIR|$rdir/zones|g" -e "s|$TB_STATE/$1|$rdir/server|g" \
        -e "s|$TB_TLS_DIR|$rdir/tls|g" -e "s|$NSD_REBUILT_DIR/|$rdir/bin/nsd-rebuilt/|g"
}

# lab_nsd_rebuilt_sum: the rebuilt NSD's programs' checksum.
lab_nsd_rebuilt_sum() { (cd "$NSD_REBUILT_DIR" && cat nsd nsd-checkconf nsd-control | md5sum | cut -c1-16); }

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

# lab_render_counters DIR: the nftables counters the experiments read.
lab_render_counters() {
    tb_counters_ruleset listener > "$1/counters-listener.nft"
    tb_counters_ruleset server > "$1/counters-server.nft"
}

# lab_playbook ARGS...: scripts/lab/site.yml on the inventory with the
# rendered files; its recap on stderr, the output in $TB_STATE/ansible.log.
lab_playbook() {
    local log="$TB_STATE/ansible.log" rc=0
    ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_NOCOLOR=1 \
    ANSIBLE_SSH_ARGS="-o ControlMaster=auto -o ControlPersist=60s" ANSIBLE_PIPELINING=True \
        ansible-playbook -i "$INVENTORY" "$RB_TOP/scripts/lab/site.yml" \
        -e "rb_top=$RB_TOP rb_render=$TB_STATE/render rb_prefix=$RB_PREFIX rb_tls=$SERVER_TLS" \
        -e "rb_nsd_build=$NSD_BUILD rb_nsd_rebuilt=$NSD_REBUILT_DIR" "$@" > "$log" 2>&1 </dev/null || rc=$?
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
    lab_playbook
    log "lab-setup: $(lab_changed_total) changes (a second run changes nothing)"
}

tb_defaults_lab() { lab_apply_defaults; }

# lab_connect: one master connection per host, opened in parallel.
lab_connect() {
    local role pids=() failed=""
    for role in "${LAB_HOSTS[@]}"; do
        ( lab_ssh "$role" true ) & pids+=("$!")
    done
    local i=0
    for role in "${LAB_HOSTS[@]}"; do
        wait "${pids[$i]}" || failed+=" $role"
        i=$((i + 1))
    done
    [ -z "$failed" ] || die "lab: cannot reach$failed over SSH (inventory $INVENTORY)"
}

# lab_check_programs: the hosts run this build's programs (make lab-setup
# installs them; a rebuild needs it again).
lab_check_programs() {
    local role p want have
    for p in tcpbench/tcpbench scripts/sampler/rbsample; do
        need_program "$RB_TOP/$p"
    done
    want=$(cd "$RB_TOP" && md5sum tcpbench/tcpbench scripts/sampler/rbsample scripts/lab/rb-server | awk '{ print $1 }' | tr '\n' ' ')
    for role in "${LAB_HOSTS[@]}"; do
        have=$(lab_ssh "$role" "cd $(printf %q "$(lab_remote_dir "$role")")/bin 2>/dev/null && md5sum tcpbench rbsample rb-server 2>/dev/null" | awk '{ print $1 }' | tr '\n' ' ') || true
        [ "$have" = "$want" ] || die "lab: $role does not run this build's programs (or was never provisioned): run make lab-setup INVENTORY=$INVENTORY"
    done
}

# lab_up: check and configure: settings refused or accepted, every host
# reached, this build's programs there, the servers' configuration
# brought to the settings (the playbook's server part, only when it
# differs), the players' TIME-WAIT setting, and the hosts' facts recorded.
lab_up() {
    need_tools ssh ansible-playbook jq snmpget snmpbulkwalk
    lab_apply_defaults
    lab_validate
    mkdir -p "$TB_STATE"
    lab_connect
    lab_check_programs
    lab_render "$TB_STATE/render"
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
    for role in player1 player2; do
        if [ "$PLAYER_TW_BUCKETS" = default ]; then tw=$(lab_ssh "$role" "cat $(printf %q "$(lab_remote_dir "$role")")/run/tw_default 2>/dev/null || sysctl -n net.ipv4.tcp_max_tw_buckets")
        else tw=$PLAYER_TW_BUCKETS; fi
        lab_ssh "$role" "d=$(printf %q "$(lab_remote_dir "$role")")/run; mkdir -p \$d; [ -f \$d/tw_default ] || sysctl -n net.ipv4.tcp_max_tw_buckets > \$d/tw_default; sysctl -q -w net.ipv4.tcp_max_tw_buckets=$tw"
    done
    lab_gather_facts
    tb_save_config
    printf 'BACKEND=lab\nINVENTORY=%q\n' "$INVENTORY" >> "$TB_CONFIG"
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
# role from the start), and what the hosts are (kernel, CPUs, NIC, daemon version)
# and the SSH per-call overhead over the master connection (median of 5),
# into $TB_STATE/facts.json.
lab_gather_facts() {
    local role f all=() vcmd vsed
    # The version of the server software in use, read as the netns testbed
    # reads it (srv_<kind>_version_cmd and _version_sed), on every host
    # (null where it is not installed).
    vsed="srv_${SERVER}_version_sed"; vsed=$(printf %q "${!vsed}")
    for role in "${LAB_HOSTS[@]}"; do
        vcmd=$(srv "$SERVER" version_cmd | lab_host_paths "$role")
        f=$(lab_ssh "$role" "mkdir -p $(lab_cgroup "$role") 2>/dev/null; iface=$(lab_host "$role" iface); printf '%s\n' \"\$(uname -r)\" \"\$(nproc)\" \"\$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)\" \"\$(basename \"\$(readlink /sys/class/net/\$iface/device/driver 2>/dev/null)\" 2>/dev/null)\" \"\$(cat /sys/class/net/\$iface/speed 2>/dev/null)\" \"\$(cat /sys/class/net/\$iface/address)\" \"\$($vcmd 2>&1 | sed -n $vsed | head -n1)\" \"\$(hostname)\"") \
            || die "lab: cannot read facts from $role"
        local t ts=() i
        lab_ssh_opts "$role"
        for i in 1 2 3 4 5; do
            t=$(now_ns); "${LAB_SSH[@]}" -n -- true; ts+=($(( ($(now_ns) - t) / 1000 )))
        done
        all+=("$(jq -n --arg r "$role" --arg f "$f" --argjson ts "$(printf '%s\n' "${ts[@]}" | jq -s .)" '
            ($f | split("\n")) as $v |
            {role:$r, hostname:$v[7], kernel:$v[0], cpus:($v[1] | tonumber? // null), cpu_model:$v[2],
             nic:{driver:(if $v[3] == "" then null else $v[3] end), speed_mbit:($v[4] | tonumber? // null), mac:$v[5]},
             daemon_version:(if $v[6] == "" then null else $v[6] end),
             ssh_call_us:{median:($ts | sort | .[2]), samples:$ts}}')")
    done
    printf '%s\n' "${all[@]}" | jq -s . > "$TB_STATE/facts.json"
}

# lab_down: close the master connections and forget the state. The hosts
# stay provisioned and their server daemons keep running (make lab-setup
# made them so).
lab_down() {
    local role
    if [ -d "$TB_STATE/ssh" ]; then
        for role in "${LAB_HOSTS[@]}"; do
            [ -S "$TB_STATE/ssh/$role" ] || continue
            # The role's cgroup, once nothing runs in it (the daemon keeps its own).
            lab_ssh "$role" "rmdir $(lab_cgroup "$role") 2>/dev/null; rmdir $(dirname "$(lab_cgroup "$role")") 2>/dev/null; true" || true
            ssh -o "ControlPath=$TB_STATE/ssh/$role" -O exit dummy >/dev/null 2>&1 || true
        done
    fi
    rm -rf "$TB_STATE"
}

lab_is_up() { [ -f "$TB_CONFIG" ] && grep -q '^BACKEND=lab$' "$TB_CONFIG"; }

# ---------------------------------------------------------------- queries

# lab_counters_json: the nftables counters of the listener and the servers,
# the same object as the netns backend's.
lab_counters_json() { tb_counters_collect lab_ssh; }

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

# lab_snmp_octets in|out: IF-MIB octets of the switch's router port, from
# the switch's own agent (after net-snmp's cache settles, as the netns one).
lab_snmp_octets() {
    local oid host comm idx
    case $1 in in) oid=1.3.6.1.2.1.31.1.1.1.6 ;; out) oid=1.3.6.1.2.1.31.1.1.1.10 ;; *) die "snmp-octets: in or out" ;; esac
    host=$(jq -r .switch.snmp_host <<<"$LAB_JSON"); comm=$(jq -r .switch.community <<<"$LAB_JSON")
    idx=$(jq -r .switch.router_port_ifindex <<<"$LAB_JSON")
    sleep "${SNMP_SETTLE_S:-4}"
    snmpget -M /nonexistent -m "" -v2c -c "$comm" -t 2 -r 1 -Oqv "$host" "$oid.$idx"
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

# lab_sample ARGS: rbsample on every host (its own namespace and role
# cgroup), started together, stopped together at SIGTERM/SIGINT or
# --duration; the summaries merged into one (roles keep their keys; CPUs
# are named ROLE/cpuN). The switch (and the router, when the inventory
# gives it an agent) is read over SNMP at the start and the end: its ports'
# octets, discards and errors as the interfaces of its role in "dev"
# (lab_snmp_summary); a device not read is listed in "not_sampled".
lab_sample() {
    local series="" summary="" rest=() a
    while [ $# -gt 0 ]; do
        case $1 in
            --series) series=$2; shift 2 ;;
            --summary) summary=$2; shift 2 ;;
            *) rest+=("$1"); shift ;;
        esac
    done
    [ -n "$series" ] && [ -n "$summary" ] || die "sample: --series FILE and --summary FILE are needed"
    local role dir pids=() stop=0 snmpdir snmp_pid
    declare -A RPID=()
    snmpdir=$(mktemp -d)
    lab_snmp_read start "$snmpdir" & snmp_pid=$!
    for role in "${LAB_HOSTS[@]}"; do
        dir=$(lab_remote_dir "$role")
        RPID[$role]=$(lab_ssh "$role" "mkdir -p $dir/run/sample && cg=$(lab_cgroup "$role"); cga=''; [ -d \$cg ] && cga=\"--cgroup $role=\$cg\"; setsid $dir/bin/rbsample --ns =$role \$cga --series $dir/run/sample/series.jsonl --summary $dir/run/sample/summary.json $(lab_quote "${rest[@]+"${rest[@]}"}") > $dir/run/sample/log 2>&1 < /dev/null & echo \$!") \
            || die "sample: cannot start rbsample on $role"
    done
    wait "$snmp_pid" || true
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
    for role in "${LAB_HOSTS[@]}"; do
        lab_ssh "$role" "kill -TERM ${RPID[$role]} 2>/dev/null; for i in \$(seq 100); do kill -0 ${RPID[$role]} 2>/dev/null || exit 0; sleep 0.1; done; exit 1" &
        pids+=("$!")
    done
    for a in "${pids[@]}"; do wait "$a" || true; done
    local tmp; tmp=$(mktemp -d)
    for role in "${LAB_HOSTS[@]}"; do
        dir=$(lab_remote_dir "$role")
        lab_pull "$role" "$dir/run/sample/summary.json" "$tmp/$role.json" \
            || die "sample: no summary from $role: $(lab_ssh "$role" "tail -n 3 $dir/run/sample/log" 2>/dev/null)"
        lab_pull "$role" "$dir/run/sample/series.jsonl" "$tmp/$role.series" 2>/dev/null || : > "$tmp/$role.series"
        jq -c --arg r "$role" '{role: $r} + .' "$tmp/$role.series" >> "$tmp/series"
    done
    mv "$tmp/series" "$series"
    local files=()
    for role in "${LAB_HOSTS[@]}"; do files+=("$tmp/$role.json"); done
    wait "$snmp_pid" || true
    lab_snmp_summary "$snmpdir" > "$tmp/snmp.json"
    rm -rf "$snmpdir"
    jq -s --slurpfile snmp "$tmp/snmp.json" --argjson roles "$(printf '%s\n' "${LAB_HOSTS[@]}" | jq -R . | jq -s .)" '
        . as $s | [range(0; length)] as $ix |
        def pre($r): with_entries(.key = "\($r)/\(.key)");
        def merge($k): reduce $ix[] as $i ({}; . + ($s[$i][$k] // {}));
        $s[0] + {
          backend: "lab", not_sampled: (["router", "switch"] - ($snmp[0].dev | keys)), snmp: $snmp[0].snmp,
          samples: ([$s[].samples] | min), duration_s: ([$s[].duration_s] | max),
          late_samples: ([$s[].late_samples] | add), interrupted: ([$s[].interrupted] | any),
          error: ([$s[].error | select(. != null)] | first // null),
          namespaces: merge("namespaces"), lost: merge("lost"), qdisc: merge("qdisc"),
          listen_peak: merge("listen_peak"), tw: merge("tw"), deltas: merge("deltas"),
          dev: (merge("dev") + $snmp[0].dev),
          cgroup: ((reduce $ix[] as $i ({}; . + ($s[$i].cgroup | del(.outside))))
                   + {outside: ([$s[].cgroup.outside // 0] | add)}),
          cgroup_detail: merge("cgroup_detail"),
          cpu: (reduce $ix[] as $i ({}; . + ($s[$i].cpu | pre($roles[$i])))),
          cpu_all: null,
          stall_max: (reduce $ix[] as $i ({}; . + ($s[$i].stall_max // {} | pre($roles[$i])))),
          stalls: [$ix[] as $i | $s[$i].stalls[] | . + {host: $roles[$i]}],
          stalls_dropped: ([$s[].stalls_dropped] | add),
          probe_cpu_ms: ([$s[].probe_cpu_ms] | add), sampler_cpu_ms: ([$s[].sampler_cpu_ms] | add),
          probe_wakeups: ([$s[].probe_wakeups] | add)}' "${files[@]}" > "$summary.tmp"
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
    # tcpdump is an orphan on the host: once it has exited (a zombie, which
    # kill -0 still finds until its reaper gets to it) its log is complete.
    lab_ssh "$role" "kill -TERM $rpid 2>/dev/null; for i in \$(seq 100); do kill -0 $rpid 2>/dev/null || break; [ \"\$(cut -d' ' -f3 /proc/$rpid/stat 2>/dev/null)\" != Z ] || break; sleep 0.1; done; tail -n +2 $r.log" >&2 || true
    lab_pull "$role" "$r.pcap" "$file" || warn "capture: cannot fetch the pcap from $role"
    lab_ssh "$role" "rm -f $r.pcap $r.log" || true
}

# ---------------------------------------------------------------- devices over SNMP

# lab_snmp_devices: the lab's devices sampled over SNMP, one line each,
# "NAME HOST COMMUNITY": the switch, and the router when the inventory gives
# it an agent (router rb_snmp_host, rb_snmp_community).
lab_snmp_devices() {
    jq -r '"switch \(.switch.snmp_host) \(.switch.community)",
           (.router | select((.snmp_host // "") != "") | "router \(.snmp_host) \(.community // "public")")' <<<"$LAB_JSON"
}

# lab_snmp_ports HOST COMMUNITY: every port's IF-MIB counters (ifTable and
# ifXTable walked, numeric OIDs, no MIBs) as {IFINDEX: {name, in_octets,
# ...}} (scripts/lib/lab-snmp.jq); non-zero when the agent does not answer.
lab_snmp_ports() {
    local base out="" walk
    for base in 1.3.6.1.2.1.2.2.1 1.3.6.1.2.1.31.1.1.1; do
        walk=$(snmpbulkwalk -M /nonexistent -m "" -v2c -c "$2" -t 2 -r 1 -Cr25 -On -OQ -Oe "$1" "$base") || return 1
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
    local phase=$1 dir=$2 name host comm
    [ "$phase" = start ] || sleep "${SNMP_SETTLE_S:-4}"
    while read -r name host comm; do
        date +%s.%N | cut -c1-14 > "$dir/snmp-$phase-$name.time"
        lab_snmp_ports "$host" "$comm" > "$dir/snmp-$phase-$name.json" 2> "$dir/snmp-$phase-$name.err" \
            && [ -s "$dir/snmp-$phase-$name.json" ] && rm -f "$dir/snmp-$phase-$name.err" \
            || { echo "no answer from $host" >> "$dir/snmp-$phase-$name.err"; rm -f "$dir/snmp-$phase-$name.json"; }
    done < <(lab_snmp_devices)
}

# lab_snmp_summary DIR: what the devices' ports counted between the two
# readings, for the sampler summary: {dev: {NAME: {port: deltas}},
# snmp: {NAME: {host, ports, start, end, settle_s} or {host, error}}}.
lab_snmp_summary() {
    local dir=$1 name host comm parts=()
    while read -r name host comm; do
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

# ---------------------------------------------------------------- status

# lab_status_json: the netns backend's object (the same keys, so results
# have the same shape) for the lab, plus backend, inventory and the hosts'
# facts (kernel, CPUs, NIC, daemon version, SSH call overhead).
lab_status_json() {
    tb_load_config
    local procs=() role up
    for role in "${SERVER_ROLES[@]}"; do
        up=false
        lab_ssh "$role" "$(printf %q "$(lab_remote_dir "$role")/bin/rb-server") status $(printf %q "$(lab_remote_dir "$role")/server")" >/dev/null 2>&1 && up=true
        procs+=("$(jq -n --arg r "$role" --arg p "$(basename "$(srv "$SERVER" program)")" --argjson up "$up" '{role:$r, process:$p, running:$up}')")
    done
    local backlogs="[]" b
    for role in "${SERVER_ROLES[@]}"; do
        b=$(lab_ssh "$role" "ss -Hltn 'sport = :53'" 2>/dev/null | awk '{ print $3 }' | sort -u | tr '\n' ' ') || true
        backlogs=$(jq -c --arg r "$role" --arg b "$b" '. + [{role:$r, measured:($b | split(" ") | map(select(length > 0) | tonumber))}]' <<<"$backlogs")
    done
    up=false
    snmpget -M /nonexistent -m "" -v2c -c "$(jq -r .switch.community <<<"$LAB_JSON")" -t 1 -r 0 -Oqv \
        "$(jq -r .switch.snmp_host <<<"$LAB_JSON")" 1.3.6.1.2.1.1.3.0 >/dev/null 2>&1 && up=true
    procs+=("$(jq -n --argjson up "$up" '{role:"switch", process:"snmpd", running:$up}')")
    local roles
    roles=$(for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}" router-c router-s; do
        jq -n --arg r "$role" --arg a4 "$(role_addr4 "$role")" --arg a6 "$(role_addr6 "$role")" \
            --arg b4 "$(player_block4 "$role" 2>/dev/null || true)" --arg b6 "$(player_block6 "$role" 2>/dev/null || true)" \
            '{role:$r, ipv4:$a4, ipv6:$a6} + (if $b4 != "" then {client_block4:$b4, client_block6:$b6} else {} end)'
    done | jq -s .)
    jq -n --arg prefix "$RB_PREFIX" --arg lb "$LB" --arg zones "${ZONES:-}" --arg zonedir "$TB_ZONEDIR" \
        --arg s4 "$SERVICE4" --arg s6 "$SERVICE6" --arg kind "$SERVER" --arg top "$RB_TOP" \
        --argjson tc "$SERVER_TCP_CLIENTS" --argjson tt "$SERVER_TCP_TIMEOUT" --argjson sc "$SERVER_WORKERS" \
        --arg minimal "$MINIMAL_RESPONSES" --argjson edns "${SERVER_EDNS_SIZE:-1232}" --arg twb "${PLAYER_TW_BUCKETS:-default}" \
        --arg steer "${STEER:-none}" --arg profile "${TB_PROFILE:-}" --arg inv "$INVENTORY" \
        --slurpfile facts "$TB_STATE/facts.json" --argjson lab "$LAB_JSON" --argjson backlogs "$backlogs" \
        --arg prog "$(srv "$SERVER" program | lab_host_paths server1)" --arg name "$(srv "$SERVER" name)" --argjson backlog "$SERVER_BACKLOG" \
        --arg build "$NSD_BUILD" --argjson tls "$(tb_tls_json)" \
        --argjson procs "$(printf '%s\n' "${procs[@]}" | jq -s .)" --argjson roles "$roles" '
        $facts[0] as $f | ($f | map({(.role): .}) | add) as $h |
        def cpu_names($r): ($lab.hosts[$r].cpus | split(",") | map(if test("-") then (split("-") | map(tonumber) | [range(.[0]; .[1] + 1)]) else [tonumber] end) | add | map("\($r)/cpu\(.)"));
        {backend:"lab", inventory:$inv,
         prefix:$prefix, kernel:$h.server1.kernel, cpus:$h.server1.cpus, lb:$lb,
         lb_note:"the lab router balances \($lab.router.lb) (inventory); rootbench does not configure it",
         link:null, link_shaping:false,
         pinning:{servers:$lab.hosts.server1.cpus, clients:$lab.hosts.player1.cpus,
                  cpu_names:{server:(cpu_names("server1") + cpu_names("server2")),
                             client:(cpu_names("player1") + cpu_names("player2") + cpu_names("listener"))}},
         steering:{mode:$steer, rule:"each host'"'"'s own receive path (its NIC and kernel settings; not set by rootbench)"},
         player_tw_buckets:{setting:$twb, value:null},
         profile:(if $profile == "" then null else ($profile | ltrimstr($top + "/")) end),
         cgroups:"\($lab.hosts.server1.cgroup | rtrimstr("/server1"))/ROLE on each host",
         service:{ipv4:$s4, ipv6:$s6},
         server:({kind:$kind, name:$name, version:$h.server1.daemon_version, program:$prog,
                  workers:$sc, tcp_clients:$tc, tcp_timeout_s:$tt, minimal_responses:$minimal, udp_answer_max:$edns,
                  listen_backlog:$backlog, listen_backlog_measured:$backlogs,
                  # tls.ca_file is on this machine: exec carries it to a player.
                  tls:$tls,
                  cpu_budget:{budget:null, period_us:null, quota_us:null, controller:null, longest_pause_bound_us:0,
                              charged:"no budget: a lab'"'"'s servers run without one"}}
                 + (if $kind == "nsd" then {build:$build} else {} end)),
         zones:{variant:(if $zones == "" then null else $zones end), dir:$zonedir},
         snmp:{router_server_port:{name:"router-s", ifindex:$lab.switch.router_port_ifindex}},
         roles:$roles, processes:$procs,
         hosts:$f, router:($lab.router | del(.community)), switch:($lab.switch | del(.community)), allow_ranges:$lab.allow_ranges}'
}

# ---------------------------------------------------------------- capture points

# lab_router_server_mac: the router's server-side MAC, as server1's
# neighbour table holds its gateway (rb_gateway4). When it has no entry,
# one UDP datagram to the gateway's discard port makes the kernel resolve
# it (ARP happens whatever the router does with the datagram; bash's
# /dev/udp: Debian's minimal hosts have no ping or arping).
lab_router_server_mac() {
    local gw iface mac
    gw=$(lab_host server1 gateway4); iface=$(lab_host server1 iface)
    mac=$(lab_ssh server1 "m() { ip -4 neigh show $gw dev $iface | grep -oiE 'lladdr ([0-9a-f]{2}:){5}[0-9a-f]{2}'; }; m && exit 0; bash -c 'echo > /dev/udp/$gw/9' 2>/dev/null; for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.1; m && exit 0; done; exit 1" \
          | sed -n 's/^lladdr //p' | head -n1 | tr 'A-F' 'a-f') || true
    [ -n "$mac" ] || die "mac: server1 does not resolve its gateway $gw on $iface (the router's server leg)"
    echo "$mac"
}

# lab_capture_points PORT: where the traffic of a switch port can be
# captured (scripts/testbed capture-points). The lab's switch is a device,
# so the router's server port (router-s) is captured where its traffic
# ends: on both servers' test NICs, each keeping the frames to or from its
# own MAC (a switch floods a frame for an unlearnt MAC to both), server1
# also the router's broadcasts and multicasts (once, not twice). Their
# merge holds the port's frames when nothing but the router and the two
# servers is on that port's VLAN (the assumption stated with it).
lab_capture_points() {
    [ "$1" = router-s ] || die "capture-points: only router-s (the router's server port) on a lab"
    local m1 m2
    m1=$(jq -r '.[] | select(.role == "server1") | .nic.mac' "$TB_STATE/facts.json")
    m2=$(jq -r '.[] | select(.role == "server2") | .nic.mac' "$TB_STATE/facts.json")
    [[ $m1 =~ ^[0-9a-f:]{17}$ && $m2 =~ ^[0-9a-f:]{17}$ ]] || die "capture-points: no NIC MAC of the servers in the facts (scripts/testbed up)"
    jq -n -c --arg m1 "$m1" --arg m2 "$m2" --arg i1 "$(lab_host server1 iface)" --arg i2 "$(lab_host server2 iface)" '
        {port: "router-s", backend: "lab",
         where: "server1 \($i1) and server2 \($i2) (the servers'"'"' test NICs), merged",
         assumption: "the switch'"'"'s router port carries the two servers'"'"' traffic only: nothing else is on the router'"'"'s server-side port or VLAN",
         points: [{role: "server1", iface: "eth0", host_iface: $i1, filter: "ether host \($m1) or (ether multicast and not ether src \($m2))"},
                  {role: "server2", iface: "eth0", host_iface: $i2, filter: "ether host \($m2)"}]}'
}

# ---------------------------------------------------------------- teardown

# lab_teardown: scripts/lab/teardown.yml on every host (make lab-teardown),
# the reverse of site.yml; the testbed's state is forgotten first (lab_down).
# Its recap on stderr; the sum of changed= on stdout's log line.
lab_teardown() {
    need_tools ansible-playbook
    lab_down
    local log rc=0 changed
    log=$(mktemp "${TMPDIR:-/tmp}/rb-lab-teardown.XXXXXX")
    ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_NOCOLOR=1 \
    ANSIBLE_SSH_ARGS="-o ControlMaster=auto -o ControlPersist=60s" ANSIBLE_PIPELINING=True \
        ansible-playbook -i "$INVENTORY" "$RB_TOP/scripts/lab/teardown.yml" > "$log" 2>&1 </dev/null || rc=$?
    sed -n '/^PLAY RECAP/,$p' "$log" >&2
    [ "$rc" -eq 0 ] || die "teardown: ansible-playbook failed (exit $rc; its output: $log): $(grep -E 'fatal|FAILED|ERROR' "$log" | head -n 3)"
    changed=$(sed -n '/^PLAY RECAP/,$p' "$log" | grep -o 'changed=[0-9]*' | awk -F= '{ s += $2 } END { print s + 0 }')
    rm -f "$log"
    log "lab-teardown: $changed changes (a second run changes nothing); Debian packages stay installed"
}

# The commands scripts/testbed calls that are a line each on a lab: the
# status in words, the CPU budget (none on a lab), the SNMP settle time.
lab_status_text() {
    lab_status_json | jq -r '"testbed \(.prefix): lab \(.inventory)", "  service address  \(.service.ipv4)  \(.service.ipv6)", "  lab ranges       \(.allow_ranges | join(" "))", "  router           balances \(.router.lb) (\(.router.model))", "  server           \(.server.name) \(.server.version // "?") (\(.server.program))", "  DNS over TLS     \(if .server.tls then "port \(.server.tls.port), name \(.server.tls.name), CA \(.server.tls.ca_file)" else "off (SERVER_TLS=no)" end)", (.hosts[] | "  \(.role | . + "         " | .[0:9]) \(.hostname) kernel \(.kernel), \(.cpus) CPUs, NIC \(.nic.driver // "?") \(.nic.mac), SSH call \(.ssh_call_us.median) us"), (.processes[] | "  \(.role) \(.process): \(if .running then "running" else "NOT RUNNING" end)")'
}
lab_cpu_budget_stat() { die "cpu-budget-stat: a lab's servers run without a CPU budget (SERVER_CPU is a namespace testbed setting)"; }
lab_snmp_settle() { echo "${SNMP_SETTLE_S:-4}"; }

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
# This file holds the inventory, SSH and exec; its parts, sourced at its
# end: lab-up.sh (up, down, setup), lab-own.sh (the operator's own server
# build and configuration), lab-snmp.sh (the devices' SNMP access),
# lab-checks.sh (the hosts' checks at up), lab-measure.sh (what experiments
# read), lab-status.sh (status, capture points, teardown).
#
# Source after common.sh.

# The hosts reached over SSH: the inventory's players (player1..playerN,
# LAB_PLAYERS), the listener and the two servers; set by lab_topology_load
# (these are a two-player lab's, until it has run).
LAB_PLAYERS=(player1 player2)
LAB_HOSTS=("${LAB_PLAYERS[@]}" listener server1 server2)
LAB_STATE_ROOT=${RB_STATE_ROOT:-/run/rootbench}

# ---------------------------------------------------------------- inventory

# lab_inventory_normalise: `ansible-inventory --list` (stdin) as the lab's
# description (stdout), or the first thing missing from it (stderr, exit 1).
lab_inventory_normalise() {
    jq -c -L "$RB_TOP/scripts/lib" --arg inv "$1" --arg sha "$2" 'include "lab"; inventory_normalise($inv; $sha)'
}

# lab_topology_load: read INVENTORY and define the address plan from it.
# What it derives is kept as a shell file per prefix while the inventory is
# unchanged (every testbed call loads it: one file, no parsing).
lab_topology_load() {
    [ -n "${INVENTORY:-}" ] || die "BACKEND=lab needs INVENTORY=file.yml (an Ansible inventory: docs/real-lab.md)"
    [ -r "$INVENTORY" ] || die "INVENTORY=$INVENTORY: not readable"
    INVENTORY=$(cd "$(dirname "$INVENTORY")" && pwd)/$(basename "$INVENTORY")
    local sha rules cache="$LAB_STATE_ROOT/${RB_PREFIX:-rb}/lab.env" out err
    sha=$(sha256sum "$INVENTORY" | cut -c1-16)
    # (the plan is kept per inventory and per reader of it: a new lab.jq
    # reads the same inventory into more)
    rules=$(sha256sum < "$RB_TOP/scripts/lib/lab.jq" | cut -c1-8)
    declare -gA LAB_F=()
    if [ -f "$cache" ] && [ "$(head -n1 "$cache")" = "# $LAB_ENV_FORMAT $sha $INVENTORY $rules" ]; then
        # shellcheck disable=SC1090
        . "$cache"
    else
        command -v ansible-inventory >/dev/null || die "ansible-inventory not found: run make deps (Debian package ansible)"
        err=$(mktemp)
        out=$(ansible-inventory -i "$INVENTORY" --list 2>"$err" </dev/null) || { out=$(tail -n 3 "$err"); rm -f "$err"; die "INVENTORY=$INVENTORY: ansible-inventory: $out"; }
        rm -f "$err"
        LAB_JSON=$(lab_inventory_normalise "$INVENTORY" "$sha" <<<"$out" 2>&1) \
            || die "$(sed -n 's/^jq: error (at [^)]*): //p' <<<"$LAB_JSON" | head -n1)"
        out=$(lab_topology_env "$sha" "$rules")
        eval "$out"
        mkdir -p "$(dirname "$cache")" 2>/dev/null && printf '%s\n' "$out" > "$cache.tmp.$$" \
            && mv "$cache.tmp.$$" "$cache" || true
    fi
    export RB_ALLOW_RANGES
}

# lab_topology_env SHA RULES: the derived plan as shell assignments (its
# first line the cache's key: the format, the inventory's SHA, its path,
# lab.jq's RULES): LAB_JSON,
# the players and the hosts (LAB_PLAYERS, LAB_HOSTS), every host's fields
# (LAB_F[ROLE.FIELD], read by lab_host), the service addresses, the lab's
# declared ranges (RB_ALLOW_RANGES: the target guard admits them besides
# loopback and the benchmarking ranges), and the address table "ROLE
# addr4 addr6 block4 block6" (LAB_ADDRS).
# (LAB_ENV_FORMAT: a cache of an older shape is derived again)
LAB_ENV_FORMAT=lab.env/2
lab_topology_env() {
    printf '# %s %s %s %s\n' "$LAB_ENV_FORMAT" "$1" "$INVENTORY" "$2"
    printf 'LAB_JSON=%q\n' "$LAB_JSON"
    jq -r '"LAB_PLAYERS=(\(.players | map(@sh) | join(" ")))",
           "LAB_HOSTS=(\(.players + ["listener", "server1", "server2"] | map(@sh) | join(" ")))",
           (.hosts | to_entries[] | .key as $r | .value | to_entries[] | "LAB_F[\($r).\(.key)]=\(.value | tostring | @sh)"),
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
lab_role_addr4() { lab_addr_field "$(lab_role_host "$1")" 2; }
lab_role_addr6() { lab_addr_field "$(lab_role_host "$1")" 3; }

# lab_role_host ROLE: the host a role runs on. The probe (rbprobe) runs on
# a host of its own when the inventory has one (host probe, group probes);
# it cannot share the listener's, whose blackhole route drops everything
# to the service address (the listener never answers), nor a player's,
# whose load it would share: without a probe host the lab has no probe
# (exit 1). The sink (the reflection floods' victims, owning the victim
# block the lab routes to it) is the inventory's sink host (group sinks)
# when it has one; without it the lab has no sink (exit 1). Every other
# role is its own host.
lab_role_host() {
    case $1 in
        probe|sink) lab_host "$1" host >/dev/null 2>&1 || return 1; echo "$1" ;;
        *) echo "$1" ;;
    esac
}
lab_player_block4() { case $1 in player*) lab_addr_field "$1" 4 ;; *) return 1 ;; esac; }
lab_player_block6() { case $1 in player*) lab_addr_field "$1" 5 ;; *) return 1 ;; esac; }
# lab_victim_block4 / 6: the sink's victim block (rb_victim_block4/6), or exit 1.
lab_victim_block4() { lab_addr_field "$(lab_role_host sink)" 4; }
lab_victim_block6() { lab_addr_field "$(lab_role_host sink)" 5; }
# lab_probe_block4, lab_probe_block6: the probe host's source block, when
# the inventory gives it one (rb_block4, rb_block6; the router routes it to
# the probe host); exit 1 otherwise (it sends from its own address).
lab_probe_block4() { lab_role_host probe >/dev/null && lab_addr_field probe 4; }
lab_probe_block6() { lab_role_host probe >/dev/null && lab_addr_field probe 5; }

# lab_host ROLE FIELD: a field of a managed host's description.
lab_host() { [ -n "${LAB_F[$1.$2]+x}" ] || return 1; printf '%s\n' "${LAB_F[$1.$2]}"; }

# lab_reached_hosts: the hosts `up` reaches, checks and records (LAB_HOSTS,
# and the probe host when the inventory has one), one a line.
lab_reached_hosts() { printf '%s\n' "${LAB_HOSTS[@]}"; lab_role_host probe 2>/dev/null || true; }

lab_is_host() { [[ " ${LAB_HOSTS[*]} " == *" $1 "* ]] || { [[ $1 == probe || $1 == sink ]] && lab_role_host "$1" >/dev/null; }; }

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
# forwarded. A SIGTERM or SIGINT to this process reaches CMD on the host as
# a SIGTERM (as on the netns backend, where the signal reaches CMD itself),
# and the outputs are still fetched once CMD has ended; RB_EXEC_PIDFILE=FILE
# (a file of this machine) gets the host's pid of CMD once it runs (the
# probe waits for it before the load starts: scripts/lib/probe.sh).
lab_exec() {
    local role=$1; shift
    [ "$role" != probe ] || lab_role_host probe >/dev/null \
        || die "exec: the lab has no probe host (inventory $INVENTORY: add host probe in group probes; docs/real-lab.md)"
    [ "$role" != sink ] || lab_role_host sink >/dev/null \
        || die "exec: the lab has no sink host (inventory $INVENTORY: add host sink in group sinks, with rb_victim_block4 and rb_victim_block6; docs/real-lab.md)"
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
    local cg cpus rc=0 i spid rpidf="$dir/run/out/$$-$BASHPID.pid" sig=0 rpid=""
    cg=$(lab_cgroup "$role")
    cpus=$(lab_host "$role" cpus)
    # ssh in the background, so that a signal is handled while it runs
    # (bash runs a trap only once its foreground child has exited), and in
    # a session of its own: a Ctrl-C to the caller's process group would
    # end it (ssh's multiplexing client exits at SIGINT) and leave the
    # host's command running to its own bound, not stopped.
    trap 'sig=$((sig + 1))' TERM INT
    # (the pid file stays: removing it would cost a round trip per exec; the
    # next exec removes those older than any command's bound, 2 hours)
    lab_ssh_opts "$role"
    setsid "${LAB_SSH[@]}" -n -- "mkdir -p $(printf %q "$dir/run/out") && { find $(printf %q "$dir/run/out") -maxdepth 1 -name '*.pid' -mmin +120 -delete 2>/dev/null; mkdir -p $cg 2>/dev/null && echo \$\$ > $cg/cgroup.procs 2>/dev/null || true; } && echo \$\$ > $(printf %q "$rpidf") && exec taskset -c $cpus $(lab_quote "${args[@]}")" &
    spid=$!
    [ -z "${RB_EXEC_PIDFILE:-}" ] || lab_exec_pid "$role" "$rpidf" "$spid" "$RB_EXEC_PIDFILE"
    local sent=0
    while :; do
        rc=0; wait "$spid" || rc=$?
        kill -0 "$spid" 2>/dev/null || break
        # A signal came (wait returned early): SIGTERM to CMD on the host,
        # once per signal received (a second cuts rbprobe's wait short).
        while [ "$sent" -lt "$sig" ]; do
            [ -n "$rpid" ] || rpid=$(lab_ssh "$role" "cat $(printf %q "$rpidf") 2>/dev/null") || rpid=""
            [[ $rpid =~ ^[0-9]+$ ]] && lab_ssh "$role" "kill -TERM $rpid 2>/dev/null" || true
            sent=$((sent + 1))
        done
    done
    # A signal that came as ssh ended: CMD stopped on the host all the same,
    # and waited for (its outputs complete before they are fetched).
    if [ "$sent" -lt "$sig" ]; then
        [ -n "$rpid" ] || rpid=$(lab_ssh "$role" "cat $(printf %q "$rpidf") 2>/dev/null") || rpid=""
        [[ ! $rpid =~ ^[0-9]+$ ]] || lab_ssh "$role" "$(lab_remote_stop_cmd "$rpid")" || true
    fi
    trap - TERM INT
    for i in "${!outs_r[@]}"; do
        if lab_ssh "$role" "test -f $(printf %q "${outs_r[$i]}")"; then
            lab_pull "$role" "${outs_r[$i]}" "${outs_l[$i]}" || warn "exec: cannot fetch ${outs_l[$i]} from $role"
            lab_ssh "$role" "rm -f $(printf %q "${outs_r[$i]}")" || true
        fi
    done
    return "$rc"
}

# lab_exec_pid ROLE RPIDF SSH_PID FILE: FILE gets the host's pid of the
# command lab_exec started (RPIDF on the host) once it is there (5 s bound;
# nothing when the command ended first).
lab_exec_pid() {
    local i p
    for ((i = 0; i < 100; i++)); do
        p=$(lab_ssh "$1" "cat $(printf %q "$2") 2>/dev/null") || p=""
        if [[ $p =~ ^[0-9]+$ ]]; then echo "$p" > "$4.tmp.$$" && mv "$4.tmp.$$" "$4"; return 0; fi
        kill -0 "$3" 2>/dev/null || return 0
        sleep 0.05
    done
}

. "$RB_TOP/scripts/lib/lab-up.sh"

. "$RB_TOP/scripts/lib/lab-own.sh"

. "$RB_TOP/scripts/lib/lab-snmp.sh"

. "$RB_TOP/scripts/lib/lab-checks.sh"

. "$RB_TOP/scripts/lib/lab-measure.sh"

. "$RB_TOP/scripts/lib/lab-status.sh"

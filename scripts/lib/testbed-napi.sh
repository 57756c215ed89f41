# testbed-napi.sh: STEER=napi, every receive of the namespace testbed on
# the CPUs of the role whose work it is, the ones that cross between the
# servers' CPUs and the rig's in a NAPI poll of their own kernel thread.
# Sourced by testbed.sh.
#
# veth delivers a packet on the CPU that sent it (netif_rx into that CPU's
# backlog) unless its receiving end polls with NAPI: then the packet waits
# in the receiver's ring (256 entries) for that device's NAPI poll. With
# /sys/class/net/DEV/threaded the poll runs in a kernel thread of its own,
# "napi/DEV-ID", which can be pinned to CPUs and moved into a cgroup like
# any task. Everything the rig sends is sent on the rig's CPUs (the
# generators, the switch, the router, the Listener), so its receives stay
# where veth puts them; only two kinds of receive cross:
#   - a query into a server (its eth0): in a thread pinned to the servers'
#     CPUs (SERVER_CPUS), in its server's cgroup and its CPU budget's, at
#     the default scheduling (SCHED_OTHER: it shares the server's CPU with
#     the daemon, as a loaded server's receive in ksoftirqd would);
#   - an answer out of a server (the switch's port toward it): in a thread
#     pinned to the rig's CPUs (CLIENT_CPUS), in the switch's cgroup, at
#     real-time priority (SCHED_FIFO 50, as a NIC's softirq preempts user
#     space: at SCHED_OTHER a sender on the rig's CPU, kxdpgun, kept that
#     CPU for its slice while the ring filled: 3,084 of 80,013 queries lost
#     at 40,000 q/s; the kernel's RT limit leaves the senders their share).
# Both ends of these two veth pairs have GRO on (veth polls with NAPI only
# then) and TSO off (veth takes a packet into NAPI only when its sender has
# no TSO, veth_skb_is_eligible_for_gro). The server CPU then runs the
# daemons, their sends and their receive and nothing of the rig's: an
# answer's way through the switch and the router runs on the rig's CPUs.
# A thread on every veth end was tried: the rig's forwarding then paid a
# thread wake-up per hop (TCP at 4,000 connections/s: p99 25-221 ms and
# the generator limited, against 3.7-6.8 ms with these four threads).
# docs/methodology.md has the evidence.
#
# The threads are found by name: setting threaded to 0 stops a device's
# thread and 1 starts a new one (kernel 6.x), so the napi/* thread that
# appears is the device's. Host-wide lock: another prefix's testbed may
# start threads at the same moment. TB_STATE/napi.tsv keeps "ROLE DEV PID"
# for status and for the next up.

TB_NAPI_STATE_NAME=napi.tsv
TB_NAPI_LOCK="$RB_STATE_ROOT/napi.lock"
# the rig's threads' real-time priority (SCHED_FIFO), below the kernel's
# own threaded interrupts (50 is theirs too: equal, round-robin by FIFO)
TB_NAPI_RIG_PRIO=50

# tb_napi_devices: "ROLE DEV" of the veth ends whose receive crosses between
# the rig's CPUs and the servers': the switch's port toward each server
# (named after it) and each server's eth0.
tb_napi_devices() {
    local role
    for role in "${SERVER_ROLES[@]}"; do echo "switch $(switch_port "$role")"; echo "$role eth0"; done
}

# tb_napi_role_devices ROLE: the devices of tb_napi_devices in ROLE's
# namespace, space-separated (nothing for a role without any).
tb_napi_role_devices() { tb_napi_devices | awk -v r="$1" '$1 == r { printf "%s ", $2 }'; }

# tb_napi_check: the kernel can run a veth's poll in a thread, else die
# with the reason (STEER=napi needs /sys/class/net/DEV/threaded, Linux 5.12
# and later, and ethtool for the offloads).
tb_napi_check() {
    need_tools ethtool taskset chrt
    nsx switch test -e "/sys/class/net/$(switch_port router-s)/threaded" \
        || die "STEER=napi: this kernel ($(uname -r)) has no threaded NAPI (/sys/class/net/DEV/threaded, Linux 5.12 and later): STEER=none, rps or rig"
}

# tb_napi_state_valid: the threads recorded at the last up are still each
# device's (alive, named napi/*, one per device).
tb_napi_state_valid() {
    local f="$TB_STATE/$TB_NAPI_STATE_NAME" role dev pid comm n=0
    [ -f "$f" ] || return 1
    while read -r role dev pid; do
        comm=""; read -r comm < "/proc/$pid/comm" 2>/dev/null || return 1
        [[ $comm == napi/* ]] || return 1
        n=$((n + 1))
    done < "$f"
    [ "$n" -eq "$(tb_napi_devices | wc -l)" ]
}

# The script each namespace runs (ip netns exec NS bash -c) to thread its
# devices: for each DEV, offloads, threaded 0 then 1, and "DEV PID" of the
# napi/* thread that appeared (kthreadd's children before and after).
# shellcheck disable=SC2016
TB_NAPI_THREAD_SCRIPT='
napi_pids() {
    local p c
    for p in $(cat /proc/2/task/2/children); do
        c=""; read -r c < "/proc/$p/comm" 2>/dev/null || continue
        [[ $c == napi/* ]] && echo "$p"
    done
    return 0
}
for dev; do
    t=/sys/class/net/$dev/threaded
    out=$(ethtool -K "$dev" gro on tso off 2>&1) || { echo "ethtool -K $dev gro on tso off: $out" >&2; exit 1; }
    echo 0 > "$t" || exit 1
    before=" $(napi_pids | tr "\n" " ")"
    echo 1 > "$t" || { echo "cannot thread $dev: echo 1 > $t failed" >&2; exit 1; }
    new=""
    for p in $(napi_pids); do [[ $before == *" $p "* ]] || new+="$p "; done
    echo "$dev $new"
done'

# tb_napi_thread: every device threaded anew, TB_STATE/napi.tsv written.
tb_napi_thread() {
    local role devs line dev pids out tmp="$TB_STATE/$TB_NAPI_STATE_NAME.new"
    : > "$tmp"
    mkdir -p "$RB_STATE_ROOT"
    exec {lockfd}> "$TB_NAPI_LOCK" || die "cannot open $TB_NAPI_LOCK"
    flock -w 30 "$lockfd" || die "STEER=napi: $TB_NAPI_LOCK held for 30 s by another testbed's up"
    for role in "${ROLES[@]}"; do
        devs=$(tb_napi_role_devices "$role")
        [ -n "$devs" ] || continue
        # shellcheck disable=SC2086
        out=$(nsx "$role" bash -c "$TB_NAPI_THREAD_SCRIPT" napi $devs 2>&1) \
            || { exec {lockfd}>&-; die "STEER=napi in $role: $out"; }
        while read -r dev pids; do
            [[ $pids =~ ^[0-9]+$ ]] || { exec {lockfd}>&-; die "STEER=napi: $role's $dev started ${pids:-no} thread(s), not one (napi/*)"; }
            echo "$role $dev $pids" >> "$tmp"
        done <<<"$out"
    done
    exec {lockfd}>&-
    mv "$tmp" "$TB_STATE/$TB_NAPI_STATE_NAME"
}

# tb_napi_place: each recorded thread pinned to its role's CPUs, in its
# role's cgroup and, for a server under a budget, in the budget's; a server
# without a budget leaves the v1 budget hierarchy's group for its root.
tb_napi_place() {
    local role dev pid budget kind v1 out
    read -r kind v1 <<<"$(tb_cpu_controller 2>/dev/null || true)"
    while read -r role dev pid; do
        out=$(taskset -pc "$(cpus_of "$role")" "$pid" 2>&1) || die "STEER=napi: cannot pin $role's napi thread $pid of $dev: $out"
        echo "$pid" > "$(tb_cgroup_dir "$role")/cgroup.procs" \
            || die "STEER=napi: cannot move $role's napi thread $pid into $(tb_cgroup_dir "$role")"
        if [[ " ${SERVER_ROLES[*]} " == *" $role "* ]]; then out=$(chrt -o -p 0 "$pid" 2>&1)
        else out=$(chrt -f -p "$TB_NAPI_RIG_PRIO" "$pid" 2>&1); fi \
            || die "STEER=napi: cannot set the scheduling of $role's napi thread $pid of $dev: $out"
        budget=$(tb_cpu_budget_dir "$role")
        if [ "$kind" = v1 ]; then
            [ -n "$budget" ] || budget=$v1
            echo "$pid" > "$budget/cgroup.procs" || die "STEER=napi: cannot move napi thread $pid into $budget"
        fi
    done < "$TB_STATE/$TB_NAPI_STATE_NAME"
}

# tb_configure_napi: STEER=napi set up (threads made if the last up's are
# gone, then placed), or, under any other STEER, the veths back to their
# defaults (no threads, GRO off, TSO on) if an earlier up threaded them.
tb_configure_napi() {
    if [ "$STEER" = napi ]; then
        tb_napi_check
        tb_napi_state_valid || tb_napi_thread
        tb_napi_place
    elif [ -f "$TB_STATE/$TB_NAPI_STATE_NAME" ]; then
        tb_napi_release
        local role devs
        for role in "${ROLES[@]}"; do
            devs=$(tb_napi_role_devices "$role")
            [ -n "$devs" ] || continue
            # shellcheck disable=SC2016
            nsx "$role" bash -c 'for d; do echo 0 > "/sys/class/net/$d/threaded"; ethtool -K "$d" gro off tso on >/dev/null 2>&1; done; exit 0' napi $devs
        done
        rm -f "$TB_STATE/$TB_NAPI_STATE_NAME"
    fi
}

# tb_napi_release: the recorded threads back in the root cgroups (v2 and
# the v1 cpu hierarchy's), so that down can remove the testbed's cgroups
# while the kernel stops the threads of the namespaces it deletes.
tb_napi_release() {
    local f="$TB_STATE/$TB_NAPI_STATE_NAME" role dev pid v2 kind v1
    [ -f "$f" ] || return 0
    v2=$(cgroup2_mount)
    read -r kind v1 <<<"$(tb_cpu_controller 2>/dev/null || true)"
    while read -r role dev pid; do
        [ -z "$v2" ] || echo "$pid" > "$v2/cgroup.procs" 2>/dev/null || true
        [ "$kind" != v1 ] || echo "$pid" > "$v1/cgroup.procs" 2>/dev/null || true
    done < "$f"
}

# tb_napi_tsv: "ROLE DEV PID CPUS CGROUP BUDGET_CGROUP LAST_CPU POLICY
# PRIO" of each recorded thread as the kernel reports it now (status
# --json): its allowed CPUs, its v2 cgroup, its v1 cpu cgroup, the CPU it
# last ran on, its scheduling policy (0 other, 1 FIFO) and RT priority.
tb_napi_tsv() {
    local f="$TB_STATE/$TB_NAPI_STATE_NAME" role dev pid cpus cg v1cg last line stat pol prio st
    [ -f "$f" ] || return 0
    while read -r role dev pid; do
        cpus=""; cg=""; v1cg=""; last=""; pol=""; prio=""
        while IFS= read -r line; do
            case $line in Cpus_allowed_list:*) cpus=${line#*:}; cpus=${cpus//[[:space:]]/} ;; esac
        done < "/proc/$pid/status" 2>/dev/null || true
        while IFS= read -r line; do
            case $line in
                0::*) cg=${line#0::} ;;
                *:cpu,cpuacct:*|*:cpu:*|*:cpuacct,cpu:*) v1cg=${line#*:*:} ;;
            esac
        done < "/proc/$pid/cgroup" 2>/dev/null || true
        read -r stat < "/proc/$pid/stat" 2>/dev/null && { stat=${stat##*) }; read -r -a st <<<"$stat"; last=${st[36]}; prio=${st[37]}; pol=${st[38]}; }
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$role" "$dev" "$pid" "$cpus" "$cg" "$v1cg" "$last" "$pol" "$prio"
    done < "$f"
}

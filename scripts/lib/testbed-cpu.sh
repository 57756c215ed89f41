# testbed-cpu.sh: the namespace testbed's cgroups (a cgroup per role, so
# the sampler counts each role's CPU time) and the servers' CPU budget
# (SERVER_CPU: CFS bandwidth control, its throttling read back). Sourced
# by testbed.sh.

# ---------------------------------------------------------------- cgroups

# tb_cgroup_root: this prefix's cgroup (v2) directory: one child per role,
# whose cpu.stat usage_usec is the CPU time the role's processes used
# (precise scheduler time, not tick samples).
tb_cgroup_root() {
    local mnt
    mnt=$(cgroup2_mount)
    [ -n "$mnt" ] || die "no cgroup2 file system mounted (the testbed counts CPU per role with cgroup v2)"
    echo "$mnt/rootbench-$RB_PREFIX"
}
tb_cgroup_dir() { echo "$(tb_cgroup_root)/$1"; }

# cgroup2_mount: where the cgroup2 file system is mounted, nothing when
# it is not (read by bash: every testbed exec asks it).
cgroup2_mount() {
    local dev mnt type rest
    while read -r dev mnt type rest; do
        [ "$type" != cgroup2 ] || { echo "$mnt"; return 0; }
    done < /proc/mounts
}

tb_create_cgroups() {
    local role
    local root; root=$(tb_cgroup_root)
    for role in "${ROLES[@]}"; do [ -d "$root/$role" ] || mkdir -p "$root/$role"; done
}

# tb_remove_cgroups: after every process has gone (a populated cgroup
# cannot be removed).
tb_remove_cgroups() {
    local root role; root=$(tb_cgroup_root 2>/dev/null) || return 0
    [ -d "$root" ] || return 0
    local i
    # A killed process leaves its cgroup only once it has been reaped.
    for i in $(seq 20); do
        for role in "${ROLES[@]}" sampler; do [ ! -d "$root/$role" ] || rmdir "$root/$role" 2>/dev/null || true; done
        rmdir "$root" 2>/dev/null && return 0
        sleep 0.1
    done
    warn "cgroup $root not removed (processes left in it?)"
}

# ---------------------------------------------------------------- CPU budget

# SERVER_CPU=F (0.05 to the number of CPUs in SERVER_CPUS, or max): each
# server daemon may use F CPUs' time in every SERVER_CPU_PERIOD_US period
# (CFS bandwidth control: cgroup v2 cpu.max, or v1 cpu.cfs_quota_us where
# the cpu controller is bound to v1, as on this machine), so that the
# server, not the rig, runs out first. The daemon's own time only: the
# kernel's receive path runs in softirq context, charged to no cgroup;
# docs/methodology.md says how it is accounted. A throttled daemon waits
# at most period x (1 - F) for its next quota; the short default period
# (2 ms, or 1 ms / F below 0.5 CPU) keeps that far below what the socket
# buffers and the listen backlog absorb at the rates measured; the kernel
# wants a quota of at least 1 ms, so below 0.5 CPU the default period is
# 1 ms / F (4 ms at 0.25: pauses of at most 3 ms).

# tb_cpu_controller: "v2 DIR" or "v1 DIR", the hierarchy whose cpu
# controller limits the servers; fails when there is none.
tb_cpu_controller() {
    local v2 v1
    v2=$(cgroup2_mount)
    if [ -n "$v2" ] && grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null; then echo "v2 $v2"; return 0; fi
    v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
    [ -n "$v1" ] && [ -w "$v1" ] && { echo "v1 $v1"; return 0; }
    return 1
}

# tb_cpu_default_period_us: the shortest period (at least 2 ms) whose
# quota is the kernel's smallest, 1 ms: 4 ms at SERVER_CPU=0.25, 2 ms from
# 0.5 up (a shorter period means shorter throttle pauses).
tb_cpu_default_period_us() {
    [ "$SERVER_CPU" = max ] && { echo 2000; return 0; }
    awk -v f="$SERVER_CPU" 'BEGIN { p = int(1000 / f + 0.999); if (p < 2000) p = 2000; print p }' 2>/dev/null || echo 2000
}

# tb_check_cpu_budget: SERVER_CPU and its period are sane and can be set.
tb_check_cpu_budget() {
    [[ $SERVER_CPU_PERIOD_US =~ ^[0-9]+$ ]] && [ "$SERVER_CPU_PERIOD_US" -ge 1000 ] && [ "$SERVER_CPU_PERIOD_US" -le 100000 ] \
        || die "SERVER_CPU_PERIOD_US=$SERVER_CPU_PERIOD_US must be auto or 1000..100000 microseconds"
    [ "$SERVER_CPU" = max ] && return 0
    local ncpu; ncpu=$(taskset_count "$SERVER_CPUS")
    [[ $SERVER_CPU =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v f="$SERVER_CPU" -v n="$ncpu" 'BEGIN { exit !(f >= 0.05 && f <= n) }' \
        || die "SERVER_CPU=$SERVER_CPU must be max or a share of a CPU from 0.05 to $ncpu (the CPUs in SERVER_CPUS=$SERVER_CPUS)"
    tb_cpu_controller >/dev/null || die "SERVER_CPU=$SERVER_CPU needs the cgroup cpu controller (v2 cpu.max or v1 cpu.cfs_quota_us); none is mounted"
    [ "$(tb_cpu_quota_us)" -ge 1000 ] \
        || die "SERVER_CPU=$SERVER_CPU with SERVER_CPU_PERIOD_US=$SERVER_CPU_PERIOD_US is a quota of $(tb_cpu_quota_us) us; the kernel's smallest is 1000 (a longer period, or auto)"
}

# taskset_count LIST: how many CPUs a taskset list (0-1,3) names.
taskset_count() {
    local n=0 part
    for part in ${1//,/ }; do
        if [[ $part == *-* ]]; then n=$((n + ${part#*-} - ${part%-*} + 1)); else n=$((n + 1)); fi
    done
    echo "$n"
}

# tb_cpu_quota_us: the quota per period, or "max".
tb_cpu_quota_us() {
    [ "$SERVER_CPU" = max ] && { echo max; return 0; }
    awk -v f="$SERVER_CPU" -v p="$SERVER_CPU_PERIOD_US" 'BEGIN { printf "%d\n", f * p + 0.5 }'
}

# tb_cpu_budget_dir ROLE: the cgroup that carries ROLE's CPU budget ("" for
# a role without one, or without a cpu controller). In v2 it is the role's
# own cgroup; in v1 one of the same name under the cpu hierarchy.
tb_cpu_budget_dir() {
    [[ " ${SERVER_ROLES[*]} " == *" $1 "* ]] || return 0
    # without a budget the servers stay out of any cpu cgroup, scheduled
    # as before budgets existed
    [ "${SERVER_CPU:-max}" != max ] || return 0
    local kind dir
    read -r kind dir <<<"$(tb_cpu_controller 2>/dev/null || true)"
    case $kind in
        v2) echo "$(tb_cgroup_dir "$1")" ;;
        v1) echo "$dir/rootbench-$RB_PREFIX/$1" ;;
    esac
}

# tb_apply_cpu_budget [QUOTA]: every server's cgroup limited to SERVER_CPU,
# or to QUOTA ("max": the cgroups made, nothing limited). In place: a
# running daemon in it takes a new budget at once; a daemon is moved in or
# out by a restart (tb_start_server). up makes the cgroups unlimited, starts
# the daemons in them and only then sets the budget: a daemon loading its
# zone on a tenth of a CPU took 3 s longer to answer, a wait that measures
# nothing.
tb_apply_cpu_budget() {
    local role d kind q
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    [ -n "$kind" ] && [ "$SERVER_CPU" != max ] || return 0
    q=${1:-$(tb_cpu_quota_us)}
    for role in "${SERVER_ROLES[@]}"; do
        d=$(tb_cpu_budget_dir "$role")
        if [ "$kind" = v2 ]; then
            grep -qw cpu "$(tb_cgroup_root)/cgroup.subtree_control" || echo +cpu > "$(tb_cgroup_root)/cgroup.subtree_control"
            echo "$q $SERVER_CPU_PERIOD_US" > "$d/cpu.max"
        else
            mkdir -p "$d"
            echo "$SERVER_CPU_PERIOD_US" > "$d/cpu.cfs_period_us"
            if [ "$q" = max ]; then echo -1 > "$d/cpu.cfs_quota_us"; else echo "$q" > "$d/cpu.cfs_quota_us"; fi
        fi
    done
}

# tb_remove_cpu_budget: the v1 budget cgroups (v2's are the role cgroups).
tb_remove_cpu_budget() {
    local kind dir role
    read -r kind dir <<<"$(tb_cpu_controller 2>/dev/null || true)"
    [ "$kind" = v1 ] && [ -d "$dir/rootbench-$RB_PREFIX" ] || return 0
    for role in "${SERVER_ROLES[@]}"; do rmdir "$dir/rootbench-$RB_PREFIX/$role" 2>/dev/null || true; done
    rmdir "$dir/rootbench-$RB_PREFIX" 2>/dev/null || warn "cgroup $dir/rootbench-$RB_PREFIX not removed"
}

# tb_kernel_throttles_kthreads: whether CFS bandwidth control throttles a
# kernel thread (STEER=napi's receive threads). Linux 6.18 throttles a
# task on its return to user space (the task-based throttle), which a
# kernel thread never makes: measured, a receive thread in a 0.05-CPU
# budget ran 0.46 s of a 5 s flood, as much as without the budget
# (scripts/tests/21-napi-receive-charged-to-its-role.test measures it
# again and holds this rule to what it saw).
tb_kernel_throttles_kthreads() {
    local v major minor; v=$(uname -r)
    IFS=. read -r major minor _ <<<"$v"; minor=${minor%%[!0-9]*}
    [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "${minor:-0}" -lt 18 ]; }
}

# tb_cpu_budget_charged: what a server's budget throttles, in words.
tb_cpu_budget_charged() {
    if [ "${STEER:-none}" != napi ]; then
        echo "the daemon's own CPU time; its kernel receive path (softirq) is charged to no cgroup"
    elif tb_kernel_throttles_kthreads; then
        echo "the daemon's CPU time and its receive thread's (STEER=napi: the thread is in the budget's cgroup)"
    else
        echo "the daemon's CPU time and its receive thread's (STEER=napi: the thread is in the budget's cgroup), but only the daemon is throttled (the thread's time is not throttled, it counts against the budget): this kernel ($(uname -r)) throttles a task only on its return to user space, which a kernel thread never makes, so the daemon gets what its receive leaves"
    fi
}

# tb_cpu_budget_json: the budget as set, for status --json: SERVER_CPU, its
# period and quota, the controller, the longest a throttled daemon waits.
tb_cpu_budget_json() {
    local kind q
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    q=$(tb_cpu_quota_us)
    jq -n --arg f "$SERVER_CPU" --argjson p "$SERVER_CPU_PERIOD_US" --arg q "$q" --arg kind "$kind" --arg charged "$(tb_cpu_budget_charged)" '
        {budget: (if $f == "max" then null else ($f | tonumber) end), period_us: $p,
         quota_us: (if $q == "max" then null else ($q | tonumber) end),
         controller: (if $kind == "v2" then "cgroup v2 cpu.max" elif $kind == "v1" then "cgroup v1 cpu.cfs_quota_us" else null end),
         longest_pause_bound_us: (if $q == "max" then 0 else ([$p - ($q | tonumber), 0] | max) end),
         charged: $charged}'
}

# tb_cpu_budget_stat: each server's throttling so far, as JSON
# {server1: {periods, throttled_periods, throttled_us}} (cpu.stat).
tb_cpu_budget_stat() {
    local role d kind
    read -r kind _ <<<"$(tb_cpu_controller 2>/dev/null || true)"
    for role in "${SERVER_ROLES[@]}"; do
        d=$(tb_cpu_budget_dir "$role")
        [ -n "$d" ] && [ -f "$d/cpu.stat" ] || { jq -n --arg r "$role" '{($r): null}'; continue; }
        awk -v r="$role" -v k="$kind" '
            $1 == "nr_periods" { p = $2 } $1 == "nr_throttled" { t = $2 }
            $1 == "throttled_usec" { u = $2 } $1 == "throttled_time" { u = int($2 / 1000) }
            END { printf "{\"%s\": {\"periods\": %d, \"throttled_periods\": %d, \"throttled_us\": %d}}\n", r, p, t, u }' "$d/cpu.stat"
    done | jq -s -c 'add'
}

# nsx ROLE CMD...: a quick unpinned command (ip, sysctl, nft) in a namespace.
nsx() { local role=$1; shift; ip netns exec "$(ns_of "$role")" "$@"; }

sysctl_set() { local role=$1; shift; nsx "$role" sysctl -q -w "$@" >/dev/null; }

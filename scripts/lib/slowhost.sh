# slowhost.sh: the slow-host rehearsal of check-repeat (SLOW=F): a busy
# loop pinned to every online CPU, all in one cgroup whose CPU bandwidth
# is F of each CPU, so that everything else the suite runs (the rig, the
# servers, the tests' own scripts) gets at most 1 - F of the machine: a
# host about 1 / (1 - F) times slower for user and system time. The
# kernel's softirq work is not slowed (no cgroup is charged for it), and
# the CPU busy shares the sampler reads include the loops' time, as they
# would a noisy neighbour's. Every loop is bounded in time
# (SLOWHOST_MAX_S, default 3 hours) besides slowhost_stop. Sourced after
# common.sh and testbed-cpu.sh.

SLOWHOST_PIDS=()
SLOWHOST_CG=""

# slowhost_check F: F is a share of a CPU above 0 and below 1.
slowhost_check() {
    [[ $1 =~ ^0?\.[0-9]+$ ]] && awk -v f="$1" 'BEGIN { exit !(f >= 0.05 && f <= 0.9) }' \
        || die "SLOW=$1 must be the share of every CPU the rehearsal takes, 0.05 to 0.9 (0.5: a host half as fast)"
}

# slowhost_cgroup_dir: the rehearsal's cgroup (made), under the cpu
# controller the testbed's budgets use (tb_cpu_controller).
slowhost_cgroup_dir() {
    local kind dir
    read -r kind dir <<<"$(tb_cpu_controller)" \
        || die "SLOW needs the cgroup cpu controller (v2 cpu.max or v1 cpu.cfs_quota_us); none is mounted"
    mkdir -p "$dir/rootbench-slowhost"; echo "$kind $dir/rootbench-slowhost"
}

# slowhost_start F: the loops, their cgroup limited to F of every CPU.
slowhost_start() {
    local f=$1 kind cpus n quota period=10000 cpu pid
    slowhost_check "$f"
    read -r kind SLOWHOST_CG <<<"$(slowhost_cgroup_dir)"
    cpus=$(slowhost_cpus)
    n=$(wc -w <<<"$cpus")
    quota=$(awk -v f="$f" -v n="$n" -v p="$period" 'BEGIN { printf "%d", f * n * p }')
    if [ "$kind" = v2 ]; then echo "$quota $period" > "$SLOWHOST_CG/cpu.max"
    else echo "$period" > "$SLOWHOST_CG/cpu.cfs_period_us"; echo "$quota" > "$SLOWHOST_CG/cpu.cfs_quota_us"; fi
    for cpu in $cpus; do
        # the loop moves itself into the cgroup before it starts
        timeout "${SLOWHOST_MAX_S:-10800}" sh -c 'echo $$ > "$1/cgroup.procs" && exec taskset -c "$2" sh -c "while :; do :; done"' \
            _ "$SLOWHOST_CG" "$cpu" &
        SLOWHOST_PIDS+=("$!")
    done
    log "slow-host rehearsal: a busy loop on each of CPUs $(echo $cpus | tr ' ' ','), together limited to $f of every CPU ($quota us per $period us)"
}

# slowhost_stop: the loops ended, their cgroup removed.
slowhost_stop() {
    local pid
    for pid in "${SLOWHOST_PIDS[@]+"${SLOWHOST_PIDS[@]}"}"; do
        kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    done
    SLOWHOST_PIDS=()
    [ -z "$SLOWHOST_CG" ] || rmdir "$SLOWHOST_CG" 2>/dev/null || warn "cgroup $SLOWHOST_CG not removed"
    SLOWHOST_CG=""
}

# slowhost_cpus: the online CPUs' numbers, one word each (0-1,3 -> 0 1 3).
slowhost_cpus() {
    awk '{ n = split($0, r, ","); for (i = 1; i <= n; i++) { split(r[i], b, "-"); e = (b[2] == "" ? b[1] : b[2]); for (c = b[1]; c <= e; c++) printf "%d ", c } }' \
        /sys/devices/system/cpu/online
}

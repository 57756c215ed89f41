# faults.sh: helpers of the fault-injection tests (scripts/tests/8x-fault-*.test,
# `make faults`; docs/reliability.md "Faults"). Each test injects one fault
# into a real experiment on its own testbed prefix (RB_PREFIX) and states
# what must hold. Source after scripts/lib/testlib.sh and topology.sh.

# fault_kill_server ROLE: SIGKILL the server daemon (every process of it).
fault_kill_server() {
    local pids
    pids=$(role_pids "$1" nsd knotd named)
    [ -n "$pids" ] || fail "no server daemon in $(ns_of "$1") to kill"
    note "SIGKILL $1's daemon: $(echo $pids)"
    kill -9 $pids
}

# fault_wait_for SECONDS CMD...: poll CMD every 0.05 s until it succeeds.
fault_wait_for() {
    local n=$(( $1 * 20 )) i; shift
    for ((i = 0; i < n; i++)); do "$@" && return 0; sleep 0.05; done
    return 1
}

# fault_lines_ge FILE N: FILE has at least N lines (non-# lines for a CSV).
fault_lines_ge() {
    [ -f "$1" ] || return 1
    [ "$(grep -vc '^#' "$1" || true)" -ge "$2" ]
}

# fault_assert_results_clean DIR: every *.json under DIR is valid JSON, no
# temporary file of an atomic write is left, every *.jsonl line is JSON (an
# empty journal is whole), and no summary.json claims ok.
fault_assert_results_clean() {
    local f
    while IFS= read -r f; do
        jq -e . "$f" >/dev/null 2>&1 || fail "truncated or invalid JSON left as a result: $f ($(stat -c %s "$f") bytes)"
    done < <(find "$1" -name '*.json' -type f)
    # (a journal may be empty: a sweep starts its journals empty)
    while IFS= read -r f; do
        jq . "$f" >/dev/null 2>&1 || fail "a journal with a broken line: $f"
    done < <(find "$1" -name '*.jsonl' -type f)
    f=$(find "$1" -name '*.tmp.*' -type f | head -n 3)
    [ -z "$f" ] || fail "temporary files of atomic writes left: $f"
    while IFS= read -r f; do
        [ "$(jq -r .status "$f")" != ok ] || fail "$f claims status ok after the fault"
    done < <(find "$1" -name summary.json -type f)
}

# fault_testbed_leftovers: what is left of testbed $RB_PREFIX, one item a
# line (nothing when it is all gone): namespaces, links in the host
# namespace named after the prefix or its switch ports, processes (in the
# prefix's cgroups or naming its state directory or cgroup; zombies are
# dead and not counted), nftables tables named rootbench in the host, the
# cgroup directory and the state directory.
fault_testbed_leftovers() {
    local role ns cg p cmd
    for role in "${ROLES[@]}"; do
        ns=$(ns_of "$role")
        [ ! -e "/run/netns/$ns" ] || echo "namespace $ns"
    done
    ip -o link show 2>/dev/null | awk -F': ' '{ print $2 }' | sed 's/@.*//' \
        | grep -E "^(${RB_PREFIX}-|router-[cs]$|player[12]$|listener$|probe$|sink$|server[12]$)" | sed 's/^/link /' || true
    cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)/rootbench-$RB_PREFIX
    if [ -d "$cg" ]; then
        echo "cgroup $cg"
        for p in $(cat "$cg"/*/cgroup.procs "$cg/cgroup.procs" 2>/dev/null); do echo "process $p in $cg"; done
    fi
    for p in /proc/[0-9]*; do
        [ "$(awk '/^State:/ { print $2 }' "$p/status" 2>/dev/null)" != Z ] || continue
        cmd=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null) || continue
        case $cmd in
            *"/run/rootbench/$RB_PREFIX/"*|*"rootbench-$RB_PREFIX/"*|*"--ns $RB_PREFIX-"*) echo "process ${p#/proc/}: ${cmd:0:100}" ;;
        esac
    done
    nft list tables 2>/dev/null | grep -q 'rootbench' && echo "nft table in the host: $(nft list tables | grep rootbench | tr '\n' ' ')"
    [ ! -d "${RB_STATE_ROOT:-/run/rootbench}/$RB_PREFIX" ] || echo "state directory ${RB_STATE_ROOT:-/run/rootbench}/$RB_PREFIX"
    return 0
}

# fault_running ROLE COMM...: a process named COMM runs in ROLE's namespace.
fault_running() { [ -n "$(role_pids "$@")" ]; }

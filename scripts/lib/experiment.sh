# experiment.sh: an experiment's testbed. Each experiment states the
# testbed settings it needs in a profile file of its own (KEY=VALUE lines,
# see `scripts/testbed up --profile`); before it measures it brings the
# testbed to exactly that profile plus its own documented settings, through
# the testbed's command line, and records what it got. Settings another
# experiment left behind (or exported) cannot leak in. A testbed that was
# down is brought down again when the experiment ends.
#
# Source after common.sh.

EXP_TESTBED_STARTED=0

# exp_testbed_up PROFILE [KEY=VALUE...]: the testbed at PROFILE's settings
# plus the arguments (an empty value means the testbed's default).
# Every other testbed setting the user gave (in the environment, as make's
# command line passes them: SERVER, SERVER_WORKERS, ZONE_DIR, SERVER_CPU,
# ...) passes to the testbed; one that the profile or the experiment sets
# itself is not taken, and a warning names it and the value used, so that
# no setting is dropped silently (an experiment's own knob, UDP_STEER for
# STEER, is the way to change it).
exp_testbed_up() {
    local profile=$1 out; shift
    # (processes: fails when the testbed is down, without status's commands)
    if ! "$RB_TOP/scripts/testbed" processes >/dev/null 2>&1; then
        [ "$EXP_TESTBED_STARTED" = 1 ] || log "testbed '$RB_PREFIX' is down: bringing it up (and down again at the end)"
        EXP_TESTBED_STARTED=1
    fi
    exp_pass_settings warn "$profile" "$@"
    out=$("$RB_TOP/scripts/testbed" up --profile "$profile" "${EXP_PASS[@]+"${EXP_PASS[@]}"}" "$@" 2>&1) \
        || die "testbed up with profile ${profile#"$RB_TOP"/} $*: $(printf '%s\n' "$out" | tail -n 3)"
}

# exp_testbed_check PROFILE [KEY=VALUE...]: what exp_testbed_up would
# give `up`, checked as up checks it (scripts/testbed check: on a lab, what
# it cannot be told, its hardware's and its hosts'), with nothing touched:
# an experiment asks it for every configuration it will bring up, before
# it starts, so that a refusal comes first, naming what the testbed lacks.
exp_testbed_check() {
    local profile=$1 out msg; shift
    exp_pass_settings quiet "$profile" "$@"
    out=$("$RB_TOP/scripts/testbed" check --profile "$profile" "${EXP_PASS[@]+"${EXP_PASS[@]}"}" "$@" 2>&1) && return 0
    msg=$(sed -n 's/^[a-z-]*: error: //p' <<<"$out" | tail -n 1)
    die "refused before anything starts (BACKEND=${BACKEND:-netns}): ${msg:-$(tail -n 3 <<<"$out" | tr '\n' ' ')}"
}

# exp_pass_settings warn|quiet PROFILE [KEY=VALUE...]: EXP_PASS, the testbed
# settings of the environment that pass to `up` beside PROFILE and the
# arguments; with warn, each one they set otherwise named (exp_testbed_up).
exp_pass_settings() {
    local mode=$1 profile=$2 name a v; shift 2
    EXP_PASS=()
    declare -A set_here=()
    while IFS= read -r a; do set_here[${a%%=*}]=${a#*=}; done < <(sed -n 's/^\([A-Z_][A-Z0-9_]*\)=\([^#[:space:]]*\).*/\1=\2/p' "$profile")
    for a in "$@"; do set_here[${a%%=*}]=${a#*=}; done
    for name in $(exp_up_setting_names); do
        [ -n "${!name+x}" ] && [ -n "${!name}" ] || continue
        if [ -n "${set_here[$name]+x}" ]; then
            v=${set_here[$name]}
            [ "$mode" = quiet ] || [ "${!name}" = "$v" ] || exp_not_taken "$name" "this experiment sets $name=${v:-(the testbed default)} (its profile ${profile#"$RB_TOP"/}, or its own setting)"
        else
            EXP_PASS+=("$name=${!name}")
        fi
    done
}

# exp_not_taken NAME WHY: the warning that the user's NAME (given in the
# environment, or on make's command line, which passes it so) is not
# taken, and WHY (what this experiment uses instead); nothing when NAME
# is unset or empty. Every experiment that sets a testbed setting itself
# says so through here (scripts/tests/33-testbed-settings-reach-every-experiment.test).
exp_not_taken() {
    [ -n "${!1:-}" ] || return 0
    warn "$1=${!1} is not taken: $2"
}

# exp_up_setting_names: the testbed settings that `up` takes, one a line
# (scripts/testbed.settings.json: those with "up": true).
exp_up_setting_names() {
    [ -n "${EXP_UP_NAMES:-}" ] || EXP_UP_NAMES=$(jq -r '.settings[] | select(.up == true) | .name' "$RB_TOP/scripts/testbed.settings.json") \
        || die "scripts/testbed.settings.json unreadable"
    printf '%s\n' "$EXP_UP_NAMES"
}

# exp_dot_check [PREFIX]: the server asked for (SERVER, SERVER_RELEASE)
# serves DNS over TLS, else die before anything runs: Debian 12's Knot DNS
# 3.2 has none (Knot 3.4, SERVER_RELEASE=current, has).
exp_dot_check() {
    [ "${SERVER:-nsd}" != knot ] || [ "${SERVER_RELEASE:-debian12}" != debian12 ] \
        || die "${1:-}SERVER=knot: Knot DNS 3.2 (Debian 12) serves no DNS over TLS, so there is nothing to measure (SERVER=nsd or SERVER=bind, or Knot DNS 3.4: SERVER_RELEASE=current)"
}

# exp_doq_why: why the testbed asked for serves no DNS over QUIC on
# sockets, nothing when it does (Knot DNS 3.4, SERVER_RELEASE=current, on
# the namespace testbed): NSD and BIND serve none, Knot 3.2 only on the
# XDP path, and a lab's servers are rendered without it.
exp_doq_why() {
    if [ "${BACKEND:-netns}" = lab ]; then
        echo "BACKEND=lab: DNS over QUIC is a namespace testbed setting (a lab's servers are rendered without it, SERVER_QUIC)"
    elif [ "${SERVER:-nsd}" != knot ] || [ "${SERVER_RELEASE:-debian12}" = debian12 ]; then
        echo "SERVER=${SERVER:-nsd} SERVER_RELEASE=${SERVER_RELEASE:-debian12}: only Knot DNS 3.4 (SERVER=knot SERVER_RELEASE=current) serves DNS over QUIC on the testbed (NSD and BIND serve none, Knot 3.2 on the XDP path only)"
    fi
}

# exp_doq_served: the testbed asked for serves DNS over QUIC (exp_doq_why).
exp_doq_served() { [ -z "$(exp_doq_why)" ]; }

# exp_doq_check [PREFIX]: exp_doq_served, else die before anything runs.
exp_doq_check() {
    exp_doq_served || die "${1:-}$(exp_doq_why): nothing to measure"
}

# exp_doq_wanted SETTING: whether DNS over QUIC is measured (yes or no) for
# SETTING auto (when the server serves it), yes (required: refused for a
# server that cannot) or no.
exp_doq_wanted() {
    case $1 in
        no) echo no ;;
        yes) exp_doq_check "DOT_QUIC=yes with "; echo yes ;;
        *) if exp_doq_served; then echo yes; else echo no; fi ;;
    esac
}

# exp_testbed_json: the running testbed's configuration (status --json).
exp_testbed_json() { "$RB_TOP/scripts/testbed" status --json; }

# exp_testbed_release: down again if this experiment brought it up.
exp_testbed_release() {
    if [ "$EXP_TESTBED_STARTED" = 1 ]; then
        "$RB_TOP/scripts/testbed" down >/dev/null 2>&1 || warn "testbed down failed"
        EXP_TESTBED_STARTED=0
    fi
    return 0
}

# exp_servers_down ROLE...: the roles among ROLE... whose server daemon is
# not running (killed or crashed), one a line, from the testbed's status.
# A stopped (SIGSTOP) or stalled daemon is alive: it is the experiment's
# to measure, not a fault of the rig.
exp_servers_down() {
    local st
    st=$("$RB_TOP/scripts/testbed" processes) || die "scripts/testbed processes failed: is the testbed '$RB_PREFIX' still up?"
    jq -r --arg roles "$*" '($roles | split(" ")) as $r
        | .[] | select(.role as $x | $r | index($x)) | select(.running | not) | .role' <<<"$st"
}

# exp_sampler_start DIR [RBSAMPLE_OPTION...]: the testbed sampler (every
# layer's counters every SAMPLE_MS, default 100; the options added, e.g.
# --stall-ms 0: no stall probes) in the background, writing DIR/series.jsonl,
# DIR/sample.json and DIR/sampler.log; returns once it has taken its first
# sample (the baseline: the load may start), with SAMPLER_PID set and
# SAMPLER_READY_NS the wall-clock instant it was taken. Dies when the
# sampler exits first or is not ready within 5 s.
exp_sampler_start() {
    local dir=$1 i; shift
    rm -f "$dir/sample.json" "$dir/sampler.ready"
    "$RB_TOP/scripts/testbed" sample --quiet --interval-ms "${SAMPLE_MS:-100}" --series "$dir/series.jsonl" \
        --summary "$dir/sample.json" --ready "$dir/sampler.ready" "$@" > "$dir/sampler.log" 2>&1 &
    SAMPLER_PID=$!
    for ((i = 0; i < 250; i++)); do
        if [ -e "$dir/sampler.ready" ]; then
            SAMPLER_READY_NS=$(stat -c %.9Y "$dir/sampler.ready" | tr -d .)
            return 0
        fi
        kill -0 "$SAMPLER_PID" 2>/dev/null || die "the testbed sampler did not start: $(tail -n 3 "$dir/sampler.log")"
        sleep 0.02
    done
    die "the testbed sampler took no first sample within 5 s: $(tail -n 3 "$dir/sampler.log")"
}

# exp_sampler_end: the sampler of exp_sampler_start ended (SIGTERM: it
# writes its summary) and waited for, if it runs (for a trap: never fails).
exp_sampler_end() {
    [ -n "${SAMPLER_PID:-}" ] || return 0
    kill -TERM "$SAMPLER_PID" 2>/dev/null || true
    wait "$SAMPLER_PID" 2>/dev/null || true
    SAMPLER_PID=""
}

# exp_sampler_stop DIR: the sampler ended; dies unless it wrote DIR/sample.json.
exp_sampler_stop() {
    exp_sampler_end
    [ -s "$1/sample.json" ] || die "the testbed sampler wrote no summary: $(tail -n 3 "$1/sampler.log")"
}

# ---------------------------------------------------------------- scale
#
# SCALE=smoke|quick|paper (default quick; "full" is paper): how long an
# experiment runs. The registry (scripts/lib/experiments.json) names the
# scales, the default and the aliases; what each SCALE sets is in each
# experiment's settings table, read by settings_load (scripts/lib/settings.sh).

# ---------------------------------------------------------------- family
#
# FAMILY=4|6|both (default 4): the address family an experiment measures
# over. One run measures one family; FAMILY=both runs the experiment once
# per family (exp_family_both). Results: IPv4 in <run>/<name>/, IPv6 in
# <run>/<name>-v6/, each summary.json with "family": 4 or 6
# (docs/results.md).

# The experiments that measure over one family only, and the reason, from
# the registry (scripts/lib/experiments.json: only_family, why), keyed by
# the name each gives itself. Such an experiment refuses another FAMILY
# (exp_family_parse NAME), and the bench runs its step once, in that
# family (exp_family_only NAME).
EXP_REGISTRY="$RB_TOP/scripts/lib/experiments.json"
declare -gA EXP_FAMILY_ONLY=()
while IFS=$'\t' read -r _name _only; do
    EXP_FAMILY_ONLY[$_name]=$_only
done < <(jq -r '.experiments[] | select(.only_family != null) | [(.command // .name), "\(.only_family):\(.why)"] | @tsv' "$EXP_REGISTRY")
unset _name _only

# exp_family_only NAME: the one family NAME measures in, or nothing (all).
exp_family_only() { local v=${EXP_FAMILY_ONLY[$1]:-}; [ -z "$v" ] || echo "${v%%:*}"; }

# exp_family_parse [NAME]: FAMILY normalised to 4, 6 or both (ipv4/ipv6
# accepted; default 4) and exported, or die; with NAME, a family the
# experiment NAME does not measure in is refused with the reason.
exp_family_parse() {
    case ${FAMILY:-4} in
        4|ipv4|v4) FAMILY=4 ;;
        6|ipv6|v6) FAMILY=6 ;;
        both) FAMILY=both ;;
        *) die "FAMILY=$FAMILY: must be 4, 6 or both" ;;
    esac
    local only v
    if [ -n "${1:-}" ]; then
        only=$(exp_family_only "$1")
        v=${EXP_FAMILY_ONLY[$1]:-}
        [ -z "$only" ] || [ "$FAMILY" = "$only" ] \
            || die "FAMILY=$FAMILY: $1 measures over IPv$only only (FAMILY=$only): ${v#*:}"
    fi
    export FAMILY
}

# exp_family_read [NAME]: exp_family_parse, and FAMILY_SUFFIX ("" or
# "-v6") and FAMILY_SERVICE (the service address of the family).
exp_family_read() {
    exp_family_parse "$@"
    FAMILY_SUFFIX=""
    [ "$FAMILY" = 6 ] && FAMILY_SUFFIX=-v6
    if [ "$FAMILY" = 6 ]; then FAMILY_SERVICE=$SERVICE6; else FAMILY_SERVICE=$SERVICE4; fi
    return 0
}

# exp_family_both PROGRAM ARGS...: with FAMILY=both, run PROGRAM ARGS once
# with FAMILY=4, then with FAMILY=6, in one run directory, and exit with
# the first non-zero status (130 at once when the first was interrupted);
# with FAMILY=4 or 6, return and let the caller run.
exp_family_both() {
    [ "$FAMILY" = both ] || return 0
    local rc=0 rc6=0
    export RB_RUN
    log "FAMILY=both: IPv4, then IPv6"
    FAMILY=4 "$@" || rc=$?
    [ "$rc" -eq 130 ] && exit 130
    FAMILY=6 "$@" || rc6=$?
    [ "$rc" -ne 0 ] && exit "$rc"
    exit "$rc6"
}

# exp_family_addr ROLE: the role's address in FAMILY.
exp_family_addr() { if [ "$FAMILY" = 6 ]; then role_addr6 "$1"; else role_addr4 "$1"; fi; }

# exp_family_block PLAYER: the player's client block in FAMILY.
exp_family_block() { if [ "$FAMILY" = 6 ]; then player_block6 "$1"; else player_block4 "$1"; fi; }

# exp_host_speed TESTBED_JSON: how fast this host is now on the servers'
# CPUs and on the rig's (scripts/sampler/rbspeed: a fixed workload timed
# on each CPU, and the steal time meanwhile), as JSON {at, server: {cpuN:
# ...}, rig: {cpuN: ...}}; an experiment records it at its start and its
# end, so that two runs' figures can be set beside their hosts' speeds.
# null on a lab (its servers are other hosts) or without rbspeed (make).
exp_host_speed() {
    local prog="$RB_TOP/scripts/sampler/rbspeed" s c out
    [ "$(jq -r '.backend // "netns"' <<<"$1")" = netns ] && [ -x "$prog" ] || { echo null; return 0; }
    s=$(jq -r '.pinning.cpu_names.server // [] | map(ltrimstr("cpu")) | join(" ")' <<<"$1")
    c=$(jq -r '.pinning.cpu_names.client // [] | map(ltrimstr("cpu")) | join(" ")' <<<"$1")
    [ -n "$s" ] && [ -n "$c" ] || { echo null; return 0; }
    # shellcheck disable=SC2086
    out=$("$prog" $s $c 2>&1) || { warn "host speed not measured: $out"; echo null; return 0; }
    jq -c --arg at "$(date -u +%FT%TZ)" --arg s "$s" --arg c "$c" '
        ($s | split(" ") | map("cpu" + .)) as $sv | ($c | split(" ") | map("cpu" + .)) as $cl
        | {at: $at, unit: "ns per iteration of rbspeed'"'"'s fixed loop (median of its repeats; lower is faster)",
           server: (.cpus | with_entries(select(.key as $k | $sv | index($k)))),
           rig: (.cpus | with_entries(select(.key as $k | $cl | index($k))))}' <<<"$out"
}

# exp_host_speed_begin TESTBED_JSON: HOST_SPEED0, the host's speed at the
# experiment's start (exp_host_speed), measured the first time only: the
# testbed an experiment brings up again (the next LB, server or zone
# state) leaves its start as it was.
exp_host_speed_begin() { [ -n "${HOST_SPEED0:-}" ] || HOST_SPEED0=$(exp_host_speed "$1"); }

# exp_host_speed_pair TESTBED_JSON: a summary's host_speed, {start, end}:
# HOST_SPEED0 (null when the experiment never got as far) and the speed now.
exp_host_speed_pair() {
    jq -n -c --argjson s "${HOST_SPEED0:-null}" --argjson e "$(exp_host_speed "$1")" '{start: $s, end: $e}'
}

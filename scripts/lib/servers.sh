# servers.sh: which DNS server programs the testbed runs, and the TCP listen
# backlog they get (docs/servers.md). Source after common.sh; it defines
# functions and variables and changes no state.
#
# Debian 12's NSD asks listen() for a backlog of 256. The NSD that
# `make nsd-backlog` rebuilds from Debian's source asks for 65535, which
# Linux caps at the network namespace's net.core.somaxconn: with it, the
# backlog is whatever that sysctl is set to in the server's namespace.

. "$RB_TOP/scripts/servers/nsd-source.conf"
NSD_DEBIAN_DIR=/usr/sbin
NSD_DEBIAN_BACKLOG=256
NSD_REBUILT_DIR=${NSD_REBUILT_DIR:-$RB_TOP/scripts/servers/build/nsd-$NSD_UPSTREAM_VERSION}
NSD_REBUILT_BACKLOG=65535
# NSD 4.12 built with --enable-recvmmsg, else as Debian's (make nsd-recvmmsg).
NSD_RECVMMSG_DIR=$RB_TOP/scripts/servers/build/nsd-$NSD_UPSTREAM_VERSION-recvmmsg

# nsd_build_program DIR WHAT TARGET [PROG]: path of nsd (or nsd-checkconf,
# nsd-control) of the NSD build in DIR; dies naming the make target when it
# is not built.
nsd_build_program() {
    local dir=$1 what=$2 target=$3 prog=${4:-nsd}
    nsd_check_program_name "$prog"
    [ -x "$dir/$prog" ] && [ -r "$dir/build-info.json" ] \
        || die "missing ${dir#"$RB_TOP"/}/$prog ($what): run make $target"
    printf '%s\n' "$dir/$prog"
}
# nsd_rebuilt_program [PROG]: the rebuilt NSD's (any listen backlog).
nsd_rebuilt_program() {
    nsd_build_program "$NSD_REBUILT_DIR" "NSD with a listen backlog other than $NSD_DEBIAN_BACKLOG" nsd-backlog "${1:-nsd}"
}
# nsd_recvmmsg_program [PROG]: the recvmmsg build's.
nsd_recvmmsg_program() {
    nsd_build_program "$NSD_RECVMMSG_DIR" "NSD $NSD_UPSTREAM_VERSION with recvmmsg" nsd-recvmmsg "${1:-nsd}"
}

nsd_check_program_name() {
    case $1 in
        nsd|nsd-checkconf|nsd-control) ;;
        *) die "unknown NSD program '$1' (nsd, nsd-checkconf or nsd-control)" ;;
    esac
}

# nsd_check_backlog N: N is a listen backlog one of the two NSDs can have.
nsd_check_backlog() {
    [[ ${1:-} =~ ^[1-9][0-9]*$ ]] || die "NSD listen backlog '${1:-}' must be a positive integer"
    [ "$1" -le "$NSD_REBUILT_BACKLOG" ] \
        || die "NSD listen backlog $1 is above $NSD_REBUILT_BACKLOG, what the rebuilt NSD asks listen() for"
}

# nsd_program_for_backlog N [PROG]: the nsd (nsd-checkconf, nsd-control) to
# run for a TCP listen backlog of N. N=256 is Debian's own /usr/sbin/nsd,
# what operators run; any other N is the rebuilt NSD, whose backlog the
# caller sets with net.core.somaxconn=N in the server's namespace.
nsd_program_for_backlog() {
    local n=${1:-} prog=${2:-nsd}
    nsd_check_backlog "$n"
    nsd_check_program_name "$prog"
    if [ "$n" -eq "$NSD_DEBIAN_BACKLOG" ]; then
        printf '%s\n' "$NSD_DEBIAN_DIR/$prog"
    else
        nsd_rebuilt_program "$prog"
    fi
}

# nsd_binary_for_backlog N: the nsd binary for a listen backlog of N.
nsd_binary_for_backlog() { nsd_program_for_backlog "${1:-}" nsd; }

# nsd_backlog_of_binary PATH: the backlog that nsd binary passes to
# listen() (the kernel then caps it at net.core.somaxconn): 256 for
# Debian's, the build-info.json record for the rebuilt one.
nsd_backlog_of_binary() {
    local bin=${1:-}
    if [ "$bin" = "$NSD_DEBIAN_DIR/nsd" ]; then
        printf '%s\n' "$NSD_DEBIAN_BACKLOG"
    elif [ -r "$(dirname -- "$bin")/build-info.json" ] && [ -x "$bin" ]; then
        jq -er .listen_backlog_requested "$(dirname -- "$bin")/build-info.json"
    else
        die "'$bin' is neither Debian's $NSD_DEBIAN_DIR/nsd nor a rebuilt nsd (make nsd-backlog)"
    fi
}

# nsd_build_info_json PATH: what to record about an nsd binary with results:
# its version, where it comes from, the backlog it asks for, and for the
# rebuilt one the patch's sha256.
nsd_build_info_json() {
    local bin=${1:-} version
    version=$("$bin" -v 2>&1 | sed -n 's/^NSD version //p' | head -n1)
    [ -n "$version" ] || die "'$bin -v' printed no NSD version"
    if [ "$bin" = "$NSD_DEBIAN_DIR/nsd" ]; then
        jq -n --arg b "$bin" --arg v "$version" --argjson bl "$NSD_DEBIAN_BACKLOG" \
            --arg pkg "nsd $(dpkg-query -W -f='${Version}' nsd 2>/dev/null || echo unknown)" \
            '{binary:$b, nsd_version:$v, debian_package:$pkg, listen_backlog_requested:$bl}'
    else
        nsd_backlog_of_binary "$bin" >/dev/null
        jq --arg b "$bin" --arg v "$version" '{binary:$b} + . + {nsd_version:$v}' \
            "$(dirname -- "$bin")/build-info.json"
    fi
}

# tcp_listen_backlogs NETNS PORT: one line "ADDRESS:PORT BACKLOG" per TCP
# socket listening on PORT in NETNS, as the kernel has it (ss's Send-Q of a
# listening socket is its backlog, after the somaxconn cap).
tcp_listen_backlogs() {
    ip netns exec "$1" ss -Hltn "sport = :$2" | awk '{ print $4, $3 }'
}

# ---------------------------------------------------------------- server kinds

# The DNS server software the testbed runs (SERVER): one module each, with
# the same functions srv_<kind>_...: packages, name, program, version,
# default_backlog, backlog_check N, zone_stanza NAME FILE, checkconf DIR,
# start ROLE DIR, stats_raw ROLE DIR, and the jq filter stats_jq that maps
# the raw counters to {queries, udp, tcp}. The command lines behind them
# (check_cmd DIR, prepare_cmd DIR, daemon_cmd DIR, stats_cmd DIR ADDR4,
# version_cmd; stats_parse, version_sed) are shared with the lab
# backend, whose hosts run them (srv_host_env). Config from
# scripts/templates/<template>; docs/servers.md compares the settings.
SERVER_KINDS="nsd knot bind"
# Which release of each (SERVER_RELEASE): release_program gives its programs.
. "$RB_TOP/scripts/lib/server-release.sh"
. "$RB_TOP/scripts/lib/server-nsd.sh"
. "$RB_TOP/scripts/lib/server-knot.sh"
. "$RB_TOP/scripts/lib/server-bind.sh"

# srv_check_kind KIND: KIND is a server the testbed can run.
srv_check_kind() {
    [[ " $SERVER_KINDS " == *" ${1:-} "* ]] || die "unknown SERVER=${1:-} (${SERVER_KINDS// /, })"
}

# srv KIND FUNC ARGS...: the server module's function.
srv() { local kind=$1 f=$2; shift 2; "srv_${kind}_$f" "$@"; }
# srv_var KIND NAME: the server module's variable (version_sed, build_sed).
srv_var() { local v="srv_${1}_$2"; printf '%s\n' "${!v}"; }

srv_template() {
    case $1 in nsd) echo nsd.conf.in ;; knot) echo knot.conf.in ;; bind) echo named.conf.in ;; esac
}

# srv_stats_json KIND ROLE DIR: the daemon's own counters as
# {"queries": N, "udp": N, "tcp": N, "counters": {raw}}; {} when it does
# not answer (stopped, stalled: every reader is bounded to 3 s).
srv_stats_json() {
    local kind=$1 raw
    raw=$(srv "$kind" stats_raw "$2" "$3")
    [ -n "$raw" ] || { echo '{}'; return 0; }
    srv_stats_shape "$kind" <<<"$raw"
}

# srv_stats_shape KIND: the raw counters (one JSON object on stdin) as
# {"queries": N, "udp": N, "tcp": N, "tls": N|null, "counters": {raw}}.
srv_stats_shape() {
    local filter="srv_${1}_stats_jq"
    jq -c "(${!filter}) + {counters: .}"
}

# srv_host_env KIND DIR ADDR4: the daemon of KIND for the configuration in
# DIR (DIR/server.conf) as shell assignments, the same command lines the
# netns testbed runs: what a lab host's rb-server (scripts/lab/rb-server)
# reads from DIR/server.env. ADDR4 is the server's own address (BIND's
# statistics channel).
srv_host_env() {
    local kind=$1 dir=$2 addr4=$3
    printf 'RB_KIND=%q\n' "$kind"
    printf 'RB_PROGRAM=%q\n' "$(srv "$kind" program)"
    printf 'RB_CHECK=%q\n' "$(srv "$kind" check_cmd "$dir")"
    printf 'RB_PREPARE=%q\n' "$(srv "$kind" prepare_cmd "$dir")"
    printf 'RB_DAEMON=%q\n' "$(srv "$kind" daemon_cmd "$dir")"
    printf 'RB_STATS=%q\n' "$(srv "$kind" stats_cmd "$dir" "$addr4")"
    printf 'RB_VERSION=%q\n' "$(srv "$kind" version_cmd)"
}

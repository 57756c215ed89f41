# server-nsd.sh: NSD as the testbed's server daemon (SERVER=nsd, the
# default). One of three modules with the same functions (server-knot.sh,
# server-bind.sh); scripts/lib/servers.sh picks one by SERVER. The
# configuration comes from scripts/templates/nsd.conf.in; which nsd runs
# (the release's package, backlog 256; the rebuilt one, any backlog; the
# recvmmsg build of NSD 4.12) from NSD_BUILD.

srv_nsd_packages() { echo nsd; }
srv_nsd_name() { echo NSD; }

# srv_nsd_program [PROG]: nsd, nsd-checkconf or nsd-control of the NSD_BUILD in use.
srv_nsd_program() {
    local prog=${1:-nsd}
    case ${NSD_BUILD:-debian} in
        rebuilt) nsd_rebuilt_program "$prog" ;;
        recvmmsg) nsd_recvmmsg_program "$prog" ;;
        *) release_program "$prog" "$NSD_DEBIAN_DIR/$prog" ;;
    esac
}

srv_nsd_version_sed='s/^NSD version //p'
srv_nsd_version_cmd() { printf '%q -v' "$(srv_nsd_program nsd)"; }
srv_nsd_version() { "$(srv_nsd_program nsd)" -v 2>&1 | sed -n "$srv_nsd_version_sed" | head -n1; }
# What prints the version and the build options (status .server.release).
srv_nsd_build_flag() { echo -v; }
srv_nsd_build_sed='s/^Configure line: //p'

# srv_nsd_backlog_check N: N is a backlog this NSD build can listen with.
srv_nsd_backlog_check() {
    case ${NSD_BUILD:-debian} in
        debian|recvmmsg) [ "$1" = "$NSD_DEBIAN_BACKLOG" ] \
            || die "SERVER_BACKLOG=$1 needs NSD_BUILD=rebuilt: NSD_BUILD=${NSD_BUILD:-debian} listens with a fixed backlog of $NSD_DEBIAN_BACKLOG as Debian's (docs/servers.md)"
            [ "${NSD_BUILD:-debian}" = debian ] || nsd_recvmmsg_program nsd >/dev/null ;;
        rebuilt) nsd_rebuilt_program nsd >/dev/null ;;
        *) die "unknown NSD_BUILD=$NSD_BUILD (debian: the release's package, backlog $NSD_DEBIAN_BACKLOG; rebuilt: make nsd-backlog, any backlog; recvmmsg: make nsd-recvmmsg)" ;;
    esac
}
srv_nsd_default_backlog() { echo "$NSD_DEBIAN_BACKLOG"; }

srv_nsd_zone_stanza() { printf 'zone:\n    name: "%s"\n    zonefile: "%s"\n\n' "$1" "$2"; }

# The daemon's command lines for DIR (srv_host_env; a lab host's rb-server
# runs the same): check, prepare, start, the counters.
srv_nsd_check_cmd() { printf '%q %q' "$(srv_nsd_program nsd-checkconf)" "$1/server.conf"; }
srv_nsd_prepare_cmd() { printf 'rm -f %q' "$1/nsd.ctl"; }
srv_nsd_daemon_cmd() { printf '%q -c %q' "$(srv_nsd_program nsd)" "$1/server.conf"; }
srv_nsd_stats_cmd() { printf '%q -c %q stats_noreset' "$(srv_nsd_program nsd-control)" "$1/server.conf"; }

srv_nsd_checkconf() { eval "$(srv_nsd_check_cmd "$1")" 2>&1; }

srv_nsd_start() {
    local role=$1 dir=$2
    eval "$(srv_nsd_prepare_cmd "$dir")"
    eval "in_ns \"\$role\" $(srv_nsd_daemon_cmd "$dir")"
}

# srv_nsd_stats_parse: nsd-control's "name=N" lines (stdin) as one JSON
# object {"num.queries": N, ...}; nothing when there are none.
srv_nsd_stats_parse() {
    jq -R -s -c '[split("\n")[] | select(test("^[a-zA-Z0-9._]+=[0-9.]+$")) | split("=")
                 | {(.[0]): (.[1] | tonumber)}] | add // empty'
}
# srv_nsd_stats_raw ROLE DIR: nsd-control stats_noreset over the control
# socket, bounded to 3 s (a stopped NSD never answers); nothing when NSD
# does not answer.
srv_nsd_stats_raw() {
    { eval "timeout 3 $(srv_nsd_stats_cmd "$2" "$(role_addr4 "$1")")" 2>/dev/null || true; } | srv_nsd_stats_parse
}
# The raw counters' queries, UDP, TCP and TLS queries (srv_stats_json;
# NSD counts DoT apart from TCP: num.tls, num.tls6, "connections over TLS"
# in nsd-control(8); one per query at one query per connection).
srv_nsd_stats_jq='{queries: ."num.queries", udp: ((."num.udp" // 0) + (."num.udp6" // 0)),
                   tcp: ((."num.tcp" // 0) + (."num.tcp6" // 0)),
                   tls: ((."num.tls" // 0) + (."num.tls6" // 0))}'

# DNS over TLS (SERVER_TLS=yes): NSD 4.6's tls-service-key/-pem, and an
# ip-address@853 line per address (only addresses given with the TLS port
# serve TLS; the rest stay plain DNS). ROLE TLSDIR PORT.
srv_nsd_tls_check() { :; }
srv_nsd_tls_listen() {
    local role=$1 dir=$2 port=$3 a
    for a in "$SERVICE4" "$SERVICE6" "$(role_addr4 "$role")" "$(role_addr6 "$role")"; do
        printf '    ip-address: %s@%s\n' "$a" "$port"
    done
    printf '    tls-port: %s\n    tls-service-key: "%s/server.key"\n    tls-service-pem: "%s/server.pem"\n' "$port" "$dir" "$dir"
}
srv_nsd_tls_block() { :; }
# DNS over QUIC: NSD serves none (SERVER_QUIC=yes refused).
srv_nsd_quic_check() { die "SERVER_QUIC=yes: NSD serves no DNS over QUIC (version $(srv_nsd_version)); Knot DNS 3.4 does: SERVER=knot SERVER_RELEASE=current (docs/servers.md)"; }

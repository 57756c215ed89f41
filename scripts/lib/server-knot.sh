# server-knot.sh: Knot DNS as the testbed's server daemon (SERVER=knot).
# Same functions as server-nsd.sh; configuration from
# scripts/templates/knot.conf.in, counters from mod-stats (knotc stats).

srv_knot_packages() { echo knot; }
srv_knot_name() { echo "Knot DNS"; }
srv_knot_program() { release_program knotd /usr/sbin/knotd; }
srv_knot_knotc() { release_program knotc /usr/sbin/knotc; }
# 3.2: "knotd (Knot DNS), version 3.2.6"; 3.4: "knotd, Knot DNS 3.4.6".
srv_knot_version_sed='s/^knotd\( (Knot DNS), version\|, Knot DNS\) //p'
srv_knot_version_cmd() { printf '%q -V' "$(srv_knot_program)"; }
srv_knot_version() { "$(srv_knot_program)" -V 2>&1 | sed -n "$srv_knot_version_sed" | head -n1; }
# What prints the version and the build options (status .server.release;
# 3.2's -VV prints no build options).
srv_knot_build_flag() { echo -VV; }
srv_knot_build_sed='s/^ *Configure: //p'

# Knot 3.2 passes a compiled-in backlog (TCP_BACKLOG_SIZE) to listen(); no
# configuration item sets it. Measured with ss on Debian's knot 3.2.6: 10.
KNOT_FIXED_BACKLOG=10
srv_knot_default_backlog() { echo "$KNOT_FIXED_BACKLOG"; }
srv_knot_backlog_check() {
    [ "$1" = "$KNOT_FIXED_BACKLOG" ] \
        || die "SERVER_BACKLOG=$1: Knot DNS listens with a fixed backlog of $KNOT_FIXED_BACKLOG (compiled in; no setting changes it; docs/servers.md)"
}

srv_knot_zone_stanza() { printf '  - domain: "%s"\n    file: "%s"\n' "$1" "$2"; }

# The daemon's command lines for DIR (srv_host_env; a lab host's rb-server
# runs the same): check, prepare, start, the counters.
srv_knot_check_cmd() { printf '%q -c %q conf-check' "$(srv_knot_knotc)" "$1/server.conf"; }
srv_knot_prepare_cmd() { printf 'mkdir -p %q && rm -f %q' "$1/db" "$1/knot.sock"; }
srv_knot_daemon_cmd() { printf '%q -c %q -d' "$(srv_knot_program)" "$1/server.conf"; }
srv_knot_stats_cmd() { printf '%q -s %q -t 2 stats' "$(srv_knot_knotc)" "$1/knot.sock"; }

srv_knot_checkconf() { eval "$(srv_knot_check_cmd "$1")" 2>&1; }

srv_knot_start() {
    local role=$1 dir=$2
    eval "$(srv_knot_prepare_cmd "$dir")"
    eval "in_ns \"\$role\" $(srv_knot_daemon_cmd "$dir")"
}

# srv_knot_stats_parse: `knotc stats` lines "name[item] = N" (stdin) as
# one JSON object; nothing when there are none.
srv_knot_stats_parse() {
    jq -R -s -c '[split("\n")[] | select(test("^[^ ]+ = [0-9]+$")) | split(" = ")
                 | {(.[0]): (.[1] | tonumber)}] | add // empty'
}
# srv_knot_stats_raw ROLE DIR: the counters; nothing when Knot does not
# answer within 3 s.
srv_knot_stats_raw() {
    { eval "timeout 3 $(srv_knot_stats_cmd "$2" "$(role_addr4 "$1")")" 2>/dev/null || true; } | srv_knot_stats_parse
}
# Knot 3.4 counts DoT and DoQ queries apart (request-protocol[tls4], [tls6],
# [quic4], [quic6]); 3.2 serves neither (0). Queries over XDP
# (SERVER_XDP=yes) are counted apart too, as udp4-xdp and udp6-xdp: in udp
# as well, and alone in xdp.
srv_knot_stats_jq='(to_entries) as $e
    | def sumk(re): [$e[] | select(.key | test(re)) | .value] | add // 0;
    {queries: sumk("^mod-stats\\.request-protocol\\["), udp: sumk("^mod-stats\\.request-protocol\\[udp"),
     tcp: sumk("^mod-stats\\.request-protocol\\[tcp"), tls: sumk("^mod-stats\\.request-protocol\\[tls"),
     quic: sumk("^mod-stats\\.request-protocol\\[quic"),
     xdp: sumk("^mod-stats\\.request-protocol\\[[a-z0-9]+-xdp\\]")}'

# DNS over TLS: Debian 12's Knot DNS 3.2 has no DoT server (knot.conf(5)
# of 3.2.6 has no TLS listener: its key-file/cert-file are for DNS over
# QUIC, on the XDP path only): SERVER_TLS=yes is refused, never served
# over plain TCP instead. Knot 3.4 (SERVER_RELEASE=current) has one:
# listen-tls, with the server section's key-file and cert-file.
srv_knot_tls_check() {
    local v; v=$(srv_knot_version)
    [ "$(printf '%s\n' 3.4 "$v" | sort -V | head -n1)" = 3.4 ] \
        || die "SERVER_TLS=yes: Knot DNS $v serves no DNS over TLS (only DNS over QUIC on XDP; DoT from 3.4: SERVER_RELEASE=current); use SERVER=nsd or SERVER=bind for DoT (docs/servers.md)"
}
srv_knot_tls_listen() {
    local role=$1 dir=$2 port=$3
    printf '    listen-tls: [ %s@%s, %s@%s, %s@%s, %s@%s ]\n' "$SERVICE4" "$port" "$SERVICE6" "$port" \
        "$(role_addr4 "$role")" "$port" "$(role_addr6 "$role")" "$port"
    printf '    key-file: "%s/server.key"\n    cert-file: "%s/server.pem"\n' "$dir" "$dir"
}
srv_knot_tls_block() { :; }

# DNS over QUIC (SERVER_QUIC=yes): Knot 3.3 and later serve it on ordinary
# UDP sockets (listen-quic), when built with QUIC (libngtcp2: Debian
# trixie's 3.4.6 is; --enable-quic=auto in its -VV); Debian 12's 3.2.6
# serves DoQ on the XDP path only, which the testbed does not run.
srv_knot_quic_check() {
    local v; v=$(srv_knot_version)
    [ "$(printf '%s\n' 3.3 "$v" | sort -V | head -n1)" = 3.3 ] \
        || die "SERVER_QUIC=yes: Knot DNS $v serves DNS over QUIC on the XDP path only (listen-quic on sockets from 3.3: SERVER_RELEASE=current) (docs/servers.md)"
}
# srv_knot_quic_listen ROLE DIR PORT TLS: listen-quic on the service and
# the role's addresses; the key and certificate unless TLS=yes gave them.
srv_knot_quic_listen() {
    local role=$1 dir=$2 port=$3 tls=$4
    printf '    listen-quic: [ %s@%s, %s@%s, %s@%s, %s@%s ]\n' "$SERVICE4" "$port" "$SERVICE6" "$port" \
        "$(role_addr4 "$role")" "$port" "$(role_addr6 "$role")" "$port"
    [ "$tls" = yes ] || printf '    key-file: "%s/server.key"\n    cert-file: "%s/server.pem"\n' "$dir" "$dir"
}

# UDP over XDP (SERVER_XDP=yes): Knot answers the UDP queries to port 53
# that arrive on the server's interface, for any destination address there
# (the service address the router's ECMP sends, the server's own), from an
# XDP program and an AF_XDP socket, with no socket of the kernel in their
# path; TCP stays on the kernel's sockets (tcp: off: knot.conf(5) of 3.4
# calls TCP over XDP experimental), and so does what the program does not
# take (ARP, neighbour discovery, other ports). route-check off: the reply
# goes back to the query's source MAC (the router's), as the rig routes.
# Both releases serve so (measured: Knot 3.2.6 and 3.4.6, native mode on
# the veth, "queues 1"; their mod-stats count it as request-protocol[udp4-xdp]).
srv_knot_xdp_block() {
    printf 'xdp:\n    listen: %s@53\n    udp: on\n    tcp: off\n    route-check: off\n' "$1"
}

# server-bind.sh: BIND 9 as the testbed's server daemon (SERVER=bind).
# Same functions as server-nsd.sh; configuration from
# scripts/templates/named.conf.in, counters from the statistics channel
# (JSON) on the server's own address, port 8053.

srv_bind_packages() { echo bind9 bind9-utils; }
srv_bind_name() { echo "BIND 9"; }
srv_bind_program() { release_program named /usr/sbin/named; }
srv_bind_version_sed='s/^BIND \([^ ]*\).*/\1/p'
srv_bind_version_cmd() { printf '%q -v' "$(srv_bind_program)"; }
srv_bind_version() { "$(srv_bind_program)" -v 2>&1 | sed -n "$srv_bind_version_sed" | head -n1; }
# What prints the version and the build options (status .server.release).
srv_bind_build_flag() { echo -V; }
srv_bind_build_sed="s/^built by make with *//p"

# BIND takes its backlog from tcp-listen-queue (the kernel caps it at the
# namespace's somaxconn, which the testbed sets to the same value).
srv_bind_default_backlog() { echo 256; }
srv_bind_backlog_check() { :; }

srv_bind_zone_stanza() { printf 'zone "%s" { type primary; file "%s/%s"; };\n' "$1" "$TB_ZONEDIR" "$2"; }

# named-checkconf -z loads every zone too: a bad zone is named here.
# The daemon's command lines for DIR (srv_host_env; a lab host's rb-server
# runs the same): check, prepare, start, the counters (the statistics
# channel on the server's address ADDR4).
srv_bind_check_cmd() { printf '%q -z %q' "$(release_program named-checkconf /usr/bin/named-checkconf)" "$1/server.conf"; }
srv_bind_prepare_cmd() { echo true; }
srv_bind_daemon_cmd() { printf '%q -c %q -n %q' "$(srv_bind_program)" "$1/server.conf" "$SERVER_WORKERS"; }
srv_bind_stats_cmd() { printf 'curl -s -m 2 %q' "http://$2:8053/json/v1/server"; }

srv_bind_checkconf() { eval "$(srv_bind_check_cmd "$1")" 2>&1; }

srv_bind_start() {
    local role=$1 dir=$2
    eval "in_ns \"\$role\" $(srv_bind_daemon_cmd "$dir")"
}

# srv_bind_stats_parse: the statistics channel's JSON (stdin) as one flat
# object (nsstats, rcodes as rcode.NAME); nothing when there is none.
srv_bind_stats_parse() {
    jq -c '(.nsstats // {}) + ((.rcodes // {}) | with_entries(.key = "rcode." + .key)) | select(length > 0)' 2>/dev/null || true
}
srv_bind_stats_raw() {
    { eval "timeout 3 ip netns exec \"\$(ns_of \"\$1\")\" $(srv_bind_stats_cmd "$2" "$(role_addr4 "$1")")" 2>/dev/null || true; } \
        | srv_bind_stats_parse
}
# BIND 9.18 counts DoT queries as TCP (QryTCP): tls is null, not counted apart.
srv_bind_stats_jq='{queries: ((.Requestv4 // 0) + (.Requestv6 // 0)), udp: (.QryUDP // 0), tcp: (.QryTCP // 0), tls: null}'

# DNS over TLS (SERVER_TLS=yes): BIND 9.18's tls block and listen-on ...
# tls on the TLS port. ROLE TLSDIR PORT.
srv_bind_tls_check() { :; }
srv_bind_tls_listen() {
    local role=$1 port=$3
    printf '    listen-on port %s tls rootbench-tls { %s; %s; };\n' "$port" "$SERVICE4" "$(role_addr4 "$role")"
    printf '    listen-on-v6 port %s tls rootbench-tls { %s; %s; };\n' "$port" "$SERVICE6" "$(role_addr6 "$role")"
}
srv_bind_tls_block() {
    printf 'tls rootbench-tls {\n    key-file "%s/server.key";\n    cert-file "%s/server.pem";\n};\n' "$2" "$2"
}
# DNS over QUIC: BIND 9 serves none (SERVER_QUIC=yes refused).
srv_bind_quic_check() { die "SERVER_QUIC=yes: BIND 9 serves no DNS over QUIC (version $(srv_bind_version)); Knot DNS 3.4 does: SERVER=knot SERVER_RELEASE=current (docs/servers.md)"; }

# testbed-tls.sh: the testbed's DNS over TLS and DNS over QUIC (SERVER_TLS,
# SERVER_QUIC): the certificates, the check that a daemon answers over
# each, and status --json's .server.tls and .server.quic. Sourced by
# testbed-config.sh.

# tb_make_tls_certs: the testbed's CA and server certificate (SERVER_TLS=yes
# or SERVER_QUIC=yes), for the service addresses and both servers' own.
tb_make_tls_certs() {
    tls_make_certs "$TB_TLS_DIR" "$TLS_SERVICE_NAME" \
        "$SERVICE4" "$SERVICE6" "$(role_addr4 server1)" "$(role_addr6 server1)" \
        "$(role_addr4 server2)" "$(role_addr6 server2)"
}

# tb_server_answers_tls ROLE: with SERVER_TLS=yes, the server answers SOA
# over TLS on its own address, its certificate verified against the
# testbed's CA (dig +tls, within 5 s); dies with its log otherwise.
tb_server_answers_tls() {
    [ "$SERVER_TLS" = yes ] || return 0
    local i
    for i in $(seq 50); do
        nsx "$1" dig +tls +tls-ca="$TB_TLS_DIR/ca.pem" +tls-hostname="$TLS_SERVICE_NAME" -p "$TB_TLS_PORT" \
            +time=1 +tries=1 +short @"$(role_addr4 "$1")" . SOA 2>/dev/null | grep -q '^[^;]' && return 0
        sleep 0.1
    done
    tb_server_fail "$1" "$SERVER does not answer DNS over TLS on port $TB_TLS_PORT (SERVER_TLS=yes)"
}

# tb_server_answers_quic ROLE: with SERVER_QUIC=yes, the server answers SOA
# over QUIC on its own address, its certificate verified against the
# testbed's CA (the release's kdig +quic, within 5 s); dies with its log
# otherwise.
tb_server_answers_quic() {
    [ "${SERVER_QUIC:-no}" = yes ] || return 0
    local i
    for i in $(seq 50); do
        tb_kdig_quic "$1" "$(role_addr4 "$1")" +short | grep -q '^[^;]' && return 0
        sleep 0.1
    done
    tb_server_fail "$1" "$SERVER does not answer DNS over QUIC on UDP port $TB_TLS_PORT (SERVER_QUIC=yes)"
}

# tb_kdig_quic ROLE ADDR [KDIG-OPTION...]: `. SOA` asked over QUIC from
# ROLE's namespace to ADDR (port 853, the testbed's CA and name verified,
# one try of 1 s), with the release's kdig: Debian 12's kdig 3.2.6 takes
# +quic but asks over TCP (built without QUIC).
tb_kdig_quic() {
    local role=$1 addr=$2; shift 2
    nsx "$role" "$(release_program kdig /usr/bin/kdig)" +quic +tls-ca="$TB_TLS_DIR/ca.pem" +tls-hostname="$TLS_SERVICE_NAME" \
        -p "$TB_TLS_PORT" +time=1 +retry=0 "$@" @"$addr" . SOA 2>&1
}


# tb_tls_json: status --json's .server.tls: the DoT port, the CA file
# (what tcpbench --tls-ca verifies with), the name and the certificate;
# null with SERVER_TLS=no.
tb_tls_json() {
    [ "${SERVER_TLS:-no}" = yes ] || { echo null; return 0; }
    jq -n -c --argjson port "$TB_TLS_PORT" --arg dir "$TB_TLS_DIR" --arg name "$TLS_SERVICE_NAME" \
        '{port:$port, ca_file:($dir + "/ca.pem"), name:$name, certificate:($dir + "/server.pem")}'
}

# tb_quic_json: status --json's .server.quic: the DoQ port (UDP), the CA
# file and the name; null with SERVER_QUIC=no.
tb_quic_json() {
    [ "${SERVER_QUIC:-no}" = yes ] || { echo null; return 0; }
    jq -n -c --argjson port "$TB_TLS_PORT" --arg dir "$TB_TLS_DIR" --arg name "$TLS_SERVICE_NAME" \
        '{port:$port, protocol:"udp", ca_file:($dir + "/ca.pem"), name:$name}'
}

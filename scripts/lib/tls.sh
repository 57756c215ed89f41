# tls.sh: the certificates of DNS over TLS (port 853) for a testbed or a
# test: a CA of its own and one server certificate signed by it, made
# with openssl, the keys readable only by root. Source after common.sh.
#
#   tls_make_certs DIR NAME ADDR...   DIR/{ca.pem,ca.key,server.pem,server.key}
#
# The server certificate names NAME (a DNS name) and every ADDR (IP
# address SANs), so a client may verify either; valid for 30 days. A
# second call with the same DIR, NAME and ADDRs keeps the files.

TLS_SERVICE_NAME=dns.rootbench.test

tls_make_certs() {
    local dir=$1 name=$2; shift 2
    local san="DNS:$name" a
    for a in "$@"; do san+=",IP:$a"; done
    if [ -s "$dir/server.pem" ] && [ -s "$dir/server.key" ] && [ -s "$dir/ca.pem" ] \
        && [ "$(cat "$dir/san" 2>/dev/null)" = "$san" ]; then
        return 0
    fi
    need_tools openssl
    mkdir -p "$dir"
    chmod 700 "$dir"
    local log="$dir/openssl.log"
    {
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
            -subj "/CN=rootbench testbed CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" \
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
        && openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
            -subj "/CN=$name" -keyout "$dir/server.key" -out "$dir/server.csr" \
        && openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
            -CAcreateserial -days 30 -out "$dir/server.pem" \
            -extfile <(printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$san")
    } > "$log" 2>&1 || die "openssl could not make the TLS certificates in $dir: $(tail -n 3 "$log")"
    chmod 600 "$dir/ca.key" "$dir/server.key"
    rm -f "$dir/server.csr"
    printf '%s\n' "$san" > "$dir/san"
}

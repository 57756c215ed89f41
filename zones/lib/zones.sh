# zones.sh: what the zone builds are made of, shared by zones/build-zones
# and the zones tests: the variant matrix, the generators of arpa. and
# root-servers.net., and readers of built zone files.
#
# Source after scripts/lib/common.sh and scripts/lib/topology.sh.

# The zones every variant holds, as file stems (root.zone is ".": the
# testbed's tb_zone_dir/tb_render_server_conf relies on this naming).
ZONE_STEMS=(root arpa root-servers.net)

# Every variant, in build order. The first two are `make zones`.
ZONE_VARIANTS=(unsigned rsasha256-2048-1024 rsasha256-2048-2048 ecdsap256 ed25519
               nsec3-rsasha256-2048-1024 nsec3-optout-rsasha256-2048-1024
               ksk-roll-rsasha256-2048-2048 zsk-prepublish-rsasha256-2048-2048
               algroll-prepublish algroll-double-rsa1536 algroll-double-rsa2048
               algroll-ecdsa-rsaksk
               pqmodel-falcon512 pqmodel-mldsa44 pqmodel-slhdsa128s)
ZONE_DEFAULT_VARIANTS=(unsigned rsasha256-2048-1024)

# The record types a signer adds; the unsigned root is the source without them.
SIGNER_TYPES=(DNSKEY RRSIG NSEC NSEC3 NSEC3PARAM ZONEMD)

# origin_of STEM: the zone's name.
origin_of() { [ "$1" = root ] && echo . || echo "$1."; }

ZALG_RSA=RSASHA256 ZALG_ECDSA=ECDSAP256SHA256

# variant_spec NAME: sets V_SIGNED (0/1), V_ALG (ldns name; two joined by
# "+" when two algorithms sign), V_ALGNUM (null when two), V_KSK_BITS and
# V_ZSK_BITS (null when two), V_DENIAL (none|nsec|nsec3|nsec3-optout),
# V_ROLL (none; ksk: a second KSK published and signing the DNSKEY RRset,
# as the root's during its 2017-2018 KSK roll; zsk: a second ZSK published
# and not yet signing, a ZSK pre-publish roll; algorithm: a state of an
# algorithm roll from RSASHA256 to ECDSAP256SHA256), V_KEYS (the key plan:
# "SLOT:ALG:BITS:USE" entries, USE sign or publish; ldns signs the DNSKEY
# RRset with each algorithm's KSKs and the rest with its ZSKs) and V_MODEL
# (a signature-size model the signed zone is turned into, or "").
# A TLDS growth build names its variants tlds<N>-<variant>; the prefix is
# stripped here. Returns 1 for an unknown name.
variant_spec() {
    local v=$1
    [[ $v =~ ^tlds[0-9]+-(.+)$ ]] && v=${BASH_REMATCH[1]}
    V_SIGNED=1 V_DENIAL=nsec V_ROLL=none V_KEYS="" V_MODEL=""
    case $v in
        unsigned) V_SIGNED=0 V_ALG="" V_ALGNUM=0 V_KSK_BITS=0 V_ZSK_BITS=0 V_DENIAL=none ;;
        rsasha256-2048-1024) V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=1024 ;;
        rsasha256-2048-2048) V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=2048 ;;
        ecdsap256) V_ALG=$ZALG_ECDSA V_ALGNUM=13 V_KSK_BITS=256 V_ZSK_BITS=256 ;;
        ed25519) V_ALG=ED25519 V_ALGNUM=15 V_KSK_BITS=256 V_ZSK_BITS=256 ;;
        nsec3-rsasha256-2048-1024)
            V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=1024 V_DENIAL=nsec3 ;;
        nsec3-optout-rsasha256-2048-1024)
            V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=1024 V_DENIAL=nsec3-optout ;;
        ksk-roll-rsasha256-2048-2048)
            V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=2048 V_ROLL=ksk ;;
        zsk-prepublish-rsasha256-2048-2048)
            V_ALG=$ZALG_RSA V_ALGNUM=8 V_KSK_BITS=2048 V_ZSK_BITS=2048 V_ROLL=zsk ;;
        # The algorithm roll (docs/sizes-matrix.md, "The root's DNSSEC
        # roadmap"): the ECDSA keys published, not signing; both algorithms
        # signing, the RSA ZSK cut to 1536 bits (or kept at 2048, the
        # control); ECDSA signing with the RSA KSK still published.
        algroll-prepublish)
            V_ROLL=algorithm V_KEYS="ksk:$ZALG_RSA:2048:sign zsk:$ZALG_RSA:2048:sign ksk:$ZALG_ECDSA:256:publish zsk:$ZALG_ECDSA:256:publish" ;;
        algroll-double-rsa1536)
            V_ROLL=algorithm V_KEYS="ksk:$ZALG_RSA:2048:sign zsk:$ZALG_RSA:1536:sign ksk:$ZALG_ECDSA:256:sign zsk:$ZALG_ECDSA:256:sign" ;;
        algroll-double-rsa2048)
            V_ROLL=algorithm V_KEYS="ksk:$ZALG_RSA:2048:sign zsk:$ZALG_RSA:2048:sign ksk:$ZALG_ECDSA:256:sign zsk:$ZALG_ECDSA:256:sign" ;;
        algroll-ecdsa-rsaksk)
            V_ROLL=algorithm V_KEYS="ksk:$ZALG_ECDSA:256:sign zsk:$ZALG_ECDSA:256:sign ksk:$ZALG_RSA:2048:publish" ;;
        # Signature-size models of post-quantum algorithms: signed with the
        # ECDSA keys, then every key and signature given the standard's size
        # (size_model_spec). Not valid signatures.
        pqmodel-falcon512|pqmodel-mldsa44|pqmodel-slhdsa128s)
            V_MODEL=${v#pqmodel-} V_ALG=PRIVATEDNS V_ALGNUM=253 V_KSK_BITS=null V_ZSK_BITS=null
            V_KEYS="ksk:$ZALG_ECDSA:256:sign zsk:$ZALG_ECDSA:256:sign" ;;
        *) return 1 ;;
    esac
    if [ "$V_ROLL" = algorithm ]; then
        V_ALG="$ZALG_RSA+$ZALG_ECDSA" V_ALGNUM=null V_KSK_BITS=null V_ZSK_BITS=null
    fi
    if [ -z "$V_KEYS" ] && [ "$V_SIGNED" = 1 ]; then
        V_KEYS="ksk:$V_ALG:$V_KSK_BITS:sign zsk:$V_ALG:$V_ZSK_BITS:sign"
        case $V_ROLL in
            ksk) V_KEYS+=" ksk-next:$V_ALG:$V_KSK_BITS:sign" ;;
            zsk) V_KEYS+=" zsk-next:$V_ALG:$V_ZSK_BITS:publish" ;;
        esac
    fi
    return 0
}

# size_model_spec MODEL: sets M_NAME (the name every key and signature
# begins with), M_KEY_BYTES, M_SIG_BYTES and M_STANDARD. The sizes are the
# standards' (public key and signature, bytes): FIPS 204 table 2 (ML-DSA-44),
# FIPS 205 table 2 (SLH-DSA-SHA2-128s), the Falcon specification (Falcon-512,
# to be FIPS 206 FN-DSA-512; its signature padded to its fixed size).
size_model_spec() {
    case $1 in
        falcon512) M_KEY_BYTES=897 M_SIG_BYTES=666 M_STANDARD="Falcon-512 (FN-DSA, draft FIPS 206)" ;;
        mldsa44) M_KEY_BYTES=1312 M_SIG_BYTES=2420 M_STANDARD="ML-DSA-44 (FIPS 204)" ;;
        slhdsa128s) M_KEY_BYTES=32 M_SIG_BYTES=7856 M_STANDARD="SLH-DSA-SHA2-128s (FIPS 205)" ;;
        *) return 1 ;;
    esac
    M_NAME="$1.size-model.invalid."
}

# NSEC3 parameters of the nsec3 variants: SHA-1, no extra iterations, no
# salt (RFC 9276).
NSEC3_HASH=1 NSEC3_ITERATIONS=0 NSEC3_SALT=-

# ---------------------------------------------------------------- generators
#
# The real arpa. and root-servers.net. structure, with synthesised data:
# every address below is from the benchmarking ranges 198.18.0.0/15 and
# 2001:2::/48 and REPLACES the real one (the zones are served on the
# testbed only); the DS digests of arpa.'s children are synthesised too.
# k.root-servers.net. gets the testbed's service address: the instance
# under test is a K-root instance, as in the paper.

LETTERS=(a b c d e f g h i j k l m)

# gen_root_servers_net SERIAL: the root-servers.net. zone (13 letters).
gen_root_servers_net() {
    local serial=$1 i l a4 a6
    printf 'root-servers.net. 3600000 IN SOA a.root-servers.net. nstld.verisign-grs.com. %s 14400 7200 1209600 3600000\n' "$serial"
    for l in "${LETTERS[@]}"; do printf 'root-servers.net. 3600000 IN NS %s.root-servers.net.\n' "$l"; done
    for i in "${!LETTERS[@]}"; do
        l=${LETTERS[$i]}
        if [ "$l" = k ]; then a4=$SERVICE4 a6=$SERVICE6
        else a4="198.18.53.$((i + 1))" a6="2001:2:0:53::$((i + 1))"; fi
        printf '%s.root-servers.net. 3600000 IN A %s\n' "$l" "$a4"
        printf '%s.root-servers.net. 3600000 IN AAAA %s\n' "$l" "$a6"
    done
}

# fake_ds NAME: a DS record for NAME with a synthesised key tag and digest
# (algorithm 8, SHA-256): the shape and size of the real ones.
fake_ds() {
    local tag digest
    tag=$(( $(printf '%s' "$1" | cksum | cut -d' ' -f1) % 65536 ))
    digest=$(printf 'rootbench synthetic DS %s' "$1" | sha256sum | cut -d' ' -f1)
    printf '%s 86400 IN DS %d 8 2 %s\n' "$1" "$tag" "${digest^^}"
}

# gen_arpa SERIAL: the arpa. zone, with the real zone's delegations.
gen_arpa() {
    local serial=$1 i l d
    local iana="a.iana-servers.net. b.iana-servers.net. c.iana-servers.net. ns.icann.org."
    printf 'arpa. 86400 IN SOA a.root-servers.net. nstld.verisign-grs.com. %s 1800 900 604800 86400\n' "$serial"
    # arpa. is served by a.ns.arpa. ... m.ns.arpa. (there is no j), whose
    # addresses live in the zone itself (ns.arpa. is not delegated).
    for i in "${!LETTERS[@]}"; do
        l=${LETTERS[$i]}; [ "$l" = j ] && continue
        printf 'arpa. 86400 IN NS %s.ns.arpa.\n' "$l"
        printf '%s.ns.arpa. 86400 IN A 198.18.54.%d\n' "$l" $((i + 1))
        printf '%s.ns.arpa. 86400 IN AAAA 2001:2:0:54::%d\n' "$l" $((i + 1))
    done
    # delegation  name servers  signed (DS)?
    local -a delegs=(
        "as112.arpa.|$iana|ds"
        "e164.arpa.|pri.authdns.ripe.net. rirns.arin.net. ns3.afrinic.net. ns3.lacnic.net. ns4.apnic.net.|ds"
        "home.arpa.|blackhole.as112.arpa.|insecure"
        "in-addr.arpa.|a.in-addr-servers.arpa. b.in-addr-servers.arpa. c.in-addr-servers.arpa. d.in-addr-servers.arpa. e.in-addr-servers.arpa. f.in-addr-servers.arpa.|ds"
        "in-addr-servers.arpa.|a.in-addr-servers.arpa. b.in-addr-servers.arpa. c.in-addr-servers.arpa. d.in-addr-servers.arpa. e.in-addr-servers.arpa. f.in-addr-servers.arpa.|ds"
        "ip6.arpa.|a.ip6-servers.arpa. b.ip6-servers.arpa. c.ip6-servers.arpa. d.ip6-servers.arpa. e.ip6-servers.arpa. f.ip6-servers.arpa.|ds"
        "ip6-servers.arpa.|a.ip6-servers.arpa. b.ip6-servers.arpa. c.ip6-servers.arpa. d.ip6-servers.arpa. e.ip6-servers.arpa. f.ip6-servers.arpa.|ds"
        "ipv4only.arpa.|$iana|ds"
        "iris.arpa.|$iana|ds"
        "resolver.arpa.|blackhole-1.iana.org. blackhole-2.iana.org.|insecure"
        "uri.arpa.|$iana|ds"
        "urn.arpa.|$iana|ds"
    )
    local name nss sec ns
    for d in "${delegs[@]}"; do
        IFS='|' read -r name nss sec <<<"$d"
        for ns in $nss; do printf '%s 86400 IN NS %s\n' "$name" "$ns"; done
        [ "$sec" = ds ] && fake_ds "$name"
    done
    # Glue: the in-bailiwick name servers of the delegations above.
    for i in 0 1 2 3 4 5; do
        l=${LETTERS[$i]}
        printf '%s.in-addr-servers.arpa. 86400 IN A 198.18.55.%d\n' "$l" $((i + 1))
        printf '%s.in-addr-servers.arpa. 86400 IN AAAA 2001:2:0:55::%d\n' "$l" $((i + 1))
        printf '%s.ip6-servers.arpa. 86400 IN A 198.18.56.%d\n' "$l" $((i + 1))
        printf '%s.ip6-servers.arpa. 86400 IN AAAA 2001:2:0:56::%d\n' "$l" $((i + 1))
    done
    printf 'blackhole.as112.arpa. 86400 IN A 198.18.57.1\n'
    printf 'blackhole.as112.arpa. 86400 IN AAAA 2001:2:0:57::1\n'
}

# ---------------------------------------------------------------- readers
# The built zone files are ldns output: one record a line, "owner TTL IN
# TYPE RDATA", comments starting with ';'.

# zone_records FILE: the records of a zone file, comments and blanks dropped.
zone_records() { grep -v -e '^;' -e '^[[:space:]]*$' "$1"; }

# zone_type_count FILE TYPE: how many records of TYPE the zone has.
zone_type_count() { zone_records "$1" | awk -v t="$2" '$4 == t { n++ } END { print n + 0 }'; }

# zone_stats_json FILE ORIGIN: record counts of a zone as JSON:
# {records, bytes, delegations, serial, types:{TYPE:N,...}}.
zone_stats_json() {
    local f=$1 origin=$2
    zone_records "$f" | awk -v origin="$origin" '
        { n++; t[$4]++
          if ($4 == "NS" && $1 != origin) deleg[$1] = 1
          if ($4 == "SOA") serial = $7 }
        END {
            d = 0; for (k in deleg) d++
            printf "{\"records\":%d,\"delegations\":%d,\"serial\":%s,\"types\":{", n, d, serial
            sep = ""; for (k in t) { printf "%s\"%s\":%d", sep, k, t[k]; sep = "," }
            printf "}}\n"
        }' | jq -c --argjson bytes "$(stat -c %s "$f")" '. + {bytes:$bytes} | .types |= (to_entries | sort_by(.key) | from_entries)'
}

# zone_signing_keytags FILE TYPE: the key tags of the RRSIGs over the
# zone apex's TYPE RRset, sorted, space separated.
zone_signing_keytags() {
    local origin
    origin=$(zone_records "$1" | awk '$4 == "SOA" { print $1; exit }')
    zone_records "$1" | awk -v o="$origin" -v t="$2" '$1 == o && $4 == "RRSIG" && $5 == t { print $11 }' | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# zone_dnskeys FILE: "flags algorithm keytag bits" per DNSKEY, as ldns
# reports them (its ;{id = N (ksk), size = Nb} comment).
zone_dnskeys() {
    ldns-read-zone -E DNSKEY "$1" 2>/dev/null | awk '
        $4 == "DNSKEY" {
            id = $0; sub(/.*id = /, "", id); sub(/ .*/, "", id)
            sz = $0; sub(/.*size = /, "", sz); sub(/b}.*/, "", sz)
            print $5, $7, id, sz
        }'
}

# root_dnskey_answer_bytes FILE: the size of the DNS message that answers
# ". DNSKEY" with DO=1 from this root zone, predicted from its records: the
# header (12), the question (5), each DNSKEY and RRSIG over the DNSKEY RRset
# (owner ".", 10 bytes of type, class, TTL and length, then the RDATA: 4 +
# the key; 18 + the signer "." + the signature) and an OPT record without
# options (11). A check on dig's measured size, from the zone alone.
root_dnskey_answer_bytes() {
    zone_records "$1" | awk '
        { sub(/;.*/, ""); $0 = $0 }
        function b64bytes(from,    b, i) { b = ""; for (i = from; i <= NF; i++) b = b $i; gsub(/=/, "", b); return int(length(b) * 6 / 8) }
        $1 == "." && $4 == "DNSKEY" { n += 1 + 10 + 4 + b64bytes(8) }
        $1 == "." && $4 == "RRSIG" && $5 == "DNSKEY" { n += 1 + 10 + 18 + 1 + b64bytes(13) }
        END { print 12 + 5 + n + 11 }'
}

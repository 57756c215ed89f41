# lib.sh: checks shared by the zones tests (sourced after testlib.sh).
# Each check prints what it found and returns non-zero when the property
# does not hold, so a test can run it on a broken copy as negative control.
. "$RB_TOP/scripts/lib/topology.sh"
. "$RB_TOP/zones/lib/zones.sh"
BUILD_ZONES=$RB_TOP/zones/build-zones

# expected_spec VARIANT: "alg ksk_bits zsk_bits denial roll", written out
# here from the variant names (not read from the build's own table).
expected_spec() {
    case $1 in
        rsasha256-2048-1024) echo "8 2048 1024 nsec none" ;;
        rsasha256-2048-2048) echo "8 2048 2048 nsec none" ;;
        ecdsap256) echo "13 256 256 nsec none" ;;
        ed25519) echo "15 256 256 nsec none" ;;
        nsec3-rsasha256-2048-1024) echo "8 2048 1024 nsec3 none" ;;
        nsec3-optout-rsasha256-2048-1024) echo "8 2048 1024 nsec3-optout none" ;;
        ksk-roll-rsasha256-2048-2048) echo "8 2048 2048 nsec ksk" ;;
        zsk-prepublish-rsasha256-2048-2048) echo "8 2048 2048 nsec zsk" ;;
        *) return 1 ;;
    esac
}

# check_keys FILE ALG KSK_BITS ZSK_BITS [ROLL]: exactly one KSK (257) and
# one ZSK (256) of ALG with these sizes, as ldns reports them; in a KSK roll
# two KSKs, in a ZSK pre-publish two ZSKs.
check_keys() {
    local got want
    got=$(zone_dnskeys "$1" | awk '{ print $1, $2, $4 }' | sort | tr '\n' ' ')
    case ${5:-none} in
        ksk) want="256 $2 $4 257 $2 $3 257 $2 $3 " ;;
        zsk) want="256 $2 $4 256 $2 $4 257 $2 $3 " ;;
        *) want="256 $2 $4 257 $2 $3 " ;;
    esac
    [ "$got" = "$want" ] || { echo "$1: DNSKEYs (flags alg bits) '$got', want '$want'"; return 1; }
}

# check_rrsig_per_rrset FILE ORIGIN: every authoritative RRset has exactly
# one RRSIG, and nothing else has one (no glue, no delegation NS). Prints
# "rrsets N rrsigs M".
check_rrsig_per_rrset() {
    zone_records "$1" | awk -v origin="$2" '
        function parent(n) { sub(/^[^.]*\./, "", n); return n == "" ? "." : n }
        function is_glue(n,    p) {
            if (n == origin) return 0
            for (p = parent(n); p != origin && p != "."; p = parent(p)) if (p in deleg) return 1
            return 0
        }
        NR == FNR { if ($4 == "NS" && $1 != origin) deleg[$1] = 1; next }
        $4 == "RRSIG" { sig[$1 " " $5]++; next }
        { set[$1 " " $4] = 1 }
        END {
            bad = 0
            for (k in set) {
                split(k, a, " ")
                auth = !is_glue(a[1]) && !(a[1] in deleg && a[2] == "NS")
                if (auth) { n++; if (sig[k] != 1) { print "RRset " k ": " sig[k] + 0 " RRSIGs"; bad++ } }
                else if (k in sig) { print "non-authoritative " k " is signed"; bad++ }
            }
            for (k in sig) { m += sig[k]; if (!(k in set)) { print "RRSIG for missing RRset " k; bad++ } }
            print "rrsets " n " rrsigs " m
            exit bad > 0
        }' /dev/stdin <(zone_records "$1")
}

# check_no_signer_records FILE: none of DNSKEY RRSIG NSEC NSEC3 NSEC3PARAM ZONEMD.
check_no_signer_records() {
    local t n bad=0
    for t in "${SIGNER_TYPES[@]}"; do
        n=$(zone_type_count "$1" "$t")
        [ "$n" = 0 ] || { echo "$1: $n $t records"; bad=1; }
    done
    return $bad
}

# seed_key_cache DIR: a scratch build (ZONES_BUILD=DIR) starts from a copy
# of the normal build output's key cache (zones/build/keys) when there is
# one and no build holds it: generating RSA keys is most of a small build's
# time, and the earlier builds of a check run made the same slots. The
# scratch build generates any slot the copy lacks; ROLL=1 there replaces
# the copy only.
seed_key_cache() {
    local src=$RB_TOP/zones/build
    [ -d "$src/keys" ] || return 0
    mkdir -p "$1"
    flock -n "$src/.lock" cp -r "$src/keys" "$1/" 2>/dev/null || rm -rf "$1/keys"
}

# verify_zone FILE: ldns-verify-zone accepts it (quiet unless it fails).
verify_zone() {
    local out
    out=$(ldns-verify-zone -V1 "$1" 2>&1) || { echo "$1: ldns-verify-zone: $(head -n3 <<<"$out")"; return 1; }
}

# checkzone ORIGIN FILE: nsd-checkzone accepts it.
checkzone() {
    local out
    out=$(nsd-checkzone "$1" "$2" 2>&1) || { echo "$2: nsd-checkzone: $(head -n3 <<<"$out")"; return 1; }
}

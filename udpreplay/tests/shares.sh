# shares.sh: measure a query pcap's shares with tshark, independently of
# the generator, and compare them with what was asked for. Sourced by the
# udpreplay tests.
#
# Share lines, requested (tracegen -P) and measured alike:
#   nxdomain S | edns S | do S | rd S | qtype NUMBER S | size BYTES S
# (size shares are of the queries with EDNS; the others of all queries).

# zone_tlds ZONEFILE: the delegated TLDs of a zone file in canonical
# form (absolute owner names, as the IANA root zone is published), by
# awk alone: owners of NS records with exactly one label.
zone_tlds() {
    awk '!/^;/ && $4 == "NS" && $1 ~ /^[^.]+\.$/ { sub(/\.$/, "", $1); print tolower($1) }' "$1" | sort -u
}

# measure_shares PCAP TLDFILE: the share lines of a query pcap. Fails if
# the pcap holds a response or no query.
measure_shares() {
    tshark -r "$1" -T fields -E separator='|' -e dns.qry.name -e dns.qry.type \
        -e dns.flags.recdesired -e dns.flags.response -e dns.rr.udp_payload_size \
        -e dns.resp.z.do 2>/dev/null |
    awk -F'|' -v tlds="$2" '
        BEGIN { while ((getline t < tlds) > 0) served[t] = 1 }
        $4 != "0" { bad++; next }
        {
            n++
            name = tolower($1)
            if (name != "<root>") {
                k = split(name, lab, ".")
                if (!(lab[k] in served)) nx++
            }
            qt[$2]++
            if ($3 == "1") rd++
            if ($5 != "") { edns++; sz[$5]++; if ($6 == "1") dob++ }
        }
        END {
            if (bad || !n) { printf "measure: %d responses, %d queries\n", bad, n > "/dev/stderr"; exit 1 }
            printf "queries %d\n", n
            printf "nxdomain %.6f\nedns %.6f\ndo %.6f\nrd %.6f\n", nx / n, edns / n, dob / n, rd / n
            for (t in qt) printf "qtype %s %.6f\n", t, qt[t] / n
            for (s in sz) printf "size %s %.6f\n", s, sz[s] / edns
        }'
}

# compare_shares REQUESTED MEASURED [TOLERANCE]: print every share side by
# side; fail when one differs by more than TOLERANCE (default 0.01, one
# percentage point). A share asked for but never seen counts as 0, and
# one seen but never asked for is compared with 0.
compare_shares() {
    awk -v tol="${3:-0.01}" '
        function key(    k) { k = $1; if ($1 == "qtype" || $1 == "size") k = k " " $2; return k }
        function val() { return ($1 == "qtype" || $1 == "size") ? $3 : $2 }
        FNR == NR { if ($1 == "profile" || $1 == "queries") next; r[key()] = val(); seen[key()] = 1; next }
        { if ($1 == "queries") next; m[key()] = val(); seen[key()] = 1 }
        END {
            for (k in seen) {
                d = m[k] - r[k]; if (d < 0) d = -d
                st = d > tol ? "OUT" : "ok"
                if (d > tol) bad++
                printf "%-4s %-12s requested %7.3f%% measured %7.3f%%\n", st, k, 100 * r[k], 100 * m[k]
            }
            exit bad ? 1 : 0
        }' "$1" "$2" | sort -k2
    return "${PIPESTATUS[0]}"
}

# dnsstat.sh: helpers around analysis/dnsstat shared by its tests and its
# benchmark (analysis/bench): rcode counts from dnsstat and from tshark in
# the same "NAME COUNT" form, and building small captures from hex.
# Source after common.sh.

# rcode_name N: the mnemonic dnsstat uses for header rcode N.
rcode_name() {
    local names=(NOERROR FORMERR SERVFAIL NXDOMAIN NOTIMP REFUSED YXDOMAIN
                 YXRRSET NXRRSET NOTAUTH NOTZONE DSOTYPENI)
    if [ "$1" -lt "${#names[@]}" ]; then echo "${names[$1]}"; else echo "$1"; fi
}

# tshark_rcodes FILE: "NAME COUNT" per rcode of the DNS responses tshark
# decodes on port 53 over UDP or TCP (TCP reassembled by tshark; DNS quoted
# inside ICMP errors excluded, retransmitted TCP segments are not decoded
# by tshark). A frame with several TCP messages gives a comma list.
tshark_rcodes() {
    local n
    tshark -n -r "$1" \
        -Y 'dns.flags.response==1 && !icmp && !icmpv6 && (udp.port==53 || tcp.port==53)' \
        -T fields -e dns.flags.rcode 2>/dev/null | tr ',' '\n' | sed '/^$/d' \
        | sort -n | uniq -c | while read -r count n; do
            printf '%s %s\n' "$(rcode_name "$n")" "$count"
        done | sort
}

# dnsstat_rcodes JSON: the same from dnsstat's JSON report.
dnsstat_rcodes() {
    jq -r '.rcodes | to_entries[] | "\(.key) \(.value)"' "$1" | sort
}

# rcodes_equal A B: succeed when the two "NAME COUNT" lists are identical;
# print the difference otherwise.
rcodes_equal() {
    if [ "$1" = "$2" ]; then return 0; fi
    diff <(printf '%s\n' "$1") <(printf '%s\n' "$2") | sed 's/^/    /' >&2
    return 1
}

# pcap_frames_hex PCAP: one line of hex per frame of a classic pcap file
# (little-endian, as text2pcap -F pcap writes it).
pcap_frames_hex() {
    od -An -tx1 -v "$1" | tr -s ' \n' '  ' | awk -f "$RB_TOP/scripts/lib/pcap-frames-hex.awk"
}

# quiet CMD...: run CMD, showing its output only when it fails (text2pcap
# prints separator lines even with -q).
quiet() {
    local out rc=0
    out=$("$@" 2>&1) || rc=$?
    [ "$rc" -eq 0 ] || printf '%s\n' "$out" >&2
    return "$rc"
}

# hex_to_pcap LINKTYPE OUT [FORMAT]: frames as hex lines on stdin (one per
# line, link header included) into a capture file of that link type.
hex_to_pcap() {
    local tmp
    tmp=$(mktemp)
    hex_to_text2pcap > "$tmp"
    local rc=0
    quiet text2pcap -q -F "${3:-pcap}" -l "$1" "$tmp" "$2" || rc=$?
    rm -f "$tmp"
    return "$rc"
}

# dns_msg_hex KIND ID RCODE EDNS: hex of a small DNS message for
# "example. AAAA": KIND q (query, RD) or r (response, QR AA); EDNS none,
# do0 or do1 (an OPT RR with UDP size 1232 and that DO bit).
dns_msg_hex() {
    local flags ar=0000 opt=''
    if [ "$1" = q ]; then flags=0100; else flags=$(printf '84%02x' "$3"); fi
    case $4 in
        do0) ar=0001 opt=0000290"4d0"00000000"0000" ;;
        do1) ar=0001 opt=0000290"4d0"00008000"0000" ;;
    esac
    printf '%04x%s00010000%s%s076578616d706c6500001c0001%s\n' \
        "$2" "$flags" 0000 "$ar" "$opt"
}

# link_header LINK ETHERTYPE: hex of the link header in front of an IP
# packet, and link_type LINK: its pcap LINKTYPE number.
link_header() {
    case $1 in
        eth)  printf '020000000001020000000002%s' "$2" ;;
        vlan) printf '02000000000102000000000281000007%s' "$2" ;;
        raw)  ;;
        # SLL: packet type, ARPHRD_LOOPBACK, address length, 8 address
        # bytes, protocol. SLL2: protocol, reserved, ifindex, ARPHRD,
        # packet type, address length, 8 address bytes.
        sll)  printf '0000030400000000000000000000%s' "$2" ;;
        sll2) printf '%s00000000000103040000%s' "$2" 0000000000000000 ;;
        null) if [ "$2" = 0800 ]; then printf '02000000'; else printf '1e000000'; fi ;;
        *) die "unknown link $1" ;;
    esac
}
link_type() {
    case $1 in
        eth|vlan) echo 1 ;; raw) echo 101 ;; sll) echo 113 ;; sll2) echo 276 ;;
        null) echo 0 ;; *) die "unknown link $1" ;;
    esac
}

# make_dns_capture OUT LINK FAMILY TRANSPORT FORMAT SPEC...: a capture of
# DNS messages between a client and 198.18.0.53 / 2001:2::53. FAMILY 4|6,
# TRANSPORT udp|tcp (2-byte framing; the last two responses share one
# segment), FORMAT pcap|pcapng. SPEC is q:ID:EDNS for a query or
# r:ID:RCODE:EDNS for a response (EDNS as in dns_msg_hex). Queries come
# first, then responses.
make_dns_capture() {
    local out=$1 link=$2 family=$3 transport=$4 format=$5; shift 5
    local dir spec kind id rc edns hex qlines='' rlines='' pending='' et
    local addr_q addr_r l4_q l4_r
    dir=$(mktemp -d)
    for spec in "$@"; do
        IFS=: read -r kind id rc edns <<<"$spec"
        if [ "$kind" = q ]; then
            edns=$rc; rc=0
            hex=$(dns_msg_hex q "$id" 0 "$edns")
        else
            hex=$(dns_msg_hex r "$id" "$rc" "$edns")
        fi
        [ "$transport" = tcp ] && hex=$(printf '%04x%s' $(( ${#hex} / 2 )) "$hex")
        if [ "$kind" = q ]; then qlines+="$hex"$'\n'; else rlines+="$hex"$'\n'; fi
    done
    if [ "$transport" = tcp ] && [ "$(printf '%s' "$rlines" | grep -c .)" -ge 2 ]; then
        # join the last two responses into one segment
        pending=$(printf '%s' "$rlines" | tail -n 2 | tr -d '\n')
        rlines=$(printf '%s' "$rlines" | head -n -2)$'\n'"$pending"$'\n'
        rlines=$(printf '%s' "$rlines" | sed '/^$/d')$'\n'
    fi
    if [ "$family" = 4 ]; then
        addr_q="-4 198.18.0.1,198.18.0.53" addr_r="-4 198.18.0.53,198.18.0.1" et=0800
    else
        addr_q="-6 2001:2::1,2001:2::53" addr_r="-6 2001:2::53,2001:2::1" et=86dd
    fi
    if [ "$transport" = udp ]; then l4_q="-u 40000,53" l4_r="-u 53,40000"
    else l4_q="-T 40000,53" l4_r="-T 53,40000"; fi
    printf '%s' "$qlines" | sed '/^$/d' | hex_to_text2pcap > "$dir/q.txt"
    printf '%s' "$rlines" | sed '/^$/d' | hex_to_text2pcap > "$dir/r.txt"
    # shellcheck disable=SC2086
    quiet text2pcap -q -F pcap -l 101 $addr_q $l4_q "$dir/q.txt" "$dir/q.pcap"
    # shellcheck disable=SC2086
    quiet text2pcap -q -F pcap -l 101 $addr_r $l4_r "$dir/r.txt" "$dir/r.pcap"
    mergecap -a -F pcap -w "$dir/ip.pcap" "$dir/q.pcap" "$dir/r.pcap"
    pcap_frames_hex "$dir/ip.pcap" | sed "s/^/$(link_header "$link" "$et")/" \
        | hex_to_pcap "$(link_type "$link")" "$out" "$format"
    rm -rf "$dir"
}

# hex_to_text2pcap: hex lines on stdin to text2pcap's offset dump format.
hex_to_text2pcap() {
    awk '{ printf "0000"; for (i = 1; i <= length($0); i += 2) printf " %s", substr($0, i, 2); printf "\n" }'
}

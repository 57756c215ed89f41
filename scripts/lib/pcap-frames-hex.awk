# pcap-frames-hex.awk: a classic little-endian pcap file as `od -An -tx1`
# bytes on one line (input) -> one line of hex per frame
# (scripts/lib/dnsstat.sh: pcap_frames_hex).
function hex(s,   v, k) {
    v = 0
    for (k = 1; k <= length(s); k++)
        v = v * 16 + index("0123456789abcdef", substr(s, k, 1)) - 1
    return v
}
{
    n = split($0, b, " ")
    i = 25
    while (i + 16 <= n) {
        len = hex(b[i+11] b[i+10] b[i+9] b[i+8])
        i += 16
        line = ""
        for (k = 0; k < len && i + k <= n; k++) line = line b[i+k]
        print line
        i += len
    }
}

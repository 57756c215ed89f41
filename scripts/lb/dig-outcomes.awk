# dig-outcomes.awk: dig's output for M queries (-v m=, input) as one line
# "OK REFUSED RESET TIMEOUT EOF RCODE OTHER MISSING SERVER1 SERVER2": how
# each query ended and which server answered (scripts/lb/sources.sh).
function cause_of(s) {
    if (s ~ /refused/) return "refused"
    if (s ~ /reset/) return "reset"
    if (s ~ /timed out/) return "timeout"
    if (s ~ /end of file/) return "eof"
    return "other"
}
/->>HEADER<<-/ { n++; if ($0 ~ /status: NOERROR,/) ok++; else f["rcode"]++; next }
/TXT[ \t]+"server1"/ { s1++; next }
/TXT[ \t]+"server2"/ { s2++; next }
/no servers could be reached/ {
    n++
    if (cause == "") cause = cause_of($0)
    f[cause]++; cause = ""; next
}
/^;; (communications error|Connection to .* failed|connection timed out)/ { cause = cause_of($0); next }
END {
    miss = m - n; if (miss < 0) miss = 0
    printf "%d %d %d %d %d %d %d %d %d %d\n", ok, f["refused"], f["reset"], f["timeout"],
        f["eof"], f["rcode"], f["other"], miss, s1, s2
}

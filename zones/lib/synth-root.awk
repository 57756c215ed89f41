# synth-root.awk: a root zone with N delegations in the proportions of a
# real one (growth scenarios, TLDS=N).
#
#   awk -v N=100000 -f synth-root.awk unsigned-root.zone > root.zone
#
# Input: an unsigned root zone as ldns-read-zone prints it (one record a
# line, tab-separated "owner TTL IN TYPE RDATA"). The real TLDs are the
# templates. Copy 0 is the real delegations unchanged; copy g >= 1 repeats
# every template with each TLD label L renamed to "L-g" in owner names, NS
# targets and glue, so every copy has exactly the real NS-per-TLD, glue and
# DS proportions. The last copy takes the templates it needs spread evenly
# over the sorted list (a stride), not the first ones. Glue in the copies
# gets synthesised addresses from 198.19.0.0/16 and 2001:2:0:8000::/49
# (benchmarking ranges); copy 0 keeps the real glue (data, never a target).
# With N below the real count, only copy 0's selected TLDs and their glue
# are kept.
BEGIN { FS = "\t"; OFS = "\t"; nt = 0; ng = 0; na = 0 }

function tld_of(name,    k, parts) {
    k = split(name, parts, ".")
    return k >= 2 ? parts[k - 1] : ""
}

# rename NAME into copy G: its TLD label gets the suffix -G when that TLD
# is in copy G; otherwise it stays the copy-0 name.
function rename(name, g,    tl) {
    if (g == 0) return name
    tl = tld_of(name)
    if (!((g, tl) in incl)) return name
    return substr(name, 1, length(name) - length(tl) - 1) tl "-" g "."
}

function synth_addr(type) {
    if (type == "A") { na++; return "198.19." int(na / 256) % 256 "." na % 256 }
    n6++
    return sprintf("2001:2:0:%x::%x", 32768 + int(n6 / 65536) % 32768, n6 % 65536)
}

/^;/ || NF < 5 { next }
{
    owner = $1; type = $4
    if (owner == ".") { apex[++napex] = $0; next }
    tl = tld_of(owner)
    if (owner == tl "." && (type == "NS" || type == "DS")) {
        if (!(tl in tidx)) { tidx[tl] = ++nt; tname[nt] = tl }
        dcount[tl]++; deleg[tl, dcount[tl]] = $0
        next
    }
    gcount[tl]++; glue[tl, gcount[tl]] = $0
}

END {
    if (nt == 0) { print "synth-root.awk: no TLD delegations in the input" > "/dev/stderr"; exit 1 }
    q = int(N / nt); r = N % nt
    ncopies = q + (r > 0 ? 1 : 0)
    # incl[g, tld]: TLD tld is delegated in copy g.
    for (g = 0; g < ncopies; g++)
        for (t = 1; t <= nt; t++)
            if (g < q || int(t * r / nt) > int((t - 1) * r / nt)) incl[g, tname[t]] = 1
    for (i = 1; i <= napex; i++) print apex[i]
    for (g = 0; g < ncopies; g++) {
        for (t = 1; t <= nt; t++) {
            tl = tname[t]
            if (!((g, tl) in incl)) continue
            for (i = 1; i <= dcount[tl]; i++) {
                split(deleg[tl, i], f, "\t")
                if (f[4] == "NS") f[5] = rename(f[5], g)
                print rename(f[1], g), f[2], f[3], f[4], f[5]
            }
            for (i = 1; i <= gcount[tl]; i++) {
                split(glue[tl, i], f, "\t")
                if (g > 0 && (f[4] == "A" || f[4] == "AAAA")) f[5] = synth_addr(f[4])
                print rename(f[1], g), f[2], f[3], f[4], f[5]
            }
        }
    }
    # Glue under TLDs that are not delegated in copy 0 (N below the real
    # count) would become authoritative data: it is left out above, since
    # glue is grouped by its TLD and emitted only with it.
}

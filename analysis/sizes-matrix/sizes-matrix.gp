# sizes-matrix.gp: the figures of the DNSSEC sizing matrix, one per question,
# drawn from its tables (analysis/sizes-matrix/run). Called with -e:
#   fig       bytes_by_zone | tc_by_edns | crossover
#   datafile  that table (#-headed CSV, first column an index)
#   zs (tc_by_edns: the zone-state columns), ceil (crossover: the server's
#   ceiling in words, for the title); style, fmt, outfile (scripts/lib/plot.sh)
load style
set datafile separator ","
set key outside top center horizontal

if (fig eq "bytes_by_zone") {
    set title "What does signing cost on the wire? Bytes per query (SNMP, router-s port) by zone state"
    set ylabel "bytes per query"
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by -30
    set yrange [0:*]
    plot datafile using 5:xtic(2) title "in (queries)" lc rgb c_rig, \
         '' using 6 title "out (answers)" lt 1, \
         '' using 7 title "DNSKEY answer (dig, DO=1)" lt 6
}
if (fig eq "tc_by_edns") {
    n = words(zs)
    set title "How many answers fall back to TCP? Share truncated (TC=1) by advertised EDNS buffer"
    set ylabel "answers with TC=1"
    set format y "%.0f%%"
    set xlabel "advertised EDNS buffer (trace: as the profile has it)"
    set style data histogram
    set style histogram clustered gap 1
    set yrange [0:*]
    plot for [i = 1:n] datafile using (column(i + 2) * 100):xtic(2) title word(zs, i)
}
if (fig eq "crossover") {
    set title "Which runs out first, the link or the server? Query rate that fills each link (bars)\nagainst the server's unshaped UDP ceiling (line, ".ceil."): below the line the link comes first"
    set ylabel "queries per second"
    set logscale y
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by -30 font ",10"
    plot datafile using 4:xtic(2) title "100 Mb/s" lt 6, \
         '' using 5 title "1 Gb/s" lt 1, \
         '' using 6 title "10 Gb/s" lt 3, \
         '' using 0:($3 > 0 ? $3 : 1/0) with linespoints lt 8 title "server UDP ceiling (unshaped)"
}

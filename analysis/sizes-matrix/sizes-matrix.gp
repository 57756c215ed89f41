# sizes-matrix.gp: the figures of the DNSSEC sizing matrix, one per question,
# drawn from its tables (analysis/sizes-matrix/run). Called with -e:
#   fig       bytes_by_zone | tc_by_edns | crossover
#   datafile  that table (#-headed CSV, first column an index)
#   outfile, fmt (png|svg|pdf), zs (tc_by_edns: the zone-state columns),
#   ceil (crossover: the server's ceiling in words, for the title)
set datafile separator ","
if (fmt eq "svg") { set terminal svg size 900, 460 dynamic font "sans,11" }
if (fmt eq "png") { set terminal pngcairo size 900, 460 font "sans,10" }
if (fmt eq "pdf") { set terminal pdfcairo size 9, 4.6 font "sans,10" }
set output outfile
set grid ytics
set key outside top center horizontal
set style fill solid 0.7 border -1

if (fig eq "bytes_by_zone") {
    set title "Bytes per query on the wire (SNMP, router-s port) by zone state"
    set ylabel "bytes per query"
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by -30
    set yrange [0:*]
    plot datafile using 5:xtic(2) title "in (queries)" lc rgb "#999999", \
         '' using 6 title "out (answers)" lc rgb "#3a6ea5", \
         '' using 7 title "DNSKEY answer (dig, DO=1)" lc rgb "#c0504d"
}
if (fig eq "tc_by_edns") {
    n = words(zs)
    set title "Share of answers truncated (TC=1: the TCP fallback) by advertised EDNS buffer"
    set ylabel "answers with TC=1"
    set format y "%.0f%%"
    set xlabel "advertised EDNS buffer (trace: as the profile has it)"
    set style data histogram
    set style histogram clustered gap 1
    set yrange [0:*]
    plot for [i = 1:n] datafile using (column(i + 2) * 100):xtic(2) title word(zs, i)
}
if (fig eq "crossover") {
    set title "Query rate that fills each link (bars) against the server's unshaped UDP ceiling (line, ".ceil.")\nwhere a bar is below the line the link comes first and the instance is byte-bound above that rate"
    set ylabel "queries per second"
    set logscale y
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by -30 font ",8"
    plot datafile using 4:xtic(2) title "100 Mb/s" lc rgb "#c0504d", \
         '' using 5 title "1 Gb/s" lc rgb "#3a6ea5", \
         '' using 6 title "10 Gb/s" lc rgb "#9bbb59", \
         '' using 0:($3 > 0 ? $3 : 1/0) with linespoints lw 2 lc rgb "black" title "server UDP ceiling (unshaped)"
}

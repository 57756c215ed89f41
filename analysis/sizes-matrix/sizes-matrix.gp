# sizes-matrix.gp: the figures of the DNSSEC sizing matrix, one per question,
# drawn from its tables (analysis/sizes-matrix/run). Called with -e:
#   fig       bytes_by_zone | tc_by_edns | crossover | roadmap
#   datafile  that table (#-headed CSV, first column an index)
#   zs (tc_by_edns: the zone-state columns), ceil (crossover: the server's
#   ceiling in words, for the title), paper_unsigned, paper_signed
#   (bytes_by_zone: the paper's bytes per query out, 0 = none);
#   style, fmt, outfile (scripts/lib/plot.sh)
load style
set datafile separator ","
set key outside top center horizontal

if (fig eq "bytes_by_zone") {
    set title "What does signing cost on the wire? Bytes per query (SNMP, router-s port) by zone state"
    set ylabel "bytes per query"
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by 30 right
    # a log axis: the size models' answers are ten times today's, and on a
    # linear one every other state's bars were a few pixels high
    set logscale y
    set yrange [10:*]
    # the paper's two marks lie close (about 340 and 440 B): the unsigned
    # one labelled under its line at the left, the signed one over its line
    # at the right, so the labels never print over each other
    if (paper_unsigned > 0) {
        set arrow 1 from graph 0, first paper_unsigned to graph 1, first paper_unsigned nohead dt 3 lw 2 lc rgb c_paper front
        set label 1 sprintf("paper, unsigned: %.0f B out", paper_unsigned) at graph 0.01, first paper_unsigned offset 0, -0.7 tc rgb c_paper front
    }
    if (paper_signed > 0) {
        set arrow 2 from graph 0, first paper_signed to graph 1, first paper_signed nohead dt 3 lw 2 lc rgb c_paper front
        set label 2 sprintf("paper, signed: %.0f B out", paper_signed) at graph 0.99, first paper_signed right offset 0, 0.7 tc rgb c_paper front
    }
    # the states in groups (today, variants, the roll, control, size
    # models), each tic "group: state" (column 9)
    plot datafile using 5:xtic(9) title "in (queries)" lc rgb c_rig, \
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
    set title "Which runs out first, the link or the server?\nbars: queries/s that fill each link; line: the server's UDP ceiling (".ceil.")"
    set ylabel "queries per second"
    set logscale y
    set style data histogram
    set style histogram clustered gap 1
    set xtics rotate by 45 right font ",10"
    set bmargin 9
    set lmargin 14
    plot datafile using 4:xtic(2) title "100 Mb/s" lt 6, \
         '' using 5 title "1 Gb/s" lt 1, \
         '' using 6 title "10 Gb/s" lt 3, \
         '' using 0:($3 > 0 ? $3 : 1/0) with linespoints lt 8 title "server UDP ceiling (unshaped)"
}
if (fig eq "roadmap") {
    set title "Which answers outgrow a 1232-byte buffer as the root's DNSSEC changes?\nAnswer size (DO=1, whole over TCP) per zone state; pq-*: size models, not valid signatures"
    set ylabel "DNS message, bytes"
    set logscale y
    set yrange [200:*]
    set style data histogram
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set xtics rotate by 30 right
    set bmargin 7
    set arrow 1 from graph 0, first 1232 to graph 1, first 1232 nohead dt 2 lw 2 lc rgb c_paper front
    set label 1 "1232 bytes (DNS Flag Day 2020)" at graph 0.01, first 1232 offset 0, 0.6 tc rgb c_paper front
    set arrow 2 from graph 0, first 512 to graph 1, first 512 nohead dt 3 lw 1 lc rgb c_rig front
    set label 2 "512" at graph 0.01, first 512 offset 0, 0.6 tc rgb c_rig front
    set arrow 3 from graph 0, first 4096 to graph 1, first 4096 nohead dt 3 lw 1 lc rgb c_rig front
    set label 3 "4096" at graph 0.01, first 4096 offset 0, 0.6 tc rgb c_rig front
    plot datafile using 4:xtic(2) title "priming (. NS)" lt 1, \
         '' using 5 title ". DNSKEY" lt 2, \
         '' using 6 title "TLD referral" lt 3, \
         '' using 7 title "NXDOMAIN" lt 4
}

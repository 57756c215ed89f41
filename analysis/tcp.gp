# tcp.gp: handled vs offered TCP connections per second, the paper's
# Figures 5-7, from tcpbench/tcp-sweep's points.csv (sorted by rate).
# Driven by tcp-sweep, never run by hand:
#   gnuplot -e "mode='single'; files='points.csv'; ttl='...'; outfile='x.png'; termspec='pngcairo ...'" tcp.gp
#   mode='combined': files = "CONFIG1 FILE1 CONFIG2 FILE2 ..."
# Columns used: 1 offered_rate, 2 handled_rate, 10 valid, 14 status.
# Only valid points make the server curve; generator-limited points are
# drawn apart (open red circles, labelled) and never connected to it;
# error/interrupted points (no complete result) are open grey squares.

eval "set terminal " . termspec
set output outfile
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "handled connections/s (answered within the timeout)"
set key top left box opaque
set grid
set xrange [0:*]
set yrange [0:*]

isok(c) = (column(10) == 1) ? c : 1/0
genlim(c) = (strcol(14) eq "generator_limited") ? c : 1/0
noresult(c) = (strcol(14) eq "error" || strcol(14) eq "interrupted") ? c : 1/0

if (mode eq "single") {
    plot files using 1:(isok($2)) with linespoints pt 7 ps 0.8 lw 2 lc rgb "#1f77b4" title "handled (valid points)", \
         files using 1:(genlim($2)) with points pt 6 ps 1.6 lc rgb "#d62728" title "generator-limited (not a server result)", \
         files using 1:(genlim($2)):("generator-limited") with labels offset 0,1 font ",8" tc rgb "#d62728" notitle, \
         files using 1:(noresult(0)) with points pt 4 ps 1.4 lc rgb "#7f7f7f" title "error / interrupted (no result)", \
         x with lines dt 2 lc rgb "#999999" title "y = x (every connection handled)"
} else {
    n = words(files) / 2
    plot for [i=1:n] word(files, 2*i) using 1:(isok($2)) with linespoints pt (4+i) ps 0.8 lw 2 title word(files, 2*i-1), \
         for [i=1:n] word(files, 2*i) using 1:(genlim($2)) with points pt 6 ps 1.6 lc rgb "#d62728" \
             title (i == 1 ? "generator-limited (not a server result)" : ""), \
         x with lines dt 2 lc rgb "#999999" title "y = x"
}

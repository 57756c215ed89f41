# loss.gp: where the work was lost: per layer (generator, players' kernels,
# switch, router, link, server CPU backlog, accept queue, server sockets,
# daemon), the connections or packets it dropped at each offered rate, and
# the failed connections, from one configuration's points.csv.
# Driven by tcpbench/sweep/plot:
#   gnuplot -e "f='points.csv'; cols='28 35 ...'; names='generator accept_queue ...'; nfailed=N;
#               ttl='...'; outfile='x.png'; termspec='...'" loss.gp
# cols/names: only the layers that lost something (an all-zero series is
# left out); failures come from column 8.
eval "set terminal " . termspec
set output outfile
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "lost in the point (count, log scale)"
set key top left box opaque
set grid
set logscale y
set yrange [0.8:*]
pos(c) = (c > 0) ? c : 1/0
# Nothing failed and nothing lost: say so (an all-undefined series is an
# error in gnuplot).
if (words(cols) == 0 && nfailed == 0) {
    set yrange [0.8:10]
    plot 1 with lines lw 2 lc rgb '#2ca02c' title 'no connection failed and no layer lost anything'
    exit
}
cmd = sprintf("plot '%s' using 1:(pos($8)) with linespoints pt 7 lw 2 lc rgb '#000000' title 'failed connections (tcpbench)'", f)
do for [i=1:words(cols)] {
    cmd = cmd . sprintf(", '%s' using 1:(pos(column(%s))) with linespoints pt %d title '%s'", f, word(cols, i), 4 + i, word(names, i))
}
eval cmd

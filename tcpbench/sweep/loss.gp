# loss.gp: where the work was lost: per layer (generator, players' kernels,
# switch, router, link, server CPU backlog, accept queue, server sockets,
# daemon), the connections or packets it dropped at each offered rate, and
# the failed connections, from one configuration's points.csv.
# Driven by tcpbench/sweep/plot:
#   f='points.csv'; cols='28 35 ...'; names='generator accept_queue ...'; nfailed=N; ttl='...'
#   (and style, fmt, outfile: scripts/lib/plot.sh plot_render)
# cols/names: only the layers that lost something (an all-zero series is
# left out); failures come from column 8.
load style
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "lost in the point (count, log scale)"
set key top left
set logscale y
set yrange [0.8:*]
pos(c) = (c > 0) ? c : 1/0
# Nothing failed and nothing lost: say so (an all-undefined series is an
# error in gnuplot).
if (words(cols) == 0 && nfailed == 0) {
    set yrange [0.8:10]
    plot 1 with lines lt 3 title 'no connection failed and no layer lost anything'
    exit
}
cmd = sprintf("plot '%s' using 1:(pos($8)) with linespoints lt 8 title 'failed connections (tcpbench)'", f)
do for [i=1:words(cols)] {
    cmd = cmd . sprintf(", '%s' using 1:(pos(column(%s))) with linespoints pt %d title '%s'", f, word(cols, i), 4 + i, word(names, i))
}
eval cmd

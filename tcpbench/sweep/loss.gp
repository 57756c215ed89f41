# loss.gp: where the work was lost: per layer (generator, players' kernels,
# switch, router, link, server CPU backlog, accept queue, server sockets,
# daemon), the connections or packets it dropped at each offered rate, and
# the failed connections, from one configuration's points.csv.
# Driven by tcpbench/sweep/plot:
#   f='points.csv'; cols='28 35 ...'; names='generator accept_queue ...'; nfailed=N; ngen=N; ttl='...'
#   (and style, fmt, outfile: scripts/lib/plot.sh plot_render)
# cols/names: only the layers that lost something at a valid point (an
# all-zero series is left out); failures come from column 8: nfailed at
# valid points, ngen at points the rig limited (column 3).
load style
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "lost in the point (count, log scale)"
set key top left
set logscale y
set yrange [0.8:*]
# Only valid points make the layers' curves; the failures at points the
# rig limited (status generator_limited or rig_stall, column 3) are drawn
# apart, hollow and grey, never as the server's.
at_valid(c) = (column(4) == 1 && c > 0) ? c : 1/0
at_rig(c) = ((strcol(3) eq "generator_limited" || strcol(3) eq "rig_stall") && c > 0) ? c : 1/0
# Nothing failed and nothing lost: say so (an all-undefined series is an
# error in gnuplot).
if (words(cols) == 0 && nfailed == 0 && ngen == 0) {
    set yrange [0.8:10]
    plot 1 with lines lt 3 title 'no connection failed and no layer lost anything'
    exit
}
cmd = "plot"
sep = " "
if (nfailed > 0) {
    cmd = cmd . sep . sprintf("'%s' using 1:(at_valid($8)) with linespoints lt 8 title 'failed connections (tcpbench)'", f)
    sep = ", "
}
do for [i=1:words(cols)] {
    cmd = cmd . sep . sprintf("'%s' using 1:(at_valid(column(%s))) with linespoints pt %d title '%s'", f, word(cols, i), 4 + i, word(names, i))
    sep = ", "
}
if (ngen > 0) {
    cmd = cmd . sep . sprintf("'%s' using 1:(at_rig($8)) with points pt 6 ps 1.6 lc rgb '%s' title 'failed where the rig limited the point (not a server result)'", f, c_rig)
}
eval cmd

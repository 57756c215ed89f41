# udp.gp: the paper's Figures 2/3 (answered vs sent, answer ratio vs sent)
# from the per-LB tables that udpreplay/udp/plot splits out of points.csv
# (columns: 1 lb, 3 achieved_qps, 9 answer_ratio, 10 answered_qps).
# Variables: term, ext, dir, out, lbs (LB modes), link (b/s, 0 = unshaped),
# wire (mean answer bytes on the wire), thr (answer-ratio threshold).
set datafile separator ","
set terminal @term
set key bottom right box opaque
set grid
set xlabel "queries/s sent (achieved by tcpreplay)"
set xrange [0:*]
set offsets 0, graph 0.05, 0, 0

# The answer rate a link of `link` b/s carries at `wire` bytes per answer.
cap = (link > 0 && wire > 0) ? link / (8.0 * wire) : 0

set output out . "/udp-answered." . ext
set title "UDP: answers received by the Listener vs queries sent"
set ylabel "answers/s received"
set yrange [0:*]
plot x with lines dt 3 lc rgb "gray50" title "all answered (y = x)", \
     (cap > 0 ? cap : 1/0) with lines dt 2 lc rgb "red" title sprintf("link limit %.0f answers/s", cap), \
     for [i=1:words(lbs)] dir . "/" . word(lbs, i) . ".csv" using 3:10 with linespoints pt 7 ps 0.6 lw 1.5 title "LB=" . word(lbs, i), \
     for [i=1:words(lbs)] dir . "/" . word(lbs, i) . "-gen.csv" using 3:10 with points pt 6 ps 1.2 lc rgb "gray40" title "LB=" . word(lbs, i) . ": generator-limited (not a server result)"

set output out . "/udp-ratio." . ext
set title "UDP: answer ratio vs queries sent"
set ylabel "answers / queries sent"
set yrange [0:1.05]
set key bottom left box opaque
plot thr with lines dt 2 lc rgb "red" title sprintf("threshold %.3f", thr), \
     for [i=1:words(lbs)] dir . "/" . word(lbs, i) . ".csv" using 3:9 with linespoints pt 7 ps 0.6 lw 1.5 title "LB=" . word(lbs, i), \
     for [i=1:words(lbs)] dir . "/" . word(lbs, i) . "-gen.csv" using 3:9 with points pt 6 ps 1.2 lc rgb "gray40" title "LB=" . word(lbs, i) . ": generator-limited (not a server result)"
set output

# udp.gp: the paper's Figures 2/3 (answered vs sent, answer ratio vs sent)
# from the per-LB tables that udpreplay/udp/plot splits out of points.csv
# (columns: 1 lb, 3 achieved_qps, 9 answer_ratio, 10 answered_qps).
# Variables: style (scripts/lib/style.gp), fig (answered | ratio), dir,
# lbs (LB modes), link (b/s, 0 = unshaped), wire (mean answer bytes on
# the wire), thr (answer-ratio threshold), ceil (the ceiling found,
# answered q/s, 0 = none), paper and paper_who (the paper's ceilings, q/s,
# and whose, space separated; empty = not comparable, e.g. unshaped), gen
# (the generator that sent the load, the summary's settings.generator;
# empty = not recorded).
load style
set datafile separator ","
set key bottom right
if (!exists("gen")) gen = ""
set xlabel (gen eq "" ? "queries/s sent" : "queries/s sent (achieved by " . gen . ")")
set xrange [0:*]
set offsets 0, graph 0.05, 0, 0

# The answer rate a link of `link` b/s carries at `wire` bytes per answer.
cap = (link > 0 && wire > 0) ? link / (8.0 * wire) : 0
if (ceil > 0) {
    set arrow 1 from ceil, graph 0 to ceil, graph 1 nohead dt 2 lw 2 lc rgb c_ours front
    # what the ceiling means: the most answered while the answer ratio held
    # the threshold (points beyond it may still answer nearly all)
    set label 1 sprintf("ceiling %.0f q/s: the most answered\nwhile at least %.4g %% of\nthe queries sent were answered", ceil, 100 * thr) \
        at ceil, graph 0.96 right offset -0.5, 0 tc rgb c_ours front
}
do for [i = 1:words(paper)] {
    p = word(paper, i) + 0
    set arrow 1 + i from p, graph 0 to p, graph 1 nohead dt 3 lw 2 lc rgb c_paper front
    set label 1 + i sprintf("paper, %s: %.0f", word(paper_who, i), p) at p, graph (0.9 - 0.06 * i) left offset 0.5, 0 tc rgb c_paper front
}

if (fig eq "answered") {
    set title "UDP: how many queries are answered? (answers at the Listener vs queries sent)"
    set ylabel "answers/s received"
    set yrange [0:*]
    plot x with lines dt 3 lc rgb c_limit title "all answered (y = x)", \
         (cap > 0 ? cap : 1/0) with lines dt 2 lc rgb c_limit title (cap > 0 ? sprintf("link limit %.0f answers/s", cap) : ""), \
         for [i=1:words(lbs)] dir . "/" . word(lbs, i) . ".csv" using 3:10 with linespoints lt i title "LB=" . word(lbs, i), \
         for [i=1:words(lbs)] dir . "/" . word(lbs, i) . "-gen.csv" using 3:10 with points pt 6 ps 1.4 lc rgb c_rig title "LB=" . word(lbs, i) . ": generator-limited (not a server result)"
}
if (fig eq "ratio") {
    set title "UDP: where does the answer ratio fall below the threshold?"
    set ylabel "answers / queries sent"
    set yrange [0:1.05]
    set key bottom left
    plot thr with lines dt 2 lc rgb c_limit title sprintf("threshold %.3f", thr), \
         for [i=1:words(lbs)] dir . "/" . word(lbs, i) . ".csv" using 3:9 with linespoints lt i title "LB=" . word(lbs, i), \
         for [i=1:words(lbs)] dir . "/" . word(lbs, i) . "-gen.csv" using 3:9 with points pt 6 ps 1.4 lc rgb c_rig title "LB=" . word(lbs, i) . ": generator-limited (not a server result)"
}

# handled.gp: handled vs offered TCP connections per second, the paper's
# Figures 5-7, from the TCP experiment's points.csv (rows sorted by rate).
# Driven by tcpbench/sweep/plot (scripts/lib/plot.sh plot_render), never
# run by hand: files='CFG FILE NVALID NGLIM NNORES ...'; ttl='...'; xmax=N;
# knee=N (0.1 % failed, 0 = none); paper=N (the paper's, 0 = none).
# One config (a figure per configuration) or several (the combined
# figure); NVALID/NGLIM/NNORES count the file's valid, generator-limited
# and error/interrupted points: a series with no point is left out
# (gnuplot 5.4 crashes on some all-undefined series).
# Columns used: 1 offered_rate, 2 handled_rate, 3 status, 4 valid.
# Only valid points make the server curve; generator-limited points are
# drawn apart (open grey circles, labelled) and
# never connected to it;
# error/interrupted points (no complete result) are grey squares at 0.

load style
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "handled connections/s (answered within the timeout)"
# The legend top left, above y = x, where no point can lie (no more is
# handled than offered): bottom right, it covered a configuration's
# plateau. The knee's and the paper's marks are labelled at the bottom,
# under the curves, away from it.
set key top left Left reverse
if (knee > 0) {
    set arrow 1 from knee, graph 0 to knee, graph 1 nohead dt 2 lw 2 lc rgb c_ours front
    set label 1 sprintf("0.1 %% failed at %.0f/s", knee) at knee, graph 0.04 right offset -0.5, 0 tc rgb c_ours front
}
if (paper > 0) {
    set arrow 2 from paper, graph 0 to paper, graph 1 nohead dt 3 lw 2 lc rgb c_paper front
    set label 2 sprintf("paper: %.0f/s", paper) at paper, graph 0.11 left offset 0.5, 0 tc rgb c_paper front
}
set xrange [0:xmax]
set yrange [0:*]

isok(c) = (column(4) == 1) ? c : 1/0
genlim(c) = (strcol(3) eq "generator_limited" || strcol(3) eq "rig_stall") ? c : 1/0
noresult(c) = (strcol(3) eq "error" || strcol(3) eq "interrupted") ? c : 1/0

# one colour (line type of the style) per configuration in the combined figure
n = words(files) / 5
single = (n == 1)
cmd = "plot x with lines dt 2 lc rgb c_limit title 'y = x (every connection handled)'"
nores_titled = 0
do for [i=1:n] {
    cfg = word(files, 5*i-4)
    f = word(files, 5*i-3)
    if (word(files, 5*i-2) + 0 > 0) {
        if (single) {
            cmd = cmd . sprintf(", '%s' using 1:(isok($2)) with linespoints lt 1 title 'handled (valid points)'", f)
        } else {
            cmd = cmd . sprintf(", '%s' using 1:(isok($2)) with linespoints lt %d title '%s'", f, i, cfg)
        }
    }
    if (word(files, 5*i-1) + 0 > 0) {
        cmd = cmd . sprintf(", '%s' using 1:(genlim($2)) with points pt 6 ps 1.6 lc rgb '%s' title '%s'", \
            f, c_rig, single ? "generator-limited or rig stall (not a server result)" : cfg . " generator-limited or rig stall (not a server result)")
        cmd = cmd . sprintf(", '%s' using 1:(genlim($2)):('generator-limited') with labels offset 0,1 font ',9' tc rgb '%s' notitle", f, c_rig)
    }
    if (word(files, 5*i) + 0 > 0) {
        cmd = cmd . sprintf(", '%s' using 1:(noresult(0)) with points pt 4 ps 1.4 lc rgb '%s' title '%s'", \
            f, c_limit, nores_titled ? "" : "error / interrupted (no result)")
        nores_titled = 1
    }
}
eval cmd

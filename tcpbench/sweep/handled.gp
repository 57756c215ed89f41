# handled.gp: handled vs offered TCP connections per second, the paper's
# Figures 5-7, from the TCP experiment's points.csv (rows sorted by rate).
# Driven by tcpbench/sweep/plot, never run by hand:
#   gnuplot -e "files='CFG FILE NVALID NGLIM NNORES ...'; ttl='...'; xmax=N;
#               outfile='x.png'; termspec='pngcairo ...'" tcp.gp
# One config (a figure per configuration) or several (the combined
# figure); NVALID/NGLIM/NNORES count the file's valid, generator-limited
# and error/interrupted points: a series with no point is left out
# (gnuplot 5.4 crashes on some all-undefined series).
# Columns used: 1 offered_rate, 2 handled_rate, 3 status, 4 valid.
# Only valid points make the server curve; generator-limited points are
# drawn apart (open circles, red or the config's colour, labelled) and
# never connected to it;
# error/interrupted points (no complete result) are grey squares at 0.

eval "set terminal " . termspec
set output outfile
set datafile separator ","
set title ttl
set xlabel "offered connections/s (total of all players)"
set ylabel "handled connections/s (answered within the timeout)"
set key top left box opaque
set grid
set xrange [0:xmax]
set yrange [0:*]

isok(c) = (column(4) == 1) ? c : 1/0
genlim(c) = (strcol(3) eq "generator_limited" || strcol(3) eq "rig_stall") ? c : 1/0
noresult(c) = (strcol(3) eq "error" || strcol(3) eq "interrupted") ? c : 1/0

# one colour per configuration in the combined figure
colours = "#1f77b4 #ff7f0e #2ca02c #9467bd"
n = words(files) / 5
single = (n == 1)
cmd = "plot x with lines dt 2 lc rgb '#999999' title 'y = x (every connection handled)'"
nores_titled = 0
do for [i=1:n] {
    cfg = word(files, 5*i-4)
    f = word(files, 5*i-3)
    if (word(files, 5*i-2) + 0 > 0) {
        if (single) {
            cmd = cmd . sprintf(", '%s' using 1:(isok($2)) with linespoints pt 7 ps 0.8 lw 2 lc rgb '#1f77b4' title 'handled (valid points)'", f)
        } else {
            cmd = cmd . sprintf(", '%s' using 1:(isok($2)) with linespoints pt %d ps 0.9 lw 2 lc rgb '%s' title '%s'", f, 4+i, word(colours, i), cfg)
        }
    }
    if (word(files, 5*i-1) + 0 > 0) {
        gc = single ? "#d62728" : word(colours, i)
        cmd = cmd . sprintf(", '%s' using 1:(genlim($2)) with points pt 6 ps 1.6 lc rgb '%s' title '%s'", \
            f, gc, single ? "generator-limited or rig stall (not a server result)" : cfg . " generator-limited or rig stall (not a server result)")
        cmd = cmd . sprintf(", '%s' using 1:(genlim($2)):('generator-limited') with labels offset 0,1 font ',8' tc rgb '%s' notitle", f, gc)
    }
    if (word(files, 5*i) + 0 > 0) {
        cmd = cmd . sprintf(", '%s' using 1:(noresult(0)) with points pt 4 ps 1.4 lc rgb '#7f7f7f' title '%s'", \
            f, nores_titled ? "" : "error / interrupted (no result)")
        nores_titled = 1
    }
}
eval cmd

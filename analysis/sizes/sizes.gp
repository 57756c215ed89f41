# sizes.gp: Figure 4 of the sizes experiment: the distribution of reply
# sizes (DNS message length), one panel per run, side by side.
# Called by analysis/sizes/run with -e:
#   datafile  reply_sizes.csv ('# size_lo,<run>,...': share of answers per bin)
#   titles (run names, space separated), n, binw, xmax, ymax (common
#   axes: bytes, percent); style, fmt, outfile (scripts/lib/plot.sh)
w = 1000
h = (n <= 4 ? 480 : 820)
load style
set datafile separator ","
rows = (n <= 4 ? 1 : 2)
cols = (n <= 4 ? n : int((n + 1) / 2))
set multiplot layout rows, cols title "How large are the answers? Reply sizes (DNS message length), share of answers per ".binw."-byte bin" font ",15"
set boxwidth binw * 0.9 absolute
set xlabel "reply size, bytes"
set ylabel "share of answers"
set format y "%.0f%%"
set xrange [0:xmax]
# three or four labelled tics per panel, whatever the size range
xstep = (xmax > 2400 ? 1000 : (xmax > 1200 ? 500 : 250))
set xtics 0, xstep
set yrange [0:ymax]
set key off
do for [i = 1:n] {
    set title word(titles, i)
    plot datafile using ($1 + binw / 2.0):(column(i + 1) * 100) with boxes lt 1
}
unset multiplot

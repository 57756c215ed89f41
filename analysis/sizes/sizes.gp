# sizes.gp: Figure 4 of the sizes experiment: the distribution of reply
# sizes (DNS message length), one panel per run, side by side.
# Called by analysis/sizes/run with -e:
#   datafile  reply_sizes.csv ('# size_lo,<run>,...': share of answers per bin)
#   outfile, fmt (png|svg|pdf), titles (run names, space separated), n, binw,
#   xmax, ymax (common axes: bytes, percent)
set datafile separator ","
w = (n <= 2 ? 1000 : 400 * (n <= 4 ? n : 4))
h = (n <= 4 ? 420 : 800)
if (fmt eq "svg") { set terminal svg size w, h dynamic font "sans,11" }
if (fmt eq "png") { set terminal pngcairo size w, h font "sans,10" }
if (fmt eq "pdf") { set terminal pdfcairo size w / 100.0, h / 100.0 font "sans,10" }
set output outfile
rows = (n <= 4 ? 1 : 2)
cols = (n <= 4 ? n : int((n + 1) / 2))
set multiplot layout rows, cols title "Reply sizes (DNS message length), share of answers per ".binw."-byte bin"
set style fill solid 0.6 border -1
set boxwidth binw * 0.9 absolute
set xlabel "reply size, bytes"
set ylabel "share of answers"
set format y "%.0f%%"
set grid ytics
set xrange [0:xmax]
set yrange [0:ymax]
set key off
do for [i = 1:n] {
    set title word(titles, i)
    plot datafile using ($1 + binw / 2.0):(column(i + 1) * 100) with boxes lc rgb "#3a6ea5"
}
unset multiplot

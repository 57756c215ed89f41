# style.gp: the one look of every rootbench figure (loaded first by each
# experiment's gnuplot script; scripts/lib/plot.sh passes its path as
# `style`). Sets the terminal for `fmt` (png | svg | pdf) at w x h pixels
# (default 1000 x 560; PDF at 100 pixels to the inch), the output when
# `outfile` is given, one font, one palette, grid and key.
#
# Fonts are sized for a figure shown full width in the report (about
# 1000 px): 13 pt text, 15 pt titles, so a figure is legible at 100 % zoom
# and in the PDF.

if (!exists("w")) w = 1000
if (!exists("h")) h = 560
if (!exists("fmt")) fmt = "png"
if (fmt eq "png") { set terminal pngcairo size w, h font "DejaVu Sans,12" noenhanced linewidth 1.2 }
if (fmt eq "svg") { set terminal svg size w, h dynamic font "DejaVu Sans,12" noenhanced linewidth 1.2 }
if (fmt eq "pdf") { set terminal pdfcairo size (w / 100.0), (h / 100.0) font "DejaVu Sans,9" noenhanced linewidth 1.2 }
if (exists("outfile")) { set output outfile }

# One palette (colour-blind safe, Okabe-Ito), the same order in every figure.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 0.9
set linetype 2 lc rgb "#E69F00" lw 2 pt 5 ps 0.9
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 1.0
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 1.0
set linetype 5 lc rgb "#56B4E9" lw 2 pt 13 ps 1.0
set linetype 6 lc rgb "#D55E00" lw 2 pt 15 ps 1.0
set linetype 7 lc rgb "#F0E442" lw 2 pt 3 ps 1.0
set linetype 8 lc rgb "#000000" lw 2 pt 1 ps 1.0
set linetype cycle 8
# Named colours for marks every figure shares.
c_paper = "#D55E00"     # the paper's value
c_ours = "#0072B2"      # this run's ceiling or knee
c_limit = "#555555"     # a limit line (link, threshold, y = x)
c_rig = "#999999"       # points the rig limited: never a server result

set title font ",15"
set xlabel font ",12"
set ylabel font ",12"
set border 3 lw 1
set tics nomirror
set grid back lc rgb "#dddddd" lw 1
set key box opaque samplen 2 spacing 1.1
set style fill solid 0.8 border -1

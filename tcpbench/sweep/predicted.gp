# predicted.gp: the TCP knee Little's law predicts against the knee
# measured, one point per tcp-count/backlog combination (make tcp-limits).
#   f='limits.csv' (and style, fmt, outfile: scripts/lib/plot.sh plot_render)
# Columns: 1 combination, 2 tcp_count, 3 backlog, 4 predicted, 5 measured.
load style
set datafile separator ","
set title "Does Little's law predict the TCP knee? Predicted vs measured, 1p1s"
set xlabel "predicted knee, connections/s"
set ylabel "measured knee (0.1 % failed), connections/s"
set key top left
set xrange [0:*]
set yrange [0:*]
plot x with lines dt 2 lc rgb c_limit title 'measured = predicted', \
     f using 4:5 with points lt 1 ps 1.5 title 'combination', \
     f using 4:5:1 with labels offset 1,1 font ',9' notitle

# predicted.gp: the TCP knee Little's law predicts against the knee
# measured, one point per tcp-count/backlog combination (make tcp-limits).
#   gnuplot -e "f='limits.csv'; outfile='x.png'; termspec='...'" predicted.gp
# Columns: 1 combination, 2 tcp_count, 3 backlog, 4 predicted, 5 measured.
eval "set terminal " . termspec
set output outfile
set datafile separator ","
set title "TCP knee: predicted (Little's law) vs measured, 1p1s"
set xlabel "predicted knee, connections/s"
set ylabel "measured knee (0.1 % failed), connections/s"
set key top left box opaque
set grid
set xrange [0:*]
set yrange [0:*]
plot x with lines dt 2 lc rgb '#999999' title 'measured = predicted', \
     f using 4:5 with points pt 7 ps 1.5 lc rgb '#1f77b4' title 'combination', \
     f using 4:5:1 with labels offset 1,1 font ',9' notitle

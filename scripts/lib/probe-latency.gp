# probe-latency.gp: the probe's latency against a sweep's offered load
# (docs/latency.md): its median and p99 over UDP and over TCP, log y,
# RSSAC047's median thresholds and the timeout drawn, the sweep's ceiling
# marked. Driven by scripts/lib/probe-plot.sh (probe_plot, through
# scripts/lib/plot.sh plot_render), never run by hand:
#   datafile='FILE' (tab-separated: offered, UDP p50, UDP p99, TCP p50,
#   TCP p99 in ms, NaN where none; scripts/lib/probe.jq probe_plot_rows)
#   counts='N N N N' (points with a value per series: an empty series is
#   left out, gnuplot 5.4 crashes on some all-undefined series)
#   ttl='...'; unit='q/s'; thr_udp=MS; thr_tcp=MS; timeout=MS; ceil=RATE (0 = none)

load style
set datafile separator "\t"
set datafile missing "NaN"
set title ttl
set xlabel sprintf("offered load, %s", unit)
set ylabel "probe latency, ms (log scale)"
set logscale y
set ytics ("0.001" 0.001, "0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100, "1000" 1000, "10000" 10000)
# the key in the top decade, above the timeout (no answer is later than it)
set key top left vertical maxrows 4
set yrange [*:timeout * 300]
set xrange [0:*]
if (ceil > 0) {
    set arrow 1 from ceil, graph 0 to ceil, graph 1 nohead dt 2 lw 2 lc rgb c_ours front
    set label 1 sprintf("ceiling %.0f %s", ceil, unit) at ceil, graph 0.66 right offset -0.5, 0 tc rgb c_ours front
}

cmd = sprintf("plot %g with lines dt 2 lw 1.5 lc rgb c_limit title sprintf('RSSAC047 UDP median, %g ms', %g)", thr_udp, thr_udp, thr_udp)
cmd = cmd . sprintf(", %g with lines dt 4 lw 1.5 lc rgb c_limit title sprintf('RSSAC047 TCP median, %g ms', %g)", thr_tcp, thr_tcp, thr_tcp)
cmd = cmd . sprintf(", %g with lines dt 3 lw 1 lc rgb c_rig title sprintf('timeout %g s: lost', %g)", timeout, timeout / 1000.0, timeout / 1000.0)
names = "UDP_median UDP_p99 TCP_median TCP_p99"
do for [i=1:4] {
    if (word(counts, i) + 0 > 0) {
        nm = word(names, i)
        nm = nm[1:3] . " " . nm[5:]
        cmd = cmd . sprintf(", datafile using 1:%d with linespoints lt %d %s title '%s'", i + 1, (i <= 2) ? 1 : 2, (i % 2 == 0) ? "dt 2 pt 6" : "", nm)
    }
}
eval cmd

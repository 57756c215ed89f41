# attack.gp: one attack's figure (docs/attack.md): the legitimate client's
# availability (the RSSAC047 probe, in the attack's protocol) against the
# attack rate the router counted, a curve per server and defence state,
# RSSAC047's 96 % line. Driven by scripts/attack/run (attack_figures,
# through scripts/lib/plot.sh plot_render), never run by hand:
#   datafile='FILE' (blocks separated by a blank line, each opened by a
#   "# TITLE" comment; lines: attack rate, availability in %, NaN where
#   none: scripts/attack/rules.py attack_plot_rows)
#   nseries=N; attack='KIND'; proto='UDP'|'TCP'

load style
set datafile missing "NaN"
set title sprintf("Under attack (%s): what the legitimate client still gets over %s", attack, proto)
set xlabel "attack rate, packets/s (counted at the router; log scale)"
set ylabel sprintf("legitimate %s availability, %%", proto)
set logscale x
set yrange [0:105]
set key center right
cmd = "plot 96 with lines dt 2 lw 1.5 lc rgb c_limit title 'RSSAC047 availability, 96 %'"
do for [i=0:nseries-1] {
    t = system(sprintf("sed -n 's/^# //p' '%s' | sed -n '%dp'", datafile, i + 1))
    cmd = cmd . sprintf(", datafile index %d using 1:2 with linespoints lw 2 title '%s'", i, t)
}
eval cmd

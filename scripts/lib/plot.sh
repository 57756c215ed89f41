# plot.sh: how every experiment draws its figures with gnuplot: PNG for
# the report, SVG for the web, PDF for papers, all in the one style of
# scripts/lib/style.gp (each figure script loads it first). FIGURES=off
# (scripts/lib/settings.json) draws none: for the tests whose runs read no
# figure. Source after common.sh.

[ "$(type -t settings_check)" = function ] || . "$RB_TOP/scripts/lib/settings.sh"
PLOT_FORMATS=(png svg pdf)
PLOT_STYLE="$RB_TOP/scripts/lib/style.gp"
PLOT_FIGURES_CHECKED=""

# plot_wanted: true unless FIGURES=off; a FIGURES its table does not allow
# stops the script (checked once).
plot_wanted() {
    FIGURES=${FIGURES:-on}
    if [ -z "$PLOT_FIGURES_CHECKED" ]; then
        settings_check "$RB_TOP/scripts/lib/settings.json" FIGURES
        PLOT_FIGURES_CHECKED=1
    fi
    [ "$FIGURES" != off ]
}

# plot_render SCRIPT OUTBASE VARS [WIDTH HEIGHT]: OUTBASE.png, .svg and
# .pdf from the gnuplot SCRIPT, given VARS (gnuplot assignments:
# "datafile='x'; n=2") plus outfile, fmt (the format's name), w and h
# (pixels, default style.gp's 1000 x 560) and style (the style file's
# path); each written whole (a temporary, then renamed), or die with
# gnuplot's last lines. Warnings of an empty series are dropped. With
# FIGURES=off nothing is drawn (and OUTBASE's old figures are left).
plot_render() {
    local script=$1 out=$2 vars=$3 size="" term log msg
    plot_wanted || { log "FIGURES=off: no $(basename "$out") figure"; return 0; }
    [ $# -lt 5 ] || size="; w=$4; h=$5"
    log=$(mktemp)
    for term in "${PLOT_FORMATS[@]}"; do
        if ! gnuplot -e "$vars$size; style='$PLOT_STYLE'; outfile='$out.$term.tmp'; fmt='$term'" "$script" 2> "$log"; then
            msg=$(tail -n 3 "$log"); rm -f "$log" "$out.$term.tmp"
            die "gnuplot ($(basename "$out").$term from ${script#"$RB_TOP"/}) failed: $msg"
        fi
        grep -v 'Skipping data file with no valid points' "$log" >&2 || true
        [ -s "$out.$term.tmp" ] || { rm -f "$log" "$out.$term.tmp"; die "gnuplot wrote no $(basename "$out").$term"; }
        mv -f "$out.$term.tmp" "$out.$term"
    done
    rm -f "$log"
}

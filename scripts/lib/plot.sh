# plot.sh: how every experiment draws its figures with gnuplot: PNG for
# the report, SVG for the web, PDF for papers, all in the one style of
# scripts/lib/style.gp (each figure script loads it first). Source after
# common.sh.

PLOT_FORMATS=(png svg pdf)
PLOT_STYLE="$RB_TOP/scripts/lib/style.gp"

# plot_render SCRIPT OUTBASE VARS [WIDTH HEIGHT]: OUTBASE.png, .svg and
# .pdf from the gnuplot SCRIPT, given VARS (gnuplot assignments:
# "datafile='x'; n=2") plus outfile, fmt (the format's name), w and h
# (pixels, default style.gp's 1000 x 560) and style (the style file's
# path); each written whole (a temporary, then renamed), or die with
# gnuplot's last lines. Warnings of an empty series are dropped.
plot_render() {
    local script=$1 out=$2 vars=$3 size="" term log msg
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

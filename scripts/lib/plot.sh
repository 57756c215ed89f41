# plot.sh: the figure formats every experiment writes with gnuplot: PNG for
# the report, SVG for the web, PDF for papers. Source after common.sh.

PLOT_FORMATS=(png svg pdf)

# plot_terminal FORMAT WIDTH HEIGHT: the gnuplot terminal of a figure of
# WIDTH x HEIGHT pixels (PDF at 100 pixels to the inch).
plot_terminal() {
    case $1 in
        png) echo "pngcairo size $2,$3 noenhanced" ;;
        svg) echo "svg size $2,$3 noenhanced" ;;
        pdf) awk -v w="$2" -v h="$3" 'BEGIN { printf "pdfcairo size %.2fin,%.2fin noenhanced\n", w / 100, h / 100 }' ;;
        *) die "no gnuplot terminal for figure format '$1'" ;;
    esac
}

# plot_render SCRIPT OUTBASE VARS: OUTBASE.png, .svg and .pdf from the
# gnuplot SCRIPT, given VARS (gnuplot assignments: "datafile='x'; n=2")
# plus outfile and fmt (the format's name: the script picks its terminal);
# each written whole (a temporary, then renamed), or die with gnuplot's
# last lines.
plot_render() {
    local script=$1 out=$2 vars=$3 term log msg
    log=$(mktemp)
    for term in "${PLOT_FORMATS[@]}"; do
        if ! gnuplot -e "$vars; outfile='$out.$term.tmp'; fmt='$term'" "$script" 2> "$log"; then
            msg=$(tail -n 3 "$log"); rm -f "$log" "$out.$term.tmp"
            die "gnuplot ($(basename "$out").$term from ${script#"$RB_TOP"/}) failed: $msg"
        fi
        [ -s "$out.$term.tmp" ] || { rm -f "$log" "$out.$term.tmp"; die "gnuplot wrote no $(basename "$out").$term"; }
        mv -f "$out.$term.tmp" "$out.$term"
    done
    rm -f "$log"
}

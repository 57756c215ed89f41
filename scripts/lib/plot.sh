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

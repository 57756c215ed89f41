# chromium.sh: Debian's Chromium, headless, as the report's PDF
# (analysis/report-pdf) and its browser check (analysis/report-browser-check)
# run it. Source after common.sh.

# chromium_headless SCRATCH ARGS...: headless Chromium with a profile in
# SCRATCH (its HOME too), bounded to 120 s, every page stage drawn and
# 10 s of virtual time for the page to load; its messages go to
# SCRATCH/chrome.err. (--no-sandbox: it runs as root here.)
chromium_headless() {
    local scratch=$1 bin; shift
    bin=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$bin" ] || die "chromium is not installed (make deps installs it)"
    HOME="$scratch" timeout 120 "$bin" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$scratch/profile" --run-all-compositor-stages-before-draw \
        --virtual-time-budget=10000 "$@" 2> "$scratch/chrome.err"
}

# chromium.sh: Debian's Chromium, headless, as the report's PDF
# (analysis/report-pdf) and its browser check (analysis/report-browser-check)
# run it. Source after common.sh.

# chromium_headless SCRATCH ARGS...: headless Chromium with a profile in
# SCRATCH (its HOME too), every page stage drawn and 10 s of virtual time
# for the page to load; its messages go to SCRATCH/chrome.err. Each try
# is bounded to 60 s; headless Chromium now and then hangs on a loaded
# host without drawing anything, so a try that timed out is made once
# more with a fresh profile (a hang is no verdict on the page).
# (--no-sandbox: it runs as root here.)
chromium_headless() {
    local scratch=$1 bin try rc; shift
    bin=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$bin" ] || die "chromium is not installed (make deps installs it)"
    for try in 1 2; do
        rm -rf "$scratch/profile"
        rc=0
        HOME="$scratch" timeout 60 "$bin" --headless --no-sandbox --disable-gpu --no-first-run \
            --user-data-dir="$scratch/profile" --run-all-compositor-stages-before-draw \
            --virtual-time-budget=10000 "$@" 2> "$scratch/chrome.err" || rc=$?
        [ "$rc" -eq 124 ] || return "$rc"
        log "chromium hung for 60 s (try $try of 2)"
    done
    return 124
}

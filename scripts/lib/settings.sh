# settings.sh: a script's settings from its settings table (a JSON file
# read by the rules of scripts/rootbench/settings.py, through settings_py
# of common.sh; docs/development.md, "A setting"). One declaration gives
# the value (the user's, an old name's with a warning, or the default at
# SCALE and variant), its check, the --help lines, the doc page's table
# and summary.settings.
#
# Source after common.sh.

# settings_shell_vars: every variable of this shell as NAME=VALUE, each
# ended by a NUL, for settings.py --shell (which keeps the table's names):
# one process reads the table and the values at once.
settings_shell_vars() {
    local n
    for n in $(compgen -v); do printf '%s=%s\0' "$n" "${!n-}"; done
}

# settings_load TABLE [VARIANT...]: every setting of TABLE set as a shell
# variable: the user's value, else its old name's (a warning names the new
# one), else its default at SCALE (made canonical first: SCALE itself is a
# global setting) for the first VARIANT that has its own. A value that
# does not fit its type stops the script with a message naming the setting,
# its type and what it allows. Computed defaults (default_text) are left
# empty for the script to fill. SETTINGS_GIVEN: the table's names (new
# and old) that were set and not empty, as NAME=VALUE.
settings_load() {
    local table=$1 out kind a b; shift
    out=$(settings_shell_vars | settings_py resolve "$table" --shell --scale "${SCALE:-}" \
        --registry "$RB_TOP/scripts/lib/experiments.json" --variants "$*") || die "settings table $table not read"
    SETTINGS_GIVEN=()
    while IFS=$'\t' read -r kind a b; do
        case $kind in
            scale) SCALE=$a; export SCALE ;;
            given) SETTINGS_GIVEN+=("$a") ;;
            error) die "$a" ;;
            warn) warn "$a" ;;
            set) printf -v "$a" '%s' "$b" ;;
        esac
    done <<<"$out"
}

# settings_check TABLE NAME: NAME's current value checked against its
# entry (for a computed default, once the script has filled it).
settings_check() {
    local err
    err=$(settings_py check "$1" "$2" "${!2-}")
    [ -z "$err" ] || die "$err"
}

# settings_summary TABLE: the summary.settings fields TABLE records, from
# the settings' current values, as JSON.
settings_summary() {
    settings_shell_vars | settings_py summary "$1" --shell
}

# settings_scale_read: SCALE checked against the registry's names, made
# canonical ("full" is paper; empty is the default) and exported.
settings_scale_read() {
    local out kind a
    out=$(settings_py scale "$RB_TOP/scripts/lib/experiments.json" "${SCALE:-}") || die "SCALE names not read from $RB_TOP/scripts/lib/experiments.json"
    IFS=$'\t' read -r kind a <<<"$out"
    [ "$kind" = scale ] || die "$a"
    SCALE=$a
    export SCALE
}

# settings_get TABLE NAME: the value NAME would have (the user's, its old
# name's or its default at SCALE), printed; nothing is set or warned.
settings_get() {
    local out kind a
    out=$(settings_shell_vars | settings_py get "$1" "$2" --shell --scale "${SCALE:-}" \
        --registry "$RB_TOP/scripts/lib/experiments.json") || die "settings table $1 not read"
    IFS=$'\t' read -r kind a <<<"$out"
    [ "$kind" = value ] || die "$a"
    printf '%s\n' "$a"
}

# settings_fill_defaults TABLE [WORDS]: each setting of TABLE (those the
# WORDS choose, default all: NAME, PREFIX* or .FIELD, as "SERVER_RRL*
# SERVER_SYNCOOKIES" or ".up") that is empty or unset set to its default,
# when it has one that is neither computed nor by SCALE; nothing is
# checked (the caller checks, with its own messages).
settings_fill_defaults() {
    local n v
    while IFS=$'\t' read -r n v; do
        [ -n "${!n:-}" ] || printf -v "$n" '%s' "$v"
    done < <(settings_py fill "$1" --only "${2:-}")
}

# settings_check_all TABLE [WORDS]: the current value of each setting of
# TABLE (those the WORDS choose, as settings_fill_defaults, default all)
# checked against its entry; the first that does not fit stops the script,
# named with its type and what it allows.
settings_check_all() {
    local err
    err=$(settings_shell_vars | settings_py check-all "$1" --shell --only "${2:-}")
    [ -z "$err" ] || die "$err"
}

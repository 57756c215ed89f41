# settings.sh: a script's settings from its settings table (a JSON file
# read by the rules of scripts/lib/settings.jq; docs/development.md, "A
# setting"). One declaration gives the value (the user's, an old name's
# with a warning, or the default at SCALE and variant), its check, the
# --help lines, the doc page's table and summary.settings.
#
# Source after common.sh.

SETTINGS_JQ=(-L "$RB_TOP/scripts/lib")

# settings_given TABLE: the table's names (new and old) that are set and
# not empty in this shell, as NAME=VALUE arguments for jq.
settings_given() {
    local n
    SETTINGS_GIVEN=()
    for n in $(jq -r "${SETTINGS_JQ[@]}" 'include "settings"; settings_names(.)[]' "$1") ; do
        [ -z "${!n:-}" ] || SETTINGS_GIVEN+=("$n=${!n}")
    done
}

# settings_load TABLE [VARIANT...]: every setting of TABLE set as a shell
# variable: the user's value, else its old name's (a warning names the new
# one), else its default at SCALE (made canonical first: SCALE itself is a
# global setting) for the first VARIANT that has its own. A value that
# does not fit its type stops the script with a message naming the setting,
# its type and what it allows. Computed defaults (default_text) are left
# empty for the script to fill.
settings_load() {
    local table=$1 out kind a b; shift
    settings_scale_read
    settings_given "$table"
    out=$(jq -r -n "${SETTINGS_JQ[@]}" --slurpfile t "$table" --arg scale "$SCALE" --arg variants "$*" '
        include "settings";
        ($ARGS.positional | settings_pairs) as $given
        | settings_resolve($t[0]; $given; $scale; $variants | split(" ")) as $r
        | ($r.errors[] | "error\t\(.)"), ($r.warnings[] | "warn\t\(.)"),
          ($r.values | to_entries[] | "set\t\(.key)\t\(.value)")' \
        --args "${SETTINGS_GIVEN[@]+"${SETTINGS_GIVEN[@]}"}") || die "settings table $table not read"
    while IFS=$'\t' read -r kind a b; do
        case $kind in
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
    err=$(jq -r "${SETTINGS_JQ[@]}" --arg n "$2" --arg v "${!2-}" \
        'include "settings"; .settings[] | select(.name == $n) | settings_value_error(.; $v) // empty' "$1")
    [ -z "$err" ] || die "$err"
}

# settings_summary TABLE: the summary.settings fields TABLE records, from
# the settings' current values, as JSON.
settings_summary() {
    local n args=()
    for n in $(jq -r '.settings[].name' "$1"); do args+=("$n=${!n-}"); done
    jq -c -n "${SETTINGS_JQ[@]}" --slurpfile t "$1" 'include "settings";
        settings_summary($t[0]; $ARGS.positional | settings_pairs)' \
        --args "${args[@]}"
}

# settings_scale_read: SCALE checked against the registry's names, made
# canonical ("full" is paper; empty is the default) and exported.
settings_scale_read() {
    local reg="$RB_TOP/scripts/lib/experiments.json" c
    c=$(jq -r --arg s "${SCALE:-}" '.scales as $sc
        | ($s | if . == "" then $sc.default else ($sc.aliases[.] // .) end) as $c
        | if ($sc.names | index($c)) == null then "" else $c end' "$reg") || die "SCALE names not read from $reg"
    [ -n "$c" ] || die "unknown SCALE=$SCALE: use $(jq -r '.scales | (.names | join(", ")) + " (default \(.default))"' "$reg")"
    SCALE=$c
    export SCALE
}


# settings_get TABLE NAME: the value NAME would have (the user's, its old
# name's or its default at SCALE), printed; nothing is set or warned.
settings_get() {
    settings_scale_read
    settings_given "$1"
    jq -r -n "${SETTINGS_JQ[@]}" --slurpfile t "$1" --arg scale "$SCALE" --arg n "$2" '
        include "settings";
        ($ARGS.positional | settings_pairs) as $given
        | settings_resolve($t[0]; $given; $scale; []).values[$n] // error("\($n) is not in the table")' \
        --args "${SETTINGS_GIVEN[@]+"${SETTINGS_GIVEN[@]}"}"
}

# settings_fill_defaults TABLE [FILTER]: each setting of TABLE (those the jq
# FILTER selects, default all) that is empty or unset set to its default,
# when it has one that is neither computed nor by SCALE; nothing is
# checked (the caller checks, with its own messages).
settings_fill_defaults() {
    local n v
    while IFS=$'\t' read -r n v; do
        [ -n "${!n:-}" ] || printf -v "$n" '%s' "$v"
    done < <(jq -r -L "$RB_TOP/scripts/lib" "include \"settings\"; .settings[] | select(${2:-true})
        | select(.default_text == null and (.default | settings_is_scaled | not))
        | [.name, settings_default(.; \"\"; [])] | select(.[1] != \"\") | @tsv" "$1")
}

# settings_check_all TABLE [FILTER]: the current value of each setting of
# TABLE (those the jq FILTER selects, default all) checked against its
# entry; the first that does not fit stops the script, named with its type
# and what it allows.
settings_check_all() {
    local n args=() err
    for n in $(jq -r ".settings[] | select(${2:-true}) | .name" "$1"); do args+=("$n=${!n-}"); done
    err=$(jq -r -n "${SETTINGS_JQ[@]}" --slurpfile t "$1" 'include "settings";
        ($ARGS.positional | settings_pairs) as $v
        | first($t[0].settings[] | select($v[.name] != null and $v[.name] != "")
                | settings_value_error(.; $v[.name]) // empty) // ""' --args "${args[@]}")
    [ -z "$err" ] || die "$err"
}

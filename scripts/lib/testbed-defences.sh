# testbed-defences.sh: the servers' defences against floods, the same for
# NSD, Knot DNS and BIND 9 as far as each allows (docs/attack.md,
# "Defences per server"): response rate limiting (SERVER_RRL and its
# rate, slip and prefixes) in each server's configuration, SYN cookies
# (SERVER_SYNCOOKIES) as net.ipv4.tcp_syncookies in the servers' network
# namespaces, and status --json's record of both, read back from the
# configuration files and the namespaces. The TCP client limit and idle
# timeout (SERVER_TCP_CLIENTS, SERVER_TCP_TIMEOUT) are the templates' own;
# they are recorded here beside the rest. Sourced by testbed-config.sh;
# the settings are declared in scripts/testbed.settings.json.

# The defences' settings (the words settings_fill_defaults takes: names and PREFIX*).
TB_DEFENCES_SETTINGS='SERVER_RRL* SERVER_SYNCOOKIES'

# Knot DNS 3.2's mod-rrl counts IPv4 sources per /24 and IPv6 per /56,
# compiled in (its rrl.c): the module has no item for either.
KNOT_RRL_PREFIX4=24
KNOT_RRL_PREFIX6=56

# The options each server's configuration is read back for (status
# --json): rate limiting, then the TCP client limit and idle timeout.
tb_defences_rrl_names() {
    case $1 in
        nsd) echo rrl-ratelimit rrl-whitelist-ratelimit rrl-slip rrl-ipv4-prefix-length rrl-ipv6-prefix-length ;;
        knot) echo global-module rate-limit slip ;;
        bind) echo responses-per-second slip ipv4-prefix-length ipv6-prefix-length window ;;
    esac
}
tb_defences_tcp_names() {
    case $1 in
        nsd) echo tcp-count tcp-timeout ;;
        knot) echo tcp-max-clients tcp-idle-timeout ;;
        bind) echo tcp-clients tcp-idle-timeout tcp-initial-timeout ;;
    esac
}

# tb_defences_defaults: the defences' settings that are unset get the
# table's defaults (the lab backend's up, which fills its own others).
tb_defences_defaults() { settings_fill_defaults "$TB_SETTINGS_TABLE" "$TB_DEFENCES_SETTINGS"; }

# tb_defences_check: what the settings table cannot say (each value is
# checked against its entry before: tb_validate_config, lab_validate):
# Knot's fixed prefixes. Another prefix with SERVER=knot and SERVER_RRL=on
# is refused, never served as /24 and /56 while the record says otherwise.
tb_defences_check() {
    [ "$SERVER" = knot ] && [ "$SERVER_RRL" = on ] || return 0
    [ "$SERVER_RRL_PREFIX4" = "$KNOT_RRL_PREFIX4" ] && [ "$SERVER_RRL_PREFIX6" = "$KNOT_RRL_PREFIX6" ] \
        || die "SERVER_RRL_PREFIX4=$SERVER_RRL_PREFIX4 SERVER_RRL_PREFIX6=$SERVER_RRL_PREFIX6: Knot DNS $(srv knot version)'s mod-rrl counts sources per /$KNOT_RRL_PREFIX4 (IPv4) and /$KNOT_RRL_PREFIX6 (IPv6), fixed (no setting changes them): use $KNOT_RRL_PREFIX4 and $KNOT_RRL_PREFIX6 with SERVER=knot, or SERVER=nsd|bind (docs/attack.md)"
}

# tb_defences_rrl_conf KIND: the rate-limiting lines of KIND's
# configuration, unindented (tb_defences_fill indents them as the
# template's @RRL@ line is).
tb_defences_rrl_conf() {
    case $1 in
    nsd)
        # Off: 0 and 0, as nsd.conf(5) says to stop rate limiting
        # (Debian's NSD would otherwise limit to 200/s per /24). On: the
        # whitelist's rate the same, so that no kind of answer is limited
        # otherwise (no zone has an rrl-whitelist here).
        if [ "$SERVER_RRL" = off ]; then printf 'rrl-ratelimit: 0\nrrl-whitelist-ratelimit: 0\n'; return 0; fi
        printf 'rrl-ratelimit: %s\nrrl-whitelist-ratelimit: %s\nrrl-slip: %s\n' "$SERVER_RRL_RATE" "$SERVER_RRL_RATE" "$SERVER_RRL_SLIP"
        printf 'rrl-ipv4-prefix-length: %s\nrrl-ipv6-prefix-length: %s\n' "$SERVER_RRL_PREFIX4" "$SERVER_RRL_PREFIX6" ;;
    knot)
        [ "$SERVER_RRL" = on ] || return 0
        printf 'mod-rrl:\n  - id: rootbench\n    rate-limit: %s\n    slip: %s\n' "$SERVER_RRL_RATE" "$SERVER_RRL_SLIP" ;;
    bind)
        # window 1: the rate over the last second, as NSD's and Knot's
        # (BIND's default window is 15 s).
        [ "$SERVER_RRL" = on ] || return 0
        printf 'rate-limit {\n    responses-per-second %s;\n    slip %s;\n' "$SERVER_RRL_RATE" "$SERVER_RRL_SLIP"
        printf '    ipv4-prefix-length %s;\n    ipv6-prefix-length %s;\n    window 1;\n};\n' "$SERVER_RRL_PREFIX4" "$SERVER_RRL_PREFIX6" ;;
    esac
}

# tb_defences_fill KIND: a rendered template (stdin) with its @RRL@ line
# replaced by tb_defences_rrl_conf's lines at that line's indentation, and
# @RRL_MODULE@ by Knot's module reference (", mod-rrl/rootbench" when on).
tb_defences_fill() {
    local module=""
    [ "$1" != knot ] || [ "$SERVER_RRL" = off ] || module=", mod-rrl/rootbench"
    awk -v conf="$(tb_defences_rrl_conf "$1")" -v module="$module" '
        { gsub(/@RRL_MODULE@/, module) }
        $1 == "@RRL@" { ind = $0; sub(/@RRL@.*/, "", ind)
                        n = split(conf, l, "\n"); for (i = 1; i <= n; i++) if (l[i] != "") print ind l[i]
                        next }
        { print }'
}

# tb_defences_syncookies ROLE: net.ipv4.tcp_syncookies in ROLE's namespace
# (per namespace since Linux 4.12; it covers IPv6 too) as SERVER_SYNCOOKIES
# says; kernel puts back the value the namespace had before the testbed
# first set it (kept in the role's state directory).
tb_defences_syncookies() {
    local role=$1 keep="$TB_STATE/$1/syncookies.kernel" want
    mkdir -p "$TB_STATE/$role"
    [ -s "$keep" ] || nsx "$role" sysctl -n net.ipv4.tcp_syncookies > "$keep"
    want=$SERVER_SYNCOOKIES
    [ "$want" != kernel ] || want=$(cat "$keep")
    sysctl_set "$role" net.ipv4.tcp_syncookies="$want"
}

# tb_defences_read_conf FILE NAME...: "NAME<TAB>VALUE" for each option NAME
# set in the configuration FILE ("name: value" of NSD and Knot, "name
# value;" of BIND), comments left out.
tb_defences_read_conf() {
    local file=$1; shift
    awk -v names=" $* " '
        { sub(/(#|\/\/).*/, ""); sub(/^[ \t]+/, ""); sub(/[ \t;]+$/, "") }
        match($0, /^[a-z0-9-]+(:[ \t]*|[ \t]+)/) {
            name = substr($0, 1, RLENGTH); sub(/[: \t]+$/, "", name)
            if (index(names, " " name " ")) printf "%s\t%s\n", name, substr($0, RLENGTH + 1)
        }' "$file" 2>/dev/null || true
}

# tb_defences_json: status --json's .server.defences: the settings, each
# server's own options read back from its configuration file, and the
# SYN cookie sysctl read from each server's namespace.
tb_defences_json() {
    local role rrl_tsv="" tcp_tsv="" cookies_tsv=""
    # a testbed brought up before these settings existed: their defaults
    [ -n "${SERVER_RRL:-}" ] && [ -n "${SERVER_SYNCOOKIES:-}" ] || tb_defences_defaults
    for role in "${SERVER_ROLES[@]}"; do
        rrl_tsv+=$(tb_defences_read_conf "$TB_STATE/$role/server.conf" $(tb_defences_rrl_names "$SERVER") | sed "s/^/$role\t/")$'\n'
        tcp_tsv+=$(tb_defences_read_conf "$TB_STATE/$role/server.conf" $(tb_defences_tcp_names "$SERVER") | sed "s/^/$role\t/")$'\n'
        cookies_tsv+=$(printf '%s\t%s' "$role" "$(nsx "$role" sysctl -n net.ipv4.tcp_syncookies 2>/dev/null || true)")$'\n'
    done
    jq -n -c --arg kind "$SERVER" --arg rrl "$SERVER_RRL" --argjson rate "$SERVER_RRL_RATE" --argjson slip "$SERVER_RRL_SLIP" \
        --argjson p4 "$SERVER_RRL_PREFIX4" --argjson p6 "$SERVER_RRL_PREFIX6" --arg cookies "$SERVER_SYNCOOKIES" \
        --argjson tc "$SERVER_TCP_CLIENTS" --argjson tt "$SERVER_TCP_TIMEOUT" \
        --arg rtsv "$rrl_tsv" --arg ttsv "$tcp_tsv" --arg ctsv "$cookies_tsv" '
        def tsv: split("\n") | map(select(length > 0) | split("\t"));
        def num: tonumber? // .;
        # each server role (an empty object when its configuration has none of the names)
        def per_role: ($ctsv | tsv | map({key: .[0], value: {}}) | from_entries) + (tsv | group_by(.[0]) | map({key: .[0][0], value: (map({key: .[1], value: (.[2] | num)}) | from_entries)}) | from_entries);
        {rrl: {on: ($rrl == "on"), rate: $rate, slip: $slip, prefix4: $p4, prefix6: $p6,
               prefixes_fixed: ($kind == "knot"), per_server_names: ($rtsv | per_role)},
         syncookies: {setting: $cookies, value: ($ctsv | tsv | map({key: .[0], value: (.[1] | tonumber? // null)}) | from_entries)},
         tcp_clients: $tc, tcp_timeout_s: $tt, tcp_per_server_names: ($ttsv | per_role)}'
}

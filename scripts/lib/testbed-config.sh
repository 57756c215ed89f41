# testbed-config.sh: what both testbed backends share (the namespace
# testbed, scripts/lib/testbed.sh, and a real lab, scripts/lib/lab.sh):
# the settings `up` takes, their defaults, checks and saved copy; the
# server daemons' configuration and the check that a daemon answers (over
# DoT and DoQ: testbed-tls.sh); the nftables counters and how they are
# read. Sourced by testbed.sh; building, lifecycle and status are each
# backend's own.

# ---------------------------------------------------------------- settings

. "$RB_TOP/scripts/lib/settings.sh"
. "$RB_TOP/scripts/lib/testbed-defences.sh"
. "$RB_TOP/scripts/lib/testbed-tls.sh"

# Every setting `up` takes (environment, or a profile and KEY=VALUE
# arguments): those of the testbed's settings table marked "up", with their
# defaults and help (scripts/testbed.settings.json).
TB_SETTINGS_TABLE="$RB_TOP/scripts/testbed.settings.json"
# tb_settings_names: sets TB_SETTINGS to their names, once (read when a
# command needs them, not by every call of the testbed's command line).
TB_SETTINGS=""
tb_settings_names() {
    [ -n "$TB_SETTINGS" ] || TB_SETTINGS=$(jq -r '[.settings[] | select(.up) | .name] | join(" ")' "$TB_SETTINGS_TABLE")
}

# tb_apply_profile FILE|"" KEY=VALUE...: the settings of an experiment's
# profile: the file's KEY=VALUE lines, then the arguments, on top of the
# defaults. Testbed variables in the environment are ignored, so a setting
# one experiment exported cannot leak into the next.
tb_apply_profile() {
    local file=$1 line key val v; shift
    tb_settings_names
    for v in $TB_SETTINGS; do unset "$v"; done
    local lines=()
    if [ -n "$file" ]; then
        [ -r "$file" ] || die "profile $file: not readable"
        while IFS= read -r line || [ -n "$line" ]; do
            line=${line%%#*}
            line=${line#"${line%%[![:space:]]*}"}; line=${line%"${line##*[![:space:]]}"}
            [ -n "$line" ] && lines+=("$line")
        done < "$file"
    fi
    for line in "${lines[@]+"${lines[@]}"}" "$@"; do
        [[ $line == *=* ]] || die "profile setting '$line' is not KEY=VALUE"
        key=${line%%=*}; val=${line#*=}
        [[ " $TB_SETTINGS " == *" $key "* ]] || die "unknown testbed setting '$key' (${TB_SETTINGS// /, })"
        # An empty value means the default.
        if [ -n "$val" ]; then printf -v "$key" '%s' "$val"; else unset "$key"; fi
    done
    TB_PROFILE=${file:-}
}

# tb_defaults: the settings `up` uses when the environment says nothing:
# the table's defaults, and those it says are computed.
tb_defaults() {
    local ncpu; ncpu=$(nproc)
    settings_fill_defaults "$TB_SETTINGS_TABLE" .up
    if [ "$ncpu" -ge 2 ]; then : "${SERVER_CPUS:=1}"; else : "${SERVER_CPUS:=0}"; fi
    ZONES=${ZONES-}
    [ "$SERVER_CPU_PERIOD_US" != auto ] || SERVER_CPU_PERIOD_US=$(tb_cpu_default_period_us)
    srv_check_kind "$SERVER"
    release_select "$SERVER_RELEASE"
    # Each server's own backlog unless one is asked for (NSD 256, Knot's
    # compiled-in 10, BIND's tcp-listen-queue set to NSD's 256).
    : "${SERVER_BACKLOG:=$(srv "$SERVER" default_backlog)}"
    # Debian's NSD listens with a fixed backlog of 256; any other backlog
    # needs the rebuilt NSD (docs/servers.md), which NSD_BUILD=rebuilt also
    # runs at 256, as the control that separates version from backlog.
    if [ -z "${NSD_BUILD:-}" ]; then
        if [ "$SERVER" != nsd ] || [ "$SERVER_BACKLOG" = 256 ]; then NSD_BUILD=debian; else NSD_BUILD=rebuilt; fi
    fi
}

# tb_validate_config: refuse settings that cannot work, before touching
# anything: each against its entry of the settings table (type, values,
# range), then what depends on the machine or on another setting.
tb_validate_config() {
    settings_check_all "$TB_SETTINGS_TABLE" .up
    local set cpu ncpu; ncpu=$(nproc)
    for set in "$SERVER_CPUS" "$CLIENT_CPUS"; do
        for cpu in ${set//[-,]/ }; do
            [ "$cpu" -lt "$ncpu" ] || die "CPU $cpu in '$set' does not exist (this machine has $ncpu)"
        done
    done
    tb_check_cpu_budget
    [ "$SERVER_TLS" = no ] || srv "$SERVER" tls_check
    [ "$SERVER_QUIC" = no ] || srv "$SERVER" quic_check
    [ -z "${SERVER_CONF:-}" ] \
        || die "SERVER_CONF is a lab's setting (the operator's own configuration on its server hosts: BACKEND=lab, docs/real-lab.md); the namespace testbed renders its own"
    tb_check_own_build
    tb_check_server_build
    [ "$SERVER_XDP" = no ] || tb_xdp_check
    srv "$SERVER" backlog_check "$SERVER_BACKLOG"
    tb_defences_check
    local prog; prog=$(srv "$SERVER" program)
    [ -x "$prog" ] || die "missing $prog (SERVER=$SERVER, Debian package $(srv "$SERVER" packages)): run make deps"
    TB_ZONEDIR=$(tb_zone_dir)
}

# tb_check_own_build: SERVER_PREFIX, a build of SERVER on this machine
# (make compare-builds gives one per side, docs/compare-builds.md): an
# absolute prefix holding the daemon where make install puts it, run
# instead of the release's package, never beside another NSD build.
tb_check_own_build() {
    [ -n "${SERVER_PREFIX:-}" ] || return 0
    [[ $SERVER_PREFIX == /* ]] || die "SERVER_PREFIX=$SERVER_PREFIX: an absolute path (the prefix your build was installed into, holding sbin/$(basename "$(srv "$SERVER" program)"))"
    [ "$SERVER" != nsd ] || [ "$NSD_BUILD" = debian ] \
        || die "NSD_BUILD=$NSD_BUILD and SERVER_PREFIX=$SERVER_PREFIX: one NSD build at a time (SERVER_PREFIX runs yours)"
    local prog; prog=$(srv "$SERVER" program)
    [ -x "$prog" ] || die "SERVER_PREFIX=$SERVER_PREFIX: no daemon $prog (SERVER=$SERVER: the prefix your build was installed into)"
}

# tb_check_server_build: which NSD build goes with which release (both
# backends): the rebuilt NSD (for its backlog) beside Debian 12's packages,
# the recvmmsg build (NSD 4.12 with one option changed) beside the current
# release's, whose packaged NSD is its control; a prepared release whole.
tb_check_server_build() {
    [ "$SERVER" = nsd ] || [ "$NSD_BUILD" = debian ] || die "NSD_BUILD=$NSD_BUILD applies to SERVER=nsd only (SERVER=$SERVER)"
    [ "$NSD_BUILD" != rebuilt ] || [ "$SERVER_RELEASE" = "$RELEASE_HOST" ] \
        || die "NSD_BUILD=$NSD_BUILD (NSD $NSD_UPSTREAM_VERSION rebuilt for its listen backlog) is a build of its own: SERVER_RELEASE=$SERVER_RELEASE runs its release's packaged NSD (NSD_BUILD=debian, backlog 256)"
    # The recvmmsg build is the current release's NSD with one option changed:
    # beside Debian 12's 4.6.1 it would change the version as well.
    [ "$NSD_BUILD" != recvmmsg ] || [ "$SERVER_RELEASE" = current ] \
        || die "NSD_BUILD=recvmmsg is NSD $NSD_UPSTREAM_VERSION, the current release's NSD built with --enable-recvmmsg: use it with SERVER_RELEASE=current (its packaged NSD, NSD_BUILD=debian, is the control), not SERVER_RELEASE=$SERVER_RELEASE"
    release_check_prepared "$SERVER_RELEASE"
}

# tb_zone_dir: the directory of zone files the servers serve. ZONE_DIR
# names one directly; ZONES=<variant> picks zones/build/<variant>; with
# neither, the unsigned build if there is one, else the minimal zone.
tb_zone_dir() {
    local d
    if [ -n "${ZONE_DIR:-}" ]; then
        d=$ZONE_DIR
    elif [ -n "$ZONES" ]; then
        d="$RB_TOP/zones/build/$ZONES"
        [ -d "$d" ] || die "unknown zone variant '$ZONES': $d does not exist (run make zones or make zones-all)"
    elif [ -f "$RB_TOP/zones/build/unsigned/root.zone" ]; then
        d="$RB_TOP/zones/build/unsigned"
    else
        d="$RB_TOP/zones/minimal"
    fi
    [ -f "$d/root.zone" ] || die "no root.zone in $d"
    (cd "$d" && pwd)
}

tb_save_config() {
    tb_settings_names
    mkdir -p "$TB_STATE"
    {
        printf 'RB_PREFIX=%q\n' "$RB_PREFIX"
        printf 'TB_PROFILE=%q\n' "${TB_PROFILE:-}"
        local v
        for v in $TB_SETTINGS TB_ZONEDIR; do
            printf '%s=%q\n' "$v" "${!v:-}"
        done
    } > "$TB_CONFIG.tmp"
    mv "$TB_CONFIG.tmp" "$TB_CONFIG"
}

# tb_load_config: the settings of the running testbed (for status/exec).
tb_load_config() {
    [ -f "$TB_CONFIG" ] || die "testbed '$RB_PREFIX' is not up (scripts/testbed up)"
    # shellcheck disable=SC1090
    . "$TB_CONFIG"
    # (a testbed brought up before SERVER_RELEASE existed ran Debian 12's)
    : "${SERVER_RELEASE:=$RELEASE_HOST}"
    release_select "$SERVER_RELEASE"
}

# ---------------------------------------------------------------- daemons and counters

# tb_counters_table HOOK COUNTER... -- RULE...: table inet rootbench with
# those named counters and one filter chain on HOOK holding the rules; a
# RULE "hook NAME" begins another chain, on hook NAME, for the rules after it.
tb_counters_table() {
    local hook=$1 r; shift
    echo 'table inet rootbench {'
    while [ "$1" != -- ]; do echo "    counter $1 { }"; shift; done
    shift
    echo "    chain $hook {"
    echo "        type filter hook $hook priority filter; policy accept;"
    for r in "$@"; do
        if [[ $r == "hook "* ]]; then
            hook=${r#hook }
            printf '    }\n    chain %s {\n        type filter hook %s priority filter; policy accept;\n' "$hook" "$hook"
            continue
        fi
        echo "        $r"
    done
    echo '    }'
    echo '}'
}

# tb_counters_ruleset listener|server|server-lab|router|sink: the counters'
# nftables table (the lab backend installs the listener's, server-lab on
# its servers and, when it has a sink host, the sink's).
tb_counters_ruleset() {
    case $1 in
    listener) tb_counters_table input dns_answers -- \
        "ip saddr $SERVICE4 udp sport 53 counter name dns_answers" \
        "ip6 saddr $SERVICE6 udp sport 53 counter name dns_answers" ;;
    # (the discard port, 9, is a silent sink for link-capacity blasts)
    # server-lab, a lab's servers: the server's counters, and what a lab
    # has no router to count (scripts/lib/counters.jq gives them the
    # router's names): the first SYNs to port 53 (not the probe's) and the
    # queries in the Listener's name (a trace replayed from a player) that
    # reach the server, and the UDP answers it sends out of its NIC (not
    # up's own dig over lo) to anyone but the Listener and the probe. The
    # RSSAC047 probe's queries and connections (from its address and its
    # block) are counted apart, in probe_udp_in and probe_tcp_syns (and in
    # dns_udp_in, dns_tcp_in; probe-sweep.jq, probe_servers_count); a lab
    # without a probe host has none. Not on the namespace testbed's
    # servers, whose router counts all of these (no rule more per packet
    # on the CPU measured there).
    server|server-lab)
        local rules=("ip daddr $SERVICE4 udp dport 53 counter name dns_udp_in"
                     "ip6 daddr $SERVICE6 udp dport 53 counter name dns_udp_in"
                     "ip daddr $SERVICE4 tcp dport 53 counter name dns_tcp_in"
                     "ip6 daddr $SERVICE6 tcp dport 53 counter name dns_tcp_in"
                     "udp dport 9 counter name sink drop")
        if [ "$1" = server ]; then tb_counters_table input dns_udp_in dns_tcp_in sink -- "${rules[@]}"; return; fi
        local l4 l6 o4 o6 p4="" p6="" pr=() pc=() syn="tcp dport 53 tcp flags & (syn | ack) == syn"
        l4=$(role_addr4 listener); l6=$(role_addr6 listener)
        if p4=$(role_addr4 probe 2>/dev/null) && p6=$(role_addr6 probe 2>/dev/null); then
            p4="$p4$(probe_block4 2>/dev/null | sed 's/^/, /' || true)"; p6="$p6$(probe_block6 2>/dev/null | sed 's/^/, /' || true)"
            pc=(probe_udp_in probe_tcp_syns)
            pr=("ip saddr { $p4 } udp dport 53 counter name probe_udp_in" "ip6 saddr { $p6 } udp dport 53 counter name probe_udp_in"
                "ip saddr { $p4 } $syn counter name probe_tcp_syns" "ip6 saddr { $p6 } $syn counter name probe_tcp_syns")
            o4="{ $l4, $p4 }"; o6="{ $l6, $p6 }"
        else
            # (a lab without a probe host: the Listener alone)
            o4="{ $l4 }"; o6="{ $l6 }"
        fi
        tb_counters_table input dns_udp_in dns_tcp_in "${pc[@]+"${pc[@]}"}" sink dns_tcp_syns trace_udp_queries dns_udp_answers -- \
        "${pr[@]+"${pr[@]}"}" "${rules[@]}" \
        "ip saddr != $o4 $syn counter name dns_tcp_syns" \
        "ip6 saddr != $o6 $syn counter name dns_tcp_syns" \
        "ip saddr $l4 udp dport 53 counter name trace_udp_queries" \
        "ip6 saddr $l6 udp dport 53 counter name trace_udp_queries" \
        "hook output" \
        "oifname != \"lo\" ip daddr != $o4 udp sport 53 counter name dns_udp_answers" \
        "oifname != \"lo\" ip6 daddr != $o6 udp sport 53 counter name dns_udp_answers" ;;
    # The queries the router forwards to the service address, and the TCP
    # connections it forwards to any server (their first SYN; the TCP
    # sweep targets the servers' unicast addresses): what a generator that
    # bypasses the player's stack (kxdpgun, AF_XDP) sent, counted where it
    # passes (the namespace testbed's router only). The RSSAC047 probe's
    # own queries and connections are counted apart (probe_udp_queries,
    # probe_tcp_syns), never as the load's; so are those of the attack
    # experiment's collateral client (collateral_udp_queries, from inside
    # the victims' prefix). trace_udp_queries: the queries sent in the
    # Listener's name (a trace replayed from a player, whose answers the
    # Listener counts), counted apart too (and in dns_udp_queries).
    # dns_udp_answers: the UDP answers (from port 53) it forwards toward
    # the client VLAN, those to the probe, the collateral client and the
    # Listener (which counts its own) left out. DNS over QUIC (UDP 853):
    # dns_quic_datagrams, every datagram toward a server; dns_quic_initials,
    # those led by a long-header Initial packet (first byte 1100xxxx, not
    # header-protected): a client sends one to three per connection (its
    # first flight, its Initial ACK beside its Handshake), so they bound
    # the connections begun from above, never count them.
    router)
        local p4 p6 x4 x6 a4 a6 c4="" c6="" syn="tcp dport 53 tcp flags & (syn | ack) == syn" ini="udp dport 853 @th,64,8 & 0xf0 == 0xc0"
        # the probe's address and its source block, the collateral block (none on a lab)
        p4="$(role_addr4 probe)$(probe_block4 2>/dev/null | sed 's/^/, /')"
        p6="$(role_addr6 probe)$(probe_block6 2>/dev/null | sed 's/^/, /')"
        c4=$(collateral_block4 2>/dev/null) || c4=""
        c6=$(collateral_block6 2>/dev/null) || c6=""
        x4="{ $p4${c4:+, $c4} }"; x6="{ $p6${c6:+, $c6} }"
        a4="{ $p4${c4:+, $c4}, $(role_addr4 listener) }"; a6="{ $p6${c6:+, $c6}, $(role_addr6 listener) }"
        p4="{ $p4 }"; p6="{ $p6 }"
        tb_counters_table forward dns_udp_queries dns_tcp_syns probe_udp_queries probe_tcp_syns dns_udp_answers \
            trace_udp_queries collateral_udp_queries dns_quic_datagrams dns_quic_initials -- \
        "ip saddr != $x4 ip daddr $SERVICE4 udp dport 53 counter name dns_udp_queries" \
        "ip6 saddr != $x6 ip6 daddr $SERVICE6 udp dport 53 counter name dns_udp_queries" \
        "ip saddr $(role_addr4 listener) ip daddr $SERVICE4 udp dport 53 counter name trace_udp_queries" \
        "ip6 saddr $(role_addr6 listener) ip6 daddr $SERVICE6 udp dport 53 counter name trace_udp_queries" \
        ${c4:+"ip saddr $c4 udp dport 53 counter name collateral_udp_queries"} \
        ${c6:+"ip6 saddr $c6 udp dport 53 counter name collateral_udp_queries"} \
        "oifname ethc ip daddr != $a4 udp sport 53 counter name dns_udp_answers" \
        "oifname ethc ip6 daddr != $a6 udp sport 53 counter name dns_udp_answers" \
        "ip saddr != $x4 $syn counter name dns_tcp_syns" \
        "ip6 saddr != $x6 $syn counter name dns_tcp_syns" \
        "ip saddr != $x4 udp dport 853 counter name dns_quic_datagrams" \
        "ip6 saddr != $x6 udp dport 853 counter name dns_quic_datagrams" \
        "ip saddr != $x4 $ini counter name dns_quic_initials" \
        "ip6 saddr != $x6 $ini counter name dns_quic_initials" \
        "ip saddr $p4 udp dport 53 counter name probe_udp_queries" \
        "ip6 saddr $p6 udp dport 53 counter name probe_udp_queries" \
        "ip saddr $p4 $syn counter name probe_tcp_syns" \
        "ip6 saddr $p6 $syn counter name probe_tcp_syns" ;;
    # What reaches the sink's victim block, dropped there (nothing goes
    # back, not even an ICMP error or a TCP reset): the servers' UDP and
    # TCP answers to the spoofed sources, and anything else.
    sink)
        local v4 v6; v4=$(victim_block4); v6=$(victim_block6)
        tb_counters_table input reflected_udp reflected_tcp victim_other -- \
        "ip daddr $v4 udp sport 53 counter name reflected_udp drop" \
        "ip6 daddr $v6 udp sport 53 counter name reflected_udp drop" \
        "ip daddr $v4 tcp sport 53 counter name reflected_tcp drop" \
        "ip6 daddr $v6 tcp sport 53 counter name reflected_tcp drop" \
        "ip daddr $v4 counter name victim_other drop" \
        "ip6 daddr $v6 counter name victim_other drop" ;;
    *) die "tb_counters_ruleset: no counters for role '$1'" ;;
    esac
}

# tb_counters_collect RUNNER [ROLE...]: the counters object, each role's
# ruleset read with `RUNNER ROLE CMD...` (nsx here; the lab backend reads
# them over SSH): the Listener's, the servers' and those of the ROLEs. One
# JSON text, not yet compact (the callers' own jq adds the router's
# sources: scripts/lib/counters.jq).
tb_counters_collect() {
    local runner=$1 role first=1
    shift
    {
    printf '{'
    for role in listener "${SERVER_ROLES[@]}" "$@"; do
        [ "$first" = 1 ] || printf ','
        first=0
        printf '"%s":' "$role"
        "$runner" "$role" nft -j list counters table inet rootbench \
            | jq -c '[.nftables[] | select(.counter) | .counter | {(.name): {packets, bytes}}] | add'
    done
    printf '}\n'
    }
}

# tb_check_edns_size: SERVER_EDNS_SIZE is the largest UDP answer the
# servers send (NSD ipv4/ipv6-edns-size, Knot udp-max-payload, BIND
# max-udp-size; each defaults to 1232), 512 to 4096 bytes.
tb_check_edns_size() { settings_check "$TB_SETTINGS_TABLE" SERVER_EDNS_SIZE; }

# tb_render_server_conf ROLE: the server's configuration, from its kind's
# template; the same settings for every kind (docs/servers.md).
tb_render_server_conf() {
    local role=$1 dir="$TB_STATE/$1" zones="" f name reuse=no tls_listen="" tls_block= xdp=
    [ "$SERVER_WORKERS" -gt 1 ] && reuse=yes
    for f in "$TB_ZONEDIR"/*.zone; do
        name=${f##*/}; name=${name%.zone}
        [ "$name" = root ] && name=.
        zones+=$(srv "$SERVER" zone_stanza "$name" "${f##*/}")$'\n'
    done
    local yn=$reuse; [ "$SERVER" = knot ] && { [ "$reuse" = yes ] && yn=on || yn=off; }
    if [ "$SERVER_TLS" = yes ]; then
        tls_listen=$(srv "$SERVER" tls_listen "$role" "$TB_TLS_DIR" "$TB_TLS_PORT")
        tls_block=$(srv "$SERVER" tls_block "$role" "$TB_TLS_DIR" "$TB_TLS_PORT")
    fi
    # DNS over QUIC (Knot 3.4 only: quic_check refused the others), on
    # the same port and certificate as DoT; its key lines once
    [ "${SERVER_QUIC:-no}" = no ] \
        || tls_listen+="${tls_listen:+$'\n'}$(srv "$SERVER" quic_listen "$role" "$TB_TLS_DIR" "$TB_TLS_PORT" "$SERVER_TLS")"
    [ "${SERVER_XDP:-no}" = no ] || xdp=$(srv "$SERVER" xdp_block "$(backend_call iface "$role")")
    sed -e "s|@ROLE@|$role|g" -e "s|@SERVICE4@|$SERVICE4|g" -e "s|@SERVICE6@|$SERVICE6|g" \
        -e "s|@ADDR4@|$(role_addr4 "$role")|g" -e "s|@ADDR6@|$(role_addr6 "$role")|g" \
        -e "s|@WORKERS@|$SERVER_WORKERS|g" -e "s|@REUSEPORT@|$yn|g" \
        -e "s|@TCP_CLIENTS@|$SERVER_TCP_CLIENTS|g" -e "s|@TCP_TIMEOUT@|$SERVER_TCP_TIMEOUT|g" \
        -e "s|@TCP_TIMEOUT_DS@|$((SERVER_TCP_TIMEOUT * 10))|g" -e "s|@BACKLOG@|$SERVER_BACKLOG|g" \
        -e "s|@MINIMAL@|$MINIMAL_RESPONSES|g" -e "s|@EDNS_SIZE@|$SERVER_EDNS_SIZE|g" \
        -e "s|@ZONEDIR@|$TB_ZONEDIR|g" -e "s|@STATEDIR@|$dir|g" \
        "$RB_TOP/scripts/templates/$(srv_template "$SERVER")" | awk -v z="$zones" -v tl="$tls_listen" -v tb="$tls_block" -v x="$xdp" '
            $0 == "@ZONES@" { printf "%s", z; next }
            $1 == "@TLS_LISTEN@" { if (tl != "") print tl; next }
            $1 == "@TLS_BLOCK@" { if (tb != "") print tb; next }
            $1 == "@XDP@" { if (x != "") print x; next }
            { print }' | tb_defences_fill "$SERVER"
    # A change of zone content, program or backlog restarts the server too.
    printf '# zone files: %s\n' "$(cd "$TB_ZONEDIR" && stat -c '%n:%s:%Y' ./*.zone | md5sum | cut -c1-16)"
    printf '# server: %s %s (%s), listen backlog %s\n' "$SERVER" "$(srv "$SERVER" version)" "$(tb_server_program)" "$SERVER_BACKLOG"
}

# An answer is a line of +short's output that does not start with ';': dig
# prints its errors on standard output too, and exits 0 after a failed TLS
# handshake or certificate check. The daemon must answer on its own
# address and on the service address (asked from its own namespace, so
# it is this daemon that answers): a daemon that bound only one of them
# (the other still held by its predecessor) is not serving.
tb_server_answers() {
    local a
    for a in "$(role_addr4 "$1")" "$SERVICE4"; do
        nsx "$1" dig +time=1 +tries=1 +short @"$a" . SOA 2>/dev/null | grep -q '^[^;]' || return 1
    done
}

# tb_roles_tsv: a line per role: role, IPv4, IPv6, client block v4, v6
# (the last two empty but for players); a role with no address (a lab
# without a probe host) is left out.
tb_roles_tsv() {
    local role
    for role in "${CLIENT_ROLES[@]}" "${SERVER_ROLES[@]}" router-c router-s; do
        role_addr4 "$role" >/dev/null 2>&1 || continue
        printf '%s\t%s\t%s\t%s\t%s\n' "$role" "$(role_addr4 "$role")" "$(role_addr6 "$role")" \
            "$(player_block4 "$role" 2>/dev/null || true)" "$(player_block6 "$role" 2>/dev/null || true)"
    done
}

# tb_xdp_check: SERVER_XDP=yes is Knot's (NSD 4.12 and BIND have no XDP
# path in the builds the testbed runs: docs/servers.md).
tb_xdp_check() {
    [ "$SERVER" = knot ] || die "SERVER_XDP=yes: only Knot DNS serves over XDP here (SERVER=$SERVER; NSD's packages are built without --enable-xdp, BIND has none)"
}

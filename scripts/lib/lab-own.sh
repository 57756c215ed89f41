# lab-own.sh: the operator's own DNS server on a lab (BACKEND=lab): their
# build on the server hosts (SERVER_PREFIX, an installation prefix holding
# the daemon and its tools) instead of a release's packages, and their own
# configuration (SERVER_CONF, a file of this machine) merged with what the
# suite renders (scripts/lib/server-conf.jq: a statement of theirs that sets
# what the suite sets, to another value, is refused naming both). Sourced
# by lab.sh.
#
#   lab_own_check          the settings' rules, before any host is touched
#   lab_own_merge ROLE FILE   FILE (the suite's rendered configuration)
#                          with SERVER_CONF merged in, or die naming the
#                          conflicts
#   lab_own_programs_check every program of SERVER_PREFIX the daemon's
#                          command lines name is on each server host
#   lab_own_conf_md5       the checksum of the SERVER_CONF the servers got

# lab_own_check: SERVER_PREFIX is one build of its own (no release, no NSD
# build beside it, the backlog it was built with for NSD and Knot, whose
# backlog is compiled in); SERVER_CONF a readable file, whose merge
# lab_render checks.
lab_own_check() {
    if [ -n "${SERVER_CONF:-}" ]; then
        [ -f "$SERVER_CONF" ] && [ -r "$SERVER_CONF" ] || die "SERVER_CONF=$SERVER_CONF: not a readable file (your $SERVER configuration, on this machine)"
        # (kept with the testbed's settings: the same file from any directory)
        SERVER_CONF=$(realpath "$SERVER_CONF")
    fi
    [ -n "${SERVER_PREFIX:-}" ] || return 0
    [[ $SERVER_PREFIX == /* ]] || die "SERVER_PREFIX=$SERVER_PREFIX: an absolute path on the server hosts (the prefix your build was installed into, e.g. /usr/local)"
    settings_check "$TB_SETTINGS_TABLE" SERVER_PREFIX
    [ -z "${LAB_RELEASE_GIVEN:-}" ] \
        || die "SERVER_RELEASE=$LAB_RELEASE_GIVEN and SERVER_PREFIX=$SERVER_PREFIX: a release's packages or your own build, not both"
    [ "$SERVER" != nsd ] || [ "$NSD_BUILD" = debian ] \
        || die "NSD_BUILD=$NSD_BUILD and SERVER_PREFIX=$SERVER_PREFIX: one NSD build at a time (SERVER_PREFIX runs yours; NSD_BUILD=rebuilt comes with another SERVER_BACKLOG than ${NSD_DEBIAN_BACKLOG})"
    case $SERVER in
        nsd|knot) [ "$SERVER_BACKLOG" = "$(srv "$SERVER" default_backlog)" ] \
            || die "SERVER_BACKLOG=$SERVER_BACKLOG with SERVER_PREFIX=$SERVER_PREFIX: your $SERVER listens with the backlog it was built with, which the suite does not set (leave SERVER_BACKLOG unset; status --json: server.listen_backlog_measured)" ;;
    esac
}

# lab_own_merge ROLE FILE: SERVER_CONF merged into FILE, the suite's
# configuration of ROLE's server (as the host will have it), in place.
lab_own_merge() {
    [ -n "${SERVER_CONF:-}" ] || return 0
    local out tname
    tname=scripts/templates/$(srv_template "$SERVER")
    out=$(jq -n -c -L "$RB_TOP/scripts/lib" --arg kind "$SERVER" --rawfile suite "$2" --rawfile tpl "$RB_TOP/$tname" \
        --arg tname "$tname" --rawfile theirs "$SERVER_CONF" --arg name "SERVER_CONF=$SERVER_CONF" \
        'include "server-conf"; conf_merge($kind; $suite; $tpl; $tname; $theirs; $name)' 2>&1) \
        || die "$(sed -n 's/^jq: error (at [^)]*): //p' <<<"$out" | head -n1)"
    jq -e '.conflicts == []' <<<"$out" >/dev/null \
        || die "$SERVER_CONF conflicts with what the suite needs on $1: $(jq -r '.conflicts | join("; ")' <<<"$out")"
    jq -j .text <<<"$out" > "$2.tmp" && mv "$2.tmp" "$2"
    # (changed configuration of theirs: a new server.conf, which restarts the daemon)
    printf '# SERVER_CONF %s: %s statements added\n' "$(md5sum < "$SERVER_CONF" | cut -c1-16)" "$(jq -r .added <<<"$out")" >> "$2"
}

# lab_own_programs_check: the programs under SERVER_PREFIX that the
# daemon's command lines (server.env, rendered) name are executable on
# every server host; dies naming the first one missing.
lab_own_programs_check() {
    [ -n "${SERVER_PREFIX:-}" ] || return 0
    local role progs
    for role in "${SERVER_ROLES[@]}"; do
        progs=$(grep -o "$SERVER_PREFIX/[A-Za-z0-9._/+-]*" "$TB_STATE/render/$role/server.env" | sort -u | tr '\n' ' ')
        [ -n "$progs" ] || die "SERVER_PREFIX=$SERVER_PREFIX: the daemon's command lines name no program under it"
        lab_ssh "$role" "for p in $progs; do [ -x \$p ] || { echo \$p; exit 1; }; done" >/dev/null \
            || die "SERVER_PREFIX=$SERVER_PREFIX: $role has no $(lab_ssh "$role" "for p in $progs; do [ -x \$p ] || { echo \$p; break; }; done" 2>/dev/null) ($SERVER needs $progs)"
    done
}

# lab_own_sum ROLE: the checksum of ROLE's own daemon (SERVER_PREFIX), so
# that a new build of theirs restarts it.
lab_own_sum() { lab_ssh "$1" "md5sum < $(printf %q "$(srv "$SERVER" program)") | cut -c1-16" 2>/dev/null || echo unknown; }

# lab_own_conf_md5: the checksum of the SERVER_CONF merged into the
# servers' configuration at the last up (its line in server1's rendering),
# nothing without one.
lab_own_conf_md5() { sed -n 's/^# SERVER_CONF \([0-9a-f]*\):.*/\1/p' "$TB_STATE/render/server1/server.conf" 2>/dev/null | head -n1; }

# server-release.sh: which release of the servers' programs the testbed
# runs (SERVER_RELEASE; scripts/servers/releases.json, docs/servers.md):
# debian12, the host's own Debian 12 packages, or a release of Debian
# packages of another suite, prepared by scripts/servers/prepare-release
# into a cache entry outside the clone. Source after common.sh; it defines
# functions and changes no state.
#
# A prepared entry (RB_CACHE_DIR/release-<name>-<versions>-<key>/):
#   root/           the packages' files (dpkg-deb -x), documentation left out
#   ld/PROG         a link to root's own dynamic loader, named as the
#                   program, so the process is named PROG (ps, /proc/PID/comm)
#   bin/PROG        runs root's PROG through ld/PROG with root's libraries
#                   (the suite's glibc is newer than the host's)
#   release.json    the release: packages and their .deb SHA-256, each
#                   program's version and build options, when and how long
#   LINKS           every symbolic link above and its target
#   MANIFEST        SHA-256 of every file above; MANIFEST.sha256 its own

. "$RB_TOP/scripts/lib/build-cache.sh"
RELEASES_JSON=$RB_TOP/scripts/servers/releases.json
RELEASE_HOST=debian12

# release_names: the releases, as "debian12, current".
release_names() { jq -r '.releases | keys_unsorted | join(", ")' "$RELEASES_JSON"; }

# release_check_name NAME: NAME is a release of the table.
release_check_name() {
    jq -e --arg n "${1:-}" '.releases | has($n)' "$RELEASES_JSON" >/dev/null \
        || die "unknown SERVER_RELEASE '${1:-}' (known: $(release_names))"
}

# release_field NAME FILTER: a field of the release's entry (jq -r).
release_field() { jq -r --arg n "$1" ".releases[\$n] | $2" "$RELEASES_JSON"; }

# release_is_prepared NAME: the release's programs come from a prepared
# entry (it lists packages), not from the host.
release_is_prepared() { [ "$(release_field "$1" '.packages | length')" -gt 0 ]; }

# release_entry NAME: the directory of the release's cache entry, keyed by
# what makes it: the release's table entry and the script that prepares it.
release_entry() {
    local key tag
    key=$(cat <(jq -c --arg n "$1" '.releases[$n]' "$RELEASES_JSON") "$RB_TOP/scripts/servers/prepare-release" \
        | sha256sum | cut -c1-16)
    tag=$(release_field "$1" '.versions | to_entries | map(.key + .value) | join("-")')
    echo "$(cache_root)/release-$1-$tag-$key"
}

# release_verify ENTRY: why ENTRY cannot be used, on stdout (nothing when
# it can): MANIFEST must have the checksum of MANIFEST.sha256, each file it
# lists its own checksum, and no file may be there that it does not list.
release_verify() {
    local entry=$1 bad listed
    [ -d "$entry" ] || { echo "no entry $entry"; return 0; }
    [ -s "$entry/MANIFEST" ] && [ -s "$entry/MANIFEST.sha256" ] || { echo "no MANIFEST"; return 0; }
    [ "$(sha256sum < "$entry/MANIFEST" | cut -d' ' -f1)" = "$(cat "$entry/MANIFEST.sha256")" ] \
        || { echo "MANIFEST does not have the checksum of MANIFEST.sha256"; return 0; }
    bad=$(cd "$entry" && sha256sum -c --quiet --strict MANIFEST 2>&1 | head -n 3) || true
    listed=$(cd "$entry" && diff <(cut -c67- MANIFEST) <(release_entry_files) | head -n 3) || true
    [ -z "$listed" ] || bad+="${bad:+; }files not as MANIFEST lists them: $listed"
    listed=$(cd "$entry" && diff LINKS <(release_entry_links) 2>&1 | head -n 3) || true
    [ -z "$listed" ] || bad+="${bad:+; }links not as LINKS lists them: $listed"
    [ -z "$bad" ] || echo "${bad//$'\n'/; }"
}

# release_entry_files, release_entry_links: the entry's files (in the
# current directory) that MANIFEST covers by content, and its symbolic
# links as "PATH -> TARGET" (LINKS, one of those files), sorted.
release_entry_files() { find root bin release.json LINKS -type f -print | LC_ALL=C sort; }
release_entry_links() { find root bin ld -type l -printf '%p -> %l\n' | LC_ALL=C sort; }

# release_select NAME: the release whose programs release_program gives
# (SERVER_RELEASE_DIR: its cache entry, empty for the host's own), chosen
# once where the settings are read, so that each program's path costs
# nothing more.
release_select() {
    SERVER_RELEASE_DIR=
    # (the host's own without a jq: every testbed command selects one)
    if [ "$1" != "$RELEASE_HOST" ]; then
        release_check_name "$1"
        if release_is_prepared "$1"; then SERVER_RELEASE_DIR=$(release_entry "$1"); fi
    fi
    RELEASE_SELECTED=$1
}

# release_check_prepared NAME: a prepared release's entry is there and
# whole (every file against MANIFEST): a corrupted or missing entry is
# refused, never run.
release_check_prepared() {
    local entry why
    release_is_prepared "$1" || return 0
    entry=$(release_entry "$1")
    [ -d "$entry" ] || die "SERVER_RELEASE=$1 is not prepared (no $entry): run make servers-$1"
    why=$(release_verify "$entry")
    [ -z "$why" ] || die "SERVER_RELEASE=$1: its cache entry $entry is corrupted ($why): run make servers-$1, which prepares it again"
}

# release_program PROG HOSTPATH: the program PROG of SERVER_RELEASE
# (default debian12): HOSTPATH for the host's own, else the entry's bin/PROG;
# with SERVER_PREFIX (a lab's own build, scripts/lib/lab-own.sh) the
# prefix's, where make install puts it as Debian's package does under /usr
# (HOSTPATH /usr/sbin/nsd: PREFIX/sbin/nsd).
release_program() {
    if [ -n "${SERVER_PREFIX:-}" ]; then echo "$SERVER_PREFIX/${2#/usr/}"; return 0; fi
    [ "${RELEASE_SELECTED:-}" = "${SERVER_RELEASE:-$RELEASE_HOST}" ] || release_select "${SERVER_RELEASE:-$RELEASE_HOST}"
    if [ -z "$SERVER_RELEASE_DIR" ]; then echo "$2"; else echo "$SERVER_RELEASE_DIR/bin/$1"; fi
}

# release_source NAME KIND PROGRAM: where the running program comes from:
# the package (suite and version) or, for NSD_BUILD=rebuilt or recvmmsg,
# the build.
release_source() {
    local name=$1 kind=$2 prog=$3 pkg
    if [ -n "${SERVER_PREFIX:-}" ]; then echo "own build in $SERVER_PREFIX"; return 0; fi
    if [ -r "$(dirname -- "$prog")/build-info.json" ] && [ "$(basename -- "$prog")" = nsd ]; then
        jq -r '"build of \(.debian_source) with \(.patch // "--enable-recvmmsg")"' "$(dirname -- "$prog")/build-info.json"
        return 0
    fi
    pkg=$(srv "$kind" packages | cut -d' ' -f1)
    if release_is_prepared "$name"; then
        echo "$(release_field "$name" .source) $pkg $(jq -r --arg p "$pkg" '.packages[$p].version' "$(dirname -- "$(dirname -- "$prog")")/release.json")"
    else
        echo "$(release_field "$name" .source) $pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)"
    fi
}

# release_status_json NAME KIND PROGRAM NETNS PIDFILE: status --json's
# .server.release: {name, version, source, build_options, running}. The
# version and build options are what PROGRAM says when run in NETNS (the
# server's namespace); running is the program file the daemon of PIDFILE
# has mapped (/proc/PID/maps), null when none runs.
release_status_json() {
    local name=$1 kind=$2 prog=$3 ns=$4 pidfile=$5 out pid running=""
    out=$(ip netns exec "$ns" "$prog" $(srv "$kind" build_flag) 2>&1) || true
    pid=$(cat "$pidfile" 2>/dev/null) || pid=""
    if [[ $pid =~ ^[0-9]+$ ]]; then
        running=$(awk -v p="/$(basename -- "$prog")" 'substr($6, length($6) - length(p) + 1) == p { print $6; exit }' "/proc/$pid/maps" 2>/dev/null) || running=""
    fi
    jq -n -c --arg n "$name" --arg v "$(sed -n "$(srv_var "$kind" version_sed)" <<<"$out" | head -n1)" \
        --arg src "$(release_source "$name" "$kind" "$prog")" --arg b "$(sed -n "$(srv_var "$kind" build_sed)" <<<"$out" | head -n1)" \
        --arg r "$running" \
        '{name: $n, version: $v, source: $src, build_options: (if $b == "" then null else $b end),
          running: (if $r == "" then null else $r end)}'
}

# zone-cache.sh: the zone builds kept outside the clone, as the C build is
# through ccache (scripts/lib/build-cache.sh, the same place: RB_CACHE_DIR,
# default /var/cache/rootbench, here its zones/ folder), so that a second
# clone (CI's fresh one) copies what the first one generated and signed
# instead of doing it again:
#   keys/STEM/SLOT/     a key slot (its key's .key and .private files, and
#                       "base", the key's file name): generated test keys,
#                       which every clone of this machine then signs with;
#   window-DAYS/        the signature validity window (validity.env) of
#                       DAYS days;
#   variants/HASH/      a built variant directory, named by its inputs_hash
#                       (zones/build-zones: everything its bytes depend on).
# Every entry holds SHA256SUMS of its files, written when it is stored and
# checked on the copy taken from it: a corrupted entry is removed, said so,
# and the thing it held made again (and stored anew), never used. An entry
# is stored whole or not at all (a scratch directory renamed into place);
# a cache that cannot be written is only a warning. ZONES_CACHE=0 neither
# reads nor writes it; nor does ROLL=1 (new keys are the clone's own).
# Source after scripts/lib/common.sh and scripts/lib/build-cache.sh.

# zcache_is_used: whether this build reads and writes the cache.
zcache_is_used() { [ "${ZONES_CACHE:-1}" = 1 ] && [ "${ROLL:-0}" != 1 ]; }

# zcache_setting_check: ZONES_CACHE is 0 or 1.
zcache_setting_check() {
    [[ ${ZONES_CACHE:-1} =~ ^[01]$ ]] || die "ZONES_CACHE=$ZONES_CACHE must be 1 (use the zone cache) or 0 (neither read nor write it)"
}

zcache_dir() { echo "$(cache_root)/zones"; }

# zcache_entry_fetch ENTRY DEST: copies the cache entry ENTRY (a path
# under zcache_dir) into the new directory DEST and checks the copy against
# the entry's SHA256SUMS; returns 1 when there is no such entry or it is
# corrupted (then removed, with a warning; DEST is then removed too).
zcache_entry_fetch() {
    local entry=$1 dest=$2 err
    zcache_is_used && [ -d "$entry" ] || return 1
    mkdir -p "$dest"
    if cp -a "$entry/." "$dest/" 2>/dev/null && [ -s "$dest/SHA256SUMS" ] \
        && err=$(cd "$dest" && sha256sum --strict --quiet -c SHA256SUMS 2>&1); then
        rm -f "$dest/SHA256SUMS"
        touch "$entry" 2>/dev/null || true
        return 0
    fi
    err=${err:-no checksums}
    warn "zone cache entry $entry is corrupted (${err%%$'\n'*}): removed; making it again"
    rm -rf "$entry" "$dest"
    return 1
}

# zcache_entry_store SRC ENTRY: a copy of the directory SRC at ENTRY with
# the SHA256SUMS of its files; an entry already there is left (another
# build stored the same thing first) unless REPLACE=1.
zcache_entry_store() {
    local src=$1 entry=$2 parent tmp=""
    zcache_is_used || return 0
    parent=$(dirname "$entry")
    if mkdir -p "$parent" 2>/dev/null && tmp=$(mktemp -d "$parent/.store.XXXXXX") \
        && cp -a "$src/." "$tmp/" \
        && (cd "$tmp" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -r -d '\n' sha256sum -- > SHA256SUMS); then
        [ "${REPLACE:-0}" != 1 ] || rm -rf "$entry"
        mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
    else
        warn "could not keep $src in the zone cache $entry"
        [ -z "$tmp" ] || rm -rf "$tmp"
    fi
}

# zcache_key_fetch STEM SLOTNAME DIR: the cached key of slot SLOTNAME
# (role-alg-bits) of zone STEM into the key directory DIR (the key files
# and the slot file naming them); returns 1 when the cache has none.
zcache_key_fetch() {
    local stem=$1 slot=$2 dir=$3 tmp base
    tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
    if zcache_entry_fetch "$(zcache_dir)/keys/$stem/$slot" "$tmp/k" && base=$(cat "$tmp/k/base") \
        && [ -f "$tmp/k/$base.key" ] && [ -f "$tmp/k/$base.private" ]; then
        mv "$tmp/k/$base.key" "$tmp/k/$base.private" "$dir/"
        printf '%s\n' "$base" > "$dir/$slot.tmp" && mv "$dir/$slot.tmp" "$dir/$slot"
        rm -rf "$tmp"
        return 0
    fi
    rm -rf "$tmp"
    return 1
}

# zcache_key_store STEM SLOTNAME DIR BASE: the new key BASE of the slot into
# the cache (when it has none for that slot).
zcache_key_store() {
    local stem=$1 slot=$2 dir=$3 base=$4 tmp
    zcache_is_used || return 0
    tmp=$(mktemp -d "$dir/.store.XXXXXX")
    cp "$dir/$base.key" "$dir/$base.private" "$tmp/" && printf '%s\n' "$base" > "$tmp/base" \
        && zcache_entry_store "$tmp" "$(zcache_dir)/keys/$stem/$slot"
    rm -rf "$tmp"
}

# zcache_window_fetch FILE DAYS: the cached validity window of DAYS days
# into FILE, when it has more than 7 days left; returns 1 otherwise.
zcache_window_fetch() {
    local f=$1 days=$2 tmp inc exp
    tmp=$(mktemp -d "$(dirname "$f")/.fetch.XXXXXX")
    zcache_entry_fetch "$(zcache_dir)/window-$days" "$tmp/w" || { rm -rf "$tmp"; return 1; }
    inc=$(sed -n 's/^INCEPTION=\([0-9]\+\)$/\1/p' "$tmp/w/validity.env")
    exp=$(sed -n 's/^EXPIRATION=\([0-9]\+\)$/\1/p' "$tmp/w/validity.env")
    if [ -n "$inc" ] && [ -n "$exp" ] && [ "$exp" -eq $((inc + days * 86400)) ] && [ "$exp" -gt $(($(date +%s) + 7 * 86400)) ]; then
        mv "$tmp/w/validity.env" "$f"
        rm -rf "$tmp"
        return 0
    fi
    rm -rf "$tmp"
    return 1
}

# zcache_window_store FILE DAYS: a new validity window replaces the cached one.
zcache_window_store() {
    local f=$1 days=$2 tmp
    zcache_is_used || return 0
    tmp=$(mktemp -d "$(dirname "$f")/.store.XXXXXX")
    cp "$f" "$tmp/validity.env" && REPLACE=1 zcache_entry_store "$tmp" "$(zcache_dir)/window-$days"
    rm -rf "$tmp"
}

# zcache_variant_fetch HASH DIR: the cached build of the variant whose
# inputs hash to HASH into the new directory DIR; returns 1 when the cache
# has none (or a corrupted one).
zcache_variant_fetch() { zcache_entry_fetch "$(zcache_dir)/variants/$1" "$2"; }

# zcache_variant_store HASH DIR: the built variant DIR into the cache;
# variants no build has taken for 30 days are removed meanwhile (each
# change of the inputs -- a script, a key, the window -- makes new ones).
zcache_variant_store() {
    local d
    d="$(zcache_dir)/variants"
    zcache_entry_store "$2" "$d/$1"
    zcache_is_used || return 0
    find "$d" -mindepth 1 -maxdepth 1 -type d -mtime +30 -exec rm -rf {} + 2>/dev/null || true
}

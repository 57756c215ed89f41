# build-cache.sh: a build kept in a cache outside the clone, so that a
# second clone (CI's fresh one) copies it instead of compiling again:
# RB_CACHE_DIR (default /var/cache/rootbench), one directory per build,
# named by the caller from what makes the build (source, patch, script,
# flags). Source after common.sh.

# cache_scratch_traps: a build's scratch directory ($work, set later) is
# removed at exit; Ctrl-C says so.
cache_scratch_traps() {
    work=
    trap 'if [ -n "$work" ]; then rm -rf "$work"; fi' EXIT
    trap 'log "interrupted"; exit 130' INT TERM
}

# cache_root: where the builds are kept.
cache_root() { echo "${RB_CACHE_DIR:-/var/cache/rootbench}"; }

# cache_store BUILT DIR: a copy of the directory BUILT at DIR, whole or not
# at all (a cache that cannot be written is only a warning).
cache_store() {
    local built=$1 dir=$2 tmp=""
    mkdir -p "$(dirname "$dir")" 2>/dev/null && tmp=$(mktemp -d "$(dirname "$dir")/.store.XXXXXX") \
        && cp -a "$built/." "$tmp/" && { rm -rf "$dir"; mv "$tmp" "$dir"; } \
        || { warn "could not keep the build in the cache $dir"; [ -z "$tmp" ] || rm -rf "$tmp"; }
}

# cache_put_in_place BUILT OUT SCRATCH: BUILT becomes OUT in two renames
# (the old OUT goes to SCRATCH/old), so no half-built OUT is ever visible.
cache_put_in_place() {
    if [ -e "$2" ]; then rm -rf "$3/old"; mv "$2" "$3/old"; fi
    mv "$1" "$2"
}

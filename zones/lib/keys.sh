# keys.sh: the signing keys and the signature validity window of
# zones/build-zones, kept in $KEYS (zones/build/keys) and reused by every
# build until ROLL=1; a slot or window this clone lacks is taken from the
# zone cache (zones/lib/zone-cache.sh) when it has one, else made and
# stored there. Source after zone-cache.sh; the caller sets KEYS.

# validity_window: INCEPTION and EXPIRATION (epoch s) from keys/validity.env,
# made on the first build or ROLL=1 (or taken from the cache), renewed when
# fewer than 7 days remain.
validity_window() {
    local f=$KEYS/validity.env now days=${VALIDITY_DAYS:-365}
    [[ $days =~ ^[1-9][0-9]*$ ]] || die "VALIDITY_DAYS=$days must be a positive integer"
    now=$(date +%s)
    mkdir -p "$KEYS"
    [ -f "$f" ] || ! zcache_window_fetch "$f" "$days" || log "signature validity window from the zone cache"
    if [ -f "$f" ]; then
        # shellcheck disable=SC1090
        . "$f"
        [[ ${INCEPTION:-} =~ ^[0-9]+$ && ${EXPIRATION:-} =~ ^[0-9]+$ ]] || die "$f is damaged: remove it or ROLL=1"
        [ "$EXPIRATION" -gt $((now + 7 * 86400)) ] && return 0
        warn "signature validity window in $f ends within 7 days: starting a new one"
    fi
    INCEPTION=$(( (now - 3600) / 3600 * 3600 ))
    EXPIRATION=$(( INCEPTION + days * 86400 ))
    printf 'INCEPTION=%s\nEXPIRATION=%s\n' "$INCEPTION" "$EXPIRATION" > "$f.tmp"
    mv "$f.tmp" "$f"
    zcache_window_store "$f" "$days"
}

# key_for STEM ROLE ALG BITS: sets KEY_BASE, the base path of the zone's
# key for this slot, taken from the cache or generated when the slot is
# new; a slot whose key files are gone stops the build (a silent new key
# would change every signature).
key_for() {
    local stem=$1 role=$2 alg=$3 bits=$4 dir=$KEYS/$1 name slot base args=()
    name="$role-${alg,,}-$bits"
    slot="$dir/$name"
    mkdir -p "$dir"
    [ -f "$slot" ] || ! zcache_key_fetch "$stem" "$name" "$dir" \
        || log "$role for $(origin_of "$stem") from the zone cache: $alg $bits ($(cat "$slot"))"
    if [ -f "$slot" ]; then
        base=$(cat "$slot")
        [ -f "$dir/$base.private" ] && [ -f "$dir/$base.key" ] \
            || die "missing key $dir/$base.{key,private} ($role $alg $bits of $(origin_of "$stem")): restore it, or ROLL=1 for new keys"
        KEY_BASE=$dir/$base
        return 0
    fi
    args=(-a "$alg")
    [[ $alg == RSA* ]] && args+=(-b "$bits")
    [[ $role == ksk* ]] && args+=(-k)
    base=$(cd "$dir" && ldns-keygen "${args[@]}" "$(origin_of "$stem")") && [ -f "$dir/$base.private" ] \
        || die "ldns-keygen failed for $slot"
    rm -f "$dir/$base.ds"
    printf '%s\n' "$base" > "$slot.tmp" && mv "$slot.tmp" "$slot"
    log "new $role for $(origin_of "$stem"): $alg $bits ($base)"
    zcache_key_store "$stem" "$name" "$dir" "$base"
    KEY_BASE=$dir/$base
}

# variant_keys: per zone the key bases of the current variant's key plan
# (V_KEYS): SIGNERS[stem] those ldns-signzone signs with, PUBLISHED[stem]
# every key whose DNSKEY the zone holds (signers and keys only published,
# as a pre-published ZSK or an incoming algorithm's keys).
declare -A SIGNERS PUBLISHED
variant_keys() {
    local stem entry slot alg bits use
    for stem in "${ZONE_STEMS[@]}"; do
        SIGNERS[$stem]="" PUBLISHED[$stem]=""
        for entry in $V_KEYS; do
            IFS=: read -r slot alg bits use <<<"$entry"
            key_for "$stem" "$slot" "$alg" "$bits"
            PUBLISHED[$stem]+="$KEY_BASE "
            [ "$use" != sign ] || SIGNERS[$stem]+="$KEY_BASE "
        done
    done
}

# signing_keys STEM / published_keys STEM: one key base a line.
signing_keys() { printf '%s\n' ${SIGNERS[$1]}; }
published_keys() { printf '%s\n' ${PUBLISHED[$1]}; }

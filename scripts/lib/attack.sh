# attack.sh: the attack floods (docs/attack.md, "The floods"): one bounded
# kxdpgun flood from a player's namespace at the service address, counted
# where it passes, recorded as OUTDIR/flood.json (schema
# rootbench.attack-flood/1, built by scripts/attack/flood.py).
#
#   attack_flood KIND RATE SECONDS OUTDIR [PLAYER [FAMILY]]
#       KIND one of attack_kinds; RATE packets a second (queries, or SYNs:
#       one a connection), SECONDS 1-600, RATE x SECONDS at most 1e8;
#       PLAYER player1 (default) or player2; FAMILY 4 or 6 (default
#       $FAMILY, else 4). Everything is checked, and the target guard has
#       passed the service address and the sources, before OUTDIR is made;
#       a refusal is an error (exit 1). In OUTDIR: flood.json, the raw
#       snapshots it came from (flood-raw.json), kxdpgun's output
#       (kxdpgun.out), its query file (queries.kxg) and the testbed sampler's
#       summary over the flood (sample.json, docs/sampler.md).
#       Interrupted (SIGINT, SIGTERM), kxdpgun stops (it runs in our process
#       group), the sampler too, and no flood.json is left: the record is
#       written to a temporary file and moved into place only once complete.
#       Runs in a subshell (its traps are its own); needs the testbed up:
#       the namespace testbed (its router's and sink's counters), or a lab
#       with a sink host and its switch ports (attack_lab_check).
#   attack_lab_check              (BACKEND=lab) what the floods need of a lab:
#                                 die naming what the inventory lacks
#   attack_kinds                  the kinds, one a line
#   attack_bounds_check RATE SECONDS   whether a flood may send that long at
#                                 that rate (return 1, the reason in ATTACK_REFUSAL)
#   attack_sources KIND PLAYER FAMILY   the prefix a kind's flood sends from
#
# The kinds (kxdpgun's query file; kxg_run's mode; sources):
#   random-subdomain   "<random label>. A" with DO, a fresh file of random
#                      labels per flood (at most FLOOD_LABELS_MAX, sent
#                      round and round); udp-recv; the player's block
#   reflection-dnskey  ". DNSKEY" with DO; udp; the victim block (spoofed:
#                      the answers go to the sink)
#   reflection-any     ". ANY" with DO; udp; the victim block
#   syn-flood          SYNs only (kxdpgun --tcp=1); the victim block (the
#                      SYN-ACKs go to the sink)
#   conn-hold          handshakes, then nothing sent (--tcp=2: the server
#                      may close); the player's block
#
# Source after common.sh, topology.sh, target.sh, kxdpgun.sh and
# experiment.sh (it sources switch-octets.sh); TESTBED is scripts/testbed.

. "$RB_TOP/scripts/lib/switch-octets.sh"

FLOOD_KINDS="random-subdomain reflection-dnskey reflection-any syn-flood conn-hold"
# The bounds of one flood: its length, and what it may send in all.
FLOOD_MAX_S=600
FLOOD_MAX_PACKETS=100000000
# Random labels a random-subdomain flood's query file holds (kxdpgun goes
# round them): each flood's own, its file no larger than about 200 KB.
FLOOD_LABELS_MAX=10000

attack_kinds() { printf '%s\n' $FLOOD_KINDS; }

attack_sources() {
    local kind=$1 player=$2 fam=$3
    case $kind in
        random-subdomain|conn-hold) "player_block$fam" "$player" ;;
        reflection-*|syn-flood)
            "victim_block$fam" 2>/dev/null || die "attack: $kind floods need the sink's victim block (on a lab: host sink in group sinks, rb_victim_block$fam; BACKEND=${BACKEND:-netns})" ;;
        *) die "attack: unknown kind '$kind' (kinds: $FLOOD_KINDS)" ;;
    esac
}

# attack_mode KIND: kxg_run's mode for the kind.
attack_mode() {
    case $1 in
        random-subdomain) echo udp-recv ;; reflection-*) echo udp ;;
        syn-flood) echo tcp:1 ;; conn-hold) echo tcp:2 ;;
    esac
}

# attack_bounds_check RATE SECONDS: whether a flood may send RATE packets
# a second for SECONDS; if not, returns 1 with the reason in ATTACK_REFUSAL.
attack_bounds_check() {
    local rate=$1 secs=$2
    ATTACK_REFUSAL=
    if ! [[ $rate =~ ^[1-9][0-9]{0,8}$ ]]; then
        ATTACK_REFUSAL="rate '$rate' is not a whole number of packets a second from 1 to $FLOOD_MAX_PACKETS"
    elif ! [[ $secs =~ ^[1-9][0-9]{0,3}$ ]] || [ "$secs" -gt "$FLOOD_MAX_S" ]; then
        ATTACK_REFUSAL="duration '$secs' is not a whole number of seconds from 1 to $FLOOD_MAX_S"
    elif [ $((rate * secs)) -gt "$FLOOD_MAX_PACKETS" ]; then
        ATTACK_REFUSAL="$rate packets/s for $secs s is $((rate * secs)) packets, more than a flood may send ($FLOOD_MAX_PACKETS)"
    fi
    [ -z "$ATTACK_REFUSAL" ]
}

# attack_check_args KIND RATE SECONDS PLAYER FAMILY: die unless each is
# one the floods take.
attack_check_args() {
    local kind=$1 rate=$2 secs=$3 player=$4 fam=$5
    [[ " $FLOOD_KINDS " == *" $kind "* ]] || die "attack: unknown kind '$kind' (kinds: $FLOOD_KINDS)"
    attack_bounds_check "$rate" "$secs" || die "attack: $ATTACK_REFUSAL"
    case $player in player1|player2) ;; *) die "attack: player '$player' (player1 or player2)" ;; esac
    case $fam in 4|6) ;; *) die "attack: family '$fam' (4 or 6)" ;; esac
    attack_lab_check
}

# attack_lab_check: on a lab, a sink host with its victim blocks (the
# spoofed sources of the reflection and SYN floods, which the lab routes
# to it: what reaches them is counted there), and the switch ports of the
# players and the sink (rb_switch_ifindex: the queries sent, the
# attacker's and the victims' octets, counted at the switch:
# scripts/lib/counters.jq); else a refusal naming what is missing, before
# anything is sent. The lab's own balancing is used (its rb_lb).
attack_lab_check() {
    [ "${BACKEND:-netns}" = lab ] || return 0
    local missing=() r
    lab_role_host sink >/dev/null \
        || missing+=("a sink host (host sink in group sinks, its rb_victim_block4 and rb_victim_block6 inside rb_allow_ranges and routed by the lab to it)")
    for r in player1 player2 sink; do
        lab_is_host "$r" || continue
        [ "$(lab_host "$r" switch_ifindex)" != null ] || missing+=("the switch port of $r (rb_switch_ifindex: its ifIndex on the switch)")
    done
    [ "${#missing[@]}" -eq 0 ] || die "attack: the floods on a lab need what its inventory $INVENTORY does not give: $(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
}

# attack_queries KIND COUNT OUT: kxdpgun's query file for the kind (D: EDNS
# with DO), COUNT random labels for random-subdomain.
attack_queries() {
    case $1 in
        random-subdomain)
            # 16 hex digits a label, from the kernel's random source
            od -An -v -tx4 -N $(($2 * 8)) /dev/urandom \
                | awk '{ for (i = 1; i < NF; i += 2) printf "%s%s. A D\n", $i, $(i + 1) }' > "$3" ;;
        reflection-dnskey) echo '. DNSKEY D' > "$3" ;;
        reflection-any) echo '. ANY D' > "$3" ;;
        # (the TCP modes send no query; kxdpgun still reads a file)
        *) echo '. SOA' > "$3" ;;
    esac
    [ -s "$3" ] || die "attack: cannot write kxdpgun's query file $3"
}

# attack_snapshot DIR NAME PLAYER: the testbed's counters, the daemons' own
# counts and the octets of PLAYER's switch port (in and out) and the
# sink's (out), read in parallel into DIR/NAME-{counters,stats,octets}.json.
attack_snapshot() {
    local d=$1 n=$2 player=$3 pc ps po oct
    "$TESTBED" counters > "$d/$n-counters.json" & pc=$!
    "$TESTBED" server-stats > "$d/$n-stats.json" & ps=$!
    "$TESTBED" snmp-octets out "$(switch_port "$player")" > "$d/$n-player-out" 2>&1 & po=$!
    oct=$(snmp_ports_octets "$d/$n-snmp" "$(switch_port "$player")" "$(switch_port sink)") || exit 1
    wait "$pc" || die "attack: reading the testbed's counters failed (scripts/testbed counters)"
    wait "$ps" || die "attack: reading the servers' own counters failed (scripts/testbed server-stats)"
    wait "$po" && [[ $(cat "$d/$n-player-out") =~ ^[0-9]+$ ]] \
        || die "attack: SNMP reading failed: ifHCOutOctets of switch port $player: $(tr '\n' ' ' < "$d/$n-player-out")"
    jq -n -c --argjson i "${oct% *}" --argjson o "${oct#* }" --argjson po "$(cat "$d/$n-player-out")" \
        '{attacker_in: $i, attacker_out: $po, sink_out: $o}' > "$d/$n-octets.json" \
        || die "attack: cannot write $d/$n-octets.json"
}

attack_flood() {
    local kind=${1:-} rate=${2:-} secs=${3:-} outdir=${4:-} player=${5:-player1} fam=${6:-${FAMILY:-4}}
    [ $# -ge 4 ] && [ $# -le 6 ] || die "usage: attack_flood KIND RATE SECONDS OUTDIR [PLAYER [FAMILY]]"
    [ -n "$outdir" ] || die "attack: no output directory"
    # Every step's failure is stopped explicitly: a caller's `attack_flood
    # ... || rc=$?` turns errexit off in here, whatever we set.
    (
        attack_check_args "$kind" "$rate" "$secs" "$player" "$fam"
        local sources target mode tmp labels
        sources=$(attack_sources "$kind" "$player" "$fam") || exit 1
        if [ "$fam" = 6 ]; then target=$SERVICE6; else target=$SERVICE4; fi
        # Before anything exists or is sent: where it goes and whence.
        target_guard "$target" "$sources"
        need_tools kxdpgun
        "$TESTBED" processes > /dev/null || die "attack: the testbed '$RB_PREFIX' is not up"
        mode=$(attack_mode "$kind")
        mkdir -p "$outdir" && rm -f "$outdir/flood.json" "$outdir/flood-raw.json" \
            && tmp=$(mktemp -d "$outdir/.flood-tmp.XXXXXX") || die "attack: cannot write in $outdir"
        SAMPLER_PID=
        # On any end: the sampler and the XDP program gone, the scratch
        # removed; an interrupt ends the flood here, with no record.
        trap 'exp_sampler_end; kxg_detach "$player"; rm -rf "$tmp"' EXIT
        trap 'log "attack: $kind flood interrupted: no flood.json"; exit 130' INT
        trap 'log "attack: $kind flood terminated: no flood.json"; exit 143' TERM
        labels=$((rate * secs)); [ "$labels" -le "$FLOOD_LABELS_MAX" ] || labels=$FLOOD_LABELS_MAX
        attack_queries "$kind" "$labels" "$outdir/queries.kxg"
        attack_snapshot "$tmp" before "$player"
        # (the servers' TCP MIB and accept queues, with every other layer's;
        # no stall probes: the floods read no stall, and they cost the rig CPU)
        exp_sampler_start "$tmp" --stall-ms 0
        kxg_run "$player" "$target" "$sources" "$rate" "$secs" "$outdir/queries.kxg" "$outdir/kxdpgun.out" "$mode"
        [ "$KXG_RC" = 0 ] || die "attack: kxdpgun failed (exit $KXG_RC): $(tail -n 3 "$outdir/kxdpgun.out" | tr '\n' ' ')"
        # (no wait for answers in flight: kxdpgun itself waits a second
        # after its last packet before it exits)
        exp_sampler_stop "$tmp"
        attack_snapshot "$tmp" after "$player"
        cp "$tmp/sample.json" "$outdir/sample.json" || die "attack: cannot write in $outdir"
        attack_raw_json "$tmp" "$kind" "$rate" "$secs" "$player" "$fam" "$mode" "$target" "$sources" \
            "$outdir/kxdpgun.out" > "$tmp/flood-raw.json" || die "attack: the flood's raw record could not be written"
        /usr/bin/python3 -I -S "$RB_TOP/scripts/attack/flood.py" "$tmp/flood-raw.json" > "$tmp/flood.json" \
            || die "attack: the flood's record could not be built from its raw record"
        mv "$tmp/flood-raw.json" "$outdir/flood-raw.json" && mv "$tmp/flood.json" "$outdir/flood.json" \
            || die "attack: cannot write in $outdir"
        # (kxg_run detached the XDP program; the sampler has stopped)
        trap 'rm -rf "$tmp"' EXIT
    )
}

# attack_raw_json DIR KIND RATE SECONDS PLAYER FAMILY MODE TARGET SOURCES KXGOUT:
# the raw object (schema rootbench.attack-flood-raw/1) of the snapshots in
# DIR, the sampler's run and kxdpgun's own summary (KXG_ARGS of the run).
attack_raw_json() {
    local d=$1 syns est rep clo
    read -r syns est rep clo < <(kxg_tcp_counts "${10}"; echo) || true
    jq -n -c --arg kind "$2" --argjson rate "$3" --argjson secs "$4" --arg player "$5" --argjson fam "$6" \
        --arg mode "$7" --arg target "$8" --arg sources "$9" --arg version "$(kxg_version)" \
        --argjson args "$(printf '%s\n' "${KXG_ARGS[@]}" | jq -R . | jq -s -c .)" \
        --slurpfile cb "$d/before-counters.json" --slurpfile ca "$d/after-counters.json" \
        --slurpfile sb "$d/before-stats.json" --slurpfile sa "$d/after-stats.json" \
        --slurpfile ob "$d/before-octets.json" --slurpfile oa "$d/after-octets.json" \
        --slurpfile sample "$d/sample.json" \
        --argjson estab "$(jq -s -c --arg roles "${SERVER_ROLES[*]}" \
            '[.[] | . as $l | [$roles | split(" ")[] | $l.ns[.].TcpCurrEstab // 0] | add]' "$d/series.jsonl")" \
        --arg ksent "${KXG_SENT:-}" --arg krecv "${KXG_RECEIVED:-}" \
        --arg syns "${syns:-}" --arg est "${est:-}" --arg rep "${rep:-}" --arg clo "${clo:-}" \
        'def num: if . == "" then null else tonumber end;
         {schema: "rootbench.attack-flood-raw/1", kind: $kind, family: $fam, player: $player,
          requested_rate: $rate, seconds: $secs, target: $target, sources: $sources,
          generator: {name: "kxdpgun", version: $version, mode: $mode, args: $args},
          counters: {before: $cb[0], after: $ca[0]},
          server_stats: {before: $sb[0], after: $sa[0]},
          octets: {before: $ob[0], after: $oa[0]},
          sample: {deltas: ($sample[0].deltas | with_entries(select(.key as $k | $sa[0] | has($k)))),
                   listen_peak: ($sample[0].listen_peak | with_entries(select(.key as $k | $sa[0] | has($k)))),
                   estab_changes: $estab,
                   samples: $sample[0].samples},
          kxdpgun: {sent: ($ksent | num), received: ($krecv | num),
                    tcp: (if $syns == "" then null
                          else {syns: ($syns | num), established: ($est | num), replies: ($rep | num), closed: ($clo | num)} end)}}'
}

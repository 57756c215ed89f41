# lab-snmp.sh: how the lab's devices (the switch, and the router when the
# inventory gives it an agent) are read over SNMP: one function, lab_snmp,
# runs every net-snmp command of the lab backend with the access the
# inventory gives the device (v2c and its community, or v3 authPriv), so
# that no reader builds options of its own; the passphrases read where the
# inventory says (a file, or an inventory variable through Ansible) and
# never written anywhere; net-snmp's errors said in the inventory's words.
# Sourced by lab.sh.

# Passphrases read in this process, by DEVICE.auth and DEVICE.priv (memory
# only: never in LAB_JSON, lab.env, the state or a command line).
declare -gA LAB_SNMP_SECRET=()

# lab_snmp DEVICE [--probe] TOOL [OPTION...] -- [OID...]: the net-snmp TOOL
# (snmpget, snmpbulkwalk, ...) against DEVICE's agent, its OPTIONs (-t, -r,
# -O...) before the agent's address and the OIDs after it; no MIBs
# (numeric OIDs). The access reaches net-snmp as its configuration
# (defVersion, defCommunity, defSecurityName, defAuthPassphrase, ...), in a
# file without a name: created, opened on descriptor 9, unlinked, then
# written, and read by TOOL through /proc/self/fd/9 (net-snmp reads its
# snmp.conf twice, which a pipe would not allow). So a passphrase is on no
# command line (the process list) and under no name on disk.
# --probe: SNMPv3 without authentication (the user alone): an agent that
# answers it with an error (net-snmp's: authorizationError) is running, so
# "is it up" needs no passphrase (v2c: the community, as any read).
# Exit 0; 2 when the agent did not answer; 1 otherwise, net-snmp's error
# then said on stderr in the inventory's words (lab_snmp_explain).
lab_snmp() {
    local dev=$1 probe=0 tool opts=() host conf dir err rc=0
    shift
    [ "${1:-}" != --probe ] || { probe=1; shift; }
    tool=$1; shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    host=$(jq -r --arg d "$dev" '.[$d].snmp_host // empty' <<<"$LAB_JSON")
    [ -n "$host" ] || { echo "snmp: the $dev has no SNMP agent in inventory $INVENTORY (rb_snmp_host)" >&2; return 1; }
    lab_snmp_conf "$dev" "$probe" || return 1
    conf=$LAB_SNMP_CONF; LAB_SNMP_CONF=""
    # (the directory holds the one link; net-snmp reads only SNMPCONFPATH's files)
    dir="${TB_STATE:-${TMPDIR:-/tmp}/rb-$RB_PREFIX}/snmp"
    [ -L "$dir/snmp.conf" ] || { mkdir -p "$dir" && ln -sfn /proc/self/fd/9 "$dir/snmp.conf"; } || return 1
    err=$(mktemp)
    (
        t=$(mktemp) && exec 9<>"$t" && rm -f "$t" || exit 1
        printf '%s\n' "$conf" >&9
        SNMPCONFPATH=$dir SNMP_PERSISTENT_DIR=$dir exec "$tool" -M /nonexistent -m "" "${opts[@]+"${opts[@]}"}" "$host" "$@"
    ) 2>"$err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        grep -q 'No Response' "$err" && rc=2 || rc=1
        lab_snmp_explain "$dev" "$host" < "$err" >&2
    fi
    rm -f "$err"
    return "$rc"
}

# lab_snmp_conf DEVICE PROBE: net-snmp's configuration lines for the
# device's access, into LAB_SNMP_CONF (a variable, not stdout: the
# passphrases read stay in this shell's LAB_SNMP_SECRET). Values quoted
# as net-snmp's parser reads them (copy_nword: within double quotes a
# backslash takes the next character as it is).
lab_snmp_conf() {
    local dev=$1 probe=$2 ver comm user ap pp
    IFS=$'\x1f' read -r ver comm user ap pp < <(jq -r --arg d "$dev" \
        '.[$d] | [.snmp.version, (.community // ""), (.snmp.user // ""), (.snmp.auth_proto // ""), (.snmp.priv_proto // "")] | join("\u001f")' <<<"$LAB_JSON")
    case $ver in
        2c) LAB_SNMP_CONF="defVersion 2c"$'\n'"defCommunity $(lab_snmp_quote "$comm")" ;;
        3)
            LAB_SNMP_CONF="defVersion 3"$'\n'"defSecurityName $(lab_snmp_quote "$user")"
            if [ "$probe" = 1 ]; then
                LAB_SNMP_CONF+=$'\n'"defSecurityLevel noAuthNoPriv"
                return 0
            fi
            lab_snmp_secret "$dev" auth && lab_snmp_secret "$dev" priv || return 1
            LAB_SNMP_CONF+=$'\n'"defSecurityLevel authPriv"$'\n'"defAuthType $ap"$'\n'"defPrivType $pp"
            LAB_SNMP_CONF+=$'\n'"defAuthPassphrase $(lab_snmp_quote "${LAB_SNMP_SECRET[$dev.auth]}")"
            LAB_SNMP_CONF+=$'\n'"defPrivPassphrase $(lab_snmp_quote "${LAB_SNMP_SECRET[$dev.priv]}")" ;;
        *) echo "snmp: the $dev has no SNMP access in the lab's description (inventory $INVENTORY)" >&2; return 1 ;;
    esac
}

lab_snmp_quote() { local v=${1//\\/\\\\}; printf '"%s"' "${v//\"/\\\"}"; }

# lab_snmp_secret DEVICE auth|priv: the device's passphrase into
# LAB_SNMP_SECRET[DEVICE.auth|priv], read once a process: from its file
# (the first line; refused when others may read it, as ssh refuses such a
# key), or from the inventory through Ansible (lab_snmp_secrets_ansible:
# it decrypts a vault string). At least 8 characters (the USM's minimum,
# RFC 3414). Non-zero, with the reason naming the setting, otherwise.
lab_snmp_secret() {
    local dev=$1 which=$2 from setting file mode v
    [ -z "${LAB_SNMP_SECRET[$dev.$which]+x}" ] || return 0
    IFS=$'\x1f' read -r from setting file < <(jq -r --arg d "$dev" --arg w "$which" \
        '.[$d].snmp["\($w)_pass"] | [.from, .setting, (.file // "")] | join("\u001f")' <<<"$LAB_JSON")
    case $from in
        file)
            [ -f "$file" ] && [ -r "$file" ] || { echo "snmp: the $dev's $setting $file (inventory $INVENTORY): no such readable file" >&2; return 1; }
            mode=$(stat -L -c %a "$file")
            [ $((8#$mode & 8#077)) -eq 0 ] || { echo "snmp: the $dev's $setting $file (inventory $INVENTORY) may be read by others (mode $mode): chmod 600 $file" >&2; return 1; }
            v=""; IFS= read -r v < "$file" || true
            LAB_SNMP_SECRET[$dev.$which]=$v ;;
        inventory|vault) lab_snmp_secrets_ansible "$dev" || return 1 ;;
        *) echo "snmp: the $dev's $which passphrase: not described (inventory $INVENTORY)" >&2; return 1 ;;
    esac
    [ "${#LAB_SNMP_SECRET[$dev.$which]}" -ge 8 ] || {
        unset "LAB_SNMP_SECRET[$dev.$which]"
        echo "snmp: the $dev's $setting (inventory $INVENTORY) is shorter than 8 characters, the least SNMPv3 (USM) allows" >&2; return 1; }
}

# lab_snmp_secrets_ansible DEVICE: the device's rb_snmp_auth_pass and
# rb_snmp_priv_pass as Ansible sees them (a vault string decrypted with the
# operator's vault password: ANSIBLE_VAULT_PASSWORD_FILE, or ansible.cfg),
# by its debug action, which runs here and contacts no host; Ansible's log
# (log_path) kept off for it. One Python start, about a second of CPU.
lab_snmp_secrets_ansible() {
    local dev=$1 raw out rc=0 which why
    command -v ansible >/dev/null || { echo "snmp: ansible not found (the $dev's passphrases are inventory variables): run make deps" >&2; return 1; }
    # shellcheck disable=SC2016
    raw=$(ANSIBLE_LOG_PATH=/dev/null ANSIBLE_NOCOLOR=1 ANSIBLE_LOAD_CALLBACK_PLUGINS=0 ANSIBLE_DEPRECATION_WARNINGS=0 \
          ansible -i "$INVENTORY" "$dev" -o -m debug \
          -a 'msg={{ {"auth": rb_snmp_auth_pass | default(""), "priv": rb_snmp_priv_pass | default("")} | to_json }}' \
          2>&1 </dev/null) || rc=$?
    out=$(printf '%s\n' "$raw" | sed -n "s/^$dev | SUCCESS => //p" | head -n 1)
    if [ "$rc" -ne 0 ] || [ -z "$out" ]; then
        why=$(printf '%s\n' "$raw" | grep -o 'ERROR!.*\|"msg": *"[^"]*' | head -n 1)
        echo "snmp: the $dev's passphrases (inventory $INVENTORY: rb_snmp_auth_pass, rb_snmp_priv_pass) cannot be read through Ansible: ${why:-exit $rc} (a vault string needs Ansible's vault password: ANSIBLE_VAULT_PASSWORD_FILE)" >&2
        return 1
    fi
    for which in auth priv; do
        [ "$(jq -r --arg d "$dev" --arg w "$which" '.[$d].snmp["\($w)_pass"].from' <<<"$LAB_JSON")" = file ] && continue
        LAB_SNMP_SECRET[$dev.$which]=$(printf '%s' "$out" | jq -r --arg w "$which" '.msg | fromjson | .[$w]')
    done
}

# lab_snmp_devices: the lab's devices read over SNMP, one line each, "NAME
# HOST": the switch, and the router when the inventory gives it an agent
# (router rb_snmp_host).
lab_snmp_devices() {
    jq -r '"switch \(.switch.snmp_host)", (.router | select((.snmp_host // "") != "") | "router \(.snmp_host)")' <<<"$LAB_JSON"
}

# lab_snmp_prepare [die]: every device's passphrases read into this shell
# (before the sampler's readings run in subshells of it). With die, the
# first that cannot be read stops the command (up: before any host is
# contacted); without, a reading that needs it fails and says why.
lab_snmp_prepare() {
    local name host err
    err=$(mktemp)
    while read -r name host; do
        lab_snmp_conf "$name" 0 2>"$err" && continue
        [ "${1:-}" != die ] || { local m; m=$(cat "$err"); rm -f "$err"; die "lab: ${m#snmp: }"; }
    done < <(lab_snmp_devices)
    rm -f "$err"
    LAB_SNMP_CONF=""
}

# lab_snmp_check: at up, every device's agent answers with the inventory's
# access (sysUpTime): a refusal (a wrong user, passphrase or protocol)
# stops up with the reason; an agent that does not answer is warned
# about (its ports will not be sampled: not_sampled). A v3 agent drops,
# without a word, a request it cannot decrypt: one that is silent to the
# inventory's access but answers the probe was given a wrong privacy
# passphrase or protocol.
lab_snmp_check() {
    local name host rc msg ps
    while read -r name host; do
        rc=0; msg=$(lab_snmp "$name" snmpget -t 2 -r 1 -Oqv -- 1.3.6.1.2.1.1.3.0 2>&1 >/dev/null) || rc=$?
        [ "$rc" -ne 2 ] || ! lab_snmp_alive "$name" || {
            ps=$(jq -r --arg d "$name" '.[$d].snmp.priv_pass.setting' <<<"$LAB_JSON")
            die "lab: the $name's agent $host (inventory $INVENTORY, host $name) answers without authentication but drops the inventory's encrypted requests: rb_snmp_priv_proto and $ps must be those of its user $(jq -r --arg d "$name" '.[$d].snmp.user' <<<"$LAB_JSON") (${msg##*(}"; }
        case $rc in
            0) ;;
            2) warn "lab: ${msg#snmp: }; its ports are not sampled until it answers" ;;
            *) die "lab: ${msg#snmp: }" ;;
        esac
    done < <(lab_snmp_devices)
}

# lab_snmp_alive DEVICE: the device's agent answers (lab_snmp --probe): for
# v3 an error it sends back to the unauthenticated request is its answer.
lab_snmp_alive() {
    local msg rc=0
    msg=$(lab_snmp "$1" --probe snmpget -t 1 -r 0 -Oqv -- 1.3.6.1.2.1.1.3.0 2>&1 >/dev/null) || rc=$?
    [ "$rc" -eq 0 ] && return 0
    [ "$rc" -eq 1 ] && [ "$(jq -r --arg d "$1" '.[$d].snmp.version' <<<"$LAB_JSON")" = 3 ] \
        && grep -qE 'Error in packet|authorizationError|Unsupported security level|Unknown user name' <<<"$msg"
}

# lab_snmp_explain DEVICE HOST: net-snmp's error (stdin) as one line that
# names the inventory settings to look at, net-snmp's own words after it.
lab_snmp_explain() {
    local dev=$1 host=$2 err ver user as ps why
    err=$(head -n 3 | tr '\n' ' '); err=${err% }
    IFS=$'\x1f' read -r ver user as ps < <(jq -r --arg d "$dev" \
        '.[$d] | [(.snmp.version // "?"), (.snmp.user // ""), (.snmp.auth_pass.setting // ""), (.snmp.priv_pass.setting // "")] | join("\u001f")' <<<"$LAB_JSON")
    case $err in
        *"Authentication failure"*) why="refused the authentication: rb_snmp_auth_proto and $as must be those of its user $user" ;;
        *"Unknown user name"*) why="has no user rb_snmp_user $user" ;;
        *"Decryption error"*) why="could not decrypt the request: rb_snmp_priv_proto and $ps must be those of its user $user" ;;
        *"Unsupported security level"*) why="does not let its user $user read with authPriv (rootbench reads with authentication and privacy)" ;;
        *"below the length requirements"*) why="cannot be read with a passphrase ($as, $ps) shorter than the 8 characters SNMPv3 allows" ;;
        *"No Response"*)
            if [ "$ver" = 3 ]; then why="gave no answer (rb_snmp_host: is the agent there, reachable from this machine? An agent also drops a request it cannot decrypt: rb_snmp_priv_proto, $ps)"
            else why="gave no answer (rb_snmp_host: is the agent there? A v2c agent also stays silent to a wrong rb_snmp_community)"; fi ;;
        *) why="could not be read" ;;
    esac
    printf '%s\n' "snmp: the $dev's agent $host (inventory $INVENTORY, host $dev) $why ($err)"
}

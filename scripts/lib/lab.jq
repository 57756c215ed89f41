# lab.jq -- the lab backend's JSON (scripts/lib/lab*.sh): the inventory
# read into the lab's description, the per-host sampler summaries merged
# into one, and the lab's status --json. Pure: the shell passes the facts.

include "testbed-status";

# snmp_access($inv; $dev; $v): how the device $dev's SNMP agent is read,
# from its host variables $v: {community, snmp}. SNMP v2c (the default,
# rb_snmp_version 2c) with rb_snmp_community (default public); or v3 with
# authPriv (rb_snmp_version 3): rb_snmp_user, rb_snmp_auth_proto and
# rb_snmp_priv_proto (net-snmp's names), and each passphrase from a file of
# this machine (rb_snmp_auth_pass_file, rb_snmp_priv_pass_file; relative to
# the inventory's directory) or an inventory variable (rb_snmp_auth_pass,
# rb_snmp_priv_pass: an Ansible vault string, or plain text). Only where a
# passphrase is read from is kept, never its value: this description is
# cached (lab.env) and recorded (status --json), and lab_snmp_secret reads
# the passphrases when net-snmp needs them. A setting of the other version
# is an error, not ignored.
def snmp_access($inv; $dev; $v):
  def bad($m): error("inventory \($inv): \($dev) \($m)");
  def given($k): $v | has($k);
  ["rb_snmp_user", "rb_snmp_auth_proto", "rb_snmp_auth_pass", "rb_snmp_auth_pass_file",
   "rb_snmp_priv_proto", "rb_snmp_priv_pass", "rb_snmp_priv_pass_file"] as $v3keys |
  def proto($k; $allowed):
    ($v[$k] // bad("has rb_snmp_version 3 but no \($k) (\($allowed | join(", ")), as the agent's user has it)"))
    | tostring | ascii_upcase
    | . as $x | if ($allowed | index([$x])) then . else bad("\($k) \(.): one of \($allowed | join(", "))") end;
  def pass($which):
    "rb_snmp_\($which)_pass" as $p | "\($p)_file" as $pf |
    if given($p) and given($pf) then bad("has both \($p) and \($pf): give one")
    elif given($pf) then
      {from: "file", setting: $pf,
       file: ($v[$pf] | tostring
              | if startswith("/") then . elif startswith("~/") then ($ENV.HOME // "") + .[1:]
                else ($inv | sub("/[^/]*$"; "")) + "/" + . end)}
    elif given($p) then
      {from: (($v[$p] | type) as $t
              | if $t == "object" and ($v[$p] | has("__ansible_vault")) then "vault"
                elif $t == "string" then "inventory"
                else bad("\($p) is not a string (an Ansible vault string, or plain text)") end),
       setting: $p}
    else bad("has rb_snmp_version 3 but no \($pf) or \($p) (the \($which) passphrase: a file of this machine, or an inventory variable, best an Ansible vault string)") end;
  ($v.rb_snmp_version // "2c" | tostring | ascii_downcase) as $ver |
  if $ver == "2c" then
    ($v3keys | map(select(given(.)))) as $extra |
    if ($extra | length) > 0 then bad("has \($extra | join(", ")), settings of SNMPv3, without rb_snmp_version 3") else . end |
    {community: ($v.rb_snmp_community // "public" | tostring), snmp: {version: "2c"}}
  elif $ver == "3" then
    if given("rb_snmp_community") then bad("has rb_snmp_community with rb_snmp_version 3 (SNMPv3 reads as rb_snmp_user with its passphrases)") else . end |
    {community: null,
     snmp: {version: "3", level: "authPriv",
            user: ($v.rb_snmp_user // bad("has rb_snmp_version 3 but no rb_snmp_user") | tostring),
            auth_proto: proto("rb_snmp_auth_proto"; ["MD5", "SHA", "SHA-224", "SHA-256", "SHA-384", "SHA-512"]),
            auth_pass: pass("auth"),
            priv_proto: proto("rb_snmp_priv_proto"; ["DES", "AES", "AES-192", "AES-256"]),
            priv_pass: pass("priv")}}
  else bad("rb_snmp_version \($ver): 2c or 3") end;

# inventory_normalise($inv; $sha): `ansible-inventory --list` (input) as
# the lab's description, or an error naming the first thing missing.
def inventory_normalise($inv; $sha):
  ._meta.hostvars as $hv |
  def hostsof($g): (.[$g].hosts // []);
  def need($h; $k): ($hv[$h][$k] // error("inventory \($inv): host \($h) has no \($k)"));
  def str: tostring;
  # The players: player1..playerN, N >= 1, in the players group (any
  # number: the load is split over them, scripts/lib/players.sh).
  (hostsof("players") | map(select(test("^player[1-9][0-9]*$") | not))) as $odd |
  if ($odd | length) > 0 then error("inventory \($inv): the players group holds \($odd | join(", ")): its hosts are named player1, player2, ... playerN") else . end |
  (hostsof("players") | map(ltrimstr("player") | tonumber) | sort) as $pn |
  ([range(1; ($pn | length) + 1)] - $pn | map("player\(.)")) as $gap |
  if ($gap | length) > 0 and ($pn | length) > 0 then error("inventory \($inv): the players group has \($pn | length) hosts but no \($gap | join(", ")) (players are numbered from player1 without gaps)") else . end |
  ($pn | map("player\(.)")) as $players |
  # (the probe's host, group probes, and the sink's, group sinks, are
  # optional: scripts/lib/lab.sh lab_role_host)
  ($players + hostsof("listeners") + hostsof("servers") + (hostsof("probes") | map(select(. == "probe")))
   + (hostsof("sinks") | map(select(. == "sink")))) as $managed |
  (. as $top | [("players", "listeners", "servers", "probes", "sinks") as $g | $top | hostsof($g)[] | {key: ., value: $g}]
   | reverse | from_entries) as $group |
  (["player1","listener","server1","server2"] - $managed) as $missing |
  if ($missing | length) > 0 then error("inventory \($inv): no host \($missing | join(", ")) (groups players: player1 .. playerN, listeners: listener, servers: server1 server2)") else . end |
  ($hv["router"] // error("inventory \($inv): no router (group devices, host router)")) as $r |
  ($hv["switch"] // error("inventory \($inv): no switch (group devices, host switch)")) as $s |
  ($hv["player1"]) as $any |
  # (a probe host's source block is optional: both families or neither)
  (if ($managed | index("probe")) and ((($hv.probe.rb_block4 // "") == "") != (($hv.probe.rb_block6 // "") == ""))
   then error("inventory \($inv): host probe has one of rb_block4 and rb_block6 but not the other (its source block: both families, or neither)") else . end) |
  {inventory: $inv, sha: $sha, players: $players,
   service4: ($any.rb_service4 // error("inventory \($inv): no rb_service4 (the service address)")),
   service6: ($any.rb_service6 // error("inventory \($inv): no rb_service6")),
   allow_ranges: ($any.rb_allow_ranges // error("inventory \($inv): no rb_allow_ranges (the address ranges the lab declares as its own)")
                  | if type == "array" then . else [.] end | map(str)),
   server: ($any.rb_server // "nsd"), zones: ($any.rb_zones // ""),
   router: ({lb: ($r.rb_lb // "l3"), addr4_client: need("router"; "rb_addr4_client"), addr6_client: need("router"; "rb_addr6_client"),
            addr4_server: need("router"; "rb_addr4_server"), addr6_server: need("router"; "rb_addr6_server"),
            mac_client: need("router"; "rb_mac_client"), model: ($r.rb_model // "not described"),
            snmp_host: ($r.rb_snmp_host // null)}
            + if $r.rb_snmp_host != null then snmp_access($inv; "router"; $r)
              elif ($r | keys | map(select(startswith("rb_snmp_"))) | length) > 0
              then error("inventory \($inv): router has \($r | keys | map(select(startswith("rb_snmp_"))) | join(", ")) but no rb_snmp_host (its agent's address)")
              else {community: null, snmp: null} end),
   switch: ({snmp_host: need("switch"; "rb_snmp_host"),
            router_port_ifindex: need("switch"; "rb_router_port_ifindex"), model: ($s.rb_model // "not described")}
            + snmp_access($inv; "switch"; $s)),
   hosts: ([$managed[] | . as $h | {key: $h, value: {
       host: ($hv[$h].ansible_host // $h), port: ($hv[$h].ansible_port // 22 | str),
       user: ($hv[$h].ansible_user // "root"), key: ($hv[$h].ansible_ssh_private_key_file // ""),
       ssh_args: ($hv[$h].ansible_ssh_common_args // ""),
       dir: ($hv[$h].rb_dir // "/opt/rootbench"), iface: need($h; "rb_iface"),
       addr4: need($h; "rb_addr4"), addr6: need($h; "rb_addr6"),
       gateway4: need($h; "rb_gateway4"), gateway6: need($h; "rb_gateway6"),
       cpus: (need($h; "rb_cpus") | str),
       group: $group[$h],
       # the host's port on the switch (IF-MIB ifIndex): what the lab
       # counts at the switch for it (scripts/lib/counters.jq)
       switch_ifindex: ($hv[$h].rb_switch_ifindex // null | if . == null then null else str end),
       # a player's source block; the sink's: the victim block it owns
       # (the reflection floods' spoofed sources, routed to it by the lab)
       block4: (if $h == "sink" then need($h; "rb_victim_block4") else $hv[$h].rb_block4 // "" end),
       block6: (if $h == "sink" then need($h; "rb_victim_block6") else $hv[$h].rb_block6 // "" end),
       cgroup: (($hv[$h].rb_cgroup_root // "/sys/fs/cgroup/rootbench-lab")
                | if test("^/sys/fs/cgroup/[A-Za-z0-9._/-]+$") then . else error("inventory \($inv): rb_cgroup_root \(.) is not a directory under /sys/fs/cgroup") end
                | . + "/" + $h)}}] | from_entries)};

# sample_merge($snmp; $roles): the hosts' sampler summaries (input, in the
# order of $roles) and the devices' SNMP summary as one summary of the
# netns sampler's shape, each host's CPUs named HOST/cpuN.
def sample_merge($snmp; $roles):
    . as $s | [range(0; length)] as $ix |
    def pre($r): with_entries(.key = "\($r)/\(.key)");
    def merge($k): reduce $ix[] as $i ({}; . + ($s[$i][$k] // {}));
    $s[0] + {
      backend: "lab", not_sampled: (["router", "switch"] - ($snmp.dev | keys)), snmp: $snmp.snmp,
      samples: ([$s[].samples] | min), duration_s: ([$s[].duration_s] | max),
      late_samples: ([$s[].late_samples] | add), interrupted: ([$s[].interrupted] | any),
      error: ([$s[].error | select(. != null)] | first // null),
      namespaces: merge("namespaces"), lost: merge("lost"), qdisc: merge("qdisc"),
      listen_peak: merge("listen_peak"), tw: merge("tw"), deltas: merge("deltas"),
      dev: (merge("dev") + $snmp.dev),
      cgroup: ((reduce $ix[] as $i ({}; . + ($s[$i].cgroup | del(.outside))))
               + {outside: ([$s[].cgroup.outside // 0] | add)}),
      cgroup_detail: merge("cgroup_detail"),
      cpu: (reduce $ix[] as $i ({}; . + ($s[$i].cpu | pre($roles[$i])))),
      cpu_all: null,
      stall_max: (reduce $ix[] as $i ({}; . + ($s[$i].stall_max // {} | pre($roles[$i])))),
      stalls: [$ix[] as $i | $s[$i].stalls[] | . + {host: $roles[$i]}],
      stalls_dropped: ([$s[].stalls_dropped] | add),
      probe_cpu_ms: ([$s[].probe_cpu_ms] | add), sampler_cpu_ms: ([$s[].sampler_cpu_ms] | add),
      probe_wakeups: ([$s[].probe_wakeups] | add)};

# clock_offset($samples): a host's clock against this machine's from SSH
# round trips ($samples: [{t0, t1, remote}], seconds: this machine's clock
# before the call, after it, and the host's `date +%s.%N` in between): the
# sample of the shortest round trip, its offset remote - (t0 + t1) / 2 and
# its uncertainty, half the round trip (the host read its clock somewhere
# inside it), in ms.
def clock_offset($samples):
  ($samples | map(. + {rtt: (.t1 - .t0)}) | min_by(.rtt)) as $b
  | {offset_ms: (($b.remote - ($b.t0 + $b.t1) / 2) * 1e6 | round / 1e3),
     uncertainty_ms: ($b.rtt / 2 * 1e6 | round / 1e3),
     rtt_ms: ($b.rtt * 1e6 | round / 1e3), samples: ($samples | length),
     method: "date +%s.%N on the host over SSH, the round trip of the shortest of the samples"};

def clock_rule: "a host is refused when its clock's offset to this machine's, less its uncertainty, exceeds the limit (LAB_CLOCK_MAX_MS)";

# clock_refused($max_ms): the hosts' facts (input: [{role, clock}]) whose
# clock is off by more than $max_ms beyond its uncertainty (|offset| -
# uncertainty > max), one line each naming the host; a host whose clock
# was not read is refused too.
def clock_refused($max_ms):
  .[] | select(.clock == null or ((.clock.offset_ms | fabs) - .clock.uncertainty_ms > $max_ms))
  | if .clock == null then "\(.role): its clock was not read"
    else "\(.role): its clock is \(.clock.offset_ms) ms off this machine's (+- \(.clock.uncertainty_ms) ms), more than LAB_CLOCK_MAX_MS=\($max_ms) ms" end;

# lab_status($a): the lab's status --json, the namespace testbed's shape
# plus the lab's own keys ($a: the named arguments of lab_status_json:
# the settings, the hosts' facts, the inventory's description, ...).
def lab_status($a):
  $a.facts[0] as $f | ($f | map({(.role): .}) | add) as $h |
  def cpu_names($r): ($a.lab.hosts[$r].cpus | split(",") | map(if test("-") then (split("-") | map(tonumber) | [range(.[0]; .[1] + 1)]) else [tonumber] end) | add | map("\($r)/cpu\(.)"));
  {backend:"lab", inventory:$a.inv,
   prefix:$a.prefix, kernel:$h.server1.kernel, cpus:$h.server1.cpus, lb:$a.lb,
   lb_note:"the lab router balances \($a.lab.router.lb) (inventory); rootbench does not configure it",
   link:null, link_shaping:false,
   pinning:{servers:$a.lab.hosts.server1.cpus, clients:$a.lab.hosts.player1.cpus,
            cpu_names:{server:(cpu_names("server1") + cpu_names("server2")),
                       client:([$a.lab.players[] | cpu_names(.)] + [cpu_names("listener")] | add)}},
   steering:{mode:$a.steer, rule:"each host's own receive path (its NIC and kernel settings; not set by rootbench)", threads:null},
   player_tw_buckets:{setting:$a.twb, value:null},
   profile:(if $a.profile == "" then null else ($a.profile | ltrimstr($a.top + "/")) end),
   cgroups:"\($a.lab.hosts.server1.cgroup | rtrimstr("/server1"))/ROLE on each host",
   service:{ipv4:$a.s4, ipv6:$a.s6},
   server:({kind:$a.kind, name:$a.name, version:$h.server1.daemon_version, program:$a.prog,
            # what server1 runs, read on it at up (lab_gather_facts): a
            # release's packages, an NSD build or the operator's own build
            # (name "own": SERVER_PREFIX, with SERVER_CONF merged when given)
            release:({name:$a.rname, version:$h.server1.daemon_version, source:$a.rsrc,
                      build_options:($h.server1.daemon_build_options // null), running:($h.server1.daemon_running // null)}
                     + (if $a.rname == "own" or $a.sconf != "" then
                          {prefix:(if $a.sprefix == "" then null else $a.sprefix end),
                           conf:(if $a.sconf == "" then null else {file:$a.sconf, md5_16:$a.sconf_md5} end)} else {} end)),
            workers:$a.sc, tcp_clients:$a.tc, tcp_timeout_s:$a.tt, minimal_responses:$a.minimal, udp_answer_max:$a.edns,
            listen_backlog:$a.backlog, listen_backlog_measured:($a.btsv | backlogs_from_tsv),
            # tls.ca_file is on this machine: exec carries it to a player.
            tls:$a.tls,
            # DNS over QUIC: a namespace testbed setting (lab_validate_server refuses it)
            quic:null,
            # UDP over XDP: a namespace testbed setting too (refused on a lab)
            xdp:null,
            # the same keys as the namespace testbed's (testbed-defences.sh); what
            # a lab's hosts hold is not read back, and their SYN cookies are theirs
            defences:{rrl:{on:($a.rrl == "on"), rate:$a.rrl_rate, slip:$a.rrl_slip, prefix4:$a.rrl_p4, prefix6:$a.rrl_p6,
                           prefixes_fixed:($a.kind == "knot"), per_server_names:null},
                      syncookies:{setting:"kernel", value:null},
                      tcp_clients:$a.tc, tcp_timeout_s:$a.tt, tcp_per_server_names:null},
            cpu_budget:{budget:null, period_us:null, quota_us:null, controller:null, longest_pause_bound_us:0,
                        charged:"no budget: a lab's servers run without one"}}
           + (if $a.kind == "nsd" then {build:$a.build} else {} end)),
   zones:{variant:(if $a.zones == "" then null else $a.zones end), dir:$a.zonedir},
   snmp:{router_server_port:{name:"router-s", ifindex:$a.lab.switch.router_port_ifindex}},
   roles:($a.rtsv | roles_from_tsv), processes:($a.ptsv | procs_from_tsv),
   players:$a.lab.players,
   # each host's clock against this machine's, measured at up (clock_refused)
   clocks:{max_offset_ms:$a.clock_max_ms, rule:clock_rule,
           offsets_ms:($f | map({(.role): (.clock.offset_ms // null)}) | add)},
   hosts:$f, router:($a.lab.router | del(.community)), switch:($a.lab.switch | del(.community) | .bridge_netfilter = "not set by rootbench: the lab's own switch"), allow_ranges:$a.lab.allow_ranges};

# lab.jq -- the lab backend's JSON (scripts/lib/lab*.sh): the inventory
# read into the lab's description, the per-host sampler summaries merged
# into one, and the lab's status --json. Pure: the shell passes the facts.

include "testbed-status";

# inventory_normalise($inv; $sha): `ansible-inventory --list` (input) as
# the lab's description, or an error naming the first thing missing.
def inventory_normalise($inv; $sha):
  ._meta.hostvars as $hv |
  def hostsof($g): (.[$g].hosts // []);
  def need($h; $k): ($hv[$h][$k] // error("inventory \($inv): host \($h) has no \($k)"));
  def str: tostring;
  # (the probe's host, group probes, is optional: scripts/lib/lab.sh lab_role_host)
  (hostsof("players") + hostsof("listeners") + hostsof("servers") + (hostsof("probes") | map(select(. == "probe")))) as $managed |
  (["player1","player2","listener","server1","server2"] - $managed) as $missing |
  if ($missing | length) > 0 then error("inventory \($inv): no host \($missing | join(", ")) (groups players: player1 player2, listeners: listener, servers: server1 server2)") else . end |
  ($hv["router"] // error("inventory \($inv): no router (group devices, host router)")) as $r |
  ($hv["switch"] // error("inventory \($inv): no switch (group devices, host switch)")) as $s |
  ($hv["player1"]) as $any |
  # (a probe host's source block is optional: both families or neither)
  (if ($managed | index("probe")) and ((($hv.probe.rb_block4 // "") == "") != (($hv.probe.rb_block6 // "") == ""))
   then error("inventory \($inv): host probe has one of rb_block4 and rb_block6 but not the other (its source block: both families, or neither)") else . end) |
  {inventory: $inv, sha: $sha,
   service4: ($any.rb_service4 // error("inventory \($inv): no rb_service4 (the service address)")),
   service6: ($any.rb_service6 // error("inventory \($inv): no rb_service6")),
   allow_ranges: ($any.rb_allow_ranges // error("inventory \($inv): no rb_allow_ranges (the address ranges the lab declares as its own)")
                  | if type == "array" then . else [.] end | map(str)),
   server: ($any.rb_server // "nsd"), zones: ($any.rb_zones // ""),
   router: {lb: ($r.rb_lb // "l3"), addr4_client: need("router"; "rb_addr4_client"), addr6_client: need("router"; "rb_addr6_client"),
            addr4_server: need("router"; "rb_addr4_server"), addr6_server: need("router"; "rb_addr6_server"),
            mac_client: need("router"; "rb_mac_client"), model: ($r.rb_model // "not described"),
            snmp_host: ($r.rb_snmp_host // null), community: ($r.rb_snmp_community // "public")},
   switch: {snmp_host: need("switch"; "rb_snmp_host"), community: ($s.rb_snmp_community // "public"),
            router_port_ifindex: need("switch"; "rb_router_port_ifindex"), model: ($s.rb_model // "not described")},
   hosts: ([$managed[] | . as $h | {key: $h, value: {
       host: ($hv[$h].ansible_host // $h), port: ($hv[$h].ansible_port // 22 | str),
       user: ($hv[$h].ansible_user // "root"), key: ($hv[$h].ansible_ssh_private_key_file // ""),
       ssh_args: ($hv[$h].ansible_ssh_common_args // ""),
       dir: ($hv[$h].rb_dir // "/opt/rootbench"), iface: need($h; "rb_iface"),
       addr4: need($h; "rb_addr4"), addr6: need($h; "rb_addr6"),
       gateway4: need($h; "rb_gateway4"), gateway6: need($h; "rb_gateway6"),
       cpus: (need($h; "rb_cpus") | str),
       block4: ($hv[$h].rb_block4 // ""), block6: ($hv[$h].rb_block6 // ""),
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
                       client:(cpu_names("player1") + cpu_names("player2") + cpu_names("listener"))}},
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
   hosts:$f, router:($a.lab.router | del(.community)), switch:($a.lab.switch | del(.community) | .bridge_netfilter = "not set by rootbench: the lab's own switch"), allow_ranges:$a.lab.allow_ranges};

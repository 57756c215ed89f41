# testbed-status.jq -- the namespace testbed's status (scripts/lib/testbed-status.sh):
# as JSON, which every experiment records, and as text; and the readers
# of the tab-separated facts the shell gathers (the lab backend's status,
# scripts/lib/lab.jq, reads the same).

# tsv: lines of tab-separated fields (input) as arrays.
def tsv: split("\n") | map(select(length > 0) | split("\t"));
# roles_from_tsv: "role, IPv4, IPv6, client block v4, v6" lines as roles[].
def roles_from_tsv: tsv | map({role:.[0], ipv4:.[1], ipv6:.[2]} + (if .[3] != "" then {client_block4:.[3], client_block6:.[4]} else {} end));
# procs_from_tsv: "role, process, true|false" lines as processes[].
def procs_from_tsv: tsv | map({role:.[0], process:.[1], running:(.[2] == "true")});
# backlogs_from_tsv: "role, backlogs measured (space-separated)" lines.
def backlogs_from_tsv: tsv | map({role:.[0], measured:(.[1] | split(" ") | map(select(length > 0) | tonumber))});
# xdp_from_tsv($setting): "role, ip -j link's JSON of its interface" lines as
# {setting, programs: {role: {name, id, mode} or null}} (mode 1 is native).
def xdp_from_tsv($setting):
  {setting:$setting,
   programs:(tsv | map({(.[0]): ((.[2] | fromjson? // [])[0].xdp.prog as $p | (.[2] | fromjson? // [])[0].xdp.mode as $m
                                   | if $p then {interface:.[1], name:$p.name, id:$p.id,
                                                 mode:({"1":"native", "2":"generic", "3":"offload"}["\($m)"] // $m)} else null end)})
                | add // {})};
# napi_from_tsv($scpu; $ccpu): "role, device, pid, allowed CPUs, v2 cgroup,
# v1 cpu cgroup, last CPU, policy, RT priority" lines (tb_napi_tsv) as the threads of STEER=napi,
# each with the CPUs its role owns and whether it is pinned to them.
def napi_from_tsv($scpu; $ccpu):
  tsv | map({role:.[0], device:.[1], pid:(.[2] | tonumber), cpus:.[3], cgroup:.[4],
             cpu_cgroup_v1:(if .[5] == "" then null else .[5] end), last_cpu:(.[6] | tonumber? // null),
             scheduling:(if .[7] == "1" then "fifo:\(.[8])" elif .[7] == "0" then "other" else .[7] end)}
            | .role_cpus = (if .role == "server1" or .role == "server2" then $scpu else $ccpu end)
            | .pinned = (.cpus == .role_cpus));
# cpu_names: a taskset list ("0-2,5") as /proc/stat names (["cpu0","cpu1","cpu2","cpu5"]).
def cpu_names: split(",") | map(if test("-") then (split("-") | map(tonumber) | [range(.[0]; .[1] + 1)]) else [tonumber] end)
               | add | map("cpu\(.)");

# netns_status($a): status --json ($a: the named arguments of
# tb_status_json: the settings and the facts read from the testbed).
def netns_status($a):
  ($a.btsv | backlogs_from_tsv) as $backlogs
  | ($a.ptsv | procs_from_tsv) as $procs
  | ($a.rtsv | roles_from_tsv) as $roles
  | {prefix:$a.prefix, kernel:$a.kernel, cpus:$a.ncpu, lb:$a.lb,
   lb_note:(if $a.lb == "per-packet" then "deliberately broken balancer: negative control for the TCP stickiness check only" else null end),
   link:(if $a.link == "none" then null else $a.link end),
   link_shaping:true,
   pinning:{servers:$a.scpu, clients:$a.ccpu,
            cpu_names:{server:($a.scpu | cpu_names), client:($a.ccpu | cpu_names)}},
   steering:{mode:$a.steer, rule:(if $a.steer == "rps" then "receive path of every interface on its role's CPUs (RPS)"
                                  elif $a.steer == "rig" then "receive path of the rig's interfaces on the rig's CPUs (RPS), the servers' on the sending CPU"
                                  elif $a.steer == "napi" then "receive path of every interface in a NAPI thread of its own, on its role's CPUs and in its role's cgroup"
                                  else "receive path on the sending CPU (veth default)" end),
             threads:($a.ntsv | napi_from_tsv($a.scpu; $a.ccpu))},
   player_tw_buckets:{setting:$a.twb, value:($a.twv | tonumber? // null)},
   profile:(if $a.profile == "" then null else ($a.profile | ltrimstr($a.top + "/")) end),
   cgroups:$a.cg,
   service:{ipv4:$a.s4, ipv6:$a.s6},
   server:({kind:$a.kind, name:$a.name, version:$a.version, release:$a.release, program:$a.prog,
            workers:$a.sc, tcp_clients:$a.tc, tcp_timeout_s:$a.tt, minimal_responses:$a.minimal,
            udp_answer_max:$a.edns,
            listen_backlog:$a.backlog, listen_backlog_measured:$backlogs, tls:$a.tls, quic:$a.quic, cpu_budget:$a.cpubudget,
            defences:$a.defences, xdp:($a.xtsv | xdp_from_tsv($a.xdp))}
           + (if $a.kind == "nsd" then {build:$a.build} else {} end)),
   zones:{variant:(if $a.zones == "" then null else $a.zones end), dir:$a.zonedir},
   snmp:{router_server_port:{name:"router-s", ifindex:$a.ifidx}},
   # The IP firewall hooks on bridged frames (br_netfilter): "off" in the
   # switch, "absent" without the module, "on" means a cost on every frame.
   switch:{bridge_netfilter:({"0":"off", "1":"on", "":"absent"}[$a.bnf] // $a.bnf)},
   roles:$roles, processes:$procs};

# netns_status_text: status --json (input) as the text of `scripts/testbed status`.
def netns_status_text:
    "testbed \(.prefix): kernel \(.kernel), \(.cpus) CPUs",
    "  service address  \(.service.ipv4)  \(.service.ipv6)  (on both servers' loopback)",
    "  load balancing   \(.lb)\(if .lb_note then "  <- " + .lb_note else "" end)",
    "  link shaping     \(.link // "none (unshaped veth)")  (router <-> server VLAN, both directions)",
    "  CPU pinning      servers on CPU \(.pinning.servers), players/listener/probe/sink/router/switch on CPU \(.pinning.clients)",
    "  receive path     \(.steering.mode): \(.steering.rule)",
    "  switch           bridge IP hooks \(.switch.bridge_netfilter // "not recorded")",
    "  profile          \(.profile // "none (settings from the environment)")",
    "  server           \(.server.name) \(.server.version)\(if .server.release then ", release " + .server.release.name else "" end) (\(.server.program)\(if .server.build then ", " + .server.build + " build" else "" end))  workers \(.server.workers), TCP clients \(.server.tcp_clients), TCP timeout \(.server.tcp_timeout_s)s, minimal responses \(.server.minimal_responses)",
    "  defences         RRL \(.server.defences.rrl | if .on then "on: \(.rate)/s, slip \(.slip), per /\(.prefix4) and /\(.prefix6)" else "off" end), SYN cookies \(.server.defences.syncookies | "\(.setting) (\(.value | to_entries | map("\(.key) \(.value)") | join(", ")))")",
    "  DNS over TLS     \(if .server.tls then "port \(.server.tls.port), name \(.server.tls.name), CA \(.server.tls.ca_file)" else "off (SERVER_TLS=no)" end)",
    "  DNS over QUIC    \(if .server.quic then "UDP port \(.server.quic.port), name \(.server.quic.name)" else "off (SERVER_QUIC=no)" end)",
    "  UDP over XDP     \(.server.xdp.setting // "no") (programs: \(.server.xdp.programs // {} | to_entries
                     | map("\(.key) \(if .value then "\(.value.name) \(.value.mode)" else "none" end)") | join(", ")))",
    "  listen backlog   \(.server.listen_backlog) (measured: \([.server.listen_backlog_measured[] | "\(.role) \(.measured | map(tostring) | join("/"))"] | join(", ")))",
    "  zones            \(.zones.variant // "default") (\(.zones.dir))",
    "  SNMP             switch port router-s (router, server VLAN) = ifIndex \(.snmp.router_server_port.ifindex)",
    "  roles:",
    (.roles[] | "    \(.role | . + "         " | .[0:9]) \(.ipv4 | . + "              " | .[0:14]) \(.ipv6)\(if .client_block4 then "   clients \(.client_block4) \(.client_block6)" else "" end)"),
    "  processes:",
    (.processes[] | "    \(.role) \(.process): \(if .running then "running" else "NOT RUNNING" end)");

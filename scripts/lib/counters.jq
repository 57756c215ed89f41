# counters.jq -- `scripts/testbed counters` under one set of names on
# both backends. The experiments read the load where it passes under the
# namespace router's names (router.dns_udp_queries, dns_tcp_syns,
# trace_udp_queries, dns_udp_answers: scripts/lib/testbed-config.sh
# tb_counters_ruleset router); a lab has no such router, so it counts
# them where it can: at the switch's ports (IF-MIB, by each host's
# rb_switch_ifindex) and at the servers (their nftables). Every counter
# says where it was counted (router.counted_by), a counter a lab cannot
# give is left out and router.missing says why, and the switch's ports
# are given per host (switch_ports) for the checks that need one port.
# Pure: the shell passes the readings (scripts/lib/lab-measure.sh
# lab_counters_json, scripts/lib/testbed.sh tb_counters_json); fixture
# test scripts/tests/68-lab-counters-keep-the-router-names.test.

# counters_sources($backend): where each of the router's counters is
# counted, in words, on "netns" or "lab".
def counters_sources($backend):
  if $backend == "lab" then
    {dns_udp_queries: ("the switch: IF-MIB ifHCInUcastPkts of the players' ports, every unicast frame the players sent "
                       + "(the queries, and the few unicast frames that are none: ARP and ND answers, a generator's ping "
                       + "of its gateway; broadcasts and multicasts left out); octets: their ifHCInOctets (frames); "
                       + "no IP bytes (bytes null)"),
     trace_udp_queries: "the servers' nftables (input): UDP queries to port 53 from the Listener's address that reached them",
     dns_tcp_syns: "the servers' nftables (input): first SYNs to port 53 (SYN without ACK) that reached them, the probe's apart",
     dns_udp_answers: "the servers' nftables (output): UDP answers from port 53 to any address but the Listener's and the probe's"}
  else
    {dns_udp_queries: "the router's nftables (forward): UDP queries to the service address it forwarded (the probe's and the collateral client's apart)",
     trace_udp_queries: "the router's nftables (forward): UDP queries to the service address from the Listener's address",
     dns_tcp_syns: "the router's nftables (forward): first SYNs to port 53 it forwarded (the probe's apart)",
     dns_udp_answers: "the router's nftables (forward): UDP answers from port 53 toward the client VLAN (not to the Listener, probe, collateral client)"}
  end;

# counters_netns: the namespace testbed's counters (input) with the
# router's sources said.
def counters_netns:
  if .router == null then . else .router.counted_by = counters_sources("netns") end;

# lab_switch_ports($ports; $lab): each host's switch port (the inventory's
# rb_switch_ifindex) and the router's server-side one ("router-s") from a
# reading of the switch ($ports: scripts/lib/lab-snmp.jq snmp_ports) as
# {ROLE: {ifindex, in_ucast, in_nucast, out_ucast, out_nucast, in_octets,
# out_octets}}; nucast: multicast + broadcast frames. A port the
# inventory names but the reading lacks is null.
def lab_switch_ports($ports; $lab):
  def sum2($a; $b): if $a == null or $b == null then null else $a + $b end;
  ([$lab.hosts | to_entries[] | select(.value.switch_ifindex != null) | {key, value: .value.switch_ifindex}]
   + [{key: "router-s", value: $lab.switch.router_port_ifindex}])
  | map(.value as $i | ($ports[$i | tostring] // null) as $p
        | {key, value: (if $p == null then null else
            {ifindex: ($i | tonumber), in_ucast: $p.in_ucast, in_nucast: sum2($p.in_mcast; $p.in_bcast),
             out_ucast: $p.out_ucast, out_nucast: sum2($p.out_mcast; $p.out_bcast),
             in_octets: $p.in_octets, out_octets: $p.out_octets} end)})
  | from_entries;

# lab_counters($ports; $lab): the hosts' counters (input: the listener's,
# the servers' and the sink's nftables, tb_counters_collect) with the
# router's names counted as a lab can ($ports: the switch's reading, null
# when its agent did not answer; $lab: the lab's description,
# scripts/lib/lab.jq inventory_normalise) and the switch's ports per host.
def lab_counters($ports; $lab):
  . as $c
  | [$lab.hosts | to_entries[] | select(.value.group == "players") | .key] as $players
  | [$lab.hosts | to_entries[] | select(.value.group == "servers") | .key] as $servers
  | (if $ports == null then {} else lab_switch_ports($ports; $lab) end) as $sw
  | def total($xs): if ($xs | length) == 0 or any($xs[]; . == null) then null else $xs | add end;
    def at_players($k): total([$players[] | $sw[.][$k]?]);
    def at_servers($name; $k): total([$servers[] | $c[.][$name][$k]?]);
    def servers_pair($name): {packets: at_servers($name; "packets"), bytes: at_servers($name; "bytes")};
    ([$players[] | select(($lab.hosts[.].switch_ifindex // null) == null)]) as $unported
  | {dns_udp_queries: {packets: at_players("in_ucast"), bytes: null, octets: at_players("in_octets")},
     trace_udp_queries: servers_pair("trace_udp_queries"),
     dns_tcp_syns: servers_pair("dns_tcp_syns"),
     dns_udp_answers: servers_pair("dns_udp_answers")} as $named
  | ($named | with_entries(select(.value.packets != null))) as $have
  | ($named | keys - ($have | keys)
     | map({key: ., value: (
         if . == "dns_udp_queries" then
           (if $ports == null then "the switch's SNMP agent did not answer"
            elif ($unported | length) > 0 then "no rb_switch_ifindex in the inventory for \($unported | join(", "))"
            else "the switch's reading has no ifHCInUcastPkts for a player's port" end)
         else "the servers have no nftables counter \(.) (provisioned before it existed: run make lab-setup again)" end)})
     | from_entries) as $missing
  | $c + {router: ($have + {counted_by: (counters_sources("lab") | with_entries(select(.key as $k | $have | has($k))))}
                  + (if ($missing | length) > 0 then {missing: $missing} else {} end)),
          switch_ports: $sw};

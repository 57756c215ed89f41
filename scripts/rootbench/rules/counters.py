"""counters -- `scripts/testbed counters` under one set of names on both
backends. The experiments read the load where it passes under the
namespace router's names (router.dns_udp_queries, dns_tcp_syns,
trace_udp_queries, dns_udp_answers: scripts/lib/testbed-config.sh
tb_counters_ruleset router); a lab has no such router, so it counts them
where it can: at the switch's ports (IF-MIB, by each host's
rb_switch_ifindex) and at the servers (their nftables). Every counter says
where it was counted (router.counted_by), a counter a lab cannot give is
left out and router.missing says why, and the switch's ports are given
per host (switch_ports) for the checks that need one port. Pure: the shell
passes the readings (scripts/lib/lab-measure.sh lab_counters_json,
scripts/lib/testbed.sh tb_counters_json); fixture test
scripts/tests/68-lab-counters-keep-the-router-names.test.
(From scripts/lib/counters.jq; test_rules_counters.py checks they agree.)"""

from rootbench.jqtext import join_text, to_text
from rootbench.rules.jqlib import add, alt, get, index_opt, keys, plus, setpath, to_entries, tonumber

_LAB = {
    "dns_udp_queries": ("the switch: IF-MIB ifHCInUcastPkts of the players' ports, every unicast frame the players sent "
                        "(the queries, and the few unicast frames that are none: ARP and ND answers, a generator's ping "
                        "of its gateway; broadcasts and multicasts left out); octets: their ifHCInOctets (frames); "
                        "no IP bytes (bytes null)"),
    "trace_udp_queries": "the servers' nftables (input): UDP queries to port 53 from the Listener's address that reached them",
    "dns_tcp_syns": "the servers' nftables (input): first SYNs to port 53 (SYN without ACK) that reached them, the probe's apart",
    "dns_udp_answers": "the servers' nftables (output): UDP answers from port 53 to any address but the Listener's and the probe's",
}
_NETNS = {
    "dns_udp_queries": "the router's nftables (forward): UDP queries to the service address it forwarded (the probe's and the collateral client's apart)",
    "trace_udp_queries": "the router's nftables (forward): UDP queries to the service address from the Listener's address",
    "dns_tcp_syns": "the router's nftables (forward): first SYNs to port 53 it forwarded (the probe's apart)",
    "dns_udp_answers": "the router's nftables (forward): UDP answers from port 53 toward the client VLAN (not to the Listener, probe, collateral client)",
}


def counters_sources(backend):
    """Where each of the router's counters is counted, in words, on "netns"
    or "lab"."""
    return dict(_LAB if backend == "lab" else _NETNS)


def counters_netns(c):
    """The namespace testbed's counters (input) with the router's sources
    said."""
    if get(c, "router") is None:
        return c
    return setpath(c, "router", setpath(get(c, "router"), "counted_by", counters_sources("netns")))


def _sum2(a, b):
    return None if a is None or b is None else plus(a, b)


def lab_switch_ports(ports, lab):
    """Each host's switch port (the inventory's rb_switch_ifindex) and the
    router's server-side one ("router-s") from a reading of the switch
    (ports: scripts/lib/lab-snmp.jq snmp_ports) as {ROLE: {ifindex,
    in_ucast, in_nucast, out_ucast, out_nucast, in_octets, out_octets}};
    nucast: multicast + broadcast frames. A port the inventory names but
    the reading lacks is null."""
    entries = [(e["key"], get(e["value"], "switch_ifindex")) for e in to_entries(get(lab, "hosts"))
               if get(e["value"], "switch_ifindex") is not None]
    entries.append(("router-s", get(get(lab, "switch"), "router_port_ifindex")))
    out = {}
    for key, i in entries:
        p = alt(get(ports, to_text(i)), None)
        out[key] = None if p is None else {
            "ifindex": tonumber(i), "in_ucast": get(p, "in_ucast"),
            "in_nucast": _sum2(get(p, "in_mcast"), get(p, "in_bcast")),
            "out_ucast": get(p, "out_ucast"), "out_nucast": _sum2(get(p, "out_mcast"), get(p, "out_bcast")),
            "in_octets": get(p, "in_octets"), "out_octets": get(p, "out_octets")}
    return out


def _total(xs):
    if len(xs) == 0 or any(x is None for x in xs):
        return None
    return add(xs)


def lab_counters(c, ports, lab):
    """The hosts' counters (input: the listener's, the servers' and the
    sink's nftables, tb_counters_collect) with the router's names counted
    as a lab can (ports: the switch's reading, null when its agent did not
    answer; lab: the lab's description, scripts/lib/lab.jq
    inventory_normalise) and the switch's ports per host."""
    hosts = to_entries(get(lab, "hosts"))
    players = [e["key"] for e in hosts if get(e["value"], "group") == "players"]
    servers = [e["key"] for e in hosts if get(e["value"], "group") == "servers"]
    sw = {} if ports is None else lab_switch_ports(ports, lab)

    def at_players(k):
        return _total([x for p in players for x in index_opt(get(sw, p), k)])

    def at_servers(name, k):
        return _total([x for s in servers for x in index_opt(get(get(c, s), name), k)])

    def servers_pair(name):
        return {"packets": at_servers(name, "packets"), "bytes": at_servers(name, "bytes")}

    unported = [p for p in players if alt(get(get(get(lab, "hosts"), p), "switch_ifindex"), None) is None]
    named = {"dns_udp_queries": {"packets": at_players("in_ucast"), "bytes": None, "octets": at_players("in_octets")},
             "trace_udp_queries": servers_pair("trace_udp_queries"),
             "dns_tcp_syns": servers_pair("dns_tcp_syns"),
             "dns_udp_answers": servers_pair("dns_udp_answers")}
    have = {k: v for k, v in named.items() if v["packets"] is not None}
    missing = {}
    for k in sorted(set(keys(named)) - set(keys(have))):
        if k == "dns_udp_queries":
            if ports is None:
                why = "the switch's SNMP agent did not answer"
            elif unported:
                why = "no rb_switch_ifindex in the inventory for %s" % join_text(unported, ", ")
            else:
                why = "the switch's reading has no ifHCInUcastPkts for a player's port"
        else:
            why = "the servers have no nftables counter %s (provisioned before it existed: run make lab-setup again)" % k
        missing[k] = why
    router = dict(have)
    router["counted_by"] = {k: v for k, v in counters_sources("lab").items() if k in have}
    if missing:
        router["missing"] = missing
    return plus(c, {"router": router, "switch_ports": sw})

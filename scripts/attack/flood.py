"""An attack flood's record (flood.json, schema rootbench.attack-flood/1)
from what scripts/lib/attack.sh gathered around it (flood-raw.json, schema
rootbench.attack-flood-raw/1): counter snapshots before and after, taken
where the work happens (the router's and the sink's nftables counters, the
switch's SNMP octets, the daemons' own counts, the servers' TCP MIB
through the sampler); kxdpgun's own summary is kept beside them, for
agreement only. Pure: no input but the raw object. docs/attack.md, "The
floods", says what each field means; tests/test_flood.py checks it on the
snapshots of a real flood.

  /usr/bin/python3 -I -S scripts/attack/flood.py RAW > RECORD
(attack.sh's call: the record of the raw object in the file RAW, as JSON
text; an error names what is wrong, exit 1)."""

import os
import sys

if __name__ == "__main__":
    # (run as a command by scripts/lib/attack.sh: the package beside)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rootbench.jqtext import json_pretty, to_text  # noqa: E402
from rootbench.rules.jqlib import JqError, add, alt, div, each, get, get_opt, jmax, keys, loads, minus, plus, type_name  # noqa: E402

FLOOD_SCHEMA = "rootbench.attack-flood/1"
RAW_SCHEMA = "rootbench.attack-flood-raw/1"
# the kinds whose sources are the victim block and whose answers are the
# attack (an amplification is reported)
REFLECTION_KINDS = ["reflection-dnskey", "reflection-any"]
# the kinds counted by their SYNs, not their queries
TCP_KINDS = ["syn-flood", "conn-hold"]
# what the rules read of a record
RECORD_FIELDS = ["kind", "family", "requested_rate", "seconds", "sent", "achieved_rate", "answers", "answered_rate",
                 "servers", "sink", "switch", "kxdpgun", "amplification"]


def _had(v):
    return to_text(alt(get_opt(v, "schema"), type_name(v)))


def attack_raw_checked(r):
    """The raw object, or an error naming its schema."""
    if type_name(r) == "object" and r.get("schema") == RAW_SCHEMA:
        return r
    raise JqError("an attack flood's raw record of schema %s was expected; this one's schema is %s" % (RAW_SCHEMA, _had(r)))


def attack_flood_checked(f):
    """A record of this schema, or an error naming its schema or the
    fields it lacks (the rules read these)."""
    if not (type_name(f) == "object" and f.get("schema") == FLOOD_SCHEMA):
        raise JqError("an attack flood record of schema %s was expected; this one's schema is %s" % (FLOOD_SCHEMA, _had(f)))
    missing = [k for k in RECORD_FIELDS if k not in f]
    if missing:
        raise JqError("attack flood record without %s" % ", ".join(missing))
    return f


def attack_ratio(a, b):
    """a / b, null when b is 0 or either is null."""
    if a is None or b is None or b == 0:
        return None
    return div(a, b)


def _at(v, path):
    for k in path:
        v = get(v, k)
    return v


def attack_delta(before, after, path):
    """after - before of a counter, null when either snapshot lacks it."""
    b, a = _at(before, path), _at(after, path)
    return None if a is None or b is None else minus(a, b)


def attack_pair(c, role, name):
    """{packets, bytes} deltas of an nftables counter."""
    return {"packets": attack_delta(get(c, "before"), get(c, "after"), [role, name, "packets"]),
            "bytes": attack_delta(get(c, "before"), get(c, "after"), [role, name, "bytes"])}


def attack_servers_queries(s):
    """The daemons' own query counts, summed over the servers; null when a
    daemon gave none (stopped, stalled)."""
    d = [attack_delta(get(s, "before"), get(s, "after"), [r, "queries"]) for r in keys(get(s, "before"))]
    return None if not d or any(x is None for x in d) else add(d)


def attack_servers_tcp(sample):
    """The servers' TCP MIB over the flood (the sampler's run deltas, summed
    over the servers), the largest accept queue a server's port 53 reached,
    and the most connections established at the servers at once above
    those at the start (running sum of the sampled net changes of
    TcpCurrEstab)."""
    deltas = get(sample, "deltas")
    servers = each(deltas) if isinstance(deltas, (list, dict)) else []

    def mib(name):
        return alt(add([alt(get(v, name), 0) for v in servers]), 0)
    peak = get(sample, "listen_peak")
    queues = [q for q in (alt(get(get(v, "53"), "max_queue"), None) for v in (each(peak) if isinstance(peak, (list, dict)) else []))
              if q is not None]
    changes = get(sample, "estab_changes")
    if changes is None:
        estab = None
    else:
        n, estab = 0, 0
        for d in each(changes):
            n = plus(n, d)
            estab = jmax([estab, n])
    return {"passive_opens": mib("TcpPassiveOpens"),
            "syncookies_sent": mib("TcpExtSyncookiesSent"),
            "syncookies_recv": mib("TcpExtSyncookiesRecv"),
            "syncookies_failed": mib("TcpExtSyncookiesFailed"),
            "listen_overflows": mib("TcpExtListenOverflows"),
            "listen_drops": mib("TcpExtListenDrops"),
            "req_q_full_do_cookies": mib("TcpExtTCPReqQFullDoCookies"),
            "req_q_full_drops": mib("TcpExtTCPReqQFullDrop"),
            "syn_retrans": mib("TcpExtTCPSynRetrans"),
            "in_segs": mib("TcpInSegs"),
            "accept_queue_max": jmax(queues) if queues else None,
            "curr_estab_max": estab}


def attack_udp_queries(r, unit):
    """The UDP queries the router forwarded to the service address
    ("packets" or "bytes"), without those sent in the Listener's name (a
    background trace's, counted apart as trace_udp_queries as well): the
    flood's."""
    c = get(r, "counters")
    every = attack_delta(get(c, "before"), get(c, "after"), ["router", "dns_udp_queries", unit])
    if every is None:
        return None
    return minus(every, alt(attack_delta(get(c, "before"), get(c, "after"), ["router", "trace_udp_queries", unit]), 0))


def attack_counted_by(r):
    """Where the counts of the flood were counted, in words: the router's
    counters as the testbed counted them (the counters' router.counted_by:
    the namespace router, or where a lab counts them: its switch's ports
    and its servers, rootbench.rules.counters), the sink's and the
    switch's; null for a record without them."""
    cb = alt(_at(r, ["counters", "after", "router", "counted_by"]), None)
    if cb is None:
        return None
    return {"sent_udp": "%s, less %s" % (to_text(get(cb, "dns_udp_queries")), to_text(get(cb, "trace_udp_queries"))),
            "sent_tcp": get(cb, "dns_tcp_syns"), "answers": get(cb, "dns_udp_answers"),
            "sink": "the sink's nftables (input): what reached the victim block, dropped there",
            "switch": "the switch: IF-MIB ifHCInOctets/ifHCOutOctets of the attacker's and the sink's ports"}


def attack_flood(r):
    """The record (flood.json) of a raw object."""
    r = attack_raw_checked(r)
    c, o = get(r, "counters"), get(r, "octets")
    cb = attack_counted_by(r)
    tcp = r.get("kind") in TCP_KINDS
    if tcp:
        sent = attack_delta(get(c, "before"), get(c, "after"), ["router", "dns_tcp_syns", "packets"])
    else:
        sent = attack_udp_queries(r, "packets")
    answers = attack_delta(get(c, "before"), get(c, "after"), ["router", "dns_udp_answers", "packets"])
    answer_bytes = attack_delta(get(c, "before"), get(c, "after"), ["router", "dns_udp_answers", "bytes"])
    sink = {"reflected_udp": attack_pair(c, "sink", "reflected_udp"),
            "reflected_tcp": attack_pair(c, "sink", "reflected_tcp"),
            "victim_other": attack_pair(c, "sink", "victim_other")}
    switch = {"attacker_in_octets": attack_delta(get(o, "before"), get(o, "after"), ["attacker_in"]),
              "attacker_out_octets": attack_delta(get(o, "before"), get(o, "after"), ["attacker_out"]),
              "sink_out_octets": attack_delta(get(o, "before"), get(o, "after"), ["sink_out"])}
    if r.get("kind") not in REFLECTION_KINDS:
        amp = None
    else:
        packets = [x["packets"] for x in sink.values()]
        amp = {"bytes": attack_ratio(switch["sink_out_octets"], switch["attacker_in_octets"]),
               "packets": attack_ratio(None if any(p is None for p in packets) else add(packets), sent),
               # the same without the Ethernet frames: the IP bytes of the
               # answers over the queries', at the router
               "ip_bytes": attack_ratio(answer_bytes, attack_udp_queries(r, "bytes"))}
    return {"schema": FLOOD_SCHEMA,
            "kind": r.get("kind"), "family": r.get("family"), "player": r.get("player"),
            "requested_rate": r.get("requested_rate"), "seconds": r.get("seconds"),
            "generator": r.get("generator"), "sources": r.get("sources"), "target": r.get("target"),
            "sent": sent,
            "sent_counted_as": "router dns_tcp_syns" if tcp else "router dns_udp_queries - trace_udp_queries",
            "counted_by": cb,
            "achieved_rate": attack_ratio(sent, r.get("seconds")),
            "answers": answers,
            "answered_rate": attack_ratio(answers, r.get("seconds")),
            "answered_share": attack_ratio(answers, sent),
            # (IP bytes, as the router's nftables counters count them)
            "query_bytes": None if tcp else attack_udp_queries(r, "bytes"),
            "answer_bytes": answer_bytes,
            "servers": {"queries": attack_servers_queries(get(r, "server_stats")), "tcp": attack_servers_tcp(get(r, "sample"))},
            "sink": sink,
            "switch": switch,
            "kxdpgun": r.get("kxdpgun"),
            "amplification": amp}


def main(argv):
    if len(argv) != 1:
        print("usage: flood.py RAW (the raw record's file; the record on stdout)", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as f:
            raw = loads(f.read())
        print(json_pretty(attack_flood(raw)))
    except (JqError, ValueError, OSError) as e:
        print("attack flood: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

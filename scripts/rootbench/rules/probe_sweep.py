"""probe-sweep: a sweep's "probe" block (schema rootbench.probe-sweep/1)
from the RSSAC047 probe's own results (tcpbench/rbprobe's JSON, schema
rootbench.probe/1), one per point and one on the idle testbed; the
judgement of the block (RSSAC047's thresholds, the queueing knee) is
probe.jq's, stored in the block. Pure: the sweeps give it the files they
kept.
(From scripts/lib/probe-sweep.jq; test_rules_probe_sweep.py checks they
agree. probe.jq's judgement is not here: probe_sweep takes it as judged.)"""

from rootbench.rules.jqlib import alt, eq, get, gt, jround, minus, plus, sort_by, times, div
from rootbench.rules.probe_stats import probe_raw_checked, probe_stats_protocol

# probe.jq's probe_schema: the block's schema (probe.jq checks it when it judges)
PROBE_SWEEP_SCHEMA = "rootbench.probe-sweep/1"


def probe_protocol(p):
    """One protocol's figures (rbprobe's "udp" or "tcp" object,
    probe-stats); null when that protocol was off (rate 0)."""
    if p is None or (eq(alt(get(p, "rate"), 0), 0) and eq(alt(get(p, "sent"), 0), 0)):
        return None
    return probe_stats_protocol(p)


def probe_sent_total(r):
    """The queries the probe says it sent (both protocols)."""
    return plus(alt(get(get(r, "udp"), "sent"), 0), alt(get(get(r, "tcp"), "sent"), 0))


def _d(before, after, path):
    b = after
    a = before
    for k in path:
        b, a = get(b, k), get(a, k)
    b, a = alt(get(b, "packets"), None), alt(get(a, "packets"), None)
    return None if a is None or b is None else minus(b, a)


def probe_router_count(before, after):
    """The probe's queries and connections the router forwarded between two
    `scripts/testbed counters` objects (its probe_udp_queries and
    probe_tcp_syns counters), to add to the probe's result as
    counted_at_router; null where the router has no such counters (a lab)."""
    if _d(before, after, ["router", "probe_udp_queries"]) is None:
        return None
    return {"udp_queries": _d(before, after, ["router", "probe_udp_queries"]),
            "tcp_syns": _d(before, after, ["router", "probe_tcp_syns"])}


def probe_servers_count(before, after):
    """The probe's queries and connections the two servers received between
    two `scripts/testbed counters` objects (their probe_udp_in and
    probe_tcp_syns counters, summed), where the router has no counters of
    its own (a lab's router is a device); null where the servers have none."""
    d = lambda s, k: _d(before, after, [s, k])
    if d("server1", "probe_udp_in") is None or d("server2", "probe_udp_in") is None:
        return None
    return {"udp_queries": plus(d("server1", "probe_udp_in"), d("server2", "probe_udp_in")),
            "tcp_syns": plus(alt(d("server1", "probe_tcp_syns"), 0), alt(d("server2", "probe_tcp_syns"), 0))}


def probe_counted(before, after):
    """What to add to the probe's result: its queries as the router counted
    them, else as the servers did."""
    r = probe_router_count(before, after)
    if r is not None:
        return {"counted_at_router": r}
    s = probe_servers_count(before, after)
    return {"counted_at_servers": s} if s is not None else {}


def probe_counted_where(r):
    """Who counted the probe's queries: the router, the servers, or the
    probe itself (its own count: nothing else did)."""
    if get(r, "counted_at_router") is not None:
        return "router"
    if get(r, "counted_at_servers") is not None:
        return "servers"
    return "probe"


def probe_queries(r):
    """The probe's queries, as the router counted them where it did (the
    work where it happens), else as the servers did (a lab), else as the
    probe says."""
    c = alt(get(r, "counted_at_router"), get(r, "counted_at_servers"))
    if c is not None:
        return plus(alt(get(c, "udp_queries"), 0), alt(get(c, "tcp_syns"), 0))
    return probe_sent_total(r)


def _frac(a, b):
    if gt(plus(a, b), 0):
        return jround(times(div(a, plus(a, b)), 1e6)) / 1e6
    return None


def probe_point(r, offered, rep, load, proto):
    """One point of the block from the probe's result of that point (r;
    null: not probed, e.g. a point kept from an interrupted run); load: the
    load's queries (or connections) in the point, counted where the sweep
    counts them; proto: the load's protocol ("udp" or "tcp").
    share: the probe's rate in the load's protocol beside the load's
    offered rate (its queries are sent at absolute times, so its rate is
    its rate over the load's seconds too; the probe runs a little longer
    than the load, so a share of the counts would overstate it); share_all:
    both of the probe's protocols beside the load. Its queries as counted
    (at the router where it counts them) are kept beside: probe_queries."""
    r = probe_raw_checked(r)
    if r is None:
        return {"offered": offered, "rep": rep, "load_queries": load, "probe_queries": None, "share": None,
                "udp": None, "tcp": None}
    return {"offered": offered, "rep": rep, "load_queries": load, "probe_queries": probe_queries(r),
            "probe_sent": probe_sent_total(r), "probe_counted_by": probe_counted_where(r),
            "share": _frac(alt(get(get(r, proto), "rate"), 0), offered),
            "share_all": _frac(plus(alt(get(get(r, "udp"), "rate"), 0), alt(get(get(r, "tcp"), "rate"), 0)), offered),
            "udp": probe_protocol(get(r, "udp")), "tcp": probe_protocol(get(r, "tcp"))}


def probe_sweep(idle, points, ceiling, judged):
    """The block, judged. idle: the probe's result on the idle testbed (or
    null); points: probe_point objects; ceiling: the sweep's ceiling (or
    knee), for the figure, or null; judged: probe.jq's probe_judged (the
    block plus its rssac047 and queue_knee), which is not this module's."""
    i = probe_raw_checked(idle)
    s = alt(i, {})
    block = {"schema": PROBE_SWEEP_SCHEMA,
             "settings": {"udp_rate": alt(get(get(s, "udp"), "rate"), None), "tcp_rate": alt(get(get(s, "tcp"), "rate"), None),
                          "timeout_ms": alt(get(s, "timeout_ms"), None), "qname": alt(get(s, "qname"), None),
                          "serial": alt(get(s, "expected_serial"), None), "role": "probe"},
             "idle": None if i is None else {"udp": probe_protocol(get(i, "udp")), "tcp": probe_protocol(get(i, "tcp"))},
             "points": sort_by(points, lambda p: get(p, "offered"), lambda p: get(p, "rep")),
             "ceiling": ceiling}
    return judged(block)

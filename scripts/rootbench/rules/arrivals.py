"""arrivals -- what reached each server millisecond by millisecond
(rbsample --arrivals-out: scripts/sampler/arrivals.h), and whether the
work a server's queues refused came in a burst of the arrivals, in a stall
of the CPU that drains them, or with smooth arrivals and a CPU that kept
running.

A burst is measured against the arrivals' own rate around it: the backlog
a queue would hold if drained at the mean rate of the surrounding 200 ms
(the (sigma, rho) envelope's sigma, rho taken locally, so a slow drift of
the rate over seconds is not a burst). A server that keeps up drains at
least that, so a backlog above the queue's size was a burst the generator
made (or the rig's catch-up after a stall of its own), whatever the
server's speed. The queue: a veth receive ring of 256 entries
(drivers/net/veth.c VETH_RING_SIZE); the servers' sockets hold more, so a
burst over the ring is the smallest that can overflow either.
(From scripts/lib/arrivals.jq; test_rules_arrivals.py checks they agree.)"""

from rootbench.jqtext import to_text
from rootbench.rules.jqlib import (add, alt, div, each, eq, ge, get, gt, jceil, jfloor, jmax, jmin, jrange, jround,
                                   jslice, le, length, lt, minus, plus, setpath, times, truthy, type_name)


def arrivals_ring_entries():
    """The queue a burst is measured against: a veth receive ring's entries."""
    return 256


def arrivals_local_periods():
    """The periods around one whose mean rate is the arrivals' local rate."""
    return 200


def arrivals_local_mean(x):
    """Per period, the mean of the periods within arrivals_local_periods / 2
    either side (from prefix sums)."""
    n = length(x)
    h = jfloor(arrivals_local_periods() / 2)
    c = [0]
    for v in each(x):
        c.append(plus(c[-1], v))
    out = []
    for k in jrange(0, n):
        a = jmax([minus(k, h), 0])
        b = jmin([k + h + 1, n])
        out.append(div(minus(get(c, b), get(c, a)), b - a))
    return out


def arrivals_spread(xs):
    """A series with unknown periods (-1: the reader slept through them) as
    numbers, the next read's count spread evenly over the gap it closes (a
    late read is never taken for a burst)."""
    if all(ge(v, 0) for v in each(xs)):
        return xs
    # each read's gap (the unknown periods before it, and itself), then
    # from the end each period its read's share
    g, marked = 0, []
    for v in each(xs):
        g, n = (g + 1 if lt(v, 0) else 0), g + 1
        marked.append((v, n))
    out, share = [], 0
    for v, n in reversed(marked):
        if ge(v, 0):
            share = div(v, n)
        out.append(share)
    return out[::-1]


def arrivals_bins(a, w):
    """The indexes of the periods inside the load window w ({from, to}:
    seconds on the sampler's clock), all when w is null."""
    if w is None:
        return [0, get(a, "bins")]
    lo = jceil(div(times(minus(get(w, "from"), get(a, "t0_s")), 1000), get(a, "period_ms")))
    hi = jfloor(div(times(minus(get(w, "to"), get(a, "t0_s")), 1000), get(a, "period_ms")))
    return [0 if lt(lo, 0) else lo, get(a, "bins") if gt(hi, get(a, "bins")) else hi]


def arrivals_stalled(a, lo, n, stalls):
    """Per period of [lo, lo + n), whether a stall of a server CPU covered
    it (stalls: [{start, length_ms}])."""
    out = []
    for k in jrange(lo, plus(lo, n)):
        t = plus(get(a, "t0_s"), div(times(k, get(a, "period_ms")), 1000))
        out.append(any(le(get(s, "start"), plus(t, div(get(a, "period_ms"), 1000)))
                       and le(t, plus(get(s, "start"), div(get(s, "length_ms"), 1000))) for s in each(stalls)))
    return out


def _transpose(rows):
    n = jmax([length(r) for r in rows])
    return [[get(r, i) for r in rows] for i in jrange(0, alt(n, 0))] if rows else []


def arrivals_port(a, role, w, stalls):
    """One server's arrivals over the load."""
    bins = arrivals_bins(a, w)
    lo, hi = get(bins, 0), get(bins, 1)
    p = get(get(a, "ports"), role)
    off = jslice(arrivals_spread(get(p, "offered")), lo, hi)
    lost = [alt(add(r), 0) for r in _transpose([jslice(arrivals_spread(get(p, "dropped")), lo, hi),
                                                 jslice(arrivals_spread(alt(get(p, "refused"), [])), lo, hi)])]
    n = length(off)
    rho = div(add(off), n) if gt(n, 0) else 0
    local = arrivals_local_mean(off)
    st = arrivals_stalled(a, lo, n, stalls)
    r = {"q": 0, "ahead_max": 0, "lost": 0, "in_burst": 0, "in_stall": 0}
    for i in jrange(0, n):
        r["q"] = jmax([minus(plus(r["q"], get(off, i)), get(local, i)), 0])
        r["ahead_max"] = jmax([r["ahead_max"], r["q"]])
        r["lost"] = plus(r["lost"], get(lost, i))
        if ge(r["q"], arrivals_ring_entries()):
            r["in_burst"] = plus(r["in_burst"], get(lost, i))
        if truthy(get(st, i)):
            r["in_stall"] = plus(r["in_stall"], get(lost, i))
    return {"periods": n, "offered": jround(alt(add(off), 0)), "mean_per_period": jround(times(rho, 10)) / 10,
            "peak_per_period": jround(alt(jmax(off), 0)), "ahead_max": jround(r["ahead_max"]),
            "lost": jround(r["lost"]), "lost_in_burst": jround(r["in_burst"]), "lost_in_stall": jround(r["in_stall"])}


def arrivals_cause(e):
    """The cause of what the queues refused, from the counts of an evidence
    object (input): "burst" when at least half of it came while the
    arrivals ran at least a ring ahead of their local mean, "stall" when at
    least half came while a server CPU stalled, "steady" when neither
    (smooth arrivals, a running CPU: the server's own), "none" when nothing
    was refused."""
    if eq(get(e, "lost"), 0):
        return "none"
    if ge(times(get(e, "lost_in_burst"), 2), get(e, "lost")):
        return "burst"
    if ge(times(get(e, "lost_in_stall"), 2), get(e, "lost")):
        return "stall"
    return "steady"


def arrivals_merge(es):
    """Repetitions' evidence (input: an array, nulls for the unmeasured) as
    one; null when none was measured."""
    m = [e for e in each(es) if type_name(e) == "object"]
    if not m:
        return None
    out = {"ahead_max": jmax([e.get("ahead_max") for e in m]), "lost": add([e.get("lost") for e in m]),
           "lost_in_burst": add([e.get("lost_in_burst") for e in m]),
           "lost_in_stall": add([e.get("lost_in_stall") for e in m]),
           "queue_entries": arrivals_ring_entries(), "burst": any(e.get("burst") is True for e in m)}
    return setpath(out, "cause", arrivals_cause(out))


def arrivals_point(a, w, stalls, servers):
    """The point's evidence: per server, then over both; burst: whether the
    arrivals ran a ring ahead of their local mean at all (with or without a
    loss); the cause of what its queues refused (arrivals_cause); null
    without a series (a lab, or a run from before it was read)."""
    if a is None or type_name(a) != "object":
        return None
    ports = {}
    for r in each(servers):
        if truthy(get(get(a, "ports"), r)):
            ports[r if isinstance(r, str) else to_text(r)] = arrivals_port(a, r, w, stalls)
    lost = alt(add([get(p, "lost") for p in ports.values()]), 0)
    burst = alt(add([get(p, "lost_in_burst") for p in ports.values()]), 0)
    stall = alt(add([get(p, "lost_in_stall") for p in ports.values()]), 0)
    ahead = alt(jmax([get(p, "ahead_max") for p in ports.values()]), 0)
    e = {"period_ms": get(a, "period_ms"), "refused_counter": alt(get(a, "refused_counter"), None),
         "queue_entries": arrivals_ring_entries(), "ahead_max": ahead, "burst": ge(ahead, arrivals_ring_entries()),
         "lost": lost, "lost_in_burst": burst, "lost_in_stall": stall}
    e = setpath(e, "cause", arrivals_cause(e))
    rule = ("per period of %s ms at the switch's port toward each server: what it offered, what the server's ring dropped and its "
            "sockets refused (%s); a burst when the arrivals ran at least %s queries ahead of "
            "their mean rate over the surrounding %s ms (the backlog of a queue drained at that rate), "
            "a stall when a server CPU stalled in that period; "
            "the cause is what held at least half of the work lost"
            % (to_text(get(a, "period_ms")), to_text(alt(get(a, "refused_counter"), "not read")),
               to_text(arrivals_ring_entries()), to_text(times(arrivals_local_periods(), get(a, "period_ms")))))
    return plus(e, {"ports": ports, "rule": rule})


def arrivals_cause_words(e):
    """The cause in a verdict's words; "" when there is no evidence."""
    if e is None:
        return ""
    cause = get(e, "cause")
    f = lambda k: to_text(get(e, k))
    if cause == "burst":
        return ("a generator burst: %s of the %s queries lost came while the arrivals ran at least %s ahead of their "
                "local mean rate (up to %s), more than a receive ring holds"
                % (f("lost_in_burst"), f("lost"), f("queue_entries"), f("ahead_max")))
    if cause == "stall":
        return "a host stall: %s of the %s queries lost came while a server CPU stalled" % (f("lost_in_stall"), f("lost"))
    if cause == "steady":
        return ("with smooth arrivals (at most %s ahead of their mean rate) and no stall of the server CPU"
                % f("ahead_max"))
    return ""

"""layers -- where work is lost on the testbed: the layers a query and its
answer cross, who owns each (the rig that measures, the configured link,
or the server under test), the work each lost in a run (from the testbed
sampler's summary, docs/sampler.md), and which layer lost the first work
at a failing point. Shared by the TCP and the UDP experiments
(tcpbench/sweep/rules.jq, udpreplay/udp/run); nothing else restates it.
(From scripts/lib/layers.jq; test_rules_layers.py checks they agree.)

The jq's filters on the sampler's summary (mib, dev_drops, ...) take it
as their first argument here (s), then the jq's $arguments."""

from rootbench.rules.jqlib import (add, alt, div, each, ge, get, gt, jmax, jround, minus, plus, times,
                                   to_entries, truthy)


def nz(v):
    """A counter, 0 for none (null or false)."""
    return alt(v, 0)


_LAYERS = [
    {"name": "generator", "owner": "rig", "what": "the generator (tcpbench's self-check and local errors; tcpreplay's rate)"},
    {"name": "player_kernel", "owner": "rig", "what": "the players' kernels (interface and IP drops)"},
    {"name": "client_cpu_backlog", "owner": "rig", "what": "the clients' CPU input backlog (softnet drops)"},
    {"name": "switch", "owner": "rig", "what": "the switch (bridge and port drops)"},
    {"name": "router", "owner": "rig", "what": "the router (forwarding and interface drops)"},
    {"name": "link", "owner": "link", "what": "the shaped link (tbf drops)"},
    {"name": "server_ring", "owner": "server", "what": "the server's receive ring (its interface's queue of 256, full while its receive thread waited: STEER=napi)"},
    {"name": "server_cpu_backlog", "owner": "server", "what": "the server CPU's input backlog (softnet drops)"},
    {"name": "accept_queue", "owner": "server", "what": "the server kernel's accept queue (ListenOverflows/ListenDrops)"},
    {"name": "server_socket", "owner": "server", "what": "the server's socket buffers (UDP receive buffer errors; TCP backlog and receive-queue drops)"},
    {"name": "daemon", "owner": "server", "what": "the server daemon (received but not answered; refused)"},
]


def layers():
    """The layers in path order. The CPU input backlogs are per CPU, shared
    by everything that runs on it (other testbeds, other work on the
    machine)."""
    return [dict(l) for l in _LAYERS]


def _sum0(xs):
    return alt(add(xs), 0)


def mib(s, roles, k):
    """A kernel counter's delta, summed over roles."""
    return _sum0([nz(get(get(get(s, "deltas"), x), k)) for x in each(roles)])


def dev_drops(s, roles):
    """Drops of every interface of the roles (rx and tx)."""
    return _sum0([plus(nz(get(i, "rx_dropped")), nz(get(i, "tx_dropped")))
                  for x in each(roles) for i in each(alt(get(get(s, "dev"), x), {}))])


def ring_drops(s, ports):
    """What the switch's ports could not hand to the interface on their
    other end: veth counts a packet its peer's ring (STEER=napi: the peer
    polls with NAPI) had no room for as a tx drop of the sender. The
    switch's ports are named after the role on their other end, so the
    ports of the servers are the servers' receive rings."""
    sw = alt(get(get(s, "dev"), "switch"), {})
    return _sum0([nz(get(get(sw, p), "tx_dropped")) for p in each(ports)])


def qdisc_drops(s, roles):
    """Drops of every qdisc of the roles (tbf shaping)."""
    return _sum0([nz(get(q, "drops")) for x in each(roles) for q in each(alt(get(get(s, "qdisc"), x), {}))])


def qdisc_queue_max(s, roles):
    """The fullest the tbf qdiscs of the roles (the shaped link) got during
    the run: {backlog_max: bytes, qlen_max: packets}."""
    q = [d for x in each(roles) for d in each(alt(get(get(s, "qdisc"), x), {})) if get(d, "kind") == "tbf"]
    return {"backlog_max": alt(jmax([nz(get(d, "backlog_max")) for d in q]), 0),
            "qlen_max": alt(jmax([nz(get(d, "qlen_max")) for d in q]), 0)}


def cpu_busy_pct(s, cpus):
    """The mean busy percent of the CPUs (names: cpuN) over the sampler's
    run (busy from idle time), one decimal; null when none seen."""
    b = [v for v in (get(get(get(s, "cpu"), c), "busy_pct") for c in each(cpus)) if truthy(v)]
    return jround(times(div(add(b), len(b)), 10)) / 10 if b else None


def load_window(series, active):
    """The seconds a run's load ran, from the sampler's series (one line
    per sample, t its end): the samples for which active (a function of a
    line, jq's filter) is true, less the first and the last (the load
    started and ended inside them); {from, to} such that the samples with
    from < t <= to are the load's, null with fewer than three. A
    generator's lead and tail (kxdpgun waits a second before its first
    query, the sweep settles after the last) stay out of the CPU figures."""
    t = [get(x, "t") for x in each(series) if truthy(active(x))]
    return {"from": t[0], "to": t[-2], "samples": len(t) - 2} if len(t) >= 3 else None


def _player1_rx(x):
    return alt(get(get(get(get(x, "dev"), "switch"), "player1"), "rx_packets"), 0)


def generator_window(series):
    """The load window of a run whose generator sends from player1 (the
    UDP sweep's kxdpgun and tcpreplay): the samples in which the switch's
    port from player1 received at least a tenth of the most it received in
    one sample (kxdpgun's ping of its gateway and the reports its XDP
    attach sets off, a second before its first query, are a few packets)."""
    peak = alt(jmax([_player1_rx(x) for x in each(series)]), 0)
    return load_window(series, lambda x: gt(peak, 0) and ge(_player1_rx(x), div(peak, 10)))


def window_busy_pct(series, w, cpus):
    """The CPUs' busy percent over the samples of the window w (busy from
    idle time, summed over the samples, never one sample's figure), one
    decimal; null without a window."""
    if w is None:
        return None
    c = []
    for x in each(series):
        if gt(get(x, "t"), plus(get(w, "from"), 0.0005)) and not gt(get(x, "t"), plus(get(w, "to"), 0.0005)):
            c += [alt(get(get(x, "cpu"), n), {}) for n in each(cpus)]
    wall = _sum0([alt(get(v, "wall_ms"), 0) for v in c])
    if gt(wall, 0):
        return jround(times(div(times(add([alt(get(v, "busy_ms"), 0) for v in c]), 100), wall), 10)) / 10
    return None


def softnet_drops(s, cpus):
    """Packets the CPUs' input backlogs dropped."""
    return _sum0([nz(get(get(get(get(s, "cpu"), c), "softnet"), "dropped")) for c in each(cpus)])


def _plus(*xs):
    acc = xs[0]
    for x in xs[1:]:
        acc = plus(acc, x)
    return acc


def sample_loss(s, ctx):
    """The work each layer below the generator and above the daemon lost in
    one run, from the sampler summary (s, the jq's input) and
    ctx = {players: [ROLE], servers: [ROLE], cpus: {server: [cpuN], client: [cpuN]}}."""
    players, servers, cpus = get(ctx, "players"), get(ctx, "servers"), get(ctx, "cpus")
    m = lambda roles, k: mib(s, roles, k)
    return {
        "player_kernel": _plus(dev_drops(s, players), m(players, "IpInDiscards"), m(players, "IpOutDiscards"),
                               m(players, "Ip6InDiscards"), m(players, "Ip6OutDiscards")),
        "client_cpu_backlog": softnet_drops(s, get(cpus, "client")),
        "switch": minus(dev_drops(s, ["switch"]), ring_drops(s, servers)),
        "server_ring": ring_drops(s, servers),
        "router": _plus(dev_drops(s, ["router"]), m(["router"], "IpInDiscards"), m(["router"], "IpOutDiscards"),
                        m(["router"], "IpExtInNoRoutes"),
                        m(["router"], "Ip6InDiscards"), m(["router"], "Ip6OutDiscards"), m(["router"], "Ip6InNoRoutes")),
        "link": qdisc_drops(s, ["router", "switch"]),
        "server_cpu_backlog": softnet_drops(s, get(cpus, "server")),
        "accept_queue": plus(jmax([m(servers, "TcpExtListenDrops"), m(servers, "TcpExtListenOverflows")]),
                             m(servers, "TcpExtTCPReqQFullDrop")),
        "server_socket": _plus(m(servers, "TcpExtTCPBacklogDrop"), m(servers, "TcpExtTCPRcvQDrop"),
                               jmax([m(servers, "UdpRcvbufErrors"), m(servers, "UdpInErrors")]),
                               jmax([m(servers, "Udp6RcvbufErrors"), m(servers, "Udp6InErrors")])),
    }


def add_loss(losses):
    """The sum of several runs' losses, layer by layer."""
    out = {}
    for l in each(losses):
        for e in to_entries(l):
            out[e["key"]] = plus(out.get(e["key"]), e["value"])
    return out


def loss_per_k(p, layer):
    """Work lost at a layer per 1000 attempted (a point: {attempted, loss:
    {LAYER: n}})."""
    attempted = alt(get(p, "attempted"), 0)
    if gt(attempted, 0):
        return div(times(alt(get(get(p, "loss"), layer), 0), 1000), get(p, "attempted"))
    return 0


def first_loss_layer(p, below):
    """The first layer, in path order, that lost work at this point (p)
    beyond what it lost at the comparison point below (the highest good
    point under it; null: none): more than 0.1 per 1000 and more than
    twice the rate below."""
    found = []
    # every layer's figures first, as the jq builds its array before [0]
    for l in layers():
        at = loss_per_k(p, l["name"])
        b = loss_per_k(below, l["name"]) if truthy(below) else 0
        if gt(alt(get(get(p, "loss"), l["name"]), 0), 0) and ge(at, 0.1) and gt(at, times(2, b)):
            found.append(plus(l, {"lost": get(get(p, "loss"), l["name"]), "per_1000": jround(times(at, 1000)) / 1000,
                                  "per_1000_below": jround(times(b, 1000)) / 1000}))
    return found[0] if found else None

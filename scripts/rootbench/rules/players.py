"""players -- the load split over the players (scripts/lib/players.sh):
each player's share of a rate and of a source block, and the start skew
of players started at one absolute time. Pure: the shell passes the
players, the rate, the block and the measured starts.
(From scripts/lib/players.jq; test_rules_players.py checks they agree.)"""

from rootbench.jqtext import join_text, to_text
from rootbench.rules.jqlib import (JqError, each, eq, ge, get, gt, jfloor, jmax, jmin, jrange, jround,
                                   jslice, jsplit, length, lt, minus, mod, plus, test, times, div, tonumber,
                                   truthy, type_name)


def _binary(n, w):
    return [mod(jfloor(div(n, 2.0 ** i)), 2) for i in _range_down(minus(w, 1))]


def _range_down(start):
    """jq's range(start; -1; -1)."""
    k = start
    while k > -1:
        yield k
        k -= 1


def cidr_bits(cidr):
    """An IPv4 or IPv6 CIDR as {width: 32|128, len, bits: [0|1, ...]} (the
    address's bits, most significant first); an error naming it when it is
    not one."""
    def bad():
        return JqError("not a CIDR: %s" % to_text(cidr))
    if not isinstance(cidr, str):
        raise JqError("split input and separator must be strings")
    p = jsplit(cidr, "/")
    if len(p) != 2 or not test(p[1], "^[0-9]{1,3}$"):
        raise bad()
    ln = tonumber(p[1])
    if test(p[0], ":"):
        h = jsplit(p[0], "::")
        if len(h) > 2:
            raise bad()
        g = [[] if x == "" else jsplit(x, ":") for x in h]
        x = g[0] + ["0"] * max(0, 8 - len(g[0]) - len(g[1])) + g[1] if len(g) == 2 else get(g, 0)
        if length(x) != 8 or any(not test(v, "^[0-9a-fA-F]{1,4}$") for v in each(x)) or gt(ln, 128):
            raise bad()
        bits = []
        for v in x:
            n = 0
            for c in v.lower():
                c = ord(c)
                n = n * 16 + (c - 87 if c >= 97 else c - 48)
            bits += _binary(n, 16)
        return {"width": 128, "len": ln, "bits": bits}
    o = jsplit(p[0], ".")
    if len(o) != 4 or any(not test(v, "^[0-9]{1,3}$") for v in o) or any(gt(tonumber(v), 255) for v in o) or gt(ln, 32):
        raise bad()
    return {"width": 32, "len": ln, "bits": [b for v in o for b in _binary(tonumber(v), 8)]}


def _num(b):
    acc = 0
    for x in each(b):
        acc = plus(times(acc, 2), x)
    return acc


def _hex(v):
    if eq(v, 0):
        return "0"
    digits = [v]
    while ge(digits[-1], 16):
        digits.append(jfloor(div(digits[-1], 16)))
    return "".join(chr(int(d) + 48 if d < 10 else int(d) + 87) for d in (mod(x, 16) for x in reversed(digits)))


def cidr_text(c):
    """cidr_bits's form back as text (IPv6 with its longest run of zero
    groups, two or more, written "::")."""
    bits = get(c, "bits")
    if eq(get(c, "width"), 32):
        return join_text([to_text(_num(jslice(bits, i * 8, (i + 1) * 8))) for i in range(4)], ".") + "/" + to_text(get(c, "len"))
    g = [_num(jslice(bits, i * 16, (i + 1) * 16)) for i in range(8)]
    best, cur = {"i": 0, "n": 0}, {"i": 0, "n": 0}
    for i in range(8):
        if eq(g[i], 0):
            cur = {"i": i, "n": 1} if cur["n"] == 0 else {"i": cur["i"], "n": cur["n"] + 1}
            if cur["n"] > best["n"]:
                best = cur
        else:
            cur = {"i": 0, "n": 0}
    h = [_hex(v) for v in g]
    if best["n"] >= 2:
        text = join_text(h[0:best["i"]], ":") + "::" + join_text(h[best["i"] + best["n"]:], ":")
    else:
        text = join_text(h, ":")
    return text + "/" + to_text(get(c, "len"))


def cidr_split(cidr, n):
    """cidr as n disjoint blocks of one size, the first n of its 2^k equal
    parts (2^k >= n, k the least), in address order; null when cidr holds
    fewer than n addresses' worth of parts."""
    c = cidr_bits(cidr)
    k = next((j for j in range(64) if not lt(2.0 ** j, n)), None)
    if gt(plus(c["len"], k), c["width"]):
        return None
    out = []
    for i in jrange(0, n):
        ib = [mod(jfloor(div(i, 2.0 ** j)), 2) for j in _range_down(minus(k, 1))]
        out.append(cidr_text({"width": c["width"], "len": plus(c["len"], k),
                              "bits": jslice(c["bits"], 0, c["len"]) + ib
                              + [0 for _ in jrange(0, minus(minus(c["width"], c["len"]), k))]}))
    return out


def player_shares(players, rate, sources):
    """Each player's share of the rate and its sources, [{player, rate,
    sources}] in the order of players: an integer rate in whole parts that
    sum to it (the first rate % n players one more), any other rate in
    equal parts; sources split into disjoint blocks, one each
    (cidr_split), or, when it is too small for that (the Listener's one
    address), the whole of it to every player, and then sources_shared is
    true. A player whose share is 0 sends nothing. sources null: no sources
    (the player's own)."""
    n = length(players)
    if lt(n, 1):
        raise JqError("no players to share the load")
    if type_name(rate) != "number" or rate < 0:
        raise JqError("rate %s: not a rate" % to_text(rate))
    blocks = None if sources is None else cidr_split(sources, n)
    out = []
    for i in jrange(0, n):
        if rate == jfloor(rate):
            r = plus(jfloor(div(rate, n)), 1 if lt(i, mod(rate, n)) else 0)
        else:
            r = div(rate, n)
        out.append({"player": get(players, i), "rate": r,
                    "sources": None if sources is None else sources if blocks is None else get(blocks, i),
                    "sources_shared": sources is not None and blocks is None and gt(n, 1)})
    return out


def _ms(x):
    return jround(times(x, 1e6)) / 1e3


def start_skew(at, starts):
    """Players started at one absolute time at (seconds since the epoch,
    null when they were not), from the measured start of each one's
    sending (starts: [{player, start}], each on its host's own clock, start
    null when not measured): each one's lateness, the spread between the
    first and the last, in ms."""
    t = [get(s, "start") for s in each(starts) if get(s, "start") is not None]
    return {"at": at,
            "players": [{"player": get(s, "player"), "start": get(s, "start"),
                         "late_ms": _ms(minus(get(s, "start"), at)) if at is not None and get(s, "start") is not None
                         else None} for s in each(starts)],
            "late_ms_max": _ms(minus(jmax(t), at)) if at is not None and t else None,
            "skew_ms": _ms(minus(jmax(t), jmin(t))) if t else None,
            "measured": len(t)}


def players_sweep(sources, lead, starts):
    """A sweep's players: who sent (sources: [{player, sources, shared}],
    each one's block of the sources) and, over its points' start skews
    (starts: start_skew's, one a point measured in this run), the worst
    lateness and the widest spread, in ms; null where nothing was measured
    (a point kept from an earlier run has none; players not started at one
    time have no lateness)."""
    def maxof(k):
        return jmax([v for v in (get(s, k) for s in each(starts)) if v is not None])
    return {"roles": [get(s, "player") for s in each(sources)], "sources": sources,
            "sources_shared": any(truthy(get(s, "shared")) for s in each(sources)),
            "rate_split": "equal shares of the rate, whole ones of a whole rate (players.jq player_shares)",
            "start": {"absolute": any(get(s, "at") is not None for s in each(starts)), "lead_s": lead,
                      "points": length(starts),
                      "measured": len([s for s in each(starts) if eq(get(s, "measured"), length(get(s, "players")))]),
                      "late_ms_max": maxof("late_ms_max"), "skew_ms_max": maxof("skew_ms"),
                      "source": ("each player's first packet as its generator reports it (tcpreplay's Test start, "
                                 "tcpbench's first connection; kxdpgun's ready line stamped on its host, plus its fixed "
                                 "1 s sleep), on its host's own clock")}}

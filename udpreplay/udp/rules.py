"""rules: the UDP experiment's summary rules, in one place: which points
are valid, the ceiling as a range over repetitions (and the rates that
held again above the first failure), which layer lost the first answers
and whether a full shaped link held the server back (backpressure), the
physics check against the link, and the summary of one LB mode.
udpreplay/udp/run and the fixture tests (tests/test_rules.py with
testdata/*.csv) both call these functions; nothing else restates them.

A point is one row of points.csv as a record (csv_points): requested_qps,
rep, achieved_qps, sent, server_queries, daemon_queries, answers,
answer_ratio, answered_qps, answer_ip_bytes, stray_packets,
generator_limited, loss_LAYER for every layer of rootbench.rules.layers,
link_backlog_max and link_qlen_max (the shaped link's tbf queue at its
fullest, from the sampler), rig_share (the rig's share of the server CPU,
rootbench.rules.charge; empty when not measured). Settings s: {lb,
threshold, link_bps (null unshaped), note (why the search ended, or ""),
steer, cpu_budget, throttle}.

The figures are jq's (rootbench.rules.jqlib: numbers are doubles, jq's
order and arithmetic), printed with rootbench.jqtext, so that summaries
stay what the jq wrote; what reached the servers per millisecond is
rootbench.rules.arrivals'.

Run by path: rules.py schema | lb-summary COLS SETTINGS [--dir FOLDER
--probe on|off --sources TEXT --lead SECONDS|null] (points.csv rows on
stdin; with the folder: the probe and players blocks too) | top (an
array of LB summaries on stdin) | counted-by GENERATOR SENT.
"""

import json
import os
import subprocess
import sys

if __name__ == "__main__":
    # run by path (-I -S): the package rootbench beside it
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from rootbench.experiment import load_path as _load_path  # noqa: E402
from rootbench.jqtext import join_text, to_json, to_text, truthy  # noqa: E402
from rootbench.rules.arrivals import arrivals_cause_words, arrivals_merge, arrivals_ring_entries  # noqa: E402
from rootbench.rules.charge import receive_on_server_cpu, rig_charge, rig_share_limit, with_charge  # noqa: E402
from rootbench.rules.jqlib import (JqError, add, alt, div, each, eq, ge, get, gt, jmax, jmin, jround,  # noqa: E402
                                   le, loads, lt, minus, plus, sort_key, tonumber, times, unique)
from rootbench.rules.layers import first_loss_layer, layers  # noqa: E402
from rootbench.rules.players import players_sweep  # noqa: E402
from rootbench.rules.probe_sweep import probe_point, probe_sweep  # noqa: E402
from rootbench.rules.spread import repeat_spread  # noqa: E402
from rootbench.rules.wire import ethernet_header_bytes, frame_overhead_bytes  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# The schema the run writes: the one its readers' accessors check
# (accessors.py for Python, rules.jq for jq; tests/test_accessors.py).
SCHEMA = _load_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "accessors.py")).UDP_SCHEMA

# A shaped link that carried at least this share of its rate was full.
LINK_FULL_RATIO = 0.97
# A tbf queue that held this many milliseconds of the link's rate was full
# (the testbed lets tbf queue 20 ms: scripts/lib/testbed.sh tb_configure_link).
LINK_QUEUE_FULL_MS = 10
# The widest ceiling range, (high - low) / low, that still gives a figure
# per CPU: a range wider than this (a repetition fell far below where the
# first held) leaves the ceiling unknown within it.
PER_CPU_RESOLUTION = 0.10


def answer_wire_overhead():
    """An answer's frame on the wire beyond its IP packet: the Ethernet
    header, FCS, preamble and inter-frame gap (rootbench.rules.wire)."""
    return ethernet_header_bytes() + frame_overhead_bytes()


def round4(x):
    return jround(times(x, 10000)) / 10000


def round1(x):
    return jround(times(x, 10)) / 10


def _median_or_null(xs):
    return repeat_spread(xs)["median"] if xs else None


def _numbers(xs):
    return [x for x in xs if isinstance(x, float) or (isinstance(x, int) and not isinstance(x, bool))]


# ---------------------------------------------------------------- points

def _cell(v):
    """A CSV cell as jq's `tonumber? // .` reads it: a number, or the text."""
    if v is None:
        return None
    try:
        return tonumber(v)
    except JqError:
        return v


def csv_points(text, cols):
    """The rows of points.csv (its text; '#' lines and empty lines skipped)
    as records named by cols (comma-separated). A row from before
    repetitions is repetition 1."""
    c = cols.split(",")
    out = []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        v = line.split(",")
        p = {}
        for i, name in enumerate(c):
            p[name] = _cell(v[i] if i < len(v) else None)
        p["rep"] = alt(p.get("rep"), 1.0)
        out.append(p)
    return out


def valid_points(points):
    return [p for p in points if eq(get(p, "generator_limited"), 0)]


def _group_by(xs, key):
    out = []
    for x in sorted(xs, key=lambda x: sort_key(key(x))):
        if out and eq(key(out[-1][0]), key(x)):
            out[-1].append(x)
        else:
            out.append([x])
    return out


def rates(points, thr):
    """The valid points by rate: every repetition held the threshold
    (held), or at least one failed."""
    return [{"rate": g[0].get("requested_qps"), "reps": len(g),
             "held": all(ge(p.get("answer_ratio"), thr) for p in g),
             "some_held": any(ge(p.get("answer_ratio"), thr) for p in g)}
            for g in _group_by(valid_points(points), lambda p: p.get("requested_qps"))]


def ceiling_range(points, thr):
    """high = the lowest rate at which any valid repetition fell below the
    threshold; low = the highest rate below it (every repetition there,
    and at every lower rate, held); null when no repetition failed (low)
    or none held below the failure (low). non_monotonic: rates above high
    where every repetition held again (flagged, never taken as the
    ceiling); mixed: rates whose repetitions disagreed."""
    r = rates(points, thr)
    high = jmin([x["rate"] for x in r if not x["held"]])
    low = jmax([x["rate"] for x in r if high is not None and lt(x["rate"], high)])
    return {"low": low, "high": high,
            "held_up_to": jmax([x["rate"] for x in r]) if high is None else low,
            "non_monotonic": [] if high is None else [x["rate"] for x in r if gt(x["rate"], high) and x["held"]],
            "mixed": [x["rate"] for x in r if x["reps"] > 1 and not x["held"] and x["some_held"]],
            "repetitions_max": alt(jmax([float(x["reps"]) for x in r]), 0)}


def at_rate(points, rate):
    """The valid repetitions at one rate."""
    return [p for p in valid_points(points) if eq(p.get("requested_qps"), rate)]


def merged(points):
    """Repetitions as one point for rootbench.rules.layers ({attempted, loss})."""
    return {"attempted": alt(add([p.get("sent") for p in points]), 0),
            "loss": {l["name"]: alt(add([alt(p.get("loss_" + l["name"]), 0) for p in points]), 0) for l in layers()}}


def mean_answer_wire_bytes(points):
    """IP bytes per answer over all valid points plus the Ethernet overhead
    per frame; null when nothing was answered."""
    v = valid_points(points)
    n = alt(add([p.get("answers") for p in v]), 0)
    if gt(n, 0):
        return plus(div(add([p.get("answer_ip_bytes") for p in v]), n), answer_wire_overhead())
    return None


# ---------------------------------------------------------------- the verdict

def link_use(points, s, wire, high):
    """How full the shaped link was where the answers were first lost: the
    answered bitrate (answered q/s x answer wire bytes x 8) over the link
    rate at the first failing rate (median of its failing repetitions) and
    over the plateau of every failing point at or above it (median), and
    the tbf queue at its fullest there, in ms of the link's rate. full:
    either share >= LINK_FULL_RATIO, or the queue held LINK_QUEUE_FULL_MS.
    Null unshaped (link_bps null): an unshaped link never limits."""
    link = get(s, "link_bps")
    if not (isinstance(link, float) or (isinstance(link, int) and not isinstance(link, bool))) \
            or wire is None or high is None:
        return None
    thr = get(s, "threshold")
    f = [p for p in valid_points(points) if ge(p.get("requested_qps"), high) and lt(p.get("answer_ratio"), thr)]
    first = [p for p in f if eq(p.get("requested_qps"), high)]

    def share(p):
        return div(times(times(p.get("answered_qps"), wire), 8), link)
    at = repeat_spread([share(p) for p in first])["median"]
    plateau = repeat_spread([share(p) for p in f])["median"]
    bl = jmax(_numbers([p.get("link_backlog_max") for p in first]))
    qms = None if bl is None else bl * 8 / link * 1000
    return {"carried_share_at_first_failure": round4(at), "carried_share_plateau": round4(plateau),
            "plateau_points": len(f), "queue_max_ms": None if qms is None else round1(qms),
            "full": ge(at, LINK_FULL_RATIO) or ge(plateau, LINK_FULL_RATIO)
            or (qms is not None and ge(qms, LINK_QUEUE_FULL_MS)),
            "rule": ("full when the answers carried >= %s of the link rate at the first failing rate or over the failing "
                     "points above it, or its tbf queue held >= %s ms of the link rate"
                     % (to_text(LINK_FULL_RATIO), to_text(LINK_QUEUE_FULL_MS)))}


def arrivals_at(points, rate):
    """The repetitions at rate as one piece of per-millisecond evidence
    (the arrivals_* columns), null when none of them was measured; with
    the cause in words: (evidence, words)."""
    pieces = [{"ahead_max": p.get("arrivals_ahead_max"), "lost": p.get("arrivals_lost"),
               "lost_in_burst": p.get("arrivals_lost_in_burst"), "lost_in_stall": p.get("arrivals_lost_in_stall"),
               "burst": ge(p.get("arrivals_ahead_max"), arrivals_ring_entries())}
              for p in at_rate(points, rate) if _numbers([p.get("arrivals_lost")])]
    e = arrivals_merge(pieces)
    return e, arrivals_cause_words(e)


def _budget_need(s):
    """The server CPU's busy percent that is all its daemons may use (90 %
    of their budget, or of the whole CPU)."""
    b = alt(get(get(s, "cpu_budget"), "budget"), 1.0)
    if gt(b, 1):
        b = 1.0
    return times(times(b, 100), 0.9)


def server_mechanism(points, s, rate):
    """How the server's layer lost work at rate. "cpu" when the server CPU
    was busy at least 90 % of what its daemons may use over the load
    (median over the repetitions, busy from idle time): it ran out,
    whatever the arrivals did. With the CPU to spare, from what reached
    the servers per millisecond (arrivals_at), when measured: "burst" when
    at least half of what their rings and sockets refused came while the
    arrivals ran a ring ahead of their local mean (the generator's,
    caused_by "generator"), "stall" when half came in a stall of a server
    CPU (the host's, caused_by "host"); else "queue" (a queue overflowed
    with the CPU to spare and smooth arrivals, or arrivals not measured:
    where its queues overflow, not its CPU's capacity); "unknown" when the
    CPU was not measured. {mechanism, busy, caused_by, arrivals}, and the
    arrivals' cause in words."""
    busy = _median_or_null(_numbers([p.get("server_cpu_busy_pct") for p in at_rate(points, rate)]))
    need = _budget_need(s)
    e, words = arrivals_at(points, rate)
    cause = alt(get(e, "cause"), "")
    m = {"busy": busy, "arrivals": e}
    if busy is not None and ge(busy, need):
        m.update(mechanism="cpu", caused_by="server")
    elif cause == "burst":
        m.update(mechanism="burst", caused_by="generator")
    elif cause == "stall":
        m.update(mechanism="stall", caused_by="host")
    elif busy is None:
        m.update(mechanism="unknown", caused_by="server")
    else:
        m.update(mechanism="queue", caused_by="server")
    return m, words


def verdict(points, s, rng, wire):
    """Where the first answers were lost at the first failing rate, against
    the highest rate below it. A full shaped link is the limit whichever
    counter the first loss appeared in: answers waiting for the link hold
    the server's socket back, which then stops reading and its receive
    buffer overflows (docs/udp.md, "Backpressure")."""
    B, L = rng["high"], rng["low"]
    if B is None:
        return None
    t = to_text
    bp = merged([p for p in at_rate(points, B) if lt(p.get("answer_ratio"), get(s, "threshold"))])
    lp = None if L is None else merged(at_rate(points, L))
    fl = first_loss_layer(bp, lp)
    lu = link_use(points, s, wire, B)
    counts = {} if fl is None else {"lost": fl["lost"], "per_1000": fl["per_1000"], "per_1000_below": fl["per_1000_below"]}
    where = "" if fl is None else "%s: %s (%s per 1000 queries sent, %s at %s q/s)" % (
        t(fl["what"]), t(fl["lost"]), t(fl["per_1000"]), t(fl["per_1000_below"]), t(alt(L, "no lower")))
    if truthy(alt(get(lu, "full"), False)):
        v = {"at_qps": B, "layer": "link", "caused_by": "link", "first_counter": alt(get(fl, "name"), None)}
        v.update(counts)
        text = "at %s q/s the answers filled the shaped link (%s of its rate carried" % (
            t(B), t(lu["carried_share_at_first_failure"]))
        if gt(alt(lu["queue_max_ms"], 0), 0):
            text += ", its queue held up to %s ms" % t(lu["queue_max_ms"])
        text += ")"
        if fl is None:
            pass
        elif fl["owner"] == "link":
            text += "; the first work was lost at " + where
        else:
            text += "; the first loss was counted at %s, where answers waiting for the link held the server back" % where
        v.update(backpressure=lu, summary=text + ": the ceiling of the link, not of the server")
        return v
    if fl is None:
        return {"at_qps": B, "layer": "undetermined", "caused_by": "unknown", "backpressure": lu,
                "summary": "answers lost at %s q/s where no layer counted a loss" % t(B)}
    m, words = server_mechanism(points, s, B)
    own = fl["owner"] == "server"
    v = {"at_qps": B, "layer": fl["name"], "caused_by": m["caused_by"] if own else fl["owner"]}
    v.update(counts)
    v["backpressure"] = lu
    if own:
        v.update(mechanism=m["mechanism"], server_cpu_busy_pct=m["busy"], arrivals=m["arrivals"])
    text = "at %s q/s the first work was lost at %s" % (t(B), where)
    if own and m["mechanism"] in ("burst", "stall"):
        text += ": %s, with the server CPU %s %% busy: %s, not the server's capacity" % (
            words, t(alt(m["busy"], "?")), "the generator's burst" if m["mechanism"] == "burst" else "the host's stall")
    elif own and m["mechanism"] == "queue":
        text += (": the server's, with its CPU %s %% busy: a queue overflowed while the CPU had time to spare" % t(m["busy"])
                 + (" (%s)" % words if m["arrivals"] is not None else " (arrivals not measured per millisecond)")
                 + ", so this is where the server's queues overflow, not its CPU's capacity")
    elif own:
        text += ": the ceiling of the server" + (" (%s)" % words if alt(get(m["arrivals"], "cause"), "") == "steady" else "")
    elif fl["owner"] == "link":
        text += ": the ceiling of the link, not of the server"
    else:
        text += ": a limit of the rig, not of the server"
    v["summary"] = text
    return v


def physics_check(s, ceil, wire, v):
    """The ceiling's bitrate against the link's; link_limited and the note
    say what the verdict says."""
    link = get(s, "link_bps")
    if link is None:
        return {"applicable": False, "reason": "unshaped (LINK=none): no wire rate to compare with"}
    if ceil is None or wire is None:
        return {"applicable": True, "expected_bps": link, "measured_bps": None, "ratio": None, "pass": False,
                "link_limited": False, "reason": "no ceiling found"}
    m = times(times(ceil, wire), 8)
    ll = get(v, "layer") == "link"
    caused = get(v, "caused_by")
    if ll:
        note = "the answers filled the link: the link, not the server, limited"
    elif caused == "server":
        note = "the link was not full and the server lost the first answers: the server, not the link, limited"
    elif caused == "rig":
        note = "the link was not full and the rig lost the first answers: the rig, not the link, limited"
    else:
        note = "no layer was shown to limit"
    return {"applicable": True, "rule": "ceiling_qps x mean_answer_wire_bytes x 8 within 10% of link_bps",
            "expected_bps": link, "measured_bps": jround(m), "ratio": round4(div(m, link)),
            "pass": le(abs(minus(div(m, link), 1)), 0.10), "link_limited": ll,
            "note": "at the first rate below the threshold " + note}


def ceiling_text(points, s, rng, ceil, gen):
    """The ceiling in words (points: every point of the run, as the jq's
    input was)."""
    t = to_text
    thr = get(s, "threshold")
    why = " (%s)" % t(s.get("note")) if s.get("note") != "" else ""
    if ceil is not None:
        text = ("found: between %s and %s q/s sent: every repetition answered >= %s up to %s q/s (%s answers/s), one fell "
                "below at %s q/s" % (t(rng["low"]), t(rng["high"]), t(thr), t(rng["low"]), t(ceil), t(rng["high"])))
        if rng["non_monotonic"]:
            text += "; held again above it at %s q/s (not monotonic)" % join_text([t(x) for x in rng["non_monotonic"]], ", ")
        return text
    if gen and rng["high"] is None:
        return "not reached, generator-limited at %s q/s achieved (%s requested)" % (
            t(jmin([p.get("achieved_qps") for p in gen])), t(jmin([p.get("requested_qps") for p in gen])))
    if rng["high"] is None and rng["held_up_to"] is not None:
        return "not reached: every point up to %s q/s answered >= %s%s" % (t(rng["held_up_to"]), t(thr), why)
    if rng["high"] is not None and any(x["held"] for x in rates(points, thr)):
        return "not found: answer ratio below %s already at %s q/s, the lowest rate tried%s" % (t(thr), t(rng["high"]), why)
    return "not found: answer ratio below %s at every point%s" % (t(thr), why)


def critical_points(points, thr, rng):
    """Table 1 style, every repetition of the two highest rates at or below
    low and the two lowest failing rates from high."""
    v = valid_points(points)
    if rng["low"] is None or rng["high"] is None:
        return []
    lo = unique([p.get("requested_qps") for p in v if le(p.get("requested_qps"), rng["low"])])[-2:]
    hi = unique([p.get("requested_qps") for p in v
                 if ge(p.get("requested_qps"), rng["high"]) and lt(p.get("answer_ratio"), thr)])[:2]
    pick = [p for p in v if any(eq(p.get("requested_qps"), r) for r in lo + hi)]
    pick.sort(key=lambda p: sort_key([p.get("requested_qps"), p.get("rep")]))
    out = []
    for p in pick:
        rig = _numbers([p.get("rig_share")])
        c = {k: p.get(k) for k in ("requested_qps", "rep", "achieved_qps", "answered_qps", "answer_ratio", "sent",
                                   "server_queries", "daemon_queries", "answers")}
        c["rig_share"] = rig[0] if rig else None
        c["rig_over_limit"] = gt(rig[0] if rig else 0, rig_share_limit())
        out.append(c)
    return out


def losses_at_first_bad(points, thr, rng):
    """Where the answers of the failing repetitions at the first failing
    rate went missing, by counter (before the server, at its socket, after
    it); who caused it is the verdict's."""
    if rng["high"] is None:
        return None
    p = [x for x in at_rate(points, rng["high"]) if lt(x.get("answer_ratio"), thr)]
    r = {"requested_qps": rng["high"], "repetitions": len(p),
         "before_server": add([minus(x.get("sent"), x.get("server_queries")) for x in p]),
         "at_server_socket": add([minus(x.get("server_queries"), x.get("daemon_queries")) for x in p]),
         "after_server": add([minus(x.get("daemon_queries"), x.get("answers")) for x in p])}
    a, s, b = r["after_server"], r["at_server_socket"], r["before_server"]
    if ge(a, s) and ge(a, b):
        r["where"] = "after the server (answer path)"
    elif ge(s, b):
        r["where"] = "at the server socket (received, not read by the daemon)"
    else:
        r["where"] = "before the server (query path)"
    return r


def per_cpu(points, s, rng, ceil, v):
    """The ceiling per CPU of the server: the answered rate at the
    ceiling's low end over the server CPU's busy share there (median over
    repetitions; busy from idle time: the daemon and, with STEER=rps or
    napi, its kernel receive path). A figure only when the server lost the
    first answers and its CPU was saturated (at least 90 % as busy as the
    daemons may make it: their budget, or the whole CPU; else the rate over
    its busy share is no capacity) and the ceiling is known within
    PER_CPU_RESOLUTION; the budget (s.cpu_budget, from the testbed) and how
    often it throttled the daemon (s.throttle) go with it."""
    low, high = rng["low"], rng["high"]
    busy = None if low is None else _median_or_null(_numbers([p.get("server_cpu_busy_pct") for p in at_rate(points, low)]))
    saturated = busy is not None and ge(busy, _budget_need(s))
    resolved = (low is not None and high is not None and gt(low, 0)
                and le(div(minus(high, low), low), PER_CPU_RESOLUTION))
    budget = get(s, "cpu_budget")
    steer = get(s, "steer")
    server = get(v, "caused_by") == "server"
    on_cpu = receive_on_server_cpu(steer)
    if not server:
        rule = "none: the server was not shown to be the limit"
    elif not resolved:
        rule = ("none: the ceiling lies between %s and %s q/s sent, more than %s %% apart (a repetition fell below where "
                "the first held): the ceiling is not known closely enough"
                % (to_text(low), to_text(high), to_text(PER_CPU_RESOLUTION * 100)))
    elif not on_cpu:
        rule = ("none: the servers' receive path ran on the sending CPU (STEER=%s), so the server CPU's busy share misses it"
                % to_text(alt(steer, "none")))
    elif not saturated:
        rule = ("none: the server CPU was not saturated at the ceiling (busy below 90 % of what the daemons may use), "
                "so it was not what ran out")
    else:
        rule = ("answered q/s at the ceiling / the server CPU's busy share there (the daemon and its kernel receive path, "
                "STEER=%s)" % to_text(steer))
    return {"budget": alt(get(budget, "budget"), None), "period_us": alt(get(budget, "period_us"), None),
            "longest_pause_bound_us": alt(get(budget, "longest_pause_bound_us"), None),
            "throttle": alt(get(s, "throttle"), None), "steer": steer, "server_cpu_busy_pct": busy,
            "server_cpu_saturated": saturated,
            "qps_per_cpu": (jround(div(ceil, div(busy, 100)))
                            if ceil is not None and busy is not None and gt(busy, 0) and server and on_cpu
                            and saturated and resolved else None),
            "rule": rule}


def rig_on_server(points, rng):
    """The rig's share of the server CPU at the points that set the figure
    (the ceiling's two rates, or every valid point when no ceiling was
    found): rootbench.rules.charge's rig_charge."""
    v = valid_points(points)
    if rng["high"] is not None:
        v = [p for p in v if eq(p.get("requested_qps"), rng["high"]) or eq(p.get("requested_qps"), rng["low"])]
    return rig_charge([p.get("rig_share") for p in v])


def lb_summary(points, s):
    """The figures of one LB mode (s["lb"]) from its points (points: all
    points of the run)."""
    thr = get(s, "threshold")
    every = [p for p in points if eq(p.get("lb"), get(s, "lb"))]
    valid = valid_points(every)
    gen = [p for p in every if eq(p.get("generator_limited"), 1)]
    rng = ceiling_range(every, thr)
    ceil = (repeat_spread([p.get("answered_qps") for p in at_rate(every, rng["low"])])["median"]
            if rng["low"] is not None and rng["high"] is not None else None)
    wire = mean_answer_wire_bytes(every)
    charge = rig_on_server(every, rng)
    v = with_charge(verdict(every, s, rng, wire), charge)
    return {"lb": get(s, "lb"),
            "ceiling_qps": ceil,
            "ceiling_low_qps": rng["low"] if ceil is not None else None,
            "ceiling_high_qps": rng["high"],
            "non_monotonic": rng["non_monotonic"],
            "mixed_rates": rng["mixed"],
            "repetitions_max": rng["repetitions_max"],
            "verdict": v,
            "ceiling": ceiling_text(points, s, rng, ceil, gen),
            "search_note": None if s.get("note") == "" else s.get("note"),
            "critical_points": critical_points(every, thr, rng),
            "losses_at_first_bad": losses_at_first_bad(every, thr, rng),
            "max_good_answered_qps": jmax([p.get("answered_qps") for p in valid if ge(p.get("answer_ratio"), thr)]),
            "mean_answer_wire_bytes": None if wire is None else round1(wire),
            "mean_answer_wire_bytes_source": (
                "Listener nftables counter dns_answers over all valid points: IP bytes / packets + %d (Ethernet "
                "header) + %d (FCS, preamble and inter-frame gap)" % (ethernet_header_bytes(), frame_overhead_bytes())),
            "link_bps": get(s, "link_bps"),
            "physics_check": physics_check(s, ceil, wire, v),
            "per_cpu": per_cpu(every, s, rng, ceil, v),
            "rig_charge": charge,
            "stray_packets_max": jmax([p.get("stray_packets") for p in every]),
            "points": len(every), "generator_limited_points": len(gen)}


TOP_FIELDS = ("ceiling_qps", "ceiling_low_qps", "ceiling_high_qps", "non_monotonic", "mixed_rates", "repetitions_max",
              "ceiling", "critical_points", "mean_answer_wire_bytes", "mean_answer_wire_bytes_source", "link_bps",
              "physics_check", "per_cpu", "rig_charge", "lb", "verdict", "probe")


def summary_top(per_lb):
    """The fields of the first LB mode a summary.json carries at its top
    level (per_lb: the LB summaries)."""
    if not per_lb:
        return {"lb": None}
    return {k: per_lb[0].get(k) for k in TOP_FIELDS}


def udp_counted_by(generator, sent):
    """Where each count of points.csv was counted, in words: the queries
    sent by tcpreplay's own summary, or, with kxdpgun, where the testbed
    counted them (sent: the counters' router.counted_by.dns_udp_queries:
    the router, or a lab's switch ports; null before a point measured
    them)."""
    return {"queries_sent": sent if generator == "kxdpgun" else "tcpreplay's own summary (the packets it sent)",
            "server_queries": "the servers' nftables (dns_udp_in: UDP to the service address, port 53)",
            "daemon_queries": "the server daemons' own statistics (scripts/testbed server-stats)",
            "answers": "the Listener's nftables (dns_answers: UDP from the service address, port 53)"}


# ------------------------------------------------------------ the sweep's blocks

def point_stem(lb, rate, rep):
    """The name of a point's files (samples/, probe/): LB-RATE, LB-RATE-rREP."""
    return "%s-%s" % (lb, to_text(rate)) + ("" if eq(rep, 1) else "-r%s" % to_text(rep))


def _first_json(path):
    """The first JSON value of a file (jq's --slurpfile's [0]); null when
    it is missing or empty."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    text = text.lstrip(" \t\r\n")
    if not text:
        return None
    return json.JSONDecoder(parse_int=float).raw_decode(text)[0]


def players_block(points, lb, folder, sources_text, lead):
    """The sweep's players for LB's points (rootbench.rules.players):
    who sent from which sources (sources_text: a line "PLAYER SOURCES
    SHARED" each), and the worst start skew of its points (their samples'
    start; a point kept from an interrupted run has no sample of this
    run)."""
    starts = []
    for p in points:
        if p.get("lb") != lb:
            continue
        f = os.path.join(folder, "samples", point_stem(lb, p.get("requested_qps"), p.get("rep")) + ".json")
        if os.path.isfile(f) and os.path.getsize(f) > 0:
            start = get(_first_json(f), "start")
            if start is not None:
                starts.append(start)
    sources = []
    for line in sources_text.split("\n"):
        if line:
            w = line.split(" ")
            sources.append({"player": w[0], "sources": w[1] if len(w) > 1 else None,
                            "shared": (w[2] if len(w) > 2 else None) == "1"})
    return players_sweep(sources, lead, starts)


def _probe_judged(block):
    """scripts/lib/probe.jq's probe_judged of the block (the report's
    judgement: RSSAC047's thresholds, the queueing knee), in one jq process."""
    built = os.path.join(TOP, "scripts", "jq", "build", "bin", "jq")
    try:
        out = subprocess.run([built if os.access(built, os.X_OK) else "jq", "-c", "-L", os.path.join(TOP, "scripts", "lib"),
                              'import "probe" as rules; rules::probe_judged(.)'],
                             input=to_json(block), capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise JqError("scripts/lib/probe.jq: %s" % (getattr(e, "stderr", "") or e))
    return loads(out)


def probe_block(points, lb, folder, ceiling):
    """The sweep's probe block for LB's points (their probe results in
    probe/, the load's queries from the sent column; a point kept from an
    interrupted run was not probed), by rootbench.rules.probe_sweep."""
    pts = [probe_point(_first_json(os.path.join(folder, "probe", point_stem(lb, p.get("requested_qps"), p.get("rep")) + ".json")),
                       p.get("requested_qps"), p.get("rep"), p.get("sent"), "udp")
           for p in points if p.get("lb") == lb]
    return probe_sweep(_first_json(os.path.join(folder, "probe", lb + "-idle.json")), pts, ceiling, _probe_judged)


def lb_summary_with_blocks(points, s, folder, probe, sources_text, lead):
    """lb_summary and the sweep's probe block (None with the probe off) and
    players, as the run records them."""
    out = lb_summary(points, s)
    out["probe"] = probe_block(points, get(s, "lb"), folder, alt(out.get("ceiling_low_qps"), None)) if probe else None
    out["players"] = players_block(points, get(s, "lb"), folder, sources_text, lead)
    return out


def main(argv):
    if argv == ["schema"]:
        print(SCHEMA)
        return 0
    try:
        if len(argv) == 3 and argv[0] == "lb-summary":
            settings = loads(argv[2])
            print(to_json(lb_summary(csv_points(sys.stdin.read(), argv[1]), settings)))
            return 0
        if len(argv) == 11 and argv[0] == "lb-summary" and argv[3::2] == ["--dir", "--probe", "--sources", "--lead"] \
                and argv[6] in ("on", "off"):
            pts = csv_points(sys.stdin.read(), argv[1])
            print(to_json(lb_summary_with_blocks(pts, loads(argv[2]), argv[4], argv[6] == "on", argv[8], loads(argv[10]))))
            return 0
        if argv == ["top"]:
            print(to_json(summary_top(loads(sys.stdin.read()))))
            return 0
        if len(argv) == 3 and argv[0] == "counted-by":
            print(to_json(udp_counted_by(argv[1], loads(argv[2]))))
            return 0
    except (JqError, ValueError) as e:
        print("udp rules: error: %s" % e, file=sys.stderr)
        return 1
    print("usage: rules.py schema | lb-summary COLS SETTINGS [--dir FOLDER --probe on|off --sources TEXT --lead S] < rows"
          " | top < LB summaries | counted-by GENERATOR SENT",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

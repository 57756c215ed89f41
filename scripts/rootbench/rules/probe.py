"""probe -- the judgement of a sweep's probe block (docs/latency.md):
where RSSAC047's thresholds for one root server identifier stop holding
and the queueing knee, with their words; the block as probe_sweep makes
it, judged by probe_judged. The thresholds are analysis/rssac047.json's,
read once.
(From scripts/lib/probe.jq's probe_checked, probe_rssac047,
probe_queue_knee and probe_judged, which the sweeps' summary writers still
call; test_rules_probe.py checks the two agree.)"""

import json
import os

from rootbench.jqtext import to_json, to_text
from rootbench.rules.jqlib import JqError, alt, each, get, gt, is_number, jmax, jmin, lt, type_name, unique, sort_key

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
_THRESHOLDS = None


def probe_thresholds():
    """analysis/rssac047.json: RSSAC047's thresholds and rootbench's own limits."""
    global _THRESHOLDS
    if _THRESHOLDS is None:
        with open(os.path.join(TOP, "analysis", "rssac047.json")) as f:
            _THRESHOLDS = json.load(f, parse_int=float)
    return _THRESHOLDS


def probe_schema():
    return "rootbench.probe-sweep/1"


def probe_checked(p):
    """p when it is a probe block of this schema; else an error naming both
    schemas, so a reader older than the block stops."""
    if type_name(p) == "object" and p.get("schema") == probe_schema():
        points = p.get("points")
        every = alt(points, [])
        if not isinstance(every, (list, dict)):
            # (jq counts the bad points first: iterating a scalar is its error)
            raise JqError("Cannot iterate over %s (%s)" % (type_name(every), to_json(every)))
        bad = len([x for x in each(every) if not is_number(get(x, "offered"))])
        if type_name(points) != "array" and points is not None:
            raise JqError("a probe block's points must be a list (scripts/lib/probe.jq)")
        if bad > 0:
            raise JqError("%d probe point(s) without a numeric offered rate (scripts/lib/probe.jq)" % bad)
        return p
    if type_name(p) == "object":
        had = to_text(alt(p.get("schema"), "none"))
    elif p is None:
        had = "none: no probe block (PROBE=off?)"
    else:
        had = "none: not a probe block"
    raise JqError("a probe block of schema %s (scripts/lib/probe.jq) was expected; this one's schema is %s: read it with the rules of its version"
                  % (probe_schema(), had))


THRESHOLD_NAMES = ["udp_latency", "tcp_latency", "udp_availability", "tcp_availability", "correctness"]
_LABELS = {"udp_latency": "UDP median latency", "tcp_latency": "TCP median latency", "udp_availability": "UDP availability",
           "tcp_availability": "TCP availability", "correctness": "correctness"}


def probe_threshold_text(name, thr):
    """A threshold failed, in words with its value."""
    if name not in _LABELS:
        raise JqError("no threshold %s (scripts/lib/probe.jq probe_threshold_names)" % name)
    if name in ("udp_latency", "tcp_latency"):
        tail = "over %s ms" % to_text(get(get(thr, "latency_ms_max"), name[0:3]))
    elif name == "correctness":
        tail = "under %s %%" % to_text(thr["correctness_min"] * 100)
    else:
        tail = "under %s %%" % to_text(thr["availability_min"] * 100)
    return _LABELS[name] + " " + tail


def _sent(st):
    """The stats of a protocol the probe sent over (else None)."""
    return st if type_name(st) == "object" and gt(alt(st.get("sent"), 0), 0) else None


def _point_fails(pt, thr):
    out = []
    for x in ("udp", "tcp"):
        st = _sent(get(pt, x))
        if st is None:
            continue
        p50 = get(st, "p50_ms")
        if not is_number(p50) or gt(p50, get(get(thr, "latency_ms_max"), x)):
            out.append(x + "_latency")
        av = get(st, "availability")
        if not is_number(av) or lt(av, thr["availability_min"]):
            out.append(x + "_availability")
        cf = get(st, "correct_fraction")
        if is_number(cf) and lt(cf, thr["correctness_min"]):
            out.append("correctness")
    return unique(out)


def _point_measures(pt):
    out = []
    for x in ("udp", "tcp"):
        if _sent(get(pt, x)) is not None:
            out += [x + "_latency", x + "_availability", "correctness"]
    return unique(out)


def _group_by_offered(points):
    groups = {}
    order = []
    for pt in sorted(points, key=lambda q: sort_key(get(q, "offered"))):
        k = json.dumps(get(pt, "offered"))
        if k not in groups:
            groups[k] = []
            order.append(k)
        groups[k].append(pt)
    return [groups[k] for k in order]


def probe_rates(p, thr):
    """Per offered rate (ascending; repetitions together): the thresholds
    measured and failed there."""
    return [{"offered": g[0].get("offered"), "reps": float(len(g)),
             "measured": unique([m for pt in g for m in _point_measures(pt)]),
             "failed": unique([m for pt in g for m in _point_fails(pt, thr)])}
            for g in _group_by_offered(list(alt(get(p, "points"), [])))]


def _max(xs):
    return jmax(xs) if xs else None


def probe_rssac047(p, thr=None):
    """Where RSSAC047's thresholds stop holding (probe.jq's probe_rssac047)."""
    thr = probe_thresholds() if thr is None else thr
    p = probe_checked(p)
    r = probe_rates(p, thr)
    top = _max([x["offered"] for x in r])
    measured = unique([m for x in r for m in x["measured"]])
    ff = next((x for x in r if len(x["failed"]) > 0), None)
    if not measured:
        held = None
    elif ff is None:
        held = top
    else:
        held = _max([x["offered"] for x in r if lt(x["offered"], ff["offered"])])
    lat = get(thr, "latency_ms_max")
    res = {"thresholds": {"udp_latency_ms": get(lat, "udp"), "tcp_latency_ms": get(lat, "tcp"), "statistic": get(thr, "latency_statistic"),
                          "availability_min": get(thr, "availability_min"), "correctness_min": get(thr, "correctness_min"),
                          "timeout_ms": get(thr, "timeout_ms"), "source": get(thr, "citation"), "probe_share_max": get(thr, "share_max")},
           "rates": float(len(r)), "highest": top, "held_up_to": held,
           "first_fail": None if ff is None else {"offered": ff["offered"], "failed": [n for n in THRESHOLD_NAMES if n in ff["failed"]]},
           "held_to_highest": len(measured) > 0 and ff is None}
    by = {}
    for n in THRESHOLD_NAMES:
        fs = [x["offered"] for x in r if n in x["failed"]]
        f = jmin(fs) if fs else None
        if n not in measured:
            h = None
        elif f is None:
            h = top
        else:
            h = _max([x["offered"] for x in r if lt(x["offered"], f)])
        by[n] = {"measured": n in measured, "first_fail": f, "held_up_to": h}
    res["by_threshold"] = by
    if not r:
        words = "RSSAC047 not judged: the probe measured no point"
    elif not measured:
        words = "RSSAC047 not judged: the probe sent neither UDP nor TCP queries"
    elif res["held_to_highest"]:
        words = "RSSAC047's thresholds held up to the highest load (%s/s offered)" % to_text(top)
    else:
        words = ("RSSAC047's thresholds failed already at the lowest load" if held is None
                 else "RSSAC047's thresholds held up to %s/s offered" % to_text(held))
        words += "; at %s/s: " % to_text(res["first_fail"]["offered"]) + ", ".join(
            probe_threshold_text(n, thr) for n in res["first_fail"]["failed"])
    res["words"] = words
    return res


def probe_queue_knee(p, thr=None):
    """Per protocol, the first offered rate whose p99 latency exceeds
    factor x the idle p99 (probe.jq's probe_queue_knee)."""
    thr = probe_thresholds() if thr is None else thr
    p = probe_checked(p)
    k = get(get(thr, "queue_knee"), "factor")
    res = {"factor": k}
    for x in ("udp", "tcp"):
        i = alt(get(get(get(p, "idle"), x), "p99_ms"), None)
        pts = [pt for pt in alt(get(p, "points"), []) if _sent(get(pt, x)) is not None]
        num = is_number(i)
        if not num:
            offered = None
        else:
            past = [pt.get("offered") for pt in pts
                    if not is_number(get(get(pt, x), "p99_ms")) or gt(get(get(pt, x), "p99_ms"), i * k)]
            offered = jmin(past) if past else None
        res[x] = {"idle_p99_ms": i, "limit_ms": i * k if num else None, "measured": num and len(pts) > 0, "offered": offered}
    words = ["%s: " % x.upper() + ("no queueing knee within the sweep" if res[x]["offered"] is None
                                    else "p99 past %s x its idle %s ms at %s/s offered"
                                    % (to_text(k), to_text(res[x]["idle_p99_ms"]), to_text(res[x]["offered"])))
             for x in ("udp", "tcp") if res[x]["measured"]]
    res["words"] = "; ".join(words) if words else "queueing knee not measured"
    return res


def probe_judged(p):
    """The probe block with the rules' results added (rssac047,
    queue_knee), as a sweep's summary stores it; None stays None."""
    if p is None:
        return None
    p = probe_checked(p)
    return {**p, "rssac047": probe_rssac047(p), "queue_knee": probe_queue_knee(p)}

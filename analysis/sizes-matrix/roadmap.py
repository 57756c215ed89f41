"""roadmap: the rules of the root's DNSSEC roadmap (docs/sizes-matrix.md,
"The root's DNSSEC roadmap"), over the sizing matrix's derived cells
(rules.py's cell_derive), tested against fixture points
(tests/test_rules.py, testdata/roadmap-cells.json).

  roadmap(cells, tcp, rate, cpus)  {phases, first_crossing, sac133, models,
                                    tcp, ...} or None (no roadmap state measured)

tcp: {conn_per_cpu: number|None, status, source} (the TCP experiment's
capacity per CPU of the server, tcp_capacity); rate: the stated query rate
(q/s); cpus: the CPUs an instance's servers have for TCP.

The states, in the algorithm roll's order, then the control and the
post-quantum size models: the run plans its cells from this list and the
report's section (section.py) reads which states only the roadmap measures.

Every number comes out as jq wrote it (rootbench.jqtext prints them).
"""

import math

from rootbench.jqtext import to_text

# The states: "shared" states are the matrix's own too.
ROADMAP_PHASES = [
    {"state": "root", "kind": "roll", "label": "RSA only (today)", "shared": True,
     "description": "today's root: RSASHA256, KSK and ZSK of 2048 bits"},
    {"state": "alg-prepublish", "kind": "roll", "label": "ECDSA KSK and ZSK published, RSA signing",
     "description": "ECDSAP256SHA256 KSK and ZSK published beside today's RSA keys, signing nothing yet"},
    {"state": "alg-double", "kind": "roll", "label": "double-signed, RSA ZSK 1536 bits",
     "description": "both algorithms sign every RRset, the RSA ZSK cut to 1536 bits as SAC133 endorses"},
    {"state": "alg-ecdsa-rsaksk", "kind": "roll", "label": "ECDSA signing, the RSA KSK still published",
     "description": "ECDSA keys sign; the RSA KSK is still published and signs nothing"},
    {"state": "ecdsap256", "kind": "roll", "label": "ECDSA only", "shared": True,
     "description": "the roll done: ECDSAP256SHA256 KSK and ZSK only"},
    {"state": "alg-double-2048", "kind": "control", "label": "double-signed, RSA ZSK 2048 bits (control)",
     "description": "the double-signed state with today's 2048-bit RSA ZSK: what the cut to 1536 bits saves"},
    {"state": "pq-falcon512", "kind": "model", "label": "Falcon-512 size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
    {"state": "pq-mldsa44", "kind": "model", "label": "ML-DSA-44 size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
    {"state": "pq-slhdsa128s", "kind": "model", "label": "SLH-DSA-SHA2-128s size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
]


def roadmap_only_states():
    """The states only the roadmap measures (not "shared" with the matrix's
    one-factor plan)."""
    return [ph["state"] for ph in ROADMAP_PHASES if not ph.get("shared")]


# The answers compared, and the sizes they are compared with: 512 (the
# pre-EDNS limit), 1232 (DNS Flag Day 2020), 1400, 4096.
ROADMAP_ANSWERS = ["priming", "dnskey", "referral", "nxdomain"]
ANSWER_LIMITS = [512, 1232, 1400, 4096]
FLAG_DAY_LIMIT = 1232

# The query profiles of the roadmap's cells: a root server's mix, and the
# same with every query DO=1.
MIX_PROFILE = "root-2016"
DO_PROFILE = "do100"

# The TCP sweep's summary, as its accessors (tcpbench/sweep/rules.jq)
# read it: a consumer older than the summary stops, naming the schema.
TCP_CONFIG_SCHEMA = "rootbench.tcp/2"


class SchemaError(ValueError):
    """A summary of another schema than the one these rules read."""


def jround(x):
    """jq's round (C's round: halves away from zero)."""
    a = math.floor(abs(x))
    if abs(x) - a >= 0.5:
        a += 1
    return math.copysign(a, x) if a else 0


def alt(value, default=None):
    """jq's `value // default`: the default for null and false."""
    return default if value is None or value is False else value


def get(obj, *path):
    """jq's .a.b (or .[0]): null through a missing key or a null."""
    for k in path:
        if obj is None:
            return None
        if isinstance(k, int):
            obj = obj[k] if isinstance(obj, list) and -len(obj) <= k < len(obj) else None
        else:
            obj = obj.get(k)
    return obj


def text(v):
    """jq's string interpolation of a value."""
    return to_text(v)


# ------------------------------------------------------------ the TCP capacity

def tcp_config_checked(s):
    if isinstance(s, dict) and s.get("schema") == TCP_CONFIG_SCHEMA:
        return s
    found = alt(s.get("schema"), "none") if isinstance(s, dict) else "none: not a summary"
    raise SchemaError("a TCP configuration's summary of schema %s (tcpbench/sweep/rules.jq) was expected; "
                      "this one's schema is %s: read it with the rules of its version" % (TCP_CONFIG_SCHEMA, text(found)))


def tcp_configs(s):
    """The top summary's configurations' summaries (the objects among them)."""
    c = tcp_config_checked(s).get("configs")
    items = c.values() if isinstance(c, dict) else c if isinstance(c, list) else []
    return [x for x in items if isinstance(x, dict)]


def tcp_per_cpu(c):
    return alt(tcp_config_checked(c).get("per_cpu"))


def tcp_config_name(c):
    c = tcp_config_checked(c)
    return alt(alt(c.get("name"), c.get("config")))


def tcp_capacity(summary, source):
    """The server's TCP capacity per CPU from a TCP experiment's summary
    (None when there is none): the largest figure of its configurations
    that have one (a figure exists only when the server was the
    bottleneck, the sweep's per_cpu), else null with the first
    configuration's reason. Never a number of our own."""
    if summary is None:
        return {"conn_per_cpu": None, "status": "not measured", "source": None,
                "note": "no tcp results in this results directory: run make tcp TCP_SERVER_CPU=0.1 (a figure per CPU "
                        "needs the server to be the bottleneck), or make bench"}
    configs = tcp_configs(summary)
    ok = []
    for c in configs:
        cpc = get(tcp_per_cpu(c), "conn_per_cpu")
        if isinstance(cpc, (int, float)) and not isinstance(cpc, bool):
            ok.append({"name": tcp_config_name(c), "conn_per_cpu": cpc})
    if ok:
        # jq's max_by: the last of the largest
        best = ok[0]
        for o in ok[1:]:
            if o["conn_per_cpu"] >= best["conn_per_cpu"]:
                best = o
        return {"conn_per_cpu": best["conn_per_cpu"], "status": "measured", "source": source,
                "config": best["name"], "note": None}
    reasons = ["%s: %s" % (text(alt(tcp_config_name(c), "?")), text(alt(get(tcp_per_cpu(c), "rule"), "no rule")))
               for c in configs]
    return {"conn_per_cpu": None, "status": "not measured", "source": source,
            "note": "the TCP experiment gave no capacity per CPU: " + (reasons[0] if reasons else "no configuration")}


# ------------------------------------------------------------ the roadmap

def crosses(nbytes, limit):
    """An answer of nbytes does not fit a buffer of limit (an answer
    exactly as long fits)."""
    return nbytes is not None and gt(nbytes, limit)


def gt(a, b):
    """jq's a > b for numbers and null (null below every number)."""
    if a is None or b is None:
        return a is not None and b is None
    return a > b


def cell(cells, state, profile):
    """The 1232-byte cell of a zone state and profile, or None."""
    for c in cells:
        if c.get("zone_state") == state and c.get("profile") == profile and c.get("edns") == "1232":
            return c
    return None


def phase_row(ph, cells, tcp, rate, cpus):
    """One state's answers, crossings, TC shares and what its TCP fallback costs."""
    a = next((c["probes"] for c in cells if c.get("zone_state") == ph["state"] and c.get("probes") is not None), None)
    mix = cell(cells, ph["state"], MIX_PROFILE)
    every = cell(cells, ph["state"], DO_PROFILE)
    tc = alt(get(mix, "tc_share"))
    need = None if tc is None else jround(rate * tc)
    cpc = alt(get(tcp, "conn_per_cpu"))
    models = [alt(c.get("size_model")) for c in cells if c.get("zone_state") == ph["state"]]
    models = [{k: m.get(k) for k in ("standard", "key_bytes", "signature_bytes", "algorithm", "note")}
              for m in models if m is not None]
    row = dict(ph)
    row.update({
        "measured": a is not None,
        "answers": None if a is None else
        [{"answer": n, "bytes": alt(get(a, n, "bytes")), "rcode": alt(get(a, n, "rcode"))} for n in ROADMAP_ANSWERS],
        "crosses": None if a is None else
        [{"limit": lim, "answers": [n for n in ROADMAP_ANSWERS if crosses(get(a, n, "bytes"), lim)]}
         for lim in ANSWER_LIMITS],
        "dnskey_predicted_bytes": alt(get(a, "dnskey", "predicted_bytes")),
        "size_model": models[0] if models else None,
        "tc_share_mix": tc,
        "tc_share_do100": alt(get(every, "tc_share")),
        "bytes_per_query_out_mix": alt(get(mix, "bytes_per_query_out")),
        "tcp_conn_needed": need,
        "tcp_cpus_needed": None if need is None or cpc is None else jround(need / cpc * 100) / 100,
        "tcp_has_them": None if need is None or cpc is None else need <= cpc * cpus,
    })
    return row


def crossing_of(row, limit):
    """The answers of a row that cross limit (the crosses entry's)."""
    return next(x["answers"] for x in row["crosses"] if x["limit"] == limit)


def first_crossing(rows, limit):
    """The first state of the roll whose answers cross limit, with those
    answers; None when none does."""
    for r in rows:
        if r["kind"] == "roll" and r["measured"]:
            x = crossing_of(r, limit)
            if x:
                return {"state": r["state"], "label": r["label"], "answers": x}
    return None


def sac133(rows):
    """SAC133's premise, that cutting the RSA ZSK to 1536 bits keeps the
    double-signed root's answers within 1232 bytes: for the double-signed
    state and its 2048-bit control, each answer's margin (1232 - bytes;
    negative: by how much it does not fit), whether the priming and DNSKEY
    answers fit (the premise as stated), and whether all four do."""
    def of(s):
        return next((r for r in rows if r["state"] == s and r["measured"]), None)

    def fit(r):
        if r is None:
            return None
        a = [{"answer": x["answer"], "bytes": x["bytes"], "margin": FLAG_DAY_LIMIT - x["bytes"],
              "fits": not crosses(x["bytes"], FLAG_DAY_LIMIT)} for x in r["answers"]]
        return {"answers": a,
                "priming_dnskey_fit": all(x["fits"] for x in a if x["answer"] in ("priming", "dnskey")),
                "all_fit": all(x["fits"] for x in a),
                "tc_share_mix": r["tc_share_mix"]}

    return {"rule": "the priming and DNSKEY answers (DO=1) of the double-signed state fit %d bytes (SAC133's premise); "
                    "all four answers fit" % FLAG_DAY_LIMIT,
            "double_1536": fit(of("alg-double")), "control_2048": fit(of("alg-double-2048"))}


def roadmap(cells, tcp, rate, cpus):
    """The roadmap over the derived cells, or None when no roadmap state
    was measured."""
    rows = [phase_row(ph, cells, tcp, rate, cpus) for ph in ROADMAP_PHASES]
    if not any(r["measured"] for r in rows):
        return None
    shares = [alt(c.get("trace_do_share")) for c in cells
              if c.get("profile") == MIX_PROFILE and c.get("edns") == "1232"]
    shares = [x for x in shares if x is not None]
    control = [{"state": r["state"], "label": r["label"], "answers": crossing_of(r, FLAG_DAY_LIMIT)}
               for r in rows if r["kind"] == "control" and r["measured"]]
    t = dict(tcp) if tcp is not None else {}
    t.update({"stated_rate_qps": rate, "instance_cpus": cpus,
              "rule": ("TCP connections/s needed = stated query rate x the share of answers truncated at a %d-byte buffer "
                       "with the %s mix (each truncated answer is retried over one TCP connection); the instance has "
                       "them when that is at most the TCP capacity per CPU x its CPUs" % (FLAG_DAY_LIMIT, MIX_PROFILE))})
    return {"limit_bytes": FLAG_DAY_LIMIT, "limits": list(ANSWER_LIMITS),
            "mix_profile": MIX_PROFILE, "do_profile": DO_PROFILE,
            "mix_do_share": shares[0] if shares else None,
            "phases": rows,
            "first_crossing": first_crossing(rows, FLAG_DAY_LIMIT),
            "control_crossing": control[0] if control else None,
            "first_crossing_by_limit": [{"limit": lim, "first": first_crossing(rows, lim)} for lim in ANSWER_LIMITS],
            "sac133": sac133(rows),
            "tcp": t,
            "models": [{"state": r["state"], "label": r["label"], "tc_share_mix": r["tc_share_mix"],
                        "tc_share_do100": r["tc_share_do100"], "tcp_conn_needed": r["tcp_conn_needed"]}
                       for r in rows if r["kind"] == "model" and r["measured"]]}

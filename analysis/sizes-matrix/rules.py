"""rules: the rules of the DNSSEC sizing matrix (analysis/sizes-matrix/run,
docs/sizes-matrix.md), in one place (pure: no testbed), tested against
fixture points (tests/test_rules.py, testdata/): one measured cell's TC
share and its ceiling analysis, the issue's checks over the cells, the
server's unshaped UDP ceiling as the matrix records it, and the CSV tables
of a matrix run's summary. The roadmap's rules are roadmap.py's.

A cell as measured: {zone_state, zone_variant, profile, edns, queries,
answers, bytes_per_query_in, bytes_per_query_out, frames_out_per_query,
tc_responses, responses, dnskey: {bytes, ...}, ...}. links: [bits per
second]; ceiling: {qps: number|None, caused_by, ...} (the server's
unshaped UDP ceiling; qps None = not measured).

Every number is written as jq wrote it (rootbench.jqtext), the tables and
the derived values byte for byte as the jq programs they replace printed
them. experiment.py (the run) and the pytest (tests/test_rules.py) call
these functions; by path, for a live test's negative controls:

  rules.py checks                        the checks of the derived cells on stdin
"""

import json
import math
import os
import re
import sys

if __name__ == "__main__":
    # run by path (-I -S): the package rootbench two folders up
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

import importlib.util  # noqa: E402

from rootbench.jqtext import json_pretty, to_json, to_text, truthy  # noqa: E402


def _load(name, *path):
    """The module at path (from this folder), as rootbench.experiment's
    load_path loads it, without that module's imports: a live test calls
    this file by path."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), *path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


roadmap = _load("sizes_matrix_roadmap", "roadmap.py")
# a UDP summary is read through its producer's accessors, which check its schema
udp = _load("udp_accessors", "..", "..", "udpreplay", "udp", "accessors.py")
jround, alt, get, SchemaError = roadmap.jround, roadmap.alt, roadmap.get, roadmap.SchemaError

SCHEMA = "rootbench.sizes-matrix/1"
LINKS_BPS = [100000000, 1000000000, 10000000000]

# Ethernet's per-frame cost on the wire that SNMP octets (frames without
# FCS) leave out: FCS 4 + preamble and start delimiter 8 + inter-frame gap
# 12 (scripts/lib/wire.jq's frame_overhead_bytes, which udp's rules and
# the shaped link use; tests/test_rules.py checks the two agree).
FRAME_OVERHEAD_BYTES = 24

# The checks' thresholds.
ROLL_DNSKEY_MIN_BYTES = 1400      # the KSK-roll DNSKEY answer is at least this
STEADY_DNSKEY_MAX_BYTES = 1000    # the steady-state one is below this
ALMOST_NONE_TC_SHARE = 0.01       # "almost none" truncated at 4096

def r1(x):
    return jround(x * 10) / 10


def r4(x):
    return jround(x * 10000) / 10000


def jq_key(v):
    """jq's order of scalars (null < false < true < numbers < strings) as a sort key."""
    if v is None:
        return (0,)
    if v is False:
        return (1,)
    if v is True:
        return (2,)
    if isinstance(v, (int, float)):
        return (3, v)
    if isinstance(v, str):
        return (4, v)
    return (5, to_json(v))


def jmax(values):
    """jq's max of numbers: None for none."""
    values = list(values)
    return max(values) if values else None


def csv_row(values):
    """map(tostring) | join(",")."""
    return ",".join(to_text(v) for v in values)


# ------------------------------------------------------------ one cell

def tc_share(c):
    """The share of answers with TC=1, i.e. of queries that come back over
    TCP (the TCP fallback rate per query)."""
    return r4(c["tc_responses"] / c["responses"]) if alt(c.get("responses"), 0) > 0 else None


def wire(c, direction):
    """Wire bytes per query in one direction: SNMP octets plus the frame overhead."""
    b = c.get("bytes_per_query_" + direction)
    if b is None:
        return None
    return b + FRAME_OVERHEAD_BYTES * alt(c.get("frames_%s_per_query" % direction), 1)


def wire_max(c):
    """The busier direction's wire bytes per query (None: neither measured)."""
    return jmax(w for w in (wire(c, "out"), wire(c, "in")) if w is not None)


def link_analysis(c, bps, ceiling):
    """For one link speed: the query rate that fills the link (the busier
    direction), which ceiling an instance hits first, and the rate where it
    turns from query-bound to byte-bound."""
    w = wire_max(c)
    lq = None if w is None or w <= 0 else math.floor(bps / 8 / w)
    cq = alt(get(ceiling, "qps"))
    if lq is None:
        first, first_qps, cross = "not measured", None, None
    elif cq is None:
        first, first_qps, cross = "not measured (server ceiling unknown)", None, lq
    elif lq < cq:
        first, first_qps, cross = "link", lq, lq
    else:
        # the server's ceiling comes first: never byte-bound
        first, first_qps, cross = "server", cq, None
    t = tc_share(c)
    return {"link_bps": bps,
            "wire_bytes_per_query": None if w is None else r1(w),
            "link_qps": lq,
            "first_ceiling": first,
            "first_ceiling_qps": first_qps,
            # below this query rate the instance is query-bound, above it byte-bound
            "crossover_qps": cross,
            # the TCP connections per second the instance must absorb at that point
            "tcp_fallback_per_s": None if t is None or lq is None
            else jround((lq if cq is None or lq < cq else cq) * t)}


def cell_derive(c, links, ceiling):
    """A measured cell plus its TC share, answered share and ceiling analysis."""
    w = wire_max(c)
    cq = alt(get(ceiling, "qps"))
    d = dict(c)
    d.update({"tc_share": tc_share(c),
              "answered_share": r4(c["answers"] / c["queries"]) if alt(c.get("queries"), 0) > 0 else None,
              "links": [link_analysis(c, bps, ceiling) for bps in links],
              # the link speed at which the link and the server ceiling coincide
              "breakeven_link_bps": None if w is None or cq is None else jround(cq * w * 8)})
    return d


# ------------------------------------------------------------ the checks

def find(cells, z, p, e):
    """The cell of zone state z, profile p, buffer e, or None."""
    return next((c for c in cells if c.get("zone_state") == z and c.get("profile") == p and c.get("edns") == e), None)


def dnskey_of(cells, z):
    """The measured DNSKEY answer of a zone state (any cell of it)."""
    return next((c["dnskey"] for c in cells if c.get("zone_state") == z and c.get("dnskey") is not None), None)


def check(rule, value, passed):
    return {"rule": rule, "value": value, "pass": passed}


def ge(a, b):
    """jq's a >= b for a number or null against a number."""
    return a is not None and a >= b


def lt(a, b):
    return a is None or a < b


def matrix_checks(cells):
    """The issue's checks over the derived cells; pass None = not measured.
    The baseline profile of the TC comparisons is the first one (in jq's
    order) that has both the unsigned and the signed cell at the buffer."""
    roll = dnskey_of(cells, "ksk-roll")
    steady = dnskey_of(cells, "root")
    profiles = sorted(set(c.get("profile") for c in cells), key=jq_key)
    p512 = next((p for p in profiles if find(cells, "unsigned", p, "512") is not None
                 and find(cells, "root", p, "512") is not None), None)
    p4096 = next((p for p in profiles if find(cells, "root", p, "4096") is not None), None)
    rule512 = "at a forced 512-byte buffer the signed zone truncates more answers than the unsigned one"
    rule4096 = ("at a forced 4096-byte buffer the signed zone truncates almost no answers (share below %s)"
                % to_text(ALMOST_NONE_TC_SHARE))
    if p512 is None:
        tc512 = check(rule512, None, None)
    else:
        s = find(cells, "root", p512, "512").get("tc_share")
        u = find(cells, "unsigned", p512, "512").get("tc_share")
        tc512 = check(rule512, {"profile": p512, "signed": s, "unsigned": u},
                      None if s is None or u is None else s > u)
    if p4096 is None:
        tc4096 = check(rule4096, None, None)
    else:
        s = find(cells, "root", p4096, "4096").get("tc_share")
        tc4096 = check(rule4096, {"profile": p4096, "signed": s}, None if s is None else s < ALMOST_NONE_TC_SHARE)
    return {"ksk_roll_dnskey": check("the KSK-roll DNSKEY answer is at least %d bytes" % ROLL_DNSKEY_MIN_BYTES,
                                     alt(get(roll, "bytes")),
                                     None if roll is None else ge(roll.get("bytes"), ROLL_DNSKEY_MIN_BYTES)),
            "steady_dnskey": check("the steady-state (root) DNSKEY answer is below %d bytes" % STEADY_DNSKEY_MAX_BYTES,
                                   alt(get(steady, "bytes")),
                                   None if steady is None else lt(steady.get("bytes"), STEADY_DNSKEY_MAX_BYTES)),
            "tc_512_signed_more": tc512,
            "tc_4096_almost_none": tc4096}


def matrix_summary(cells, links, ceiling):
    """{cells (derived), checks}."""
    d = [cell_derive(c, links, ceiling) for c in cells]
    return {"cells": d, "checks": matrix_checks(d)}


def derived(cells, links, ceiling, tcp, settings):
    """The summary's {cells, checks, roadmap} from the measured cells."""
    s = matrix_summary(cells, links, ceiling)
    rate = alt(get(settings, "roadmap_rate_qps"), 100000)
    cpus = alt(get(settings, "roadmap_tcp_cpus"), 1)
    s["roadmap"] = roadmap.roadmap(s["cells"], tcp, rate, cpus)
    return s


# ------------------------------------------------------------ the server's ceiling

def server_ceiling(s, shown):
    """The server's unshaped UDP ceiling from the udp-unshaped summary s,
    as the matrix records it: qps None ("not measured") when that
    experiment failed or found none, and not used when it ran under a
    server CPU budget (the budget's ceiling, not the instance's). shown:
    the file as the summary names it. Never a number of our own."""
    st = alt(s.get("status")) if isinstance(s, dict) else None
    q = udp.udp_ceiling_qps(s)
    tb = udp.udp_testbed(s)
    v = udp.udp_verdict(s)
    budget = alt(get(tb, "server", "cpu_budget", "budget"))
    if budget is not None and st == "ok" and q is not None:
        return {"qps": None, "budgeted_qps": q, "budget": budget,
                "status": "not used (udp-unshaped ran with its servers limited to %s CPU each: the budget's ceiling, "
                          "not the instance's)" % to_text(budget),
                "source": shown}
    if st != "ok":
        status = "not measured (udp-unshaped %s)" % to_text(st)
    elif q is None:
        status = "not measured (udp-unshaped found no ceiling: %s)" % to_text(alt(udp.udp_ceiling_text(s), "?"))
    else:
        status = "measured"
    caused = alt(get(v, "caused_by"))
    zone = alt(get(tb, "zones", "variant"))
    if zone is None:
        d = alt(get(tb, "zones", "dir"))
        zone = d.split("/")[-1] if truthy(d) else None
    return {"qps": q if st == "ok" else None,
            "low_qps": udp.udp_ceiling_low_qps(s) if st == "ok" else None,
            "high_qps": udp.udp_ceiling_high_qps(s) if st == "ok" and q is not None else None,
            "status": status,
            "caused_by": caused,
            "source": shown,
            "zone": zone,
            "note": ("the unshaped ceiling was set by %s, not shown to be the server's: a lower bound of the server's"
                     % to_text(alt(caused, "an undetermined layer")))
            if st == "ok" and q is not None and alt(caused, "") != "server" else None}


def ceiling_not_measured(path):
    """No udp-unshaped summary at path: not measured, with what to run."""
    return {"qps": None, "status": "not measured", "source": None,
            "note": "no udp-unshaped results in this results directory (%s): run make udp UDP_LINK=none "
                    "UDP_NAME=udp-unshaped, or make bench" % path}


# ------------------------------------------------------------ one cell's records

MSG_SIZE_RE = re.compile(r";; MSG SIZE +rcvd: ([0-9]+)")
TC_RE = re.compile(r";; flags:[^;]* tc[ ;]")
SECTIONS_RE = re.compile(r";; flags:[^;]*; QUERY: [0-9]+, ANSWER: ([0-9]+), AUTHORITY: ([0-9]+), ADDITIONAL: ([0-9]+)")
STATUS_RE = re.compile(r"status: ([A-Z]+)")
RRSIG_LINE_RE = re.compile(r"^[^;].*\sIN\sRRSIG\s")

# The answers the roadmap compares (docs/sizes-matrix.md): the priming
# answer, the DNSKEY answer, a TLD referral (NS, DS and its RRSIG, glue) and
# an NXDOMAIN with its NSEC proofs. "example." is not delegated (RFC 2606).
ROADMAP_QUERIES = [("priming", ". NS"), ("dnskey", ". DNSKEY"), ("referral", "www.example.com. A"),
                   ("nxdomain", "www.example. A")]

DNSKEY_METHOD = ("dig +dnssec +norec . DNSKEY from player1: over TCP (the whole answer, DNS message size), over UDP "
                 "with +bufsize=4096 and 1232")
PROBES_METHOD = "dig +dnssec +norec +tcp from player1 (DO=1, the whole answer: its DNS message size)"


def msg_size(out):
    """dig's DNS message size of an answer."""
    m = MSG_SIZE_RE.search(out)
    if not m:
        raise ValueError("dig's output names no message size (;; MSG SIZE rcvd)")
    return int(m.group(1))


def root_records(out, rrtype):
    """The lines of the root's records of a type in dig's output."""
    pat = re.compile(r"^\.\s+[0-9]+\s+IN\s+" + rrtype + r"\s")
    return sum(1 for line in out.split("\n") if pat.search(line))


def dnskey_record(tcp, big, small, manifest):
    """The DNSKEY answer (DO=1) as the server sends it: whole over TCP (its
    size is the answer's size), and over UDP at buffers of 4096 and 1232
    (size, and whether it came truncated: a server caps its UDP answers at
    its own EDNS size, NSD's default being 1232); the keys from the zone
    variant's manifest."""
    keys = get(manifest, "zones", "root", "dnskeys")
    keys = keys.values() if isinstance(keys, dict) else keys if isinstance(keys, list) else []
    return {"bytes": msg_size(tcp), "dnskeys": root_records(tcp, "DNSKEY"), "rrsigs": root_records(tcp, "RRSIG"),
            "udp_4096": {"bytes": msg_size(big), "tc": TC_RE.search(big) is not None},
            "udp_1232": {"bytes": msg_size(small), "tc": TC_RE.search(small) is not None},
            "method": DNSKEY_METHOD,
            "keys": [{k: x.get(k) for k in ("role", "keytag", "algorithm", "bits", "signs")} for x in keys]}


def probe_record(query, file, out):
    """One roadmap answer over TCP: its size, rcode and records per section."""
    sec = SECTIONS_RE.search(out)
    st = STATUS_RE.search(out)
    if sec is None or st is None:
        raise ValueError("dig's answer to '%s' has no header (status, sections)" % query)
    return {"query": query, "file": file, "bytes": msg_size(out), "rcode": st.group(1),
            "answer": int(sec.group(1)), "authority": int(sec.group(2)), "additional": int(sec.group(3)),
            "rrsigs": sum(1 for line in out.split("\n") if RRSIG_LINE_RE.search(line))}


def probes_record(outs, variant, predicted):
    """Each roadmap answer (outs: name -> dig's output) and the DNSKEY
    answer's size predicted from the zone file, a check on the measurement."""
    rec = {}
    for name, q in ROADMAP_QUERIES:
        rec[name] = probe_record(q, "probes/%s/%s.txt" % (variant, name), outs[name])
    rec["method"] = PROBES_METHOD
    rec["dnskey"]["predicted_bytes"] = predicted
    return rec


def cell_record(m, answers, trace, zone):
    """One measured cell as the summary lists it, flagged too when the
    Listener's capture holds other than one answer per query sent. m: what the run measured
    ({cell, key, zone_state, zone_variant, profile, edns, tracegen,
    queries_planned, sent, pps, answers, bytes_in, bytes_out, seconds,
    dnskey, probes, flags, trace_dir}); answers: dnsstat's report of the
    Listener's capture; trace: dnsstat's of the trace; zone: the zone
    variant's manifest."""
    sent, tq = m["sent"], alt(trace.get("queries"), 0)
    rd = get(answers, "sizes", "response_dns")
    flags = [f for f in m["flags"] if f != ""]
    if to_text(answers.get("responses")) != str(sent):
        flags.append("the Listener capture holds %s answers for %d queries" % (to_text(answers.get("responses")), sent))
    return {"cell": m["cell"], "key": m["key"], "zone_state": m["zone_state"], "zone_variant": m["zone_variant"],
            "profile": m["profile"], "edns": m["edns"],
            "algorithm": alt(get(zone, "algorithm", "name")), "ksk_bits": zone.get("ksk_bits"),
            "zsk_bits": zone.get("zsk_bits"), "denial": zone.get("denial"), "roll": alt(zone.get("roll")),
            "tracegen": m["tracegen"], "queries": sent, "queries_planned": m["queries_planned"], "pps": m["pps"],
            "answers": m["answers"],
            "trace_do_share": r4(trace["query_edns"]["do1"] / tq) if tq > 0 else None,
            "trace_no_opt_share": r4(trace["query_edns"]["no_opt"] / tq) if tq > 0 else None,
            "bytes_in": m["bytes_in"], "bytes_out": m["bytes_out"],
            "bytes_per_query_in": r1(m["bytes_in"] / sent) if sent > 0 else None,
            "bytes_per_query_out": r1(m["bytes_out"] / sent) if sent > 0 else None,
            "frames_out_per_query": r4(answers["frames"] / sent) if sent > 0 else None,
            "frames_in_per_query": r4(trace["frames"] / tq) if tq > 0 else None,
            "responses": answers.get("responses"), "tc_responses": answers.get("tc_responses"),
            "answer_bytes": {"mean": r1(rd["mean"]), "median": rd.get("p50"), "p90": alt(rd.get("p90")),
                             "p99": alt(rd.get("p99")), "max": rd.get("max")},
            "rcodes": answers.get("rcodes"),
            "dnskey": m["dnskey"], "probes": m["probes"], "size_model": alt(zone.get("size_model")),
            "flags": flags, "seconds": m["seconds"],
            "files": {"answers_stats": "%s/answers.json" % m["key"],
                      "trace": "traces/" + m["trace_dir"].split("/")[-1] + "/trace.pcap"}}


def progress_line(rec):
    """The line a measured cell prints."""
    line = "%s: out %s B/q, in %s B/q, TC %s/%s, answered %s/%s" % tuple(
        to_text(rec.get(k)) for k in ("cell", "bytes_per_query_out", "bytes_per_query_in", "tc_responses",
                                      "responses", "answers", "queries"))
    if rec["flags"]:
        line += "; FLAGGED: " + "; ".join(rec["flags"])
    return line


# ------------------------------------------------------------ the tables

def cells_csv(s):
    """cells.csv: a row per cell."""
    lines = ["# cell,zone_state,zone_variant,profile,edns,queries,answers,bytes_per_query_in,bytes_per_query_out,"
             "tc_share,answer_mean,answer_median,answer_max,dnskey_bytes,link_qps_100m,link_qps_1g,link_qps_10g,"
             "first_ceiling_100m,first_ceiling_1g,first_ceiling_10g"]
    for c in s["cells"]:
        links = c.get("links")
        lk = [get(links, i) for i in range(3)]
        lines.append(csv_row([c.get("cell"), c.get("zone_state"), c.get("zone_variant"), c.get("profile"), c.get("edns"),
                              c.get("queries"), c.get("answers"), c.get("bytes_per_query_in"),
                              c.get("bytes_per_query_out"), alt(c.get("tc_share"), ""),
                              get(c, "answer_bytes", "mean"), get(c, "answer_bytes", "median"),
                              get(c, "answer_bytes", "max"), alt(get(c, "dnskey", "bytes"), "")]
                             + [alt(get(x, "link_qps"), "") for x in lk] + [get(x, "first_ceiling") for x in lk]))
    return lines


def zone_group(z):
    """A zone state's group in bytes_by_zone: today's root, the matrix's
    zone variants, the algorithm roll in its order, the control, the size
    models (roadmap.py's kinds)."""
    order = {ph["state"]: (ph["kind"], i) for i, ph in enumerate(roadmap.ROADMAP_PHASES)}
    x = order.get(z)
    if z == "root":
        return {"rank": 0, "name": "today", "order": 0}
    if x is None:
        return {"rank": 1, "name": "variant", "order": 0}
    if x[0] == "roll":
        return {"rank": 2, "name": "roll", "order": x[1]}
    if x[0] == "control":
        return {"rank": 3, "name": "control", "order": x[1]}
    return {"rank": 4, "name": "size model", "order": x[1]}


def group_by(items, key):
    """jq's group_by: groups in the key's order, each in its input order."""
    groups = {}
    for it in items:
        groups.setdefault(to_json(key(it)), (key(it), []))[1].append(it)
    return [g for _, g in sorted(groups.values(), key=lambda kv: jq_key(kv[0]))]


def bytes_by_zone_csv(s, bp, be):
    """bytes per query by zone state (the baseline profile and buffer where
    present, else the zone state's first cell), in its groups; the tic
    names each state with its group."""
    picked = []
    for g in group_by(s["cells"], lambda c: c.get("zone_state")):
        base = [c for c in g if c.get("profile") == bp and c.get("edns") == be]
        picked.append((base + g)[0])
    rows = [(c, zone_group(c.get("zone_state"))) for c in picked]
    rows.sort(key=lambda r: (r[1]["rank"], r[1]["order"], jq_key(r[0].get("bytes_per_query_out"))))
    lines = ["# idx,zone_state,profile,edns,bytes_per_query_in,bytes_per_query_out,dnskey_bytes,group,tic"]
    for i, (c, g) in enumerate(rows):
        lines.append(csv_row([i, c.get("zone_state"), c.get("profile"), c.get("edns"), c.get("bytes_per_query_in"),
                              c.get("bytes_per_query_out"), alt(get(c, "dnskey", "bytes"), ""), g["name"],
                              "%s: %s" % (g["name"], to_text(c.get("zone_state")))]))
    return lines


def tc_by_edns_csv(s, bp):
    """TC share by buffer: one row per buffer, one column per zone state
    (baseline profile) measured at more than one buffer (else every state)."""
    cs = [c for c in s["cells"] if c.get("profile") == bp]
    every = sorted(set(c.get("zone_state") for c in cs), key=jq_key)
    multi = [z for z in every if len(set(to_json(c.get("edns")) for c in cs if c.get("zone_state") == z)) > 1]
    zs = multi if multi else every
    lines = ["# idx,edns," + ",".join(to_text(z) for z in zs)]
    for i, e in enumerate(["trace", "512", "1232", "4096"]):
        if not any(c.get("edns") == e for c in cs):
            continue
        vals = []
        for z in zs:
            got = [c.get("tc_share") for c in cs if c.get("zone_state") == z and c.get("edns") == e]
            vals.append(alt(got[0] if got else None, ""))
        lines.append(csv_row([i, e] + vals))
    return lines


def crossover_csv(s):
    """The crossover rate (query-bound -> byte-bound) per link speed and cell."""
    lines = ["# idx,cell,server_ceiling_qps,link_qps_100m,link_qps_1g,link_qps_10g,crossover_qps_100m,"
             "crossover_qps_1g,crossover_qps_10g,breakeven_link_bps"]
    cq = alt(get(s, "server_udp_ceiling", "qps"), "")
    for i, c in enumerate(s["cells"]):
        lk = [get(c.get("links"), j) for j in range(3)]
        lines.append(csv_row([i, c.get("cell"), cq] + [get(x, "link_qps") for x in lk]
                             + [alt(get(x, "crossover_qps"), "") for x in lk] + [alt(c.get("breakeven_link_bps"), "")]))
    return lines


def dnskey_csv(s):
    """dnskey.csv: a row per zone state whose DNSKEY answer was measured."""
    lines = ["# zone_state,zone_variant,dnskey_bytes,dnskeys,rrsigs,udp_4096_tc,udp_1232_tc,keytags"]
    with_key = [c for c in s["cells"] if c.get("dnskey") is not None]
    for g in group_by(with_key, lambda c: c.get("zone_state")):
        c = g[0]
        k = c["dnskey"]
        keys = k.get("keys")
        if not isinstance(keys, list):
            raise ValueError("cell %s: its DNSKEY answer lists no keys (.dnskey.keys)" % to_text(c.get("cell")))
        lines.append(csv_row([c.get("zone_state"), c.get("zone_variant"), k.get("bytes"), k.get("dnskeys"),
                              k.get("rrsigs"), 1 if truthy(get(k, "udp_4096", "tc")) else 0,
                              1 if truthy(get(k, "udp_1232", "tc")) else 0,
                              " ".join("%s:%s" % (to_text(x.get("role")), to_text(x.get("keytag"))) for x in keys)]))
    return lines


def roadmap_csv(s):
    """roadmap.csv, one row per roadmap state measured (the roll's order,
    then the control and the size models): its four answers' sizes, TC
    shares at 1232 and the TCP connections/s they ask for."""
    lines = ["# idx,state,kind,priming_bytes,dnskey_bytes,referral_bytes,nxdomain_bytes,tc_share_mix,tc_share_do100,"
             "bytes_per_query_out_mix,tcp_conn_needed,tcp_cpus_needed"]
    phases = get(s, "roadmap", "phases") or []
    for i, r in enumerate(r for r in phases if truthy(r.get("measured"))):
        lines.append(csv_row([i, r.get("state"), r.get("kind")] + [a.get("bytes") for a in r["answers"]]
                             + [alt(r.get(k), "") for k in ("tc_share_mix", "tc_share_do100", "bytes_per_query_out_mix",
                                                            "tcp_conn_needed", "tcp_cpus_needed")]))
    return lines


def tables(s, bp, be):
    """{file name: text} of the tables of a matrix summary."""
    out = {"cells.csv": cells_csv(s), "bytes_by_zone.csv": bytes_by_zone_csv(s, bp, be),
           "tc_by_edns.csv": tc_by_edns_csv(s, bp), "crossover.csv": crossover_csv(s), "dnskey.csv": dnskey_csv(s),
           "roadmap.csv": roadmap_csv(s)}
    return {k: "\n".join(v) + "\n" for k, v in out.items()}


# ------------------------------------------------------------ by path

def main(argv):
    if argv == ["checks"]:
        print(json_pretty(matrix_checks(json.load(sys.stdin))))
        return 0
    print("usage: rules.py checks (the checks of the derived cells on stdin)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

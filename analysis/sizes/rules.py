"""rules: the sizes experiment's rules, in one place (pure: no testbed, no
process): whether the switch's SNMP octets and a capture of the same port
agree (the check that makes SNMP's bytes per query trustworthy) and why
they differ when they do; one run's record; the summary; the CSV tables;
the accessor another experiment reads a sizes summary through.
analysis/sizes/experiment.py and the pytest (tests/test_rules.py, on
testdata/ and on a measured run's files) both call these functions.

Every number is written as jq wrote it (rootbench.jqtext), the tables and
the summary byte for byte as the jq programs they replace printed them.

  rules.py schema                 the summary's schema (for bash callers)
  rules.py accounting FILE        the accounting of a measured input (JSON)
  rules.py reply-sizes KEYS FILE...   reply_sizes.csv's table of dnsstat
                                  reports (scripts/lib/replay.sh's
                                  answer_size_table, the sizing matrix's)
"""

import math
import os
import sys

if __name__ == "__main__":
    # run by path (-I -S): the package rootbench beside it
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from rootbench.jqtext import to_text, truthy  # noqa: E402

SCHEMA = "rootbench.sizes/1"
EXPERIMENT = "sizes"

# SNMP and the capture agree when each direction's ratio is within this
# share of 1.
SNMP_CAPTURE_TOLERANCE = 0.005

# The frames a link carries for itself, whatever the experiment sends:
# ARP, IPv6 neighbour discovery and MLD (ICMPv6, MLD behind a hop-by-hop
# header), IGMP. An IPv6 run's port sees a few neighbour solicitations and
# advertisements between the SNMP readings (about 1.5 bytes per query over
# 200 queries), which are not the replay's bytes.
LINK_OWN_FRAMES = "arp or icmp6 or (ip6 and ip6[6] == 0) or igmp"

ALL_VARIANTS = ["unsigned", "rsasha256-2048-1024", "rsasha256-2048-2048", "ecdsap256", "ed25519",
                "nsec3-rsasha256-2048-1024", "nsec3-optout-rsasha256-2048-1024"]
# the paper's signed zone: its runs are "signed" (and "signed-300k")
PAPER_VARIANT = "rsasha256-2048-1024"

TABLE4_METHOD = ("answer_opt: the answer's own OPT record and DO bit (the Listener sees answers only); "
                 "no_dnssec_matched_query: the matching query's, from the capture of router-s's traffic "
                 "(settings.port_capture)")


class SchemaError(ValueError):
    """A summary of another schema than the one these rules read."""


# ------------------------------------------------------------ jq's arithmetic

def jround(x):
    """jq's round (C's round: halves away from zero)."""
    a = math.floor(abs(x))
    if abs(x) - a >= 0.5:
        a += 1
    return math.copysign(a, x) if a else 0


def r1(x):
    return jround(x * 10) / 10


def r4(x):
    return jround(x * 10000) / 10000


def r6(x):
    return jround(x * 1000000) / 1000000


def jadd(values):
    """jq's add: null for none."""
    values = list(values)
    if not values:
        return None
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total


def alt(value):
    """jq's `value // null`: null for false too."""
    return None if value is False else value


def get(obj, *path):
    """jq's .a.b: null through a missing key or a null."""
    for k in path:
        if obj is None:
            return None
        obj = obj.get(k)
    return obj


def csv_row(values):
    """map(tostring) | join(",")."""
    return ",".join(to_text(v) for v in values)


# ------------------------------------------------------------ the accounting

def frames_bytes(s):
    """"FRAMES BYTES" (dnsstat's count of a filter's frames) as {frames, bytes}."""
    a = [float(w) if "." in w or "e" in w.lower() else int(w) for w in s.split(" ")]
    return {"frames": a[0], "bytes": a[1]}


def accounting_ratio(a, b):
    return r6(a / b) if b > 0 else None


def within(r, tol=SNMP_CAPTURE_TOLERANCE):
    return r is not None and abs(r - 1) <= tol


def epoch_number(s):
    """An epoch time given as text, as jq's tonumber reads it."""
    x = float(s)
    return int(x) if x.is_integer() and "." not in s else x


def accounting(m):
    """SNMP's octet deltas of router-s against the capture of its traffic.

    m (as measured; counts "FRAMES BYTES"): snmp_in, snmp_out (bytes),
    capture_in, capture_out (the frames from the router's MAC, the
    others), arp, ip6 (not DNS), other (neither), link_in, link_out (the
    link's own frames, link_filter), dropped ("" unknown), where (the
    capture point in words); with a window (start, end: the SNMP
    readings, epoch seconds; "" without) also all and in_window (the
    whole capture and the frames between the readings), whole_in and
    whole_out (the directions over the whole capture)."""
    tol = SNMP_CAPTURE_TOLERANCE
    ci, co = frames_bytes(m["capture_in"]), frames_bytes(m["capture_out"])
    ar, i6, ot = frames_bytes(m["arp"]), frames_bytes(m["ip6"]), frames_bytes(m["other"])
    sin, sout = m["snmp_in"], m["snmp_out"]
    ri, ro = accounting_ratio(sin, ci["bytes"]), accounting_ratio(sout, co["bytes"])
    passed = within(ri) and within(ro)
    windowed = m.get("start", "") != ""
    a = w = wri = wro = None
    if windowed:
        a, w = frames_bytes(m["all"]), frames_bytes(m["in_window"])
        wri = accounting_ratio(sin, frames_bytes(m["whole_in"])["bytes"])
        wro = accounting_ratio(sout, frames_bytes(m["whole_out"])["bytes"])
    dropped = m.get("dropped", "")
    t = to_text
    explanation = (
        "SNMP ifHC{In,Out}Octets of router-s and the capture of its traffic (%s) both count Ethernet frames without FCS. "
        % t(m.get("where"))
        + "Non-DNS frames compared: %s ARP (%s bytes), %s IPv6 other than DNS (%s bytes), %s other (%s bytes). "
        % (t(ar["frames"]), t(ar["bytes"]), t(i6["frames"]), t(i6["bytes"]), t(ot["frames"]), t(ot["bytes"]))
        + "Difference SNMP - capture: in %s bytes, out %s bytes" % (t(sin - ci["bytes"]), t(sout - co["bytes"]))
        + (" (identical)." if sin == ci["bytes"] and sout == co["bytes"] else
           "; a frame that crosses the port while an SNMP reading is being taken falls on one side only "
           "(typically an ARP exchange, 84 bytes), and frames the capture dropped count in SNMP only.")
        + ("" if not windowed else
           " Compared: the frames captured between the two SNMP readings; %s frames (%s bytes) captured before the "
           "first or after the second are left out (over the whole capture the ratios are in %s, out %s)."
           % (t(a["frames"] - w["frames"]), t(a["bytes"] - w["bytes"]), t(wri), t(wro)))
        + (" The capture dropped %s packets." % dropped if dropped not in ("", "0") else "")
        + ("" if passed else " MISMATCH: beyond the %s%% tolerance." % t(tol * 100)))
    return {
        "in_ratio": ri, "out_ratio": ro, "pass": passed, "tolerance": tol,
        "snmp_in_bytes": sin, "snmp_out_bytes": sout,
        "capture_in_bytes": ci["bytes"], "capture_in_frames": ci["frames"],
        "capture_out_bytes": co["bytes"], "capture_out_frames": co["frames"],
        "capture_dropped": None if dropped == "" else epoch_number(dropped),
        "non_dns_frames": {"arp": ar, "ip6": i6, "other": ot},
        "link_own_frames": {"filter": m.get("link_filter"), "in": frames_bytes(m["link_in"]),
                            "out": frames_bytes(m["link_out"])},
        "window": None if not windowed else {
            "start": epoch_number(m["start"]), "end": epoch_number(m["end"]),
            "outside_frames": a["frames"] - w["frames"], "outside_bytes": a["bytes"] - w["bytes"],
            "whole_capture_in_ratio": wri, "whole_capture_out_ratio": wro},
        "explanation": explanation}


# ------------------------------------------------------------ runs

def run_key(variant, queries, queries_per_variant):
    """The name of a run in summary.json. The paper's two zones are
    "unsigned" and "signed" (and "signed-300k"), the names the report
    compares with the paper's Table 2; other variants keep theirs."""
    big = "" if queries == queries_per_variant else "-%dk" % (queries // 1000)
    if variant == "unsigned":
        return "unsigned" + big
    if variant == PAPER_VARIANT:
        return "signed" + big
    return variant + big


def paper_test(key):
    """The paper's Table 2 row a run reproduces, or None."""
    return {"unsigned": "unsigned", "signed": "signed", "signed-300k": "signed_300k"}.get(key)


def plan_runs(variant_list, queries, big_queries):
    """The runs [(key, variant, queries)] in order: the variants in
    ALL_VARIANTS' order (unsigned first), the paper's long run last."""
    runs = [(run_key(v, queries, queries), v, queries) for v in ALL_VARIANTS if v in variant_list]
    if big_queries > 0 and PAPER_VARIANT in variant_list:
        runs.append((run_key(PAPER_VARIANT, big_queries, queries), PAPER_VARIANT, big_queries))
    return runs


def unknown_variant(variant_list):
    """The first name of variant_list that is no zone variant, or None."""
    for v in variant_list:
        if v not in ALL_VARIANTS:
            return v
    return None


def run_record(key, variant, planned, sent, pps, answers, snmp_in, snmp_out, acct, seconds, where, flags,
               zone, ans, port):
    """One measured run (the line measure appends): bytes per query, the
    accounting, the zone's keys, the answers' rcodes, DNSSEC shares and
    sizes. zone: zones/build/<variant>/variant.json; ans, port: dnsstat's
    reports of the Listener's capture and of router-s's."""
    def per_query(x):
        return r1(x / sent) if sent > 0 else None
    lk = acct["link_own_frames"]
    n = ans.get("responses")
    e = ans.get("edns_by_rcode") or {}
    pe = port.get("edns_by_rcode") or {}
    svc = {k: acct.get(k) for k in ("in_ratio", "out_ratio", "pass", "explanation", "capture_in_bytes",
                                   "capture_out_bytes", "capture_dropped")}
    svc["outside_window_frames"] = alt(get(acct, "window", "outside_frames"))
    sizes = ans.get("sizes") or {}
    rd = sizes.get("response_dns") or {}
    return {
        "key": key, "zone_variant": variant, "paper_test": paper_test(key),
        "queries": sent, "queries_planned": planned, "pps": pps,
        "bytes_in": snmp_in, "bytes_out": snmp_out,
        "bytes_per_query_in": per_query(snmp_in),
        "bytes_per_query_out": per_query(snmp_out),
        "dns_bytes_per_query_in": per_query(snmp_in - lk["in"]["bytes"]),
        "dns_bytes_per_query_out": per_query(snmp_out - lk["out"]["bytes"]),
        "link_own_frames": {"in": lk.get("in"), "out": lk.get("out")},
        "growth_vs_unsigned": None,
        "answered": answers == sent and sent == planned, "answers": answers,
        "flags": [f for f in flags if f != ""], "seconds": seconds,
        "snmp_vs_capture": svc,
        "signed": zone.get("signed"), "algorithm": alt(get(zone, "algorithm", "name")),
        "algorithm_number": alt(get(zone, "algorithm", "number")),
        "ksk_bits": zone.get("ksk_bits"), "zsk_bits": zone.get("zsk_bits"),
        "denial": zone.get("denial"), "nsec3": zone.get("nsec3"),
        "responses": n, "rcodes": ans.get("rcodes"),
        "rcode_shares": {k: r4(v / n) for k, v in (ans.get("rcodes") or {}).items()},
        "no_dnssec": {"method": "answer_opt",
                      "by_rcode": {k: get(v, "answer", "no_opt_or_do0_share") for k, v in e.items()},
                      "overall": r4(jadd(get(v, "answer", "no_opt") + get(v, "answer", "do0") for v in e.values()) / n)},
        "no_dnssec_matched_query": {
            "method": "matched_query",
            "source": "the capture of router-s's traffic (queries and answers): %s" % where,
            "by_rcode": {k: get(v, "query", "no_opt_or_do0_share") for k, v in pe.items()},
            "matched": jadd(get(v, "query", "matched") for v in pe.values())},
        "reply_dns_bytes": {"mean": rd.get("mean"), "median": rd.get("p50"), "max": rd.get("max")},
        "reply_frame_mean": get(sizes, "response_frame", "mean"),
        "tc_responses": ans.get("tc_responses"),
        "sections": ans.get("response_sections"),
        "files": {"answers_pcap": "%s/answers.pcap" % key, "answers_stats": "%s/answers.json" % key,
                  "port_stats": "%s/port.json" % key, "accounting": "%s/accounting.json" % key}}


def flagged(record):
    return len(record.get("flags") or []) > 0


def progress_line(r):
    """One line per measured run."""
    t = to_text
    s = r["snmp_vs_capture"]
    line = ("%s (%s): %s queries at %s q/s in %s s: in %s B/q, out %s B/q; answered %s/%s; SNMP/capture in %s out %s"
            % (t(r["key"]), t(r["zone_variant"]), t(r["queries"]), t(r["pps"]), t(r["seconds"]),
               t(r["bytes_per_query_in"]), t(r["bytes_per_query_out"]), t(r["answers"]), t(r["queries"]),
               t(s.get("in_ratio")), t(s.get("out_ratio"))))
    if flagged(r):
        line += "; FLAGGED: " + "; ".join(r["flags"])
    return line


def variants(runs):
    """The runs as {key: {...}}, growth filled in from "unsigned"."""
    u = None
    for r in runs:
        if r["key"] == "unsigned":
            u = alt(r.get("bytes_per_query_out"))
            break
    out = {}
    for r in runs:
        v = dict(r)
        b = v.get("bytes_per_query_out")
        v["growth_vs_unsigned"] = None if u is None or u == 0 or b is None else r4((b - u) / u)
        del v["key"]
        out[r["key"]] = v
    return out


def flagged_keys(vs):
    return [k for k, v in vs.items() if flagged(v)]


def final_lines(vs):
    """What the run prints last: each run's bytes out per query and growth."""
    lines = []
    for k, v in vs.items():
        line = "%s: out %s B/q" % (k, to_text(v.get("bytes_per_query_out")))
        g = v.get("growth_vs_unsigned")
        if g is not None:
            line += " (%s%% vs unsigned)" % to_text(jround(g * 100 * 10) / 10)
        lines.append(line)
    return lines


def settings_json(family, service, scale, variant_list, declared, runs, trace_queries, seed, profile, digest,
                  prefix, points):
    """summary.settings: the run's plan, the declared settings' fields
    (declared, in its order), the trace, the accounting's tolerance and
    where router-s's traffic is captured (points: testbed capture-points)."""
    s = {"family": family, "service": service, "scale": scale, "variants": list(variant_list),
         "runs": [{"key": k, "zone_variant": v, "queries": q} for k, v, q in runs]}
    s.update(declared)
    s.update({
        "trace": {"generator": "udpreplay tracegen", "queries": trace_queries, "seed": seed, "profile": profile,
                  "zone": "zones/build/unsigned/root.zone", "file": "trace/trace.pcap", "digest": "sha256:" + digest,
                  "replay": "first QUERIES packets, rewritten so answers go to the Listener, from player1",
                  "clients": ("IPv6 (2001:2:0:19::/64, rewritten to the Listener's IPv6 address)" if family == 6
                              else "IPv4 (198.19.0.0/16, rewritten to the Listener's address)")},
        "snmp_capture_tolerance": SNMP_CAPTURE_TOLERANCE, "testbed_prefix": prefix,
        "snmp_port": "router-s (the router's server-VLAN port)",
        "port_capture": {"where": points.get("where"), "assumption": points.get("assumption"),
                         "points": [{"role": p.get("role"), "iface": p.get("host_iface"), "filter": p.get("filter")}
                                    for p in points["points"]]}})
    return s


def trace_summary(trace):
    """summary.trace from the trace's dnsstat report (None without one)."""
    if trace is None:
        return None
    return {"queries": trace.get("queries"), "no_opt": get(trace, "query_edns", "no_opt"),
            "do_bit": get(trace, "query_edns", "do1")}


def summary(status, error, started, finished, settings, testbed, host_speed, vs, trace, paper):
    """summary.json (rootbench.sizes/1). paper: analysis/paper.json."""
    s = {"schema": SCHEMA, "experiment": EXPERIMENT, "family": get(settings, "family"), "status": status}
    if error != "":
        s["error"] = error
    p = paper["sizes"]
    s.update({"started": started, "finished": finished, "settings": settings, "testbed": testbed,
              "host_speed": host_speed, "variants": vs, "flagged": flagged_keys(vs),
              "table4_method": TABLE4_METHOD, "trace": trace_summary(trace),
              "paper": {"section": p.get("section"), "growth_vs_unsigned": p.get("growth_vs_unsigned"),
                        "no_dnssec": p.get("no_dnssec"),
                        "tests": [dict({"test": k}, **v) for k, v in p["tests"].items()]}})
    return s


def interrupted_error(vs):
    return "interrupted; runs measured before: " + ", ".join(sorted(vs))


# ------------------------------------------------------------ tables

def lines(rows):
    return "".join(r + "\n" for r in rows)


def table2(vs, paper):
    """table2_bytes.csv: bytes in and out per query, with the paper's rows."""
    rows = ["# variant,zone_variant,queries,bytes_in,bytes_out,bytes_per_query_in,bytes_per_query_out,"
            "growth_vs_unsigned,answered,snmp_capture_in_ratio,snmp_capture_out_ratio,accounting_pass"]
    for k, v in vs.items():
        g = alt(v.get("growth_vs_unsigned"))
        s = v.get("snmp_vs_capture") or {}
        rows.append(csv_row([k, v.get("zone_variant"), v.get("queries"), v.get("bytes_in"), v.get("bytes_out"),
                             v.get("bytes_per_query_in"), v.get("bytes_per_query_out"), "" if g is None else g,
                             1 if truthy(v.get("answered")) else 0,
                             s.get("in_ratio"), s.get("out_ratio"), 1 if truthy(s.get("pass")) else 0]))
    for t in paper["sizes"]["tests"].values():
        rows.append(csv_row(["paper " + t["label"], "paper", t.get("queries"), t.get("bytes_in"), t.get("bytes_out"),
                             t.get("bytes_per_query_in"), t.get("bytes_per_query_out"), "", "", "", "", ""]))
    return lines(rows)


def table3(vs):
    """table3_rcodes.csv: the answers' rcodes per run."""
    rows = ["# variant,rcode,responses,share"]
    for k, v in vs.items():
        n = v.get("responses")
        for rc, c in (v.get("rcodes") or {}).items():
            rows.append(csv_row([k, rc, c, r4(c / n)]))
    return lines(rows)


def no_dnssec_row(key, method, rcode, n, e):
    share = r4((e.get("no_opt") + e.get("do0")) / n) if n > 0 else ""
    return csv_row([key, method, rcode, n, e.get("no_opt"), e.get("do0"), e.get("do1"), share])


def no_dnssec_rows(key, report, method):
    """table 4's rows of one run from a dnsstat report: answer_opt from the
    answers' own OPT (side "answer"), matched_query from the matching
    queries (side "query"), then the run's ALL row."""
    side = "answer" if method == "answer_opt" else "query"
    count = "responses" if method == "answer_opt" else None
    e = report.get("edns_by_rcode") or {}
    rows = []
    for rc, v in e.items():
        n = v.get(count) if count else get(v, "query", "matched")
        rows.append(no_dnssec_row(key, method, rc, n, v.get(side) or {}))
    if method == "answer_opt":
        n = jadd(v.get("responses") for v in e.values())
    else:
        n = jadd(get(v, "query", "matched") for v in e.values())
    total = {f: jadd(get(v, side, f) for v in e.values()) for f in ("no_opt", "do0", "do1")}
    rows.append(no_dnssec_row(key, method, "ALL", n, total))
    return rows


def table4(keys, answers, ports):
    """table4_no_dnssec.csv: answers without OPT or with DO=0, per rcode,
    by both methods. answers, ports: {key: dnsstat report}."""
    rows = ["# variant,method,rcode,responses,no_opt,do0,do1,no_opt_or_do0_share"]
    for k in keys:
        rows += no_dnssec_rows(k, answers[k], "answer_opt")
        rows += no_dnssec_rows(k, ports[k], "matched_query")
    return lines(rows)


def sort_by_count_desc(d):
    """to_entries | sort_by(-.value) (stable)."""
    return sorted(d.items(), key=lambda kv: -kv[1])


def table5(trace):
    """table5_edns_sizes.csv: the EDNS buffer sizes the trace's queries advertise."""
    q = trace["queries"]
    e = trace["query_edns"]
    ne = jadd(e["udp_sizes"].values())
    rows = ["# udp_size,queries,share_of_edns_queries,share_of_all_queries"]
    for size, c in sort_by_count_desc(e["udp_sizes"]):
        rows.append(csv_row([size, c, r4(c / ne), r4(c / q)]))
    rows.append(csv_row(["no_opt", e["no_opt"], "", r4(e["no_opt"] / q)]))
    return lines(rows)


def qtypes(trace):
    """qtypes.csv: the trace's query types."""
    q = trace["queries"]
    rows = ["# qtype,queries,share"]
    for t, c in sort_by_count_desc(trace["qtypes"]):
        rows.append(csv_row([t, c, r4(c / q)]))
    return lines(rows)


def reply_sizes(keys, answers):
    """reply_sizes.csv: a column per run (keys, answers: their dnsstat
    reports in that order), the share of its answers (DNS message length)
    in each bin; with no run, the header only."""
    if not answers:
        return "# size_lo\n"
    hs = []
    for a in answers:
        s = a["sizes"]["response_dns"]
        hs.append({to_text(b[0]): b[1] / s["n"] for b in s["bins"]})
    los = sorted({float(lo) for h in hs for lo in h})
    rows = ["# size_lo," + ",".join(keys)]
    for lo in los:
        key = to_text(lo)
        rows.append(csv_row([lo] + [r6(h.get(key, 0)) for h in hs]))
    return lines(rows)


def plot_axes(csv_text, binw):
    """The common axes of the figure: xmax (the last bin's end, bytes) and
    ymax (the largest share, percent, with 5 % room) as gnuplot is given
    them ("%d", "%.4f")."""
    x = y = 0
    for line in csv_text.splitlines():
        if line.startswith("#"):
            continue
        f = [float(c) if c else 0.0 for c in line.split(",")]
        x = max(x, f[0] + binw)
        y = max([y] + f[1:])
    return "%d" % x, "%.4f" % (y * 100 * 1.05)


# ------------------------------------------------------------ read by other experiments
# Another experiment reads a sizes summary only through this accessor,
# never by a field's path: it checks that the summary is of the schema
# analysis/sizes/experiment.py writes and fails naming both when it is not.

def sizes_summary_checked(s):
    if isinstance(s, dict) and s.get("schema") == SCHEMA:
        return s
    theirs = (s.get("schema") or "none") if isinstance(s, dict) else "none: not a summary"
    raise SchemaError("a sizes summary of schema %s (analysis/sizes/rules.py) was expected; this one's schema is "
                      "%s: read it with the rules of its version" % (SCHEMA, theirs))


def sizes_variants(s):
    """The zone variants measured, by name: {queries, bytes_in, bytes_out,
    bytes_per_query_in, bytes_per_query_out, growth_vs_unsigned, sections, ...}."""
    return alt(sizes_summary_checked(s).get("variants"))


def main(argv):
    import json
    from rootbench.lifecycle import json_pretty
    if argv == ["schema"]:
        print(SCHEMA)
        return 0
    if len(argv) == 2 and argv[0] == "accounting":
        with open(argv[1], encoding="utf-8") as f:
            print(json_pretty(accounting(json.load(f))))
        return 0
    if len(argv) >= 2 and argv[0] == "reply-sizes":
        keys = [k for k in argv[1].split(" ") if k]
        reports = []
        for path in argv[2:]:
            try:
                with open(path, encoding="utf-8") as f:
                    reports.append(json.load(f))
            except (OSError, ValueError) as e:
                print("rules: error: %s: %s" % (path, e), file=sys.stderr)
                return 1
        sys.stdout.write(reply_sizes(keys, reports))
        return 0
    print("usage: rules.py schema | accounting FILE | reply-sizes KEYS FILE...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

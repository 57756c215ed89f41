"""rules: the load-balancer experiment's rules, in one place (docs/lb-verify.md).

Pure functions of what was measured, called by scripts/lb/experiment.py and
checked on the fixtures of scripts/lb/testdata/ by tests/test_rules.py:

  source_list4, source_list6   the source addresses of a player's block
  dig_outcomes                 how each query of one dig ended, by cause
  segments, pcap_segments      the client->server segments of tcpdump -v's text
  captures                     per server: sources, connections, SYNs; the
                               overlap and the split connections
  flow_rows, flow_label        what the IPv6 flow label did at the router's hash
  label_configured             whether the router's sysctls hash the label
  verdict                      PASS or FAIL, its reasons and notes
  summary                      summary.json (rootbench.lb/1), its fields in order
  report_text                  the text report of a summary

Their texts (messages, numbers) are those the experiment's jq wrote
(rootbench.jqtext), so summaries and reports stay byte-identical.
"""

import math
import os
import re
import subprocess

from rootbench.jqtext import join_text, to_number, to_text, truthy

MAX_SOURCES = 508
QUERY = "id.server CH TXT"
SOURCE_RULE = "the block in order, without addresses ending in .0 or .255 (IPv4); PREFIX::1.. (IPv6)"
POLICY_RULE = ("net.ipv6.fib_multipath_hash_policy 0: addresses + flow label + next header; 1: 5-tuple; "
               "3: the fields of fib_multipath_hash_fields (0x0008 = flow label)")
# the fields of one dig's outcome line, in the order of sources.csv's columns
OUTCOMES = ("ok", "refused", "reset", "timeout", "eof", "rcode", "other", "missing",
            "answered_by_server1", "answered_by_server2")
SAMPLE = 10


# ---------------------------------------------------------------- sources

def source_list4(block, n):
    """The first n addresses of BLOCK (a /23 or larger) that do not end in .0
    or .255: a /23 without its network and broadcast address and the /24
    boundary pair (x.x.4.255, x.x.5.0, which old stacks and filters take for
    a broadcast/network address) leaves the paper's 508."""
    net, _, length = block.partition("/")
    a, b, c, d = (int(x) for x in net.split("."))
    base = (a << 24) | (b << 16) | (c << 8) | d
    out = []
    i = 1
    while i < (1 << (32 - int(length))) - 1 and len(out) < n:
        addr = base + i
        i += 1
        if addr & 255 in (0, 255):
            continue
        out.append("%d.%d.%d.%d" % (addr >> 24 & 255, addr >> 16 & 255, addr >> 8 & 255, addr & 255))
    return out


def source_list6(block, n):
    """PREFIX::1 .. PREFIX::N (hex) of a /64."""
    prefix = block.partition("/")[0]
    if prefix.endswith("::"):
        prefix = prefix[:-2]
    return ["%s::%x" % (prefix, i) for i in range(1, n + 1)]


# ---------------------------------------------------------------- dig

def cause_of(line):
    """The cause a failed query's line names."""
    if "refused" in line:
        return "refused"
    if "reset" in line:
        return "reset"
    if "timed out" in line:
        return "timeout"
    if "end of file" in line:
        return "eof"
    return "other"


SERVER1_RE = re.compile(r'TXT[ \t]+"server1"')
SERVER2_RE = re.compile(r'TXT[ \t]+"server2"')
CAUSE_RE = re.compile(r"^;; (communications error|Connection to .* failed|connection timed out)")


def dig_outcomes(text, m):
    """One outcome per query from the output of one dig of m queries, as the
    10 counts of OUTCOMES. An answer is a ->>HEADER<<- line (NOERROR =
    success, other rcodes the failure "rcode"); a failure ends with "no
    servers could be reached", its cause on the line before ("connection
    refused", "connection reset", "timed out", "end of file"). Queries with
    no outcome at all (dig killed or crashed) count as "missing"."""
    ok = n = s1 = s2 = 0
    failed = dict.fromkeys(("refused", "reset", "timeout", "eof", "rcode", "other"), 0)
    cause = ""
    for line in text.split("\n"):
        if "->>HEADER<<-" in line:
            n += 1
            if "status: NOERROR," in line:
                ok += 1
            else:
                failed["rcode"] += 1
        elif SERVER1_RE.search(line):
            s1 += 1
        elif SERVER2_RE.search(line):
            s2 += 1
        elif "no servers could be reached" in line:
            n += 1
            failed[cause or cause_of(line)] += 1
            cause = ""
        elif CAUSE_RE.search(line):
            cause = cause_of(line)
    return [ok, failed["refused"], failed["reset"], failed["timeout"], failed["eof"], failed["rcode"],
            failed["other"], max(m - n, 0), s1, s2]


# ---------------------------------------------------------------- captures

PORT_RE = re.compile(r"\.[0-9]+$")
SEQ_RE = re.compile(r"seq [0-9]+")
LABEL_RE = re.compile(r"flowlabel 0x[0-9a-f]+")


def segment(line):
    """(src, port, syn, isn, label) of one packet of tcpdump -n -S -v's
    text (continuation lines joined): syn 1 for a SYN without ACK, isn its
    absolute sequence number ("-" when it has none), label the IPv6 flow
    label as 0x and six hex digits ("-" over IPv4); None for a line that
    names no source.port."""
    w = line.split()
    try:
        i = w.index(">", 1)
    except ValueError:
        return None
    src = w[i - 1]
    k = PORT_RE.search(src)
    if not k:
        return None
    syn = 1 if "Flags [S]" in line else 0
    seq = SEQ_RE.search(line)
    isn = seq.group(0)[4:] if seq else "-"
    lab = LABEL_RE.search(line)
    label = "0x" + lab.group(0)[12:].rjust(6, "0") if lab else "-"
    return (src[:k.start()], src[k.start() + 1:], syn, isn, label)


def segments(text):
    """Every client->server segment of tcpdump -n -S -v's text (it
    continues an IPv4 packet on an indented line)."""
    out = []
    packet = ""
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            packet += " " + line
            continue
        if packet:
            s = segment(packet)
            if s:
                out.append(s)
        packet = line
    if packet:
        s = segment(packet)
        if s:
            out.append(s)
    return out


def pcap_segments(pcap):
    """segments() of a server's capture, read by tcpdump -n -S -v (the one
    function here that runs a program: tcpdump gave these lines in a tenth
    of tshark's time); none for an empty or missing file."""
    if not os.path.isfile(pcap) or os.path.getsize(pcap) == 0:
        return []
    out = subprocess.run(["tcpdump", "-r", pcap, "-n", "-S", "-v", "tcp dst port 53"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, encoding="latin-1", check=False).stdout
    return segments(out)


def captures(segs):
    """What the two servers' segments say: segs {server: [segment]}. Per
    server its sources, connections (a connection is a SYN: source, port and
    initial sequence number, so a port that dig happens to reuse later
    counts twice), SYNs and segments; the sources seen by both servers and
    the split connections: a (source, port) with segments at both servers,
    each sorted (a balancer that hashes sends a reused port to the same
    server again, so a reuse cannot fake a split); the connections of both."""
    per = {}
    for s in ("server1", "server2"):
        rows = segs.get(s, [])
        per[s] = {
            "sources": {r[0] for r in rows},
            "pairs": {r[0] + " " + r[1] for r in rows},
            "conns": {(r[0], r[1], r[3]) for r in rows if r[2] == 1},
            "syns": sum(1 for r in rows if r[2] == 1),
            "segments": len(rows),
        }
    one, two = per["server1"], per["server2"]
    return {
        "per_server": {s: {"sources": len(p["sources"]), "connections": len(p["conns"]),
                           "syns": p["syns"], "segments_in": p["segments"]} for s, p in per.items()},
        "overlap": sorted(one["sources"] & two["sources"], key=c_order),
        "split": sorted(one["pairs"] & two["pairs"], key=c_order),
        "connections": len(one["conns"] | two["conns"]),
    }


def c_order(s):
    """sort's order in the C (and C.UTF-8) locale: by bytes."""
    return s.encode("utf-8", "surrogateescape")


def flow_rows(segs):
    """The rows flow_label reads: per server, ["syn", SERVER, SOURCE, LABEL]
    for each SYN and ["seg", SOURCE/PORT, LABEL] for every segment."""
    rows = []
    for s in ("server1", "server2"):
        for r in segs.get(s, []):
            if r[2] == 1:
                rows.append(["syn", s, r[0], r[4]])
            rows.append(["seg", r[0] + "/" + r[1], r[4]])
    return rows


# ---------------------------------------------------------------- flow label

HEX_DIGITS = set("0123456789abcdef")


def number_or_none(s):
    """jq's `tonumber? // null`."""
    try:
        return to_number(s)
    except ValueError:
        return None


def hex_or_decimal(s):
    """A number written in hex ("0x0008") or decimal ("8"), as sysctl prints
    net.ipv6.fib_multipath_hash_fields; None when it is neither."""
    if s.startswith(("0x", "0X")):
        digits = s[2:].lower()
        if not digits or not set(digits) <= HEX_DIGITS:
            return None
        value = 0.0
        for d in digits:
            value = value * 16 + int(d, 16)
        return value
    return number_or_none(s)


def jq_mod(a, b):
    """jq's % : both truncated to integers, the remainder with a's sign."""
    a, b = int(a), int(b)
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def label_configured(pol, fields):
    """Whether the router's configuration puts the flow label in its IPv6
    hash: policy 0 (and 2) hash addresses, flow label and next header; 3
    the fields of fib_multipath_hash_fields, where bit 0x0008 is the flow
    label; 1 the 5-tuple, without it."""
    if pol in ("0", "2"):
        return True
    if pol == "3":
        f = hex_or_decimal(fields)
        if f is None:
            f = 0
        x = math.floor(f / 8)
        return jq_mod(x, 2) == 1
    return False


def unique_count(values):
    return len(set(values))


def flow_label(rows, lb, pol, fields, auto):
    """The flow label over IPv6, from the servers' captures. rows: each
    ["syn", SERVER, SOURCE, LABEL] for a connection's SYN or ["seg", CONN,
    LABEL] for every segment toward the service (CONN: source/port). lb the
    balancer's mode, pol and fields the router's sysctls, auto the player's
    net.ipv6.auto_flowlabels ("" when unread)."""
    def at(r, i):
        return r[i] if i < len(r) else None

    syns = [{"server": at(r, 1), "src": at(r, 2), "label": at(r, 3)} for r in rows if at(r, 0) == "syn"]
    by_src = {}
    for s in syns:
        by_src.setdefault(s["src"], []).append(s)
    per = [{"labels": unique_count(x["label"] for x in g), "servers": unique_count(x["server"] for x in g)}
           for g in by_src.values()]
    by_conn = {}
    for r in rows:
        if at(r, 0) == "seg":
            by_conn.setdefault(at(r, 1), set()).add(at(r, 2))
    changed = sum(1 for labels in by_conn.values() if len(labels) > 1)
    multi = [p for p in per if p["labels"] >= 2]
    multi_one = sum(1 for p in multi if p["servers"] == 1)
    multi_both = sum(1 for p in multi if p["servers"] >= 2)
    distinct = unique_count(s["label"] for s in syns)
    unmeasurable = len(multi) == 0 or distinct < 2
    ports = lb in ("l4", "per-packet")
    if unmeasurable:
        finding = "not measurable: no source sent connections with different flow labels"
    elif ports:
        finding = "not measurable with LB=%s: ports (or chance) spread a source without the label" % lb
    elif multi_both > 0:
        finding = ("the flow label enters the hash: %d of %d sources whose connections carried different labels "
                   "reached both servers (the addresses alone would keep each on one), while %d connections "
                   "changed label mid-way" % (multi_both, len(multi), changed))
    else:
        finding = ("the flow label does not enter the hash: all %d sources whose connections carried different "
                   "labels (%d labels in %d SYNs) stayed on one server" % (len(multi), distinct, len(syns)))
    return {
        "router_hash_policy": number_or_none(pol),
        "router_hash_fields": None if fields == "" else fields,
        "player_auto_flowlabels": number_or_none(auto),
        "policy_rule": POLICY_RULE,
        "configured_in_hash": label_configured(pol, fields),
        "syns": len(syns), "distinct_labels": distinct,
        "sources": len(per), "sources_with_several_labels": len(multi),
        "of_them_on_one_server": multi_one, "of_them_on_both_servers": multi_both,
        "connections_label_changed": changed,
        "measured_in_hash": None if unmeasurable or ports else multi_both > 0,
        "finding": finding,
    }


# ---------------------------------------------------------------- verdict

def verdict(m):
    """The verdict. m: {failed, sent, split, capture_ok, connections,
    answered, lb, family ("ipv4"|"ipv6"), overlap, interrupted, measured,
    planned, syns: {server1, server2}}. PASS when nothing failed, no
    connection was split, both captures are complete and hold a connection
    per answered query, the run was not interrupted and, for a balancer
    that hashes addresses only (l3; l3-flowlabel over IPv4, which has no
    label), no source reached both servers. Returns {verdict, reasons,
    notes}."""
    t = to_text
    lbf = "l3" if m["lb"] == "l3-flowlabel" and m["family"] == "ipv4" else m["lb"]
    reasons = []
    if m["failed"] > 0:
        reasons.append("%s of %s queries failed" % (t(m["failed"]), t(m["sent"])))
    if m["split"] > 0:
        reasons.append("%s TCP connections had segments on both servers (split connections)" % t(m["split"]))
    if not truthy(m["capture_ok"]):
        reasons.append("a capture is incomplete (tcpdump dropped or lost packets): the connection check is not valid")
    if not m["connections"] >= m["answered"]:
        reasons.append("the captures hold %s TCP connections for %s answered queries: dig reused connections or the "
                       "capture missed some, the check is not valid" % (t(m["connections"]), t(m["answered"])))
    if lbf == "l3" and m["overlap"] > 0:
        reasons.append("%s sources reached both servers: LB=l3 must keep a source on one server" % t(m["overlap"]))
    if truthy(m["interrupted"]):
        reasons.append("interrupted after %s of %s sources" % (t(m["measured"]), t(m["planned"])))
    notes = []
    if lbf == "l3-flowlabel" and m["overlap"] > 0:
        notes.append("LB=l3-flowlabel hashes the IPv6 flow label, which differs per connection: %s sources on both "
                     "servers is expected and allowed; only split connections would be wrong (a connection whose "
                     "label changes, e.g. after a retransmission timeout, could be split)" % t(m["overlap"]))
    if lbf == "l4" and m["overlap"] > 0:
        notes.append("LB=l4 hashes on the 5-tuple, so one source's connections spread over both servers: %s sources "
                     "on both is expected and allowed; only split connections would be wrong" % t(m["overlap"]))
    if lbf == "per-packet":
        notes.append("LB=per-packet is the deliberately broken balancer, the negative control: it must FAIL")
    if m["syns"]["server1"] == 0 or m["syns"]["server2"] == 0:
        notes.append("only one server saw connections: the overlap criterion says little with so few sources")
    return {"verdict": "PASS" if not reasons else "FAIL", "reasons": reasons, "notes": notes}


# ---------------------------------------------------------------- summary

def summary(r):
    """summary.json (rootbench.lb/1) of a run, its fields in the order the
    report and users read them. r holds: status, started, finished,
    duration_s, lb, family ("ipv4"|"ipv6"), planned, queries (per source),
    player, block, first, last, service, dig, testbed, host_speed, measured,
    sent, totals (the 10 counts of OUTCOMES, summed), capture (captures()),
    capture_stats {server: [captured, received, dropped]} (the texts of
    tcpdump's counts, rootbench.capture.log_stats), capture_ok,
    interrupted, flow (flow_label() or None), paper (paper.json's lb)."""
    ok, refused, reset, timeout, eof, rcode, other, missing, a1, a2 = r["totals"]
    failed = refused + reset + timeout + eof + rcode + other + missing
    c = r["capture"]
    per_server = {s: dict(c["per_server"][s], capture=dict(zip(("captured", "received", "dropped"),
                                                               map(number_or_none, r["capture_stats"][s]))))
                  for s in ("server1", "server2")}
    v = verdict({"failed": failed, "sent": r["sent"], "split": len(c["split"]), "capture_ok": r["capture_ok"],
                 "connections": c["connections"], "answered": ok, "lb": r["lb"], "family": r["family"],
                 "overlap": len(c["overlap"]), "interrupted": r["interrupted"], "measured": r["measured"],
                 "planned": r["planned"],
                 "syns": {"server1": c["per_server"]["server1"]["syns"],
                          "server2": c["per_server"]["server2"]["syns"]}})
    return {
        "schema": "rootbench.lb/1", "experiment": "lb", "family": 6 if r["family"] == "ipv6" else 4,
        "status": r["status"], "started": r["started"], "finished": r["finished"], "duration_s": r["duration_s"],
        "settings": {"lb": r["lb"], "sources": r["planned"], "queries_per_source": r["queries"],
                     "family": r["family"], "player": r["player"], "block": r["block"],
                     "first_source": r["first"], "last_source": r["last"], "source_rule": SOURCE_RULE,
                     "service": r["service"], "query": QUERY, "dig": r["dig"]},
        "testbed": r["testbed"], "host_speed": r["host_speed"],
        "lb": r["lb"], "verdict": v["verdict"], "reasons": v["reasons"], "notes": v["notes"],
        "sources": r["measured"], "queries": r["sent"], "queries_per_source": r["queries"], "answered": ok,
        "failed": {"total": failed, "refused": refused, "reset": reset, "timeout": timeout, "eof": eof,
                   "rcode": rcode, "other": other, "missing": missing},
        "answered_by": {"server1": a1, "server2": a2},
        "per_server": per_server, "connections": c["connections"],
        "overlap_sources": {"count": len(c["overlap"]), "sample": c["overlap"][:SAMPLE]},
        "split_connections": {"count": len(c["split"]),
                              "sample": [p.replace(" ", " port ", 1) for p in c["split"][:SAMPLE]]},
        "flow_label": r["flow"],
        "paper": r["paper"],
    }


# ---------------------------------------------------------------- report

def col(v):
    return (to_text(v) + " " * 26)[:26]


def report_text(s):
    """The text report (report.txt and the run's output) of a summary."""
    t = to_text
    st, p, ps, f = s["settings"], s["paper"], s["per_server"], s["failed"]

    def server(k):
        x = ps[k]
        return ("  %s: %s sources, %s connections (%s SYNs), capture %s/%s packets, %s dropped"
                % (k, t(x["sources"]), t(x["connections"]), t(x["syns"]), t(x["capture"]["captured"]),
                   t(x["capture"]["received"]), t(x["capture"]["dropped"])))
    lines = [
        "lb-verify: TCP stickiness of the load balancer (paper section 4)",
        "  status %s, LB=%s, %s, %s of %s sources (%s .. %s of %s on %s), %s TCP queries each"
        % (t(s["status"]), t(s["lb"]), t(st["family"]), t(s["sources"]), t(st["sources"]), t(st["first_source"]),
           t(st["last_source"]), t(st["block"]), t(st["player"]), t(s["queries_per_source"])),
        "  run time %s s" % t(s["duration_s"]),
        "",
        "                          this run                  paper",
        "  sources tested          %s%s (of 508)" % (col(s["sources"]), t(p["sources"])),
        "  queries sent            %s%s (%s per source)" % (col(s["queries"]), t(p["sources"] * p["digs_per_source"]),
                                                          t(p["digs_per_source"])),
        "  failed queries          %s%s" % (col(f["total"]), t(p["failed"])),
        "  sources per server      %s%s/%s (Juniper), %s/%s (Cisco)"
        % (col("%s / %s" % (t(ps["server1"]["sources"]), t(ps["server2"]["sources"]))),
           t(p["per_server"]["juniper"]["server1"]), t(p["per_server"]["juniper"]["server2"]),
           t(p["per_server"]["cisco"]["server1"]), t(p["per_server"]["cisco"]["server2"])),
        "  sources on both         %s%s" % (col(s["overlap_sources"]["count"]), t(p["overlap_sources"])),
        "  split TCP connections   %s%s (\"no TCP fragments ended at another server\")"
        % (col(s["split_connections"]["count"]), t(p["split_connections"])),
        "",
        "  failures by cause: refused %s, reset %s, timeout %s, eof %s, rcode %s, other %s, no outcome %s"
        % tuple(t(f[k]) for k in ("refused", "reset", "timeout", "eof", "rcode", "other", "missing")),
        "  answers (client view, id.server): server1 %s, server2 %s"
        % (t(s["answered_by"]["server1"]), t(s["answered_by"]["server2"])),
        server("server1"),
        server("server2"),
        "  TCP connections seen %s for %s queries (%s answered): %s"
        % (t(s["connections"]), t(s["queries"]), t(s["answered"]),
           "a new connection per query" if s["connections"] >= s["answered"] else "FEWER than queries"),
    ]
    if s["overlap_sources"]["count"] > 0:
        lines.append("  sources on both servers (sample): " + join_text(s["overlap_sources"]["sample"], " "))
    if s["split_connections"]["count"] > 0:
        lines.append("  split connections (sample): " + join_text(s["split_connections"]["sample"], ", "))
    fl = s.get("flow_label")
    if truthy(fl):
        lines.append("  flow label: %s (router net.ipv6.fib_multipath_hash_policy %s, fields %s)"
                     % (t(fl["finding"]), t(fl["router_hash_policy"]), t(fl["router_hash_fields"])))
    lines += ["  note: " + n for n in s["notes"]]
    lines += ["  reason: " + x for x in s["reasons"]]
    lines += ["", "verdict: " + t(s["verdict"])]
    return "\n".join(lines) + "\n"

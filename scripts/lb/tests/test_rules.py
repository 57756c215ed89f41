"""The load-balancer experiment's rules (scripts/lb/rules.py) on the fixtures
of scripts/lb/testdata/, each with a negative control that changes the one
fact the verdict rests on:
- a clean LB=l3 run passes with no reason; a failed query, a split
  connection, an incomplete capture, fewer connections than answers, a
  source on both servers or an interruption each fail it, with its reason;
- a source on both servers is a note, not a failure, for l4 and for
  l3-flowlabel over IPv6, but a failure for l3-flowlabel over IPv4 (no label
  there: the addresses alone are hashed); per-packet is noted as the
  negative control;
- the flow label: a source whose connections carried different labels and
  reached both servers means the label enters the hash; control: the same
  sources all on one server mean it does not; one label per source, or
  LB=l4, is not measurable; a connection whose segments changed label is
  counted;
- the router's hash fields are read in hex and decimal: 0x0008 has the
  flow-label bit, 0x0037 does not; policy 0 includes it, policy 1 not;
- dig's output gives each query one outcome, by cause, and the queries
  without one are missing;
- the sources are the block in order without .0 and .255 (IPv4), ::1.. (IPv6);
- the captures of three real runs give the summary.json and report.txt
  the jq and awk rules wrote from them, byte for byte (expected-*);
- the text report carries the verdict, every reason and the paper's figures.
"""

import copy
import functools
import json
import os

import pytest

from rootbench.capture import log_stats
from rootbench.experiment import sibling
from rootbench.lifecycle import json_pretty

rules = sibling(__file__, "../rules")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "testdata")
TOP = os.path.join(HERE, "..", "..", "..")


def data(*path):
    return os.path.join(DATA, *path)


def read(*path):
    with open(data(*path), encoding="utf-8") as f:
        return f.read()


MEASURED = json.loads(read("measured-l3.json"))


def verdict(**changes):
    """lb_verdict of the clean l3 fixture changed by CHANGES (syns_server1=..
    for the SYN counts), as "VERDICT|reason;reason|note;note"."""
    m = copy.deepcopy(MEASURED)
    for k, v in changes.items():
        if k.startswith("syns_"):
            m["syns"][k[5:]] = v
        else:
            m[k] = v
    v = rules.verdict(m)
    return "%s|%s|%s" % (v["verdict"], ";".join(v["reasons"]), ";".join(v["notes"]))


def test_a_clean_l3_run_passes_with_no_reason():
    assert verdict() == "PASS||"


@pytest.mark.parametrize("changes, expected", [
    (dict(failed=3), "FAIL|3 of 80 queries failed"),
    (dict(split=2), "FAIL|2 TCP connections had segments on both servers"),
    (dict(capture_ok=False), "FAIL|a capture is incomplete"),
    (dict(connections=70), "FAIL|the captures hold 70 TCP connections for 80 answered queries"),
    (dict(overlap=4), "FAIL|4 sources reached both servers: LB=l3"),
    (dict(interrupted=True, measured=5), "FAIL|interrupted after 5 of 16 sources"),
    (dict(lb="l3-flowlabel", family="ipv4", overlap=4), "FAIL|4 sources reached both servers: LB=l3"),
    (dict(lb="per-packet", split=9), "FAIL|9 TCP connections"),
])
def test_each_fault_fails_the_run_with_its_reason(changes, expected):
    assert verdict(**changes).startswith(expected)


def test_sources_on_both_servers_are_allowed_for_l4_with_a_note():
    v = verdict(lb="l4", overlap=4)
    assert v.split("|")[:2] == ["PASS", ""]
    assert "LB=l4 hashes on the 5-tuple" in v


def test_l3_flowlabel_over_ipv6_allows_sources_on_both_servers():
    assert verdict(lb="l3-flowlabel", family="ipv6", overlap=4).startswith(
        "PASS||LB=l3-flowlabel hashes the IPv6 flow label")


def test_per_packet_is_noted_as_the_negative_control():
    assert "the negative control: it must FAIL" in verdict(lb="per-packet", split=9)


def test_one_server_only_is_a_note_not_a_failure():
    assert verdict(syns_server2=0).startswith("PASS||only one server saw connections")


def test_every_reason_at_once_in_order():
    v = rules.verdict(dict(MEASURED, lb="per-packet", split=9, failed=5, capture_ok=False, connections=1,
                           overlap=3, interrupted=True, syns={"server1": 0, "server2": 40}))
    assert v["verdict"] == "FAIL"
    assert [r.split(" ")[0] for r in v["reasons"]] == ["5", "9", "a", "the", "interrupted"]
    assert len(v["notes"]) == 2


ROWS = [line.split(" ") for line in read("flowlabel.rows").split("\n") if line]


def flow(lb, rows=ROWS):
    return rules.flow_label(rows, lb, "0", "0x0007", "1")


def test_flow_label_fixture_counts():
    f = flow("l3-flowlabel")
    assert [f[k] for k in ("syns", "sources", "sources_with_several_labels", "of_them_on_both_servers",
                           "of_them_on_one_server", "connections_label_changed", "distinct_labels")] == [5, 3, 2, 1, 1, 1, 5]


def test_a_labelled_source_on_both_servers_means_the_label_is_hashed():
    f = flow("l3-flowlabel")
    assert f["measured_in_hash"] is True
    assert "the flow label enters the hash: 1 of 2 sources" in f["finding"]


def test_control_every_source_on_one_server_means_the_label_is_not_hashed():
    rows = [r[:1] + ["server1"] + r[2:] if r[0] == "syn" else r for r in ROWS]
    f = flow("l3-flowlabel", rows)
    assert f["measured_in_hash"] is False
    assert "does not enter the hash: all 2 sources" in f["finding"]


def test_one_label_everywhere_is_not_measurable():
    rows = [r[:3] + ["0x1"] if r[0] == "syn" else r for r in ROWS]
    f = flow("l3-flowlabel", rows)
    assert (f["measured_in_hash"], f["finding"]) == (
        None, "not measurable: no source sent connections with different flow labels")


def test_l4_ports_spread_a_source_so_the_label_is_not_measurable():
    f = flow("l4")
    assert f["measured_in_hash"] is None
    assert f["finding"].startswith("not measurable with LB=l4")


def test_the_routers_settings_are_recorded():
    f = flow("l3")
    assert (f["router_hash_policy"], f["router_hash_fields"], f["player_auto_flowlabels"], f["configured_in_hash"]) == (
        0, "0x0007", 1, True)
    f = rules.flow_label(ROWS, "l3", "", "", "")
    assert (f["router_hash_policy"], f["router_hash_fields"], f["player_auto_flowlabels"]) == (None, None, None)


@pytest.mark.parametrize("pol, fields, expected", [
    ("3", "0x0008", True),     # the flow label's bit
    ("3", "8", True),          # in decimal
    ("3", "0x0037", False),    # addresses and ports, no label
    ("3", "0x003F", True),     # upper case
    ("3", "bogus", False),     # unreadable: not in the hash
    ("3", "-8", False),        # jq's remainder keeps the sign
    ("0", "", True),           # policy 0: addresses and flow label
    ("2", "", True),
    ("1", "0x0008", False),    # policy 1: the 5-tuple
    (" 0 ", "", False),        # a policy is matched as sysctl prints it
])
def test_label_configured_reads_the_routers_policy_and_fields(pol, fields, expected):
    assert rules.label_configured(pol, fields) is expected


def test_hex_or_decimal():
    assert [rules.hex_or_decimal(s) for s in ("0x1f", "31", "0xzz", "", "0x", "0X00fF")] == [31, 31, None, None, None, 255]


@pytest.mark.parametrize("name, m, expected", [
    # ok refused reset timeout eof rcode other missing server1 server2
    ("answers.out", 3, [3, 0, 0, 0, 0, 0, 0, 0, 3, 0]),
    ("answers.out", 10, [3, 0, 0, 0, 0, 0, 0, 7, 3, 0]),
    ("rcodes.out", 4, [2, 0, 0, 0, 0, 2, 0, 0, 1, 0]),
    ("refused.out", 2, [0, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
    ("unreachable.out", 3, [0, 0, 0, 0, 0, 0, 2, 1, 0, 0]),
    ("causes.out", 10, [1, 0, 1, 2, 1, 1, 1, 3, 0, 1]),
    ("cut-short.out", 4, [1, 0, 0, 0, 0, 0, 0, 3, 1, 0]),
    ("empty.out", 2, [0, 0, 0, 0, 0, 0, 0, 2, 0, 0]),
])
def test_dig_output_gives_each_query_one_outcome_by_cause(name, m, expected):
    assert rules.dig_outcomes(read("dig", name), m) == expected


def test_control_more_outcomes_than_queries_count_no_missing():
    assert rules.dig_outcomes(read("dig", "answers.out"), 0)[7] == 0


def test_ipv4_sources_skip_the_addresses_ending_in_0_and_255():
    s = rules.source_list4("198.18.4.0/23", rules.MAX_SOURCES)
    assert (len(s), s[0], s[253], s[254], s[-1]) == (508, "198.18.4.1", "198.18.4.254", "198.18.5.1", "198.18.5.254")
    assert not [a for a in s if a.endswith((".0", ".255"))]
    # control: a /23 holds no more than 508 such addresses
    assert len(rules.source_list4("198.18.4.0/23", 600)) == 508


def test_ipv6_sources_count_in_hex_from_the_prefix():
    assert rules.source_list6("2001:2:0:4::/64", 17)[::8] == ["2001:2:0:4::1", "2001:2:0:4::9", "2001:2:0:4::11"]


CASES = sorted(os.listdir(data("captures")))


@functools.lru_cache(maxsize=None)
def case_summary(case):
    """The summary of a fixture run: its captures read as the experiment
    reads them, its sources.csv's totals and its run.json's settings (once
    a case: tcpdump reads each capture)."""
    d = data("captures", case)
    with open(os.path.join(d, "run.json"), encoding="utf-8") as f:
        r = json.load(f)
    segs = {s: rules.pcap_segments(os.path.join(d, s + ".pcap")) for s in ("server1", "server2")}
    totals = [0] * len(rules.OUTCOMES)
    with open(os.path.join(d, "sources.csv"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                totals = [a + int(b) for a, b in zip(totals, line.strip().split(",")[1:])]
    router = r.get("router") or {}
    flow = None
    if r["family"] == "ipv6":
        flow = rules.flow_label(rules.flow_rows(segs), r["lb"], router["policy"], router["fields"], router["auto"])
    stats = {}
    for s in ("server1", "server2"):
        with open(os.path.join(d, s + ".pcap.log"), encoding="utf-8") as f:
            stats[s] = log_stats(f.read())
    with open(os.path.join(TOP, "analysis", "paper.json"), encoding="utf-8") as f:
        paper = json.load(f)["lb"]
    return rules.summary(dict(r, totals=totals, capture=rules.captures(segs), capture_stats=stats, flow=flow,
                              paper=paper))


@pytest.mark.parametrize("case", CASES)
def test_captures_give_the_summary_and_report_of_the_jq_rules_byte_for_byte(case):
    s = case_summary(case)
    assert json_pretty(s) + "\n" == read("captures", case, "expected-summary.json")
    assert rules.report_text(s) == read("captures", case, "expected-report.txt")


def test_per_packet_captures_hold_split_connections_and_l3_none():
    split = {c: case_summary(c)["split_connections"]["count"] for c in CASES}
    assert split["per-packet-v4"] > 0
    assert split["l3-v6"] == 0 and split["l3-flowlabel-v6"] == 0


def test_the_flow_label_follows_the_routers_hash_in_the_captures():
    assert case_summary("l3-v6")["flow_label"]["measured_in_hash"] is False
    assert case_summary("l3-flowlabel-v6")["flow_label"]["measured_in_hash"] is True


SUMMARY = json.loads(read("summary.json"))


def test_the_report_carries_the_verdict_and_the_papers_figures():
    t = rules.report_text(SUMMARY)
    assert "verdict: %s" % SUMMARY["verdict"] in t
    with open(os.path.join(TOP, "analysis", "paper.json"), encoding="utf-8") as f:
        j = json.load(f)["lb"]["per_server"]["juniper"]
    assert "%d/%d (Juniper)" % (j["server1"], j["server2"]) in t
    assert "sources tested          %d " % SUMMARY["sources"] in t


def test_control_a_failed_summary_reports_its_reason_and_verdict():
    t = rules.report_text(dict(SUMMARY, verdict="FAIL", reasons=["3 of 80 queries failed"]))
    assert "  reason: 3 of 80 queries failed" in t
    assert "verdict: FAIL" in t

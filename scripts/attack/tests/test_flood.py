"""An attack flood's record (scripts/attack/flood.py) from the raw
snapshots of a real 1-second DNSKEY reflection flood (scripts/tests/
testdata/attack-flood-raw.json, 2,010 queries from the victim block). What
must hold, each figure computed here from the fixture's counters, not by
the module:
- sent and answers are the router's deltas (dns_udp_queries without a
  background trace's trace_udp_queries, dns_udp_answers), their rates per
  second of the flood (halved for a 2-second one), the servers' queries
  the daemons' deltas summed;
- the amplification is the sink port's octets out over the attacker
  port's octets in (SNMP) and the victim block's packets over those sent;
  null for a kind that is no reflection (control: the same counters as
  random-subdomain), and null, not a division by zero, when nothing came in;
- a TCP kind counts its SYNs (dns_tcp_syns), and the servers' TCP MIB is
  summed over the servers, the established connections' peak being the
  running sum's, not the largest step;
- a daemon that gave no count makes the servers' queries null;
- a raw object of another schema, and a record without a field the rules
  read, are refused with their names (control: the record passes);
- the record of the fixture is the one scripts/lib/attack.jq wrote from it,
  byte for byte (testdata/flood-expected.json), as the command prints it.
"""

import copy
import os
import subprocess

import pytest

from rootbench.experiment import sibling
from rootbench.jqtext import json_pretty
from rootbench.rules.jqlib import JqError, loads

flood = sibling(__file__, "../flood")
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FX = os.path.join(TOP, "scripts", "tests", "testdata", "attack-flood-raw.json")
EXPECTED = os.path.join(HERE, "..", "testdata", "flood-expected.json")

with open(FX) as _f:
    RAW = loads(_f.read())


def raw():
    return copy.deepcopy(RAW)


def d(path, r=None):
    """after - before of a path of the fixture."""
    r = RAW if r is None else r
    a, b = r, r
    head, *rest = path
    a, b = r[head]["after"], r[head]["before"]
    for k in rest:
        a, b = a[k], b[k]
    return a - b


def rec(r=None):
    return flood.attack_flood(raw() if r is None else r)


def test_sent_and_answers_are_the_router_s_and_their_rates_over_1_s():
    f = rec()
    q = d(["counters", "router", "dns_udp_queries", "packets"])
    a = d(["counters", "router", "dns_udp_answers", "packets"])
    assert q == 2010
    assert [f["schema"], f["kind"], f["sent"], f["answers"], f["achieved_rate"], f["answered_rate"]] == [
        "rootbench.attack-flood/1", "reflection-dnskey", q, a, q, a]


def test_rates_over_2_s_are_halved():
    r = raw()
    r["seconds"] = 2
    f = rec(r)
    assert [f["achieved_rate"], f["answered_rate"]] == [1005, 1005]


@pytest.mark.parametrize("apart", [True, False], ids=["background-left-out", "control-counted-when-not-apart"])
def test_a_background_trace_s_queries_are_not_the_flood_s(apart):
    r = raw()
    r["counters"]["after"]["router"]["dns_udp_queries"]["packets"] += 500
    r["counters"]["before"]["router"]["trace_udp_queries"] = {"packets": 7, "bytes": 700}
    r["counters"]["after"]["router"]["trace_udp_queries"] = {"packets": 507, "bytes": 50700} if apart else {"packets": 7, "bytes": 700}
    assert rec(r)["sent"] == 2010 + (0 if apart else 500)


def test_the_daemons_queries_summed_the_switch_s_octets_and_the_sink_s_packets():
    f = rec()
    sq = sum(d(["server_stats", s, "queries"]) for s in ("server1", "server2"))
    assert f["servers"]["queries"] == sq
    assert [f["switch"]["attacker_in_octets"], f["switch"]["attacker_out_octets"], f["switch"]["sink_out_octets"],
            f["sink"]["reflected_udp"]["packets"]] == [
        d(["octets", "attacker_in"]), d(["octets", "attacker_out"]), d(["octets", "sink_out"]),
        d(["counters", "sink", "reflected_udp", "packets"])]


def test_the_amplification_in_bytes_packets_and_ip_bytes():
    a = rec()["amplification"]
    assert round(a["bytes"] * 1e6) == round(d(["octets", "sink_out"]) / d(["octets", "attacker_in"]) * 1e6)
    sp = d(["counters", "sink", "reflected_udp", "packets"])
    assert a["packets"] == sp / 2010
    ab = d(["counters", "router", "dns_udp_answers", "bytes"])
    qb = d(["counters", "router", "dns_udp_queries", "bytes"])
    assert round(a["ip_bytes"] * 1e6) == round(ab / qb * 1e6)


def test_control_no_amplification_for_random_subdomain_nor_a_zero_division():
    r = raw()
    r["kind"] = "random-subdomain"
    assert rec(r)["amplification"] is None
    r = raw()
    r["octets"]["after"]["attacker_in"] = r["octets"]["before"]["attacker_in"]
    assert rec(r)["amplification"]["bytes"] is None
    r = raw()
    r["kind"] = "reflection-any"
    assert rec(r)["amplification"]["bytes"] > 1


def test_a_tcp_kind_counts_its_syns_and_sums_the_mib_with_the_running_peak():
    r = raw()
    r["kind"] = "conn-hold"
    r["counters"]["after"]["router"]["dns_tcp_syns"]["packets"] += 500
    r["sample"]["deltas"] = {"server1": {"TcpPassiveOpens": 240, "TcpExtSyncookiesSent": 3}, "server2": {"TcpPassiveOpens": 258}}
    r["sample"]["estab_changes"] = [100, 150, -40, 60, -300]
    t = rec(r)
    syns = d(["counters", "router", "dns_tcp_syns", "packets"])
    tcp = t["servers"]["tcp"]
    assert [t["sent"], t["sent_counted_as"], tcp["passive_opens"], tcp["syncookies_sent"], tcp["listen_drops"], tcp["curr_estab_max"]] == [
        syns + 500, "router dns_tcp_syns", 498, 3, 0, 270]
    assert t["amplification"] is None
    r = raw()
    r["sample"]["estab_changes"] = [-5, -1]
    assert rec(r)["servers"]["tcp"]["curr_estab_max"] == 0


def test_a_daemon_without_a_count_makes_the_servers_queries_null():
    r = raw()
    r["server_stats"]["after"]["server2"] = {}
    assert rec(r)["servers"]["queries"] is None


def test_a_raw_object_of_another_schema_is_refused():
    r = raw()
    r["schema"] = "rootbench.attack-flood-raw/0"
    with pytest.raises(JqError, match="schema rootbench.attack-flood-raw/1 was expected; this one's schema is rootbench.attack-flood-raw/0"):
        rec(r)


def test_the_record_check_refuses_a_raw_object_and_a_record_without_sent():
    with pytest.raises(JqError, match="this one's schema is rootbench.attack-flood-raw/1"):
        flood.attack_flood_checked(raw())
    f = rec()
    del f["sent"]
    with pytest.raises(JqError, match="attack flood record without sent"):
        flood.attack_flood_checked(f)


def test_control_the_record_passes_its_check():
    f = rec()
    assert flood.attack_flood_checked(f) is f and f["sent"] == 2010


def test_the_fixture_s_record_is_attack_jq_s_byte_for_byte_as_the_command_prints_it():
    with open(EXPECTED) as e:
        want = e.read()
    assert json_pretty(rec()) + "\n" == want
    p = subprocess.run(["/usr/bin/python3", "-I", "-S", os.path.join(HERE, "..", "flood.py"), FX], capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, want)


def test_control_the_command_refuses_a_bad_raw_object_with_its_name(tmp_path):
    bad = tmp_path / "raw.json"
    bad.write_text('{"schema": "x"}')
    p = subprocess.run(["/usr/bin/python3", "-I", "-S", os.path.join(HERE, "..", "flood.py"), str(bad)], capture_output=True, text=True)
    assert p.returncode == 1 and "this one's schema is x" in p.stderr and p.stdout == ""

"""The rules of the DNSSEC sizing matrix (rules.py) and of the root's
DNSSEC roadmap (roadmap.py) on hand-written fixture cells (testdata/),
whose answers were worked out by hand. What must hold:
- ceiling analysis: a cell of 976 B/q out (1,000 on the wire with the
  Ethernet overhead) fills 100 Mb/s at 12,500 q/s, below a server ceiling
  of 50,000: the link is hit first and the instance turns byte-bound at
  12,500 q/s, where 0.3 % TC means 38 TCP fallbacks/s; at 1 Gb/s (125,000
  q/s) the server is hit first (no crossover); the link speed where both
  coincide is 400 Mb/s;
- with no measured server ceiling the cell says "not measured" and gives
  no first-ceiling rate (never a number of its own);
- the checks pass on the fixture: KSK-roll DNSKEY 1,425 >= 1,400, the
  steady-state 864 < 1,000, at 512 signed TC 50 % > unsigned 0.2 %, at 4096
  signed TC 0.3 % < 1 %; negative controls: a 1,300-byte roll answer, a
  1,100-byte steady one, an unsigned zone truncating as much as the signed
  one at 512, 2 % TC at 4096 each fail their check; missing cells are "not
  measured" (None), not passed;
- the server's ceiling from a udp-unshaped summary: measured; failed, or no
  ceiling found: not measured; under a server CPU budget: not used; set by
  another layer than the server: a lower bound, said so; a summary of
  another schema refused, naming it;
- the roadmap: "crosses 1232": an answer of exactly 1,232 bytes fits, 1,233
  does not; no state of the roll crosses 1232 in the fixture (the
  double-signed referral is exactly 1,232); at 512 the first crossing is
  today's (RSA only) with all four answers; at 1400 none of the roll
  crosses; the 2048-bit control crosses 1232 with its referral and
  NXDOMAIN (margins -38 and -88), its priming and DNSKEY answers fit; the
  1536-bit state fits with all four (margin 0 for the referral); states
  with no cell measured are "not measured"; TCP: at 100,000 q/s a 40 % TC
  share needs 40,000 connections/s: 1.6 CPUs at 25,000 per CPU, so one CPU
  does not have them and two do; with no TCP figure per CPU the need is
  stated and the verdict is None; no roadmap state measured: no roadmap;
  negative controls: the double-signed referral made 1,233 bytes makes that
  state the first to cross 1232 and its all-fit verdict false; the
  control's answers made to fit make its crossing empty;
- the TCP capacity per CPU is the largest of the configurations' figures;
  none gives None with the first configuration's reason; no TCP results:
  "not measured"; an older summary refused, its schema named;
- the frame overhead and the TCP schema are those of the jq rules other
  experiments still read (scripts/lib/wire.jq, tcpbench/sweep/rules.jq; the
  UDP summary is read through udpreplay/udp/accessors.py, tested there).
The tables and derived values are byte-identical to what the jq rules
wrote (checked on stored runs when the rules moved; here their shape on the
fixture).
"""

import copy
import json
import os
import re

import pytest

from rootbench.experiment import sibling

rules = sibling(__file__, "../rules")
roadmap = rules.roadmap

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "testdata")
TOP = os.path.join(HERE, "..", "..", "..")
SAMPLE = os.path.join(TOP, "analysis", "testdata", "results-sample")
LINKS = [100000000, 1000000000, 10000000000]


def load(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture
def cells():
    return load(DATA, "cells.json")


@pytest.fixture
def ceiling():
    return load(DATA, "ceiling.json")


def cell_of(s, name):
    return next(c for c in s["cells"] if c["cell"] == name)


# ------------------------------------------------------------ the cells

def test_the_link_is_hit_first_at_100m_and_the_server_at_1g(cells, ceiling):
    c = cell_of(rules.matrix_summary(cells, LINKS, ceiling), "root:root-2016:4096")
    l100, l1g = c["links"][0], c["links"][1]
    assert l100["wire_bytes_per_query"] == 1000
    assert (l100["link_qps"], l100["first_ceiling"], l100["crossover_qps"]) == (12500, "link", 12500)
    assert l100["tcp_fallback_per_s"] == 38
    assert (l1g["first_ceiling"], l1g["first_ceiling_qps"], l1g["crossover_qps"]) == ("server", 50000, None)
    assert c["breakeven_link_bps"] == 400000000


def test_the_tc_share_and_its_fallbacks_at_512(cells, ceiling):
    c = cell_of(rules.matrix_summary(cells, LINKS, ceiling), "root:root-2016:512")
    assert c["tc_share"] == 0.5
    assert c["links"][0]["tcp_fallback_per_s"] == 15625


def test_no_server_ceiling_gives_no_number_of_its_own(cells):
    c = cell_of(rules.matrix_summary(cells, LINKS, {"qps": None, "status": "not measured"}), "root:root-2016:4096")
    assert c["links"][0]["first_ceiling"] == "not measured (server ceiling unknown)"
    assert c["links"][0]["first_ceiling_qps"] is None
    assert c["breakeven_link_bps"] is None
    assert c["links"][0]["link_qps"] == 12500


CHECKS = ["ksk_roll_dnskey", "steady_dnskey", "tc_512_signed_more", "tc_4096_almost_none"]


def test_every_check_passes_on_the_fixture(cells, ceiling):
    checks = rules.matrix_summary(cells, LINKS, ceiling)["checks"]
    assert [checks[k]["pass"] for k in CHECKS] == [True] * 4


def edit_ksk(c):
    if c["zone_state"] == "ksk-roll":
        c["dnskey"]["bytes"] = 1300


def edit_steady(c):
    if c["zone_state"] == "root":
        c["dnskey"]["bytes"] = 1100


def edit_unsigned_512(c):
    if c["cell"] == "unsigned:root-2016:512":
        c["tc_responses"] = 500


def edit_4096(c):
    if c["cell"] == "root:root-2016:4096":
        c["tc_responses"] = 20


@pytest.mark.parametrize("edit,name", [(edit_ksk, "ksk_roll_dnskey"), (edit_steady, "steady_dnskey"),
                                       (edit_unsigned_512, "tc_512_signed_more"), (edit_4096, "tc_4096_almost_none")])
def test_control_each_check_fails_on_a_cell_that_breaks_its_rule(cells, ceiling, edit, name):
    for c in cells:
        edit(c)
    checks = rules.matrix_summary(cells, LINKS, ceiling)["checks"]
    assert checks[name]["pass"] is False
    assert [checks[k]["pass"] for k in CHECKS if k != name] == [True] * 3


def test_missing_cells_are_not_measured_not_passed(cells, ceiling):
    checks = rules.matrix_summary([], LINKS, ceiling)["checks"]
    assert [checks[k]["pass"] for k in CHECKS] == [None] * 4
    no_unsigned = [c for c in cells if c["zone_state"] != "unsigned"]
    assert rules.matrix_summary(no_unsigned, LINKS, ceiling)["checks"]["tc_512_signed_more"]["pass"] is None


def test_the_checks_read_the_zone_states_and_buffers_they_name(cells, ceiling):
    """Control, as the live test's on measured cells: the roll and steady
    states swapped fail both DNSKEY checks; the 512 and 4096 cells swapped
    fail the 4096 check (the fixture's unsigned 512 cell, 0.2 %, is below
    even the signed 4096 one, 0.3 %: the 512 check still holds here)."""
    d = rules.matrix_summary(cells, LINKS, ceiling)["cells"]
    sw = copy.deepcopy(d)
    for c in sw:
        c["zone_state"] = {"root": "ksk-roll", "ksk-roll": "root"}.get(c["zone_state"], c["zone_state"])
    checks = rules.matrix_checks(sw)
    assert (checks["ksk_roll_dnskey"]["pass"], checks["steady_dnskey"]["pass"]) == (False, False)
    sw = copy.deepcopy(d)
    for c in sw:
        if c["zone_state"] == "root":
            c["edns"] = {"512": "4096", "4096": "512"}.get(c["edns"], c["edns"])
    checks = rules.matrix_checks(sw)
    assert checks["tc_4096_almost_none"]["pass"] is False


# ------------------------------------------------------------ the server's ceiling

@pytest.fixture
def unshaped():
    return load(SAMPLE, "udp-unshaped", "summary.json")


def test_the_ceiling_of_the_fixture_run(unshaped):
    c = rules.server_ceiling(unshaped, "udp-unshaped/summary.json")
    assert (c["qps"], c["status"], c["source"], c["note"]) == (61900, "measured", "udp-unshaped/summary.json", None)


def test_control_a_failed_or_ceilingless_udp_run_is_not_measured(unshaped):
    failed = dict(unshaped, status="failed")
    assert rules.server_ceiling(failed, "f")["qps"] is None
    assert rules.server_ceiling(failed, "f")["status"] == "not measured (udp-unshaped failed)"
    none = dict(unshaped, ceiling_qps=None)
    assert rules.server_ceiling(none, "f")["qps"] is None
    assert rules.server_ceiling(none, "f")["status"].startswith("not measured (udp-unshaped found no ceiling: ")
    assert rules.ceiling_not_measured("/x/udp-unshaped/summary.json")["qps"] is None


def test_a_budgeted_ceiling_is_not_the_instances(unshaped):
    b = copy.deepcopy(unshaped)
    b["testbed"] = {"server": {"cpu_budget": {"budget": 0.5}}}
    c = rules.server_ceiling(b, "f")
    assert (c["qps"], c["budgeted_qps"], c["budget"]) == (None, 61900, 0.5)


def test_a_ceiling_set_by_another_layer_is_a_lower_bound(unshaped):
    g = copy.deepcopy(unshaped)
    g["verdict"]["caused_by"] = "generator"
    assert "set by generator" in rules.server_ceiling(g, "f")["note"]


def test_control_a_udp_summary_of_another_schema_is_refused(unshaped):
    with pytest.raises(rules.udp.SchemaError, match="this one's schema is rootbench.udp/2"):
        rules.server_ceiling(dict(unshaped, schema="rootbench.udp/2"), "f")


# ------------------------------------------------------------ the roadmap

T = {"conn_per_cpu": 25000, "status": "measured"}
N = {"conn_per_cpu": None, "status": "not measured"}


def rm(edit=None, tcp=T, cpus=1):
    cs = load(DATA, "roadmap-cells.json")
    for c in cs:
        if edit:
            edit(c)
    return roadmap.roadmap([rules.cell_derive(c, [100000000], {"qps": None}) for c in cs], tcp, 100000, cpus)


def phase(r, state):
    return next(p for p in r["phases"] if p["state"] == state)


def test_crosses_at_the_boundary():
    assert [roadmap.crosses(b, 1232) for b in (1232, 1233, None)] == [False, True, False]


def test_the_first_crossings_by_limit():
    r = rm()
    assert r["first_crossing"] is None
    by = {x["limit"]: x["first"] for x in r["first_crossing_by_limit"]}
    assert (by[512]["state"], by[512]["answers"]) == ("root", ["priming", "dnskey", "referral", "nxdomain"])
    assert by[1400] is None


def test_the_2048_bit_control_crosses_and_the_1536_bit_state_fits():
    r = rm()
    assert r["control_crossing"]["answers"] == ["referral", "nxdomain"]
    c = r["sac133"]["control_2048"]
    assert (c["priming_dnskey_fit"], c["all_fit"], [a["margin"] for a in c["answers"]]) == (True, False, [42, 122, -38, -88])
    d = r["sac133"]["double_1536"]
    assert (d["priming_dnskey_fit"], d["all_fit"]) == (True, True)
    assert next(a["margin"] for a in d["answers"] if a["answer"] == "referral") == 0


def test_unmeasured_states_are_not_measured_and_have_no_crossing():
    r = rm()
    off = [p for p in r["phases"] if not p["measured"]]
    assert [p["state"] for p in off] == ["alg-ecdsa-rsaksk", "ecdsap256", "pq-falcon512", "pq-slhdsa128s"]
    assert all(p["crosses"] is None for p in off)


def test_tcp_needed_against_one_and_two_cpus():
    p = phase(rm(), "alg-double-2048")
    assert (p["tcp_conn_needed"], p["tcp_cpus_needed"], p["tcp_has_them"]) == (40000, 1.6, False)
    assert phase(rm(cpus=2), "alg-double-2048")["tcp_has_them"] is True
    p = phase(rm(tcp=N), "alg-double-2048")
    assert (p["tcp_conn_needed"], p["tcp_cpus_needed"], p["tcp_has_them"]) == (40000, None, None)


def test_the_size_models_tc_shares():
    assert [(m["state"], m["tc_share_mix"], m["tc_share_do100"], m["tcp_conn_needed"]) for m in rm()["models"]] \
        == [("pq-mldsa44", 0.65, 1, 65000)]


def test_no_state_measured_no_roadmap():
    assert rm(lambda c: c.update(probes=None)) is None


def test_control_a_1233_byte_referral_crosses_and_breaks_the_fit():
    def bump(c):
        if c["zone_state"] == "alg-double":
            c["probes"]["referral"]["bytes"] = 1233
    r = rm(bump)
    assert (r["first_crossing"]["state"], r["first_crossing"]["answers"]) == ("alg-double", ["referral"])
    assert r["sac133"]["double_1536"]["all_fit"] is False


def test_control_a_fitting_control_crosses_nothing():
    def fit(c):
        if c["zone_state"] == "alg-double-2048":
            c["probes"]["referral"]["bytes"] = c["probes"]["nxdomain"]["bytes"] = 1200
    assert rm(fit)["control_crossing"]["answers"] == []


# ------------------------------------------------------------ the TCP capacity

def tcp_summary(per_cpu):
    s = roadmap.TCP_CONFIG_SCHEMA
    return {"schema": s, "configs": {n: {"schema": s, "name": n, "per_cpu": p} for n, p in per_cpu.items()}}


def test_the_tcp_capacity_is_the_largest_figure_per_cpu():
    s = tcp_summary({"1p1s": {"conn_per_cpu": 12000}, "2p1s": {"conn_per_cpu": 15000},
                     "2p2s": {"conn_per_cpu": None, "rule": "none: the knee is not the server's (generator)"}})
    c = roadmap.tcp_capacity(s, "tcp/summary.json")
    assert (c["conn_per_cpu"], c["config"], c["status"]) == (15000, "2p1s", "measured")


def test_control_no_figure_per_cpu_is_not_measured_with_the_reason():
    s = tcp_summary({"1p1s": {"conn_per_cpu": None, "rule": "none: no knee among the valid points"},
                     "2p1s": {"conn_per_cpu": None, "rule": "other"}})
    c = roadmap.tcp_capacity(s, "tcp/summary.json")
    assert (c["conn_per_cpu"], c["status"]) == (None, "not measured")
    assert "1p1s: none: no knee" in c["note"]
    assert roadmap.tcp_capacity(None, None)["status"] == "not measured"


def test_control_an_older_tcp_summary_is_refused_naming_its_schema():
    with pytest.raises(roadmap.SchemaError, match="this one's schema is rootbench.tcp/1"):
        roadmap.tcp_capacity(load(SAMPLE, "tcp", "summary.json"), "tcp/summary.json")


# ------------------------------------------------------------ what other rules still hold in jq

def jq_def(path, name):
    """The literal a jq rules file defines as `def NAME: LITERAL;`."""
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        m = re.search(r"^def %s: (.*?);" % re.escape(name), f.read(), re.M)
    return json.loads(m.group(1))


def test_the_frame_overhead_and_tcp_schema_agree_with_the_jq_rules_that_keep_them():
    assert rules.FRAME_OVERHEAD_BYTES == jq_def("scripts/lib/wire.jq", "frame_overhead_bytes")
    assert roadmap.TCP_CONFIG_SCHEMA == jq_def("tcpbench/sweep/rules.jq", "tcp_config_schema")


def test_control_a_changed_definition_is_told_apart(tmp_path):
    p = tmp_path / "wire.jq"
    p.write_text("def frame_overhead_bytes: 20;\n")
    assert rules.FRAME_OVERHEAD_BYTES != jq_def(str(p), "frame_overhead_bytes")


# ------------------------------------------------------------ the tables

def test_the_tables_of_a_derived_fixture(cells, ceiling):
    for c in cells:
        c["dnskey"]["keys"] = [{"role": "ksk", "keytag": 20326}]
    s = rules.derived(cells, LINKS, ceiling, T, {"roadmap_rate_qps": 100000})
    s["server_udp_ceiling"] = ceiling
    t = rules.tables(s, "root-2016", "trace")
    assert sorted(t) == ["bytes_by_zone.csv", "cells.csv", "crossover.csv", "dnskey.csv", "roadmap.csv", "tc_by_edns.csv"]
    assert all(v.startswith("# ") and v.endswith("\n") for v in t.values())
    assert t["bytes_by_zone.csv"].split("\n")[1].endswith(",today,today: root")
    # the states measured at more than one buffer: root alone
    assert t["tc_by_edns.csv"].split("\n")[0] == "# idx,edns,root"
    assert t["crossover.csv"].split("\n")[1].startswith("0,") and ",50000," in t["crossover.csv"]


def test_control_a_dnskey_answer_without_its_keys_is_an_error(cells, ceiling):
    s = rules.matrix_summary(cells, LINKS, ceiling)
    with pytest.raises(ValueError, match="lists no keys"):
        rules.dnskey_csv(s)


# ------------------------------------------------------------ one cell's records

DIG = """; <<>> DiG 9.18 <<>> +dnssec +norec +tcp @198.18.0.53 . DNSKEY
;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 10165
;; flags: qr aa%s; QUERY: 1, ANSWER: 3, AUTHORITY: 0, ADDITIONAL: 1

;; ANSWER SECTION:
.\t\t\t172800\tIN\tDNSKEY\t256 3 8 AwEAAZ
.\t\t\t172800\tIN\tDNSKEY\t257 3 8 AwEAAb
.\t\t\t172800\tIN\tRRSIG\tDNSKEY 8 0 172800 20271202070000 20261202070000 38791 . Pyjk

;; Query time: 0 msec
;; MSG SIZE  rcvd: %d
"""


def test_the_dnskey_record_from_digs_answers():
    """Sizes from dig's MSG SIZE, the root's keys and signatures counted,
    TC read from the flags; control: the untruncated answer is not TC."""
    man = {"zones": {"root": {"dnskeys": [{"role": "zsk", "keytag": 1, "algorithm": 8, "bits": 2048, "signs": "zone",
                                           "other": 0}]}}}
    k = rules.dnskey_record(DIG % ("", 864), DIG % ("", 864), DIG % (" tc", 52), man)
    assert (k["bytes"], k["dnskeys"], k["rrsigs"]) == (864, 2, 1)
    assert (k["udp_4096"], k["udp_1232"]) == ({"bytes": 864, "tc": False}, {"bytes": 52, "tc": True})
    assert k["keys"] == [{"role": "zsk", "keytag": 1, "algorithm": 8, "bits": 2048, "signs": "zone"}]


def test_control_an_answer_without_its_size_is_an_error():
    with pytest.raises(ValueError, match="no message size"):
        rules.msg_size(";; flags: qr aa; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 0\n")


def test_the_probes_record_names_each_answer_and_the_prediction():
    outs = {n: DIG % ("", 800 + i) for i, (n, _) in enumerate(rules.ROADMAP_QUERIES)}
    p = rules.probes_record(outs, "v", 801)
    assert [p[n]["bytes"] for n, _ in rules.ROADMAP_QUERIES] == [800, 801, 802, 803]
    assert (p["priming"]["query"], p["priming"]["file"], p["priming"]["rcode"]) == (". NS", "probes/v/priming.txt", "NOERROR")
    assert (p["dnskey"]["answer"], p["dnskey"]["rrsigs"], p["dnskey"]["predicted_bytes"]) == (3, 1, 801)


def cell_input(**kw):
    m = {"cell": "root:root-2016:512", "key": "root_root-2016_512", "zone_state": "root", "zone_variant": "v",
         "profile": "root-2016", "edns": "512", "tracegen": "-p root-2016", "queries_planned": 300, "sent": 300,
         "pps": 4000, "answers": 300, "bytes_in": 25170, "bytes_out": 108510, "seconds": 3, "dnskey": None,
         "probes": None, "flags": [], "trace_dir": "/r/traces/root-2016-512-300-2016"}
    m.update(kw)
    return m


ANSWERS = {"frames": 300, "responses": 300, "tc_responses": 149, "rcodes": {"NOERROR": 300},
           "sizes": {"response_dns": {"mean": 320.04, "p50": 300, "max": 511}}}
TRACE = {"queries": 300, "frames": 300, "query_edns": {"do1": 216, "no_opt": 30}}


def test_the_cell_record_per_query():
    r = rules.cell_record(cell_input(), ANSWERS, TRACE, {"ksk_bits": 2048})
    assert (r["bytes_per_query_in"], r["bytes_per_query_out"], r["trace_do_share"]) == (83.9, 361.7, 0.72)
    assert r["answer_bytes"] == {"mean": 320, "median": 300, "p90": None, "p99": None, "max": 511}
    assert r["files"] == {"answers_stats": "root_root-2016_512/answers.json",
                          "trace": "traces/root-2016-512-300-2016/trace.pcap"}
    assert r["flags"] == []
    assert rules.progress_line(r) == "root:root-2016:512: out 361.7 B/q, in 83.9 B/q, TC 149/300, answered 300/300"


def test_control_a_capture_short_of_answers_is_flagged():
    r = rules.cell_record(cell_input(flags=["sent 299 of 300 queries"]), dict(ANSWERS, responses=298), TRACE, {})
    assert r["flags"] == ["sent 299 of 300 queries", "the Listener capture holds 298 answers for 300 queries"]
    assert rules.progress_line(r).endswith("; FLAGGED: sent 299 of 300 queries; the Listener capture holds 298 "
                                           "answers for 300 queries")

"""The attack experiment's rules (scripts/attack/rules.py) on the steps made
by hand (testdata/steps.jsonl, groups.jsonl: NSD with its defences off and
on, a DNSKEY reflection and a SYN flood at 2,000 and 20,000/s each):
- a series per server, defence and attack, its steps by rate; the
  legitimate client's probe block judged by RSSAC047 at the attack rate
  the router counted (achieved), not the rate asked for: a DNSKEY
  reflection asked at 20,000/s that reached 15,000/s is judged at 15,000
  and flagged generator-limited (control: 2,000 reached is not);
- with the defences off the client held up to 2,000/s and failed UDP
  availability at 15,000/s; with them on it held to the highest rate;
- RRL's effect: the attack's answers out with RRL over without (0.35 and
  0.1), in packets and in bytes, the amplification off and on; the
  collateral client's answers in full, slipped (TC) and dropped, counted;
- SYN cookies: recovered when the client's TCP availability with them on
  is back over RSSAC047's 96 % (control: the same with 0.5 on: not
  recovered), the servers' counters beside; recovered is the SYN flood's only;
- the background's answered share; the figure's rows; the run's lines;
- a step of another schema, an unknown attack, a defence neither off nor
  on, a step without its flood or its achieved rate are refused, naming
  what is wrong (control: the fixture's own step passes); the accessor
  refuses a summary of another schema (control: it takes the fixture's);
- the report's fixture summary (analysis/testdata/results-sample/attack/
  summary.json, which scripts/attack/rules.jq wrote from these steps) is
  what these rules write from them, byte for byte (host_speed aside: it is
  the run's, not the rules').
"""

import copy
import os

import pytest

from rootbench.experiment import sibling
from rootbench.jqtext import to_json
from rootbench.rules.jqlib import JqError, loads

rules = sibling(__file__, "../rules")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "testdata")
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SAMPLE = os.path.join(TOP, "analysis", "testdata", "results-sample", "attack", "summary.json")


def lines(name):
    with open(os.path.join(DATA, name)) as f:
        return [loads(l) for l in f if l.strip()]


STEPS = lines("steps.jsonl")
GROUPS = lines("groups.jsonl")


def judged(steps=None):
    return loads(to_json(rules.attack_judged({}, GROUPS, STEPS if steps is None else steps, "ok")))


def series(s, defence, kind):
    return next(x for x in s["series"] if x["defence"] == defence and x["kind"] == kind)


def effect(s, kind):
    return next(x for x in s["effects"] if x["kind"] == kind)


def test_a_series_per_server_defence_and_attack():
    s = judged()
    assert s["schema"] == "rootbench.attack/1"
    assert [[x["server"], x["defence"], x["kind"], len(x["steps"])] for x in s["series"]] == [
        ["nsd", "off", "reflection-dnskey", 2], ["nsd", "off", "syn-flood", 2],
        ["nsd", "on", "reflection-dnskey", 2], ["nsd", "on", "syn-flood", 2]]


def test_judged_at_the_rate_the_router_counted_and_the_unreached_rate_flagged():
    off = series(judged(), "off", "reflection-dnskey")
    assert [p["offered"] for p in off["probe"]["points"]] == [2000, 15000]
    assert [x["generator_limited"] for x in off["steps"]] == [False, True]


def test_defences_off_held_to_2000_and_failed_at_15000_on_held_to_the_highest():
    s = judged()
    off = series(s, "off", "reflection-dnskey")
    r = off["probe"]["rssac047"]
    assert [r["held_up_to"], r["first_fail"]["offered"], r["first_fail"]["failed"]] == [2000, 15000, ["udp_latency", "udp_availability"]]
    assert "kept RSSAC047's thresholds up to 2000/s of attack and failed at 15000/s" in off["words"]
    on = series(s, "on", "reflection-dnskey")
    assert [on["probe"]["rssac047"]["held_to_highest"], on["defence_name"]] == [True, "response rate limiting (SERVER_RRL)"]


def test_rrl_cuts_the_answers_and_bytes_out_and_the_amplification():
    e = effect(judged(), "reflection-dnskey")
    assert [x["answers_out"]["on_over_off"] for x in e["rates"]] == [0.35, 0.1]
    assert [[x["amplification"]["off"], x["amplification"]["on"]] for x in e["rates"]] == [[13.6, 4.8], [13.5, 1.1]]
    assert [x["bytes_out"]["on_over_off"] for x in e["rates"]] == [0.123529, 0.008148]
    assert [e["held_up_to"]["off"], e["held_up_to"]["on"]] == [2000, 15000]


def test_the_collateral_client_full_slipped_dropped_and_the_background_share():
    s = judged()
    on = series(s, "on", "reflection-dnskey")
    assert [[c["answered_full"], c["slipped"], c["dropped"], c["full_share"]] for c in (x["collateral"] for x in on["steps"])] == [
        [10, 12, 8, 0.333333], [5, 10, 15, 0.166667]]
    assert to_json(series(s, "off", "reflection-dnskey")["steps"][0]["background"]) == '{"sent":1000,"answered":990,"answered_share":0.99}'


def test_syn_cookies_recovered_with_the_counters():
    e = effect(judged(), "syn-flood")
    r = e["rates"][1]
    assert [e["recovered"], r["legit_availability"]["off"], r["legit_availability"]["on"],
            r["syn"]["syn_queue_drops"]["off"], r["syn"]["syncookies_sent"]["on"]] == [True, 0.2, 0.99, 9000, 30000]
    assert effect(judged(), "reflection-dnskey")["recovered"] is None


def test_control_half_availability_with_cookies_on_is_not_recovered():
    steps = copy.deepcopy(STEPS)
    for x in steps:
        if x["defence"] == "on" and x["kind"] == "syn-flood" and x["rate"] == 20000:
            x["probe"]["tcp"]["availability"] = 0.5
    assert effect(judged(steps), "syn-flood")["recovered"] is False


def test_the_figure_s_rows():
    rows = rules.attack_plot_rows(rules.attack_series(GROUPS, STEPS), "syn-flood")
    assert "|".join(rows) == "# nsd no defence|2000\t100|20000\t20|||# nsd with SYN cookies|2000\t100|20000\t99||"


def test_the_run_s_lines():
    assert rules.attack_step_line(STEPS[1]) == (
        "attack: nsd defences off: reflection-dnskey 20000/s: sent 15000/s, answered 15000/s, amplification 13.5x, "
        "legitimate UDP availability 0.5, median 300 ms, background answered 0.99 (GENERATOR-LIMITED)")
    assert rules.attack_series_lines(judged())[0] == (
        "attack: nsd reflection-dnskey, defences off: the legitimate client kept RSSAC047's thresholds up to 2000/s "
        "of attack and failed at 15000/s (udp_latency, udp_availability)")


BAD = [("another schema", lambda s: s.update(schema="rootbench.attack-step/0"), "of schema rootbench.attack-step/1 was expected; this one's schema is rootbench.attack-step/0"),
       ("an unknown attack", lambda s: s.update(kind="ping-flood"), "attack step: unknown kind ping-flood"),
       ("a defence neither off nor on", lambda s: s.update(defence="maybe"), "attack step: defence must be off or on, not maybe"),
       ("no flood", lambda s: s.pop("flood"), "attack step nsd/off/reflection-dnskey/2000: no flood result of schema rootbench.attack-flood/1"),
       ("no achieved rate", lambda s: s["flood"].update(achieved_rate=None), "attack step reflection-dnskey/2000: the flood has no achieved_rate")]


@pytest.mark.parametrize("name,change,words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_step_is_refused_naming_it(name, change, words):
    s = copy.deepcopy(STEPS[0])
    change(s)
    with pytest.raises(JqError) as e:
        rules.attack_judged({}, GROUPS, [s], "ok")
    assert str(e.value).endswith(words)


@pytest.mark.parametrize("doc,had", [(None, "null"), ("x", "string")])
def test_a_step_that_is_no_object_is_refused_naming_its_type(doc, had):
    with pytest.raises(JqError, match="this one's schema is %s$" % had):
        rules.attack_step_checked(doc)


def test_control_the_fixture_s_own_step_passes():
    assert rules.attack_judged({}, GROUPS, [STEPS[0]], "ok")["steps_measured"] == 1


@pytest.mark.parametrize("doc", [{"schema": "rootbench.udp/1"}, {"status": "ok"}, [1], None])
def test_the_accessor_refuses_another_summary(doc):
    with pytest.raises(ValueError, match=r"an attack summary of schema rootbench.attack/1 \(scripts/attack/rules.py\) was expected"):
        rules.attack_summary_checked(doc)


def test_the_report_s_fixture_summary_is_what_the_rules_write_byte_for_byte():
    with open(SAMPLE) as f:
        stored = loads(f.read())
    assert rules.attack_summary_checked(stored) is stored
    made = {**rules.attack_judged(stored["settings"], GROUPS, STEPS, "ok"), "finished": "2026-11-27T18:00:00Z", "family": 4, "error": None}
    want = {k: v for k, v in stored.items() if k != "host_speed"}
    assert to_json(made) == to_json(want)


def test_control_a_changed_step_changes_the_summary():
    with open(SAMPLE) as f:
        stored = loads(f.read())
    steps = copy.deepcopy(STEPS)
    steps[0]["flood"]["answered_rate"] = 1999
    made = {**rules.attack_judged(stored["settings"], GROUPS, steps, "ok"), "finished": "2026-11-27T18:00:00Z", "family": 4, "error": None}
    assert to_json(made) != to_json({k: v for k, v in stored.items() if k != "host_speed"})


# A step's record, made from the files a step leaves (the real flood's
# record, the fixture's probe and collateral results, a sampler summary and
# the real flood's counter snapshots with a background added): what
# step.sh's jq made of the same files, byte for byte (testdata/
# step-expected.jsonl, and probe.json as rewritten: step-expected-probe.json).
FLOOD_RAW = os.path.join(TOP, "scripts", "tests", "testdata", "attack-flood-raw.json")


def step_files(tmp_path, probe=True, sample=True):
    d = tmp_path / "step"
    (d / "flood").mkdir(parents=True)
    with open(os.path.join(DATA, "flood-expected.json")) as f:
        (d / "flood" / "flood.json").write_text(f.read())
    p = copy.deepcopy(STEPS[1]["probe"])
    p["udp"]["latency_ms"]["p50"] = 0.123456789012
    if probe:
        (d / "probe.json").write_text(to_json(p) + "\n")
    (d / "collateral.json").write_text(to_json(STEPS[0]["collateral"]) + "\n")
    s = tmp_path / "sample.json"
    if sample:
        s.write_text('{"cpu": {"cpu2": {"busy_pct": 40.25}, "cpu3": {"busy_pct": 12.04}, "cpu4": {"busy_pct": null}}}')
    with open(FLOOD_RAW) as f:
        c = loads(f.read())["counters"]
    c["before"]["router"]["trace_udp_queries"] = {"packets": 5, "bytes": 500}
    c["after"]["router"]["trace_udp_queries"] = {"packets": 1005, "bytes": 90500}
    c["after"]["listener"]["dns_answers"] = {"packets": 990, "bytes": 1}
    return str(d), str(s), c["before"], c["after"]


CPUS = {"server": ["cpu2", "cpu3", "cpu4"], "router": ["cpu1"]}


def test_a_step_s_record_is_what_step_sh_s_jq_made_byte_for_byte(tmp_path):
    d, s, c0, c1 = step_files(tmp_path)
    step = rules.attack_step_files(d, "nsd", "on", "reflection-dnskey", 2000, 1, "abc123", c0, c1, s, CPUS, True, True)
    with open(os.path.join(DATA, "step-expected.jsonl")) as f:
        assert to_json(step) + "\n" == f.read()
    with open(os.path.join(DATA, "step-expected-probe.json")) as f, open(os.path.join(d, "probe.json")) as g:
        assert g.read() == f.read()
    assert [step["background"], step["server_cpu_pct"]] == [{"sent": 1000, "answered": 990}, 26.1]


def test_control_without_probe_background_or_sample_they_are_null(tmp_path):
    d, s, c0, c1 = step_files(tmp_path, probe=False, sample=False)
    step = rules.attack_step_files(d, "nsd", "off", "syn-flood", 2000, 1, "x", c0, c1, None, CPUS, False, False)
    assert [step["probe"], step["background"], step["server_cpu_pct"]] == [None, None, None]
    assert rules.attack_step_checked(step) is step


def test_a_step_without_its_flood_record_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no flood record"):
        rules.attack_step_files(str(tmp_path), "nsd", "off", "syn-flood", 2000, 1, "x", {}, {}, None, CPUS, False, False)

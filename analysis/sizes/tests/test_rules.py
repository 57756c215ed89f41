"""The sizes experiment's rules (analysis/sizes/rules.py) on fixtures.

The accounting (testdata/accounting-window.json): SNMP's octets and the
capture of the same port agree when each direction is within the
tolerance (0.5 %), with the difference explained (an ARP exchange at a
reading) and the frames outside the readings' window counted apart.
Negative controls: SNMP 0.6 % above the capture in one direction fails,
with MISMATCH in the explanation; 0.4 % passes; identical counts say so;
a capture that dropped packets says how many; without a window no window
is reported.

The outputs (testdata/run-smoke: the files of a measured smoke run, and
the tables and summary the former jq wrote from them): the run records,
the summary and every CSV table are rebuilt byte for byte; a changed
count changes them (the control that the comparison can fail)."""

import copy
import json
import os
import shutil
import subprocess

import pytest

from rootbench.experiment import sibling
from rootbench.jqtext import to_json
from rootbench.lifecycle import json_pretty

rules = sibling(__file__, "../rules")
HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "testdata")
RUN = os.path.join(TESTDATA, "run-smoke")
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def load(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return json.load(f)


def text(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return f.read()


FX = load(TESTDATA, "accounting-window.json")
PAPER = load(TOP, "analysis", "paper.json")


def acct(**change):
    m = dict(FX)
    m.update(change)
    return rules.accounting(m)


# ------------------------------------------------------------ the accounting

def test_the_fixture_agrees_within_the_tolerance():
    a = acct()
    assert (a["pass"], a["in_ratio"], a["out_ratio"], a["tolerance"]) == (True, 1, 1.000064, 0.005)
    assert to_json(a["out_ratio"]) == "1.000064"


def test_the_difference_is_explained():
    assert ("Difference SNMP - capture: in 0 bytes, out 84 bytes; a frame that crosses the port"
            in acct()["explanation"])


def test_frames_outside_the_window_are_counted_apart():
    w = acct()["window"]
    assert (w["outside_frames"], w["outside_bytes"], w["whole_capture_in_ratio"]) == (6, 1092, 0.999001)
    assert acct()["non_dns_frames"]["arp"]["frames"] == 2


def test_snmp_six_permille_above_the_capture_fails_saying_mismatch():
    b = acct(snmp_in=644053)
    assert (b["pass"], b["in_ratio"]) == (False, 1.006)
    assert "MISMATCH: beyond the 0.5% tolerance" in b["explanation"]


def test_four_permille_off_passes():
    assert acct(snmp_in=642773)["pass"] is True
    assert "MISMATCH" not in acct(snmp_in=642773)["explanation"]


def test_no_snmp_bytes_out_fails():
    assert acct(snmp_out=0)["pass"] is False


def test_a_capture_without_frames_in_a_direction_fails():
    a = acct(capture_in="0 0")
    assert (a["in_ratio"], a["pass"]) == (None, False)


def test_identical_counts_are_said_identical():
    assert "(identical)." in acct(snmp_out=1303296)["explanation"]
    assert "(identical)." not in acct()["explanation"]


def test_dropped_packets_are_said_and_unknown_is_null():
    assert "The capture dropped 12 packets." in acct(dropped="12")["explanation"]
    assert "The capture dropped" not in acct()["explanation"]
    assert acct(dropped="")["capture_dropped"] is None
    assert acct()["capture_dropped"] == 0


def test_without_a_window_no_window_is_reported():
    a = acct(start="")
    assert a["window"] is None
    assert "Compared: the frames captured between" not in a["explanation"]


def test_the_accounting_of_a_measured_run_is_rebuilt_byte_for_byte():
    # accounting-input.json: what the run counted in its port capture
    # (dnsstat, per filter); accounting.json: what the former jq wrote
    for key in ("unsigned", "signed"):
        m = load(RUN, key, "accounting-input.json")
        assert json_pretty(rules.accounting(m)) + "\n" == text(RUN, key, "accounting.json")


# ------------------------------------------------------------ runs and outputs

def measured_records(summary):
    """The run records rebuilt from the fixture's inputs."""
    where = summary["settings"]["port_capture"]["where"]
    out = []
    for key, v in summary["variants"].items():
        out.append(rules.run_record(
            key, v["zone_variant"], v["queries_planned"], v["queries"], v["pps"], v["answers"],
            v["bytes_in"], v["bytes_out"], load(RUN, key, "accounting.json"), v["seconds"], where, v["flags"],
            load(RUN, "zones", v["zone_variant"] + ".json"), load(RUN, key, "answers.json"),
            load(RUN, key, "port.json")))
    return out


def outputs(summary):
    """{file: text} the rules write from the fixture's inputs."""
    vs = rules.variants(measured_records(summary))
    keys = list(vs)
    answers = {k: load(RUN, k, "answers.json") for k in keys}
    ports = {k: load(RUN, k, "port.json") for k in keys}
    trace = load(RUN, "trace", "trace.json")
    s = rules.summary("ok", "", summary["started"], summary["finished"], summary["settings"], summary["testbed"],
                      summary["host_speed"], vs, trace, PAPER)
    return {"summary.json": json_pretty(s) + "\n",
            "table2_bytes.csv": rules.table2(vs, PAPER),
            "table3_rcodes.csv": rules.table3(vs),
            "table4_no_dnssec.csv": rules.table4(keys, answers, ports),
            "table5_edns_sizes.csv": rules.table5(trace),
            "qtypes.csv": rules.qtypes(trace),
            "reply_sizes.csv": rules.reply_sizes(keys, [answers[k] for k in keys])}


@pytest.mark.parametrize("name", ["summary.json", "table2_bytes.csv", "table3_rcodes.csv", "table4_no_dnssec.csv",
                                  "table5_edns_sizes.csv", "qtypes.csv", "reply_sizes.csv"])
def test_a_measured_run_s_outputs_are_rebuilt_byte_for_byte(name):
    assert outputs(load(RUN, "summary.json"))[name] == text(RUN, name)


def test_a_changed_count_changes_the_outputs():
    # negative control: the comparison above can fail
    s = load(RUN, "summary.json")
    s2 = copy.deepcopy(s)
    s2["variants"]["signed"]["bytes_out"] += 4000
    new = outputs(s2)
    assert new["table2_bytes.csv"] != text(RUN, "table2_bytes.csv")
    assert new["summary.json"] != text(RUN, "summary.json")


def test_growth_is_against_the_unsigned_run_and_null_without_one():
    vs = rules.variants(measured_records(load(RUN, "summary.json")))
    assert (vs["unsigned"]["growth_vs_unsigned"], vs["signed"]["growth_vs_unsigned"]) == (0, 0.4356)
    only = rules.variants([r for r in measured_records(load(RUN, "summary.json")) if r["key"] == "signed"])
    assert only["signed"]["growth_vs_unsigned"] is None


def test_a_run_short_of_answers_is_not_answered_and_flagged():
    s = load(RUN, "summary.json")
    r = measured_records(s)[0]
    assert r["answered"] is True and rules.flagged(r) is False
    v = s["variants"]["unsigned"]
    short = rules.run_record("unsigned", "unsigned", 2000, 2000, 4000, 1999, v["bytes_in"], v["bytes_out"],
                             load(RUN, "unsigned", "accounting.json"), 1, "x",
                             ["Listener counted 1999 answers for 2000 queries"],
                             load(RUN, "zones", "unsigned.json"), load(RUN, "unsigned", "answers.json"),
                             load(RUN, "unsigned", "port.json"))
    assert short["answered"] is False and rules.flagged(short)
    assert rules.progress_line(short).endswith("; FLAGGED: Listener counted 1999 answers for 2000 queries")


def test_the_runs_are_planned_unsigned_first_and_the_long_run_last():
    assert rules.plan_runs(["ecdsap256", "rsasha256-2048-1024", "unsigned"], 30000, 300000) == [
        ("unsigned", "unsigned", 30000), ("signed", "rsasha256-2048-1024", 30000),
        ("ecdsap256", "ecdsap256", 30000), ("signed-300k", "rsasha256-2048-1024", 300000)]
    # whole names: the nsec3 variant holds the paper's name inside its own
    assert rules.plan_runs(["nsec3-rsasha256-2048-1024"], 2000, 300000) == [
        ("nsec3-rsasha256-2048-1024", "nsec3-rsasha256-2048-1024", 2000)]
    assert rules.unknown_variant(["unsigned", "rsasha1-512"]) == "rsasha1-512"
    assert rules.unknown_variant(["unsigned"]) is None


def test_reply_sizes_without_a_run_is_the_header_alone():
    assert rules.reply_sizes([], []) == "# size_lo\n"


# ------------------------------------------------------------ the accessor

def test_the_accessor_reads_a_sizes_summary():
    s = load(RUN, "summary.json")
    assert rules.sizes_variants(s)["signed"]["bytes_per_query_out"] == 425.5


def test_the_accessor_refuses_another_schema_naming_both():
    with pytest.raises(rules.SchemaError, match="rootbench.sizes/1 .* was expected; this one's schema is rootbench.sizes/2"):
        rules.sizes_variants({"schema": "rootbench.sizes/2"})
    with pytest.raises(rules.SchemaError, match="none: not a summary"):
        rules.sizes_variants([])


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq absent")
def test_the_jq_accessor_the_comparison_reads_names_the_same_schema():
    # scripts/compare/rules.jq (jq) reads sizes summaries through
    # analysis/sizes/rules.jq's accessor: both must name one schema
    out = subprocess.run(["jq", "-rn", "-L", TOP, 'import "analysis/sizes/rules" as z; z::sizes_schema'],
                         capture_output=True, text=True, check=True, cwd=TOP).stdout.strip()
    assert out == rules.SCHEMA

"""The comparison's statistics: the interval of the ratio from the pairs
(a t-interval on the log ratios), the verdict's words, the table, the
per-query figures; each with the input that must give the other answer."""

import math

import pytest

from rootbench.experiment import sibling

rules = sibling(__file__, "../rules")


def test_t_quantile_is_students_and_tends_to_the_normal():
    assert rules.t975(1) == 12.706
    assert rules.t975(4) == 2.776
    assert abs(rules.t975(50) - 2.009) < 0.002          # interpolated between 40 and 60
    assert abs(rules.t975(10000) - 1.960) < 0.001
    with pytest.raises(ValueError):
        rules.t975(0)


def test_interval_of_known_ratios_by_hand():
    # ln ratios: mean m, sd s; half width t(0.975, 4) * s / sqrt(5)
    ratios = [0.92, 0.93, 0.94, 0.925, 0.935]
    logs = [math.log(r) for r in ratios]
    m = sum(logs) / 5
    s = math.sqrt(sum((x - m) ** 2 for x in logs) / 4)
    half = 2.776 * s / math.sqrt(5)
    iv = rules.ratio_interval(ratios)
    assert iv["n"] == 5
    assert abs(iv["ratio"] - math.exp(m)) < 1e-12
    assert abs(iv["lo"] - math.exp(m - half)) < 1e-12
    assert abs(iv["hi"] - math.exp(m + half)) < 1e-12


def test_a_cheaper_b_is_said_cheaper_with_its_interval():
    iv = rules.ratio_interval([0.92, 0.93, 0.94, 0.925, 0.935])
    word, text = rules.verdict(iv, "CPU per query")
    assert word == "cheaper"
    assert text.startswith("B costs 7.0 % less CPU per query (95 % CI ")
    lo_pct, hi_pct = (1 - iv["hi"]) * 100, (1 - iv["lo"]) * 100
    assert text.endswith("%.1f-%.1f %%)" % (lo_pct, hi_pct))


def test_a_dearer_b_is_said_costlier():
    word, text = rules.verdict(rules.ratio_interval([1.10, 1.12, 1.11, 1.09, 1.13]), "CPU per query")
    assert word == "costlier"
    assert text.startswith("B costs 11.0 % more CPU per query (95 % CI ")


def test_the_same_build_twice_is_no_difference_and_the_interval_holds_1():
    # negative control of the two above: ratios on both sides of 1
    iv = rules.ratio_interval([0.98, 1.02, 1.01, 0.99, 1.00])
    assert iv["lo"] < 1 < iv["hi"]
    word, text = rules.verdict(iv, "CPU per query")
    assert word == "same"
    assert text.startswith("no difference detected (\u2212")
    assert "\u2026 +" in text


def test_a_large_but_noisy_change_is_not_called_a_difference():
    # the mean is 10 % less but the pairs disagree: the interval holds 1
    word, _ = rules.verdict(rules.ratio_interval([0.7, 1.2, 0.8, 1.1, 0.75]), "CPU per query")
    assert word == "same"


def test_identical_pairs_give_a_point_interval():
    iv = rules.ratio_interval([1.0, 1.0, 1.0])
    assert iv["lo"] == iv["hi"] == 1.0
    assert rules.verdict(iv, "x")[0] == "same"
    iv = rules.ratio_interval([0.9, 0.9, 0.9])
    assert rules.verdict(iv, "x")[0] == "cheaper"


def test_one_pair_states_no_interval_and_none_is_not_measured():
    iv = rules.ratio_interval([0.9])
    assert iv["lo"] is None and iv["hi"] is None
    assert rules.verdict(iv, "x")[0] == "unknown"
    assert rules.verdict(rules.ratio_interval([]), "x") == ("unknown", "not measured")


def test_ratio_and_its_inverse_are_symmetric():
    r = [0.92, 0.95, 0.9, 0.93]
    a, b = rules.ratio_interval(r), rules.ratio_interval([1 / x for x in r])
    assert abs(a["ratio"] * b["ratio"] - 1) < 1e-12
    assert abs(a["lo"] * b["hi"] - 1) < 1e-12


def test_narrow_intervals_get_two_decimals():
    iv = rules.ratio_interval([0.9901, 0.9899, 0.9900, 0.9902, 0.9898])
    _, text = rules.verdict(iv, "instructions per query")
    assert "B costs 1.00 % less instructions per query" in text


def test_pairs_missing_a_side_are_left_out_and_a_zero_refused():
    assert rules.pair_ratios([(1.0, 0.9), (None, 1.0), (2.0, None)]) == [0.9]
    with pytest.raises(ValueError):
        rules.pair_ratios([(0.0, 1.0)])


def test_compare_measure_pairs_points_by_pair_whatever_the_order():
    pts = [{"pair": 1, "side": "A", "value": 10.0}, {"pair": 1, "side": "B", "value": 9.0},
           {"pair": 2, "side": "B", "value": 9.2}, {"pair": 2, "side": "A", "value": 10.1},
           {"pair": 3, "side": "A", "value": 9.9}, {"pair": 3, "side": "B", "value": 9.0}]
    m = rules.compare_measure("cpu_udp", pts)
    assert [p["ratio"] for p in m["pairs"]] == [0.9, 9.2 / 10.1, 9.0 / 9.9]
    assert m["A"] == 10.0 and m["B"] == 9.0
    assert m["n_pairs"] == 3 and m["verdict"] == "cheaper"


def test_pairs_alternate_their_order():
    assert [rules.order_of_pair(i) for i in (1, 2, 3, 4)] == [("A", "B"), ("B", "A"), ("A", "B"), ("B", "A")]


def test_table_has_a_header_and_a_line_per_measure_within_ten():
    pts = [{"pair": i, "side": s, "value": v} for i in (1, 2) for s, v in (("A", 10.0), ("B", 9.0 + i / 10))]
    ms = [rules.compare_measure(k, pts) for k in ("cpu_udp", "instr_udp")]
    lines = rules.table_lines(ms)
    assert len(lines) == 3 and lines[0].startswith("measure")
    assert "cpu_udp (us/q)" in lines[1] and "B costs" in lines[1]
    assert len(rules.table_lines(ms * 20)) == 10


def test_callgrind_total_reads_summary_else_totals_else_none():
    assert rules.callgrind_total("events: Ir\nsummary: 1234\ntotals: 1234\n") == 1234
    assert rules.callgrind_total("events: Ir\ntotals: 99\n") == 99
    assert rules.callgrind_total("events: Ir\nfn=main\n") is None


def test_instructions_per_query_from_two_runs_cancel_the_fixed_cost():
    # 5 M of start and zone load, 3000 instructions per query
    assert rules.instructions_per_query(5_000_000 + 1000 * 3000, 5_000_000 + 3000 * 3000, 1000, 3000) == 3000
    with pytest.raises(ValueError):
        rules.instructions_per_query(1, 2, 3000, 1000)


def test_answers_are_the_servers_answer_codes_else_their_queries():
    nsd = {"queries": 12, "counters": {"num.rcode.NOERROR": 4, "num.rcode.NXDOMAIN": 6, "num.queries": 12}}
    assert rules.answered(nsd) == 10
    bind = {"queries": 7, "counters": {"rcode.NOERROR": 3, "rcode.NXDOMAIN": 3, "Requestv4": 7}}
    assert rules.answered(bind) == 6
    assert rules.answered({"queries": 5, "counters": {}}) == 5
    assert rules.answered({}) == 0


def test_cpu_stat_usage_and_per_query():
    assert rules.cpu_usec("usage_usec 62272\nuser_usec 28748\n") == 62272
    with pytest.raises(ValueError):
        rules.cpu_usec("user_usec 1\n")
    assert rules.per_query(300, 100) == 3
    assert rules.per_query(300, 0) is None

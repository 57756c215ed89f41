"""A point of the UDP sweep and its row (udpreplay/udp/points.py): the
serving server is the one whose nftables counted more, on a tie (Knot
over XDP: both 0) the one whose daemon counted more (control: the other
way round); the answer ratio to 6 places and the answered rate to one;
a rate missed by more than 1 % is generator-limited (control: 0.5 %
is not); the daemon's loss is what its socket received and it did not
answer, never below 0; a point without per-millisecond arrivals leaves
their four cells empty; the row read back by the rules (rules.py
csv_points) gives the same record (control: a cell changed changes it)."""

from rootbench.experiment import sibling

points = sibling(__file__, "../points")
rules = sibling(__file__, "../rules")


def snap(s1, q1, s2, q2, ans, ans_bytes):
    return {"server1": {"dns_udp_in": {"packets": float(s1)}, "daemon_queries": q1},
            "server2": {"dns_udp_in": {"packets": float(s2)}, "daemon_queries": q2},
            "listener": {"dns_answers": {"packets": float(ans), "bytes": float(ans_bytes)}}}


ZERO = snap(0, 0.0, 0, 0.0, 0, 0)


def cells(after, sent=50000.0, achieved=10000.0, rate=10000.0, elapsed=5.0):
    return points.counter_cells("l3", rate, ZERO, after, sent, elapsed, achieved, "id")


def test_the_serving_server_counted_more_and_on_a_tie_its_daemon():
    c = cells(snap(100, 100.0, 49900, 49800.0, 49000, 4900000))
    assert (c[12], c[5], c[11], c[6]) == ("server2", 49900, 100, 49800)
    # Knot over XDP: nftables counts nothing, the daemons decide
    c = cells(snap(0, 10.0, 0, 20.0, 30, 3000))
    assert c[12] == "server2"
    c = cells(snap(0, 20.0, 0, 10.0, 30, 3000))
    assert c[12] == "server1"


def test_ratio_and_rate_rounded_and_none_without_queries_sent():
    c = cells(snap(50000, 50000.0, 0, 0.0, 49999, 0))
    assert (c[8], c[9]) == (0.99998, 9999.8)
    assert points.row_text(c[8:10]) == "0.99998,9999.8"
    assert cells(snap(0, 0.0, 0, 0.0, 0, 0), sent=0.0, elapsed=0.0)[8:10] == [0, 0]


def test_a_rate_missed_by_more_than_one_percent_is_generator_limited():
    assert cells(ZERO, achieved=9899.0)[13] == 1
    assert cells(ZERO, achieved=9950.0)[13] == 0


def test_the_daemons_loss_is_never_below_zero():
    sample = {"deltas": {"server1": {"UdpInDatagrams": 10.0, "UdpOutDatagrams": 25.0}}}
    c = points.sampled_cells(sample, [], {"server": [], "client": []}, ["player1"])
    assert c[points.LOSS_LAYERS.index("daemon")] == 0
    sample["deltas"]["server1"]["UdpInDatagrams"] = 40.0
    assert points.sampled_cells(sample, [], {"server": [], "client": []}, ["player1"])[points.LOSS_LAYERS.index("daemon")] == 15
    # no CPU figure: empty cells
    assert c[-2:] == ["", ""]


def test_arrivals_not_measured_leave_their_cells_empty():
    assert points.arrivals_cells({"arrivals": None}) == ["", "", "", ""]
    assert points.arrivals_cells({"arrivals": {"ahead_max": 30.0, "lost": 0.0, "lost_in_burst": 0.0,
                                               "lost_in_stall": 1.0}}) == ["30", "0", "0", "1"]


def test_the_row_reads_back_as_the_same_record():
    assert len(set(points.COLUMNS)) == len(points.COLUMNS)
    assert points.COLUMN["requested_qps"] == 2 and points.COLUMNS[-1] == "rep"
    row = cells(snap(50000, 50000.0, 0, 0.0, 49999, 11799764))
    row += [0.0] * len(points.LOSS_LAYERS) + [0.0, 0.0, 80.5, 30.0, "", "", "", "", "", 2.0]
    text = points.row_text(row)
    rec = rules.csv_points(text + "\n", ",".join(points.COLUMNS))[0]
    assert list(rec) == points.COLUMNS
    assert (rec["answer_ratio"], rec["server_cpu_busy_pct"], rec["rig_share"], rec["rep"]) == (0.99998, 80.5, "", 2)
    changed = rules.csv_points(text.replace(",80.5,", ",80.6,") + "\n", ",".join(points.COLUMNS))[0]
    assert changed != rec

"""The UDP experiment's summary rules (udpreplay/udp/rules.py) against
fixture points (testdata/*.csv, rows of points.csv), each with a negative
control made by changing the one fact the verdict rests on:

- backpressure: on a shaped link that carried its rate from the first
  failing rate on, the first drops at the server's socket give the link
  (layer link, physics check link_limited, its note says the link);
  control: the same points with the answers at 70 % of the link -> the
  server's socket, the server; control: the same points unshaped -> the
  server, never the link; the link's tbf queue held 15 ms with the answers
  below the link's rate -> the link (control: 2 ms -> the server);
- the ceiling range: a monotone sweep gives low/high around the first
  failure; a noisy one (repetitions mixed at one rate) puts high at the
  lowest rate where any repetition failed (control: that repetition held
  -> high moves up); a non-monotone one flags the rates that held again
  above the first failure and never takes them as the ceiling (control:
  monotone -> nothing flagged);
- per CPU: under a budget with the receive path on the server CPU
  (STEER=rps), a server-limited ceiling over the server CPU's busy share
  there gives its rate per CPU (61000 / 0.5 = 122000); controls: the
  server CPU not saturated (30 % busy under 0.5), the receive path on the
  sending CPU (STEER=none) or a generator-limited failure (no server
  verdict) give none: a rig-limited rate never becomes a capacity per
  CPU; nor does a ceiling known only within a range more than 10 % wide
  (control: 40000-64000);
- a server's loss with its CPU busy at what its daemons may use is the
  CPU's ceiling (mechanism cpu); the same loss with the CPU to spare is a
  queue overflowed with the CPU to spare (mechanism queue), a burst of the
  arrivals (generator) and a stall of the server CPU (host) from the
  per-millisecond arrivals, each in the summary's words with its control;
- the rig on the server CPU (rig-on-server.csv: the server-socket points
  with the rig's forwarding at 31 % of the server CPU): the server's
  verdict carries the caveat, server_own false, each critical point is
  labelled; control: 2 % -> no caveat, server_own true; a point above 5 %
  that does not set the ceiling changes nothing; points with no rig_share
  (not measured) say so, never "own";
- the summary's text is jq's: numbers as jq prints them; the schema the
  run writes is the one the jq accessors other experiments read
  (rules.jq) check.
"""

import os
import subprocess


from rootbench.experiment import sibling
from rootbench.jqtext import to_json
from rootbench.tests.jqagree import find_jq

rules = sibling(__file__, "../rules")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "testdata")
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
LINK = 100000000.0
BUDGET = {"budget": 0.5, "period_us": 2000.0, "longest_pause_bound_us": 1000.0}


def fixture(name):
    with open(os.path.join(DATA, name + ".csv"), encoding="utf-8") as f:
        return f.read()


def summary(text, link=None, **more):
    """The rules' summary of the points (threshold 0.998), unshaped or
    with the link's rate, more settings added."""
    s = {"lb": "l3", "threshold": 0.998, "link_bps": link, "note": ""}
    s.update(more)
    cols = text.split("\n")[0][2:]
    return rules.lb_summary(rules.csv_points(text, cols), s)


def summary_cpu(text, steer):
    """As summary, unshaped, with the testbed's budget (0.5 CPU, period 2 ms)
    and steering."""
    return summary(text, None, steer=steer, cpu_budget=BUDGET)


def awk_text(x):
    """A number as awk prints a field it computed (integers whole, else %.6g)."""
    if isinstance(x, str):
        return x
    return "%d" % x if x == int(x) and abs(x) < 1e16 else "%.6g" % x


def mutate(text, pred=None, change=None):
    """A copy of the points with change(f) applied to the rows for which
    pred(f) holds (f: the row's fields as numbers where they are, 1-based
    as awk's $N: f[N]); pred None: every row; change None: the rows
    where pred fails are dropped."""
    out = []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            out.append(line)
            continue
        cells = line.split(",")
        f = [None] + [float(v) if v.replace(".", "", 1).isdigit() else v for v in cells]
        hit = pred is None or pred(f)
        if change is None:
            if hit:
                out.append(line)
            continue
        if hit:
            before = list(f)
            change(f)
            # as awk rebuilds the row: the fields not assigned keep their text
            line = ",".join(c if f[i] is before[i] else awk_text(f[i]) for i, c in enumerate(cells, 1))
        out.append(line)
    return "\n".join(out)


def with_columns(text, names, values):
    """The points with columns names added before rep, every row at values."""
    lines = text.split("\n")
    lines[0] = lines[0][:-len(",rep")] + "," + ",".join(names) + ",rep"
    for i in range(1, len(lines)):
        if lines[i] and not lines[i].startswith("#"):
            head, _, rep = lines[i].rpartition(",")
            lines[i] = head + "," + ",".join(values) + "," + rep
    return "\n".join(lines)


def with_busy(text, busy):
    return with_columns(text, ["server_cpu_busy_pct", "client_cpu_busy_pct"], [str(busy), "90"])


def with_arrivals(text, ahead, lost, burst, stall):
    return with_columns(text, ["arrivals_ahead_max", "arrivals_lost", "arrivals_lost_in_burst", "arrivals_lost_in_stall"],
                        [str(ahead), str(lost), str(burst), str(stall)])


def seventy(f):
    f[10] = f[10] * 0.7
    f[8] = int(f[8] * 0.7)
    f[9] = f[8] / f[5]
    f[11] = f[8] * 236


PLATEAU = fixture("shaped-plateau")
LOW = mutate(PLATEAU, lambda f: f[2] >= 46000, seventy)
SOCKET = fixture("server-socket")
BUSY = with_busy(SOCKET, 50)
IDLE = with_busy(SOCKET, 30)
RIG = fixture("rig-on-server")


# ------------------------------------------------------------ backpressure

def test_a_full_shaped_link_is_the_limit_whatever_counted_the_first_loss():
    s = summary(PLATEAU, LINK)
    assert [s["verdict"][k] for k in ("layer", "caused_by", "first_counter")] == ["link", "link", "server_socket"]
    assert (s["physics_check"]["pass"], s["physics_check"]["link_limited"]) == (True, True)
    assert "the link, not the server, limited" in s["physics_check"]["note"]
    assert "the ceiling of the link, not of the server" in s["verdict"]["summary"]


def test_control_a_shaped_link_far_from_full_leaves_the_server():
    s = summary(LOW, LINK)
    assert (s["verdict"]["layer"], s["verdict"]["caused_by"], s["physics_check"]["link_limited"]) == \
        ("server_socket", "server", False)
    assert "the server, not the link, limited" in s["physics_check"]["note"]


def test_control_the_same_points_unshaped_are_the_server_never_the_link():
    s = summary(PLATEAU)
    assert (s["verdict"]["layer"], s["verdict"]["caused_by"], s["physics_check"]["applicable"]) == \
        ("server_socket", "server", False)


def test_a_full_tbf_queue_is_the_link_and_a_short_one_is_not():
    # 15 ms of the link's rate (187500 bytes, column 27) at the first failing rate
    queue = mutate(LOW, lambda f: f[2] == 46000, lambda f: f.__setitem__(27, 187500))
    s = summary(queue, LINK)
    assert (s["verdict"]["layer"], s["verdict"]["backpressure"]["queue_max_ms"]) == ("link", 15)
    short = mutate(LOW, lambda f: f[2] == 46000, lambda f: f.__setitem__(27, 25000))
    assert summary(short, LINK)["verdict"]["layer"] == "server_socket"


def test_the_server_socket_is_the_server_unshaped_and_on_a_fast_link():
    s = summary(SOCKET)
    assert (s["verdict"]["layer"], s["verdict"]["caused_by"]) == ("server_socket", "server")
    assert summary(SOCKET, 1e9)["verdict"]["caused_by"] == "server"


# ------------------------------------------------------------ the ceiling range

def test_a_monotone_sweep_gives_the_range_around_the_first_failure():
    s = summary(SOCKET)
    assert (s["ceiling_low_qps"], s["ceiling_high_qps"], s["ceiling_qps"], s["non_monotonic"]) == (61000, 62000, 61000, [])
    assert s["ceiling"].startswith("found: between 61000 and 62000 q/s")


def test_one_failed_repetition_sets_high_and_control_it_held():
    s = summary(fixture("noisy"))
    assert (s["ceiling_low_qps"], s["ceiling_high_qps"], s["mixed_rates"], s["repetitions_max"]) == (60400, 61000, [61000], 3)
    assert len([p for p in s["critical_points"] if p["requested_qps"] == 61000]) == 3

    def held(f):
        f[8], f[9], f[10] = f[5], 1, f[2]
    h = summary(mutate(fixture("noisy"), lambda f: f[2] == 61000 and f[-1] == 2, held))
    assert (h["ceiling_low_qps"], h["ceiling_high_qps"], h["mixed_rates"]) == (61000, 61600, [])


def test_rates_that_held_again_are_flagged_not_the_ceiling_and_control_monotone():
    s = summary(fixture("non-monotone"))
    assert (s["ceiling_low_qps"], s["ceiling_high_qps"], s["non_monotonic"]) == (94700, 94800, [94900, 95000])
    assert "held again above it at 94900, 95000 q/s (not monotonic)" in s["ceiling"]

    def held(f):
        f[8], f[9], f[10], f[25] = f[5], 1, f[2], 0
    m = summary(mutate(fixture("non-monotone"), lambda f: f[2] == 94800, held))
    assert (m["ceiling_low_qps"], m["ceiling_high_qps"], m["non_monotonic"]) == (95000, 95100, [])


def test_a_generator_limited_failure_is_not_the_ceiling():
    gen = mutate(SOCKET, lambda f: f[2] == 62000, lambda f: f.__setitem__(14, 1))
    assert summary(gen)["ceiling_high_qps"] == 64000


# ------------------------------------------------------------ per CPU

def test_the_ceiling_per_cpu_is_over_the_server_cpus_busy_share():
    p = summary_cpu(BUSY, "rps")["per_cpu"]
    assert (p["qps_per_cpu"], p["server_cpu_busy_pct"], p["budget"]) == (122000, 50, 0.5)


def test_control_no_figure_per_cpu_off_the_server_cpu_or_unsaturated():
    assert summary_cpu(BUSY, "none")["per_cpu"]["qps_per_cpu"] is None
    p = summary_cpu(IDLE, "rps")["per_cpu"]
    assert (p["server_cpu_saturated"], p["qps_per_cpu"]) == (False, None)


def test_control_no_figure_per_cpu_without_a_server_verdict():
    gen = with_busy(mutate(SOCKET, lambda f: f[2] >= 62000, lambda f: f.__setitem__(14, 1)), 50)
    s = summary_cpu(gen, "rps")
    assert (s["verdict"], s["per_cpu"]["qps_per_cpu"]) == (None, None)


def test_control_no_figure_per_cpu_from_a_range_more_than_ten_percent_wide():
    wide = with_busy(mutate(SOCKET, lambda f: f[2] < 60000 or f[2] > 62000), 50)
    s = summary_cpu(wide, "rps")
    assert (s["ceiling_low_qps"], s["ceiling_high_qps"], s["per_cpu"]["qps_per_cpu"]) == (40000, 64000, None)
    assert "more than 10 % apart" in s["per_cpu"]["rule"]


# ------------------------------------------------------------ how the server lost it

def why(text):
    v = summary_cpu(text, "napi")["verdict"]
    return v["caused_by"], v["mechanism"]


def test_the_cpu_at_what_its_daemons_may_use_is_the_cpus_ceiling():
    assert why(BUSY) == ("server", "cpu")
    assert "the ceiling of the server" in summary_cpu(BUSY, "napi")["verdict"]["summary"]


def test_control_the_same_loss_with_the_cpu_to_spare_is_a_queue():
    v = summary_cpu(IDLE, "napi")["verdict"]
    assert (v["caused_by"], v["mechanism"], v["server_cpu_busy_pct"]) == ("server", "queue", 30)
    assert "not its CPU's capacity" in v["summary"]
    assert "arrivals not measured per millisecond" in v["summary"]


def test_a_burst_of_the_arrivals_is_the_generators_and_its_controls():
    b = with_arrivals(IDLE, 900, 100, 80, 0)
    assert why(b) == ("generator", "burst")
    s = summary_cpu(b, "napi")
    assert "a generator burst: 80 of the 100 queries lost" in s["verdict"]["summary"]
    assert "not the server's capacity" in s["verdict"]["summary"]
    assert s["per_cpu"]["qps_per_cpu"] is None
    assert why(with_arrivals(BUSY, 900, 100, 80, 0)) == ("server", "cpu")
    assert why(with_arrivals(IDLE, 300, 100, 40, 0)) == ("server", "queue")


def test_a_stall_of_a_server_cpu_is_the_hosts_and_smooth_arrivals_the_servers():
    st = with_arrivals(IDLE, 100, 100, 10, 70)
    assert why(st) == ("host", "stall")
    assert "a host stall: 70 of the 100 queries lost" in summary_cpu(st, "napi")["verdict"]["summary"]
    sm = with_arrivals(IDLE, 40, 100, 0, 0)
    assert why(sm) == ("server", "queue")
    assert "with smooth arrivals (at most 40 ahead" in summary_cpu(sm, "napi")["verdict"]["summary"]
    assert why(with_arrivals(BUSY, 40, 100, 0, 0)) == ("server", "cpu")
    assert why(with_arrivals(BUSY, 0, 0, 0, 0)) == ("server", "cpu")


# ------------------------------------------------------------ the rig on the server CPU

def test_the_rig_at_31_percent_of_the_server_cpu_is_not_the_servers_own():
    s = summary(RIG)
    assert (s["verdict"]["caused_by"], s["verdict"]["server_own"], s["rig_charge"]["max"], s["rig_charge"]["own"]) == \
        ("server", False, 0.31, False)
    assert "took up to 31 % of the server CPU's busy time there" in s["verdict"]["summary"]
    assert "is not the server's own" in s["verdict"]["summary"]
    assert {p["rig_over_limit"] for p in s["critical_points"]} == {True}


def test_control_the_rig_at_2_percent_is_the_servers_own():
    low = mutate(RIG, None, lambda f: f.__setitem__(29, 0.02))
    s = summary(low)
    assert (s["verdict"]["server_own"], s["rig_charge"]["own"], s["rig_charge"]["caveat"]) == (True, True, None)
    assert "not the server's own" not in s["verdict"]["summary"]
    assert {p["rig_over_limit"] for p in s["critical_points"]} == {False}
    far = mutate(low, lambda f: f[2] == 5000, lambda f: f.__setitem__(29, 0.4))
    assert summary(far)["verdict"]["server_own"] is True


def test_a_rig_share_not_measured_is_never_the_servers_own():
    s = summary(SOCKET)
    assert (s["rig_charge"]["measured_points"], s["rig_charge"]["own"], s["verdict"]["server_own"]) == (0, None, False)
    assert "was not measured" in s["verdict"]["summary"]


# ------------------------------------------------------------ jq's text

def test_the_summary_prints_as_jq_printed_it():
    s = to_json(summary(PLATEAU, LINK))
    assert s.startswith('{"lb":"l3","ceiling_qps":45000,"ceiling_low_qps":45000,"ceiling_high_qps":46000,')
    assert '"per_1000":8.696,"per_1000_below":0,' in s
    assert '"carried_share_at_first_failure":0.9996,' in s
    # control: a changed count changes the text
    assert to_json(summary(LOW, LINK)) != s


def test_a_row_from_before_repetitions_is_repetition_1():
    pts = rules.csv_points("l3,5000,x,\n", "lb,requested_qps,serving,rig_share")
    assert pts == [{"lb": "l3", "requested_qps": 5000, "serving": "x", "rig_share": "", "rep": 1}]


def test_the_top_of_a_summary_is_its_first_lb_and_none_without():
    per = [summary(SOCKET), summary(PLATEAU, LINK, lb="l4")]
    top = rules.summary_top(per)
    assert list(top) == list(rules.TOP_FIELDS)
    assert (top["lb"], top["ceiling_qps"], top["probe"]) == ("l3", 61000, None)
    assert rules.summary_top([]) == {"lb": None}


def test_kxdpgun_counts_where_the_testbed_counted_tcpreplay_its_own():
    assert rules.udp_counted_by("kxdpgun", "the router")["queries_sent"] == "the router"
    assert rules.udp_counted_by("tcpreplay", "the router")["queries_sent"].startswith("tcpreplay's own summary")


# ------------------------------------------------------------ the schema

def test_the_run_writes_the_schema_the_jq_accessors_read():
    r = subprocess.run([find_jq(), "-r", "-L", TOP, 'import "udpreplay/udp/rules" as udp; udp::udp_schema'],
                       input="null", capture_output=True, text=True, cwd=TOP)
    assert r.stdout.strip() == rules.SCHEMA == "rootbench.udp/1"


# ------------------------------------------------------------ the sweep's blocks

def test_the_players_block_reads_the_starts_of_this_runs_samples(tmp_path):
    assert (rules.point_stem("l3", 5000.0, 1.0), rules.point_stem("l3", 5000.0, 2.0)) == ("l3-5000", "l3-5000-r2")
    pts = rules.csv_points("l3,5000,1\nl3,5000,2\nl4,5000,1\n", "lb,requested_qps,rep")
    (tmp_path / "samples").mkdir()
    start = {"at": 1.0, "players": [], "late_ms_max": 30.0, "skew_ms": 12.0, "measured": 2.0}
    (tmp_path / "samples" / "l3-5000.json").write_text(to_json({"start": start}) + "\n")
    b = rules.players_block(pts, "l3", str(tmp_path), "player1 198.18.4.0/25 0\nplayer2 198.18.4.128/25 0\n", 2.0)
    assert b["roles"] == ["player1", "player2"] and b["sources_shared"] is False
    # control: without the sample (a point kept from an earlier run) no skew is known
    (tmp_path / "samples" / "l3-5000.json").unlink()
    assert rules.players_block(pts, "l3", str(tmp_path), "player1 198.18.4.0/25 1\n", None) != b


def test_no_probe_block_with_the_probe_off(tmp_path):
    pts = rules.csv_points(fixture("server-socket"), fixture("server-socket").split("\n")[0][2:])
    s = {"lb": "l3", "threshold": 0.998, "link_bps": None, "note": ""}
    out = rules.lb_summary_with_blocks(pts, s, str(tmp_path), False, "", None)
    assert out["probe"] is None and list(out)[-2:] == ["probe", "players"]
    assert {k: v for k, v in out.items() if k not in ("probe", "players")} == rules.lb_summary(pts, s)

"""The UDP figures' inputs (udpreplay/udp/plot.py), without gnuplot: the
points split per LB mode, the generator-limited ones apart (control: a
valid point stays with its LB), ordered by the rate achieved; the
summary's fields as gnuplot is given them, each its default when the
summary is missing or not a summary; the generator's name kept to safe
characters; the paper's ceilings only beside a link shaped to its rate
(control: unshaped, none)."""

import os

from rootbench.experiment import sibling

plot = sibling(__file__, "../plot")
ROWS = ("# lb,requested_qps,achieved_qps,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,generator_limited\n"
        "l4,1,900,,,,,,,,,,,0\nl3,2,2000,,,,,,,,,,,1\nl3,1,100,,,,,,,,,,,0\nl3,3,30.5,,,,,,,,,,,0\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_points_split_per_lb_generator_limited_apart_by_rate(tmp_path):
    assert plot.split_points(ROWS, str(tmp_path)) == ["l3", "l4"]
    assert [r.split(",")[2] for r in read(tmp_path / "l3.csv").split()] == ["30.5", "100"]
    assert read(tmp_path / "l3-gen.csv").startswith("l3,2,2000,")
    # control: an LB without a generator-limited point gets an empty file
    assert read(tmp_path / "l4-gen.csv") == ""
    assert read(tmp_path / "l4.csv").startswith("l4,1,900,")


def test_summary_fields_and_their_defaults(tmp_path):
    s = tmp_path / "summary.json"
    s.write_text('{"link_bps": 100000000, "mean_answer_wire_bytes": 250.5, "ceiling_qps": null,'
                 ' "settings": {"threshold": 0.99, "generator": "kx;dp$gun"}}')
    assert plot.summary_fields(str(s)) == ("100000000", "250.5", "0.99", "0", "kxdpgun")
    s.write_text("[1]")
    assert plot.summary_fields(str(s)) == ("0", "0", "0.998", "0", "")
    assert plot.summary_fields(os.path.join(str(tmp_path), "none.json")) == ("0", "0", "0.998", "0", "")


def test_the_papers_ceilings_only_on_the_papers_link():
    assert plot.paper_ceilings("100000000")
    assert plot.paper_ceilings("0") == []

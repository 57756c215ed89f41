"""rootbench.bench without a testbed: the steps planned from the registry
per family, the selection, what a lab cannot run, the summary each step
is settled to whatever it wrote, bench.json's shape and status, and the
refusals before anything starts (the live runs: scripts/tests/60-62)."""

import json
import os
import signal
import time

import pytest

from rootbench import bench
from rootbench.lifecycle import project_top
from rootbench.testbed import read_registry

REGISTRY = {"experiments": [
    {"name": "udp", "target": "udp", "vars": "UDP_LINK=100mbit UDP_NAME=udp", "bench": True},
    {"name": "sizes", "target": "sizes", "vars": "", "bench": True},
    {"name": "dot", "target": "dot", "vars": "", "bench": False},
    {"name": "attack", "target": "attack", "vars": "", "bench": True, "only_family": 4, "why": "IPv4 floods"},
]}


def notes_of(entries, family):
    notes = []
    return bench.plan(entries, family, REGISTRY, notes.append), notes


def test_the_bench_steps_are_the_registry_bench_entries_in_its_order():
    assert bench.bench_entries(REGISTRY) == [
        ("udp", "udp", "UDP_LINK=100mbit UDP_NAME=udp"), ("sizes", "sizes", ""), ("attack", "attack", "")]


def test_family_4_names_no_family_in_the_steps():
    steps, notes = notes_of(bench.bench_entries(REGISTRY), "4")
    assert steps == [("udp", "udp", "UDP_LINK=100mbit UDP_NAME=udp"), ("sizes", "sizes", ""), ("attack", "attack", "")]
    assert notes == []


def test_family_both_runs_each_experiment_per_family_and_the_ipv4_only_once():
    steps, notes = notes_of(bench.bench_entries(REGISTRY), "both")
    assert steps == [("udp", "udp", "UDP_LINK=100mbit UDP_NAME=udp FAMILY=4"),
                     ("udp-v6", "udp", "UDP_LINK=100mbit UDP_NAME=udp FAMILY=6"),
                     ("sizes", "sizes", "FAMILY=4"), ("sizes-v6", "sizes", "FAMILY=6"),
                     ("attack", "attack", "FAMILY=4")]
    assert notes == ["attack: measures IPv4 only; no IPv6 step"]


def test_family_6_plans_the_ipv6_steps_only():
    steps, notes = notes_of(bench.bench_entries(REGISTRY), "6")
    assert [s[0] for s in steps] == ["udp-v6", "sizes-v6"]
    assert notes == ["attack: measures IPv4 only; no IPv6 step"]


def test_selection_keeps_the_registry_order_and_names_the_unknown_words():
    entries = bench.bench_entries(REGISTRY)
    chosen, unknown = bench.select(entries, ["attack", "udp", "nope", "dot", "nope"])
    assert [e[0] for e in chosen] == ["udp", "attack"]
    assert unknown == ["nope", "dot"]
    assert bench.select(entries, [])[0] == entries
    assert bench.select(entries, ["nope"])[0] == []


def test_a_testbed_that_cannot_shape_skips_a_shaped_step_only():
    assert "cannot shape links (100mbit asked)" in bench.cannot_run(["UDP_LINK=100mbit", "UDP_NAME=udp"], False)
    # controls: the same step where links shape, and unshaped steps anywhere
    assert bench.cannot_run(["UDP_LINK=100mbit"], True) == ""
    assert bench.cannot_run(["UDP_LINK=none"], False) == ""
    assert bench.cannot_run(["UDP_LINK="], False) == ""


def test_last_lines_are_the_last_six_non_blank_cut_to_300_bytes(tmp_path):
    f = tmp_path / "step.log"
    f.write_text("\n".join(["line %d" % i for i in range(10)] + ["   ", "x" * 400, ""]) + "\n")
    got = bench.last_lines(str(f)).split("\n")
    assert got == ["line 5", "line 6", "line 7", "line 8", "line 9", "x" * 300]
    assert bench.last_lines(str(tmp_path / "none.log")) == ""


def settled(tmp_path, summary, rc, interrupted=False, step="udp", target="udp", log="a\nthe end\n"):
    d = tmp_path / step
    d.mkdir(exist_ok=True)
    if summary is not None:
        (d / "summary.json").write_text(summary if isinstance(summary, str) else json.dumps(summary))
    (tmp_path / "step.log").write_text(log)
    status = bench.settle(str(d), step, target, rc, interrupted, 150, str(tmp_path / "step.log"))
    return status, json.loads((d / "summary.json").read_text())


def test_exit_0_without_a_summary_is_failed(tmp_path):
    status, s = settled(tmp_path, None, 0)
    assert status == "failed" == s["status"]
    assert s["error"] == "make udp finished but wrote no (valid) summary.json"
    assert list(s) == ["schema", "experiment", "status", "error", "finished"]
    assert s["schema"] == "rootbench.udp/1"


def test_an_invalid_summary_counts_as_none(tmp_path):
    status, s = settled(tmp_path, "{not json", 0)
    assert status == "failed" and "wrote no (valid)" in s["error"]


def test_a_failed_exit_without_a_summary_gives_the_exit_and_the_log_end(tmp_path):
    status, s = settled(tmp_path, None, 2, step="sizes-v6", target="sizes")
    assert status == "failed"
    assert s["error"] == "make sizes exited with 2: a\nthe end"
    assert (s["schema"], s["experiment"]) == ("rootbench.sizes/1", "sizes-v6")


def test_a_failed_exit_after_an_ok_summary_fails_it_keeping_its_data(tmp_path):
    status, s = settled(tmp_path, {"schema": "rootbench.lb/1", "status": "ok", "sources": 7}, 1, step="lb", target="lb-verify")
    assert status == "failed"
    assert s == {"schema": "rootbench.lb/1", "status": "failed", "sources": 7, "error": "make lb-verify exited with 1: a\nthe end"}


def test_the_step_time_limit_is_named(tmp_path):
    _, s = settled(tmp_path, None, 124, log="")
    assert s["error"] == "make udp exited with 124 (step time limit 150 s reached): "


def test_an_experiment_own_failure_is_kept(tmp_path):
    own = {"schema": "rootbench.udp/1", "status": "failed", "error": "its own"}
    assert settled(tmp_path, own, 3) == ("failed", own)
    assert settled(tmp_path, own, 0, interrupted=True) == ("failed", own)


def test_an_ok_summary_and_exit_0_stay_as_written(tmp_path):
    ok = {"schema": "rootbench.udp/1", "status": "ok", "ceiling_qps": 12345}
    assert settled(tmp_path, ok, 0) == ("ok", ok)


def test_an_interrupt_marks_the_running_step_interrupted(tmp_path):
    status, s = settled(tmp_path, None, 130, interrupted=True, step="tcp-v6", target="tcp")
    assert status == "interrupted"
    assert (s["schema"], s["experiment"], s["error"]) == (
        "rootbench.tcp/1", "tcp", "interrupted by the user (Ctrl-C) during make tcp")
    status, s = settled(tmp_path, {"status": "ok", "error": None, "points": 3}, 130, interrupted=True)
    assert s == {"status": "interrupted", "error": "interrupted by the user (Ctrl-C) during make udp", "points": 3}
    status, s = settled(tmp_path, {"status": "ok", "error": "partial"}, 130, interrupted=True)
    assert s["error"] == "partial"


def test_bench_json_has_its_fields_in_order():
    steps = [bench.step_record("build", "all", "ok", 3), bench.step_record("udp", "udp", "failed", 5, "why")]
    b = bench.bench_json("quick", "4", "T0", None, "running", (None, None), 0, steps)
    assert list(b) == ["schema", "scale", "family", "started", "finished", "status", "host_speed", "step_timeout_s", "steps"]
    assert b["host_speed"] == {"start": None, "end": None}
    assert b["step_timeout_s"] is None
    assert bench.bench_json("quick", "4", "T0", "T1", "ok", ({}, {}), 900, [])["step_timeout_s"] == 900
    assert steps == [{"name": "build", "target": "all", "status": "ok", "seconds": 3},
                     {"name": "udp", "target": "udp", "status": "failed", "seconds": 5, "error": "why"}]


def test_the_bench_fails_on_any_step_neither_ok_nor_skipped():
    ok = [{"status": "ok"}, {"status": "skipped"}]
    assert bench.bench_status(ok, False) == "ok"
    assert bench.bench_status(ok + [{"status": "not run"}], False) == "failed"
    assert bench.bench_status(ok, True) == "interrupted"


def test_list_prints_the_real_registry_steps(capsys, monkeypatch):
    for n in ("FAMILY", "BENCH_EXPERIMENTS", "RB_RUN"):
        monkeypatch.delenv(n, raising=False)
    monkeypatch.setenv("SCALE", "smoke")
    assert bench.main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "step\tmake target\tvariables"
    names = [e["name"] for e in read_registry()["experiments"] if e.get("bench")]
    assert [line.split("\t")[0] for line in lines[1:]] == names


@pytest.mark.parametrize("env,args,rc,words", [
    ({"FAMILY": "7"}, ["--list"], 2, "bench: error: FAMILY=7: must be 4, 6 or both"),
    ({"SCALE": "huge"}, [], 1, "bench: error: unknown SCALE=huge: use smoke, quick, paper"),
    ({"BENCH_STEP_TIMEOUT": "-1"}, [], 1, "bench: error: BENCH_STEP_TIMEOUT=-1: must be an integer >= 0"),
    ({"BENCH_EXPERIMENTS": "nope"}, ["--list"], 1, "bench: error: BENCH_EXPERIMENTS='nope' names none of: udp "),
    ({}, ["--foo"], 1, "bench: error: unknown argument '--foo': --list or none"),
])
def test_bad_input_is_refused_before_anything_starts(capsys, monkeypatch, tmp_path, env, args, rc, words):
    monkeypatch.setenv("RB_RESULTS", str(tmp_path / "results"))
    for n in ("FAMILY", "SCALE", "BENCH_EXPERIMENTS", "BENCH_STEP_TIMEOUT", "RB_RUN"):
        monkeypatch.delenv(n, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert bench.main(args) == rc
    assert words in capsys.readouterr().err
    assert not (tmp_path / "results").exists()


def test_an_unknown_name_beside_a_known_one_is_warned(capsys, monkeypatch):
    monkeypatch.setenv("BENCH_EXPERIMENTS", "udp,nope")
    monkeypatch.delenv("FAMILY", raising=False)
    assert bench.main(["--list"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[1:] == ["udp\tudp\tUDP_LINK=100mbit UDP_NAME=udp"]
    assert "bench: warning: BENCH_EXPERIMENTS: nope is none of the bench's experiments" in out.err


def fake_make(tmp_path, body):
    f = tmp_path / "make"
    f.write_text("#!/bin/sh\n" + body + "\n")
    f.chmod(0o755)
    return str(f)


def a_bench(tmp_path, make, limit):
    b = bench.Bench(project_top(), dict(os.environ))
    b.run = str(tmp_path)
    os.makedirs(os.path.join(b.run, "logs"), exist_ok=True)
    b.make, b.limit = make, limit
    return b


def test_the_time_limit_stops_a_step_also_with_sigint_ignored(tmp_path):
    # (a fraction of a second: the table takes whole seconds, the rule is the same)
    b = a_bench(tmp_path, fake_make(tmp_path, "sleep 30"), 0.2)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        t0 = time.monotonic()
        rc = b.run_make("slow", "all", [])
    finally:
        signal.signal(signal.SIGINT, old)
    assert rc == 124
    assert time.monotonic() - t0 < 10


def test_a_step_within_its_limit_gives_its_own_exit_and_its_words(tmp_path):
    b = a_bench(tmp_path, fake_make(tmp_path, 'echo "$@"; exit 3'), 5)
    assert b.run_make("quick", "udp", ["UDP_LINK=none"]) == 3
    assert (tmp_path / "logs" / "quick.log").read_text().endswith("--no-print-directory udp UDP_LINK=none\n")

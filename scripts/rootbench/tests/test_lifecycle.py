"""rootbench.lifecycle: a Run holds its directory against a second run
(Python or bash's run_lock), turns SIGINT/SIGTERM into a clean stop, stops
its children, always writes a summary (ok, interrupted, failed with the
error) and exits as lifecycle.sh does (130 interrupted, 1 failed)."""

import json
import os
import signal
import subprocess
import time

import pytest

from rootbench import lifecycle
from rootbench.lifecycle import Interrupted, Run, RunError

TOP = lifecycle.project_top()


@pytest.fixture(autouse=True)
def short_lock_wait(monkeypatch):
    # a second run waits 2 s for the lock; the tests need not
    monkeypatch.setattr(lifecycle, "LOCK_WAIT_S", 0.2)


def summary_of(d):
    with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def test_a_run_left_alone_ends_ok_with_its_scratch_removed(tmp_path):
    d = str(tmp_path / "toy")
    with Run(d, schema="rootbench.toy/1", prog="toy") as run:
        work = run.work
        assert os.path.isdir(work)
    s = summary_of(d)
    assert (s["schema"], s["experiment"], s["status"], s["error"]) == ("rootbench.toy/1", "toy", "ok", "")
    assert list(s) == ["schema", "experiment", "status", "error", "finished"]
    assert run.rc == 0 and not os.path.exists(work)


def test_the_summary_is_written_as_jq_prints_it(tmp_path):
    d = str(tmp_path / "toy")
    with Run(d, summary=lambda st, err: {"status": st, "n": 3, "x": 0.5, "l": [], "o": {"a": [1]}}):
        pass
    with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
        assert f.read() == '{\n  "status": "ok",\n  "n": 3,\n  "x": 0.5,\n  "l": [],\n  "o": {\n    "a": [\n      1\n    ]\n  }\n}\n'


def test_a_run_error_fails_with_its_message_and_exit_1(tmp_path):
    d = str(tmp_path / "toy")
    with pytest.raises(SystemExit) as e:
        with Run(d, schema="s/1", prog="toy"):
            raise RunError("point 3 could not be measured")
    assert e.value.code == 1
    s = summary_of(d)
    assert (s["status"], s["error"]) == ("failed", "point 3 could not be measured")


def test_an_unexpected_exception_fails_naming_it(tmp_path):
    d = str(tmp_path / "toy")
    with pytest.raises(SystemExit) as e:
        with Run(d):
            raise ValueError("bad point")
    assert e.value.code == 1
    assert summary_of(d)["error"] == "ValueError: bad point"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_itself_stops_at_once_interrupted_with_what_was_measured(tmp_path, sig):
    d = str(tmp_path / "toy")
    points = []
    with pytest.raises(SystemExit) as e:
        with Run(d, summary=lambda st, err: {"status": st, "error": err, "points": len(points)}):
            for i in range(10):
                if i == 3:
                    os.kill(os.getpid(), sig)
                points.append(i)
    assert e.value.code == 130
    s = summary_of(d)
    assert (s["status"], s["points"]) == ("interrupted", 3)
    assert "interrupted before" in s["error"]
    # the handlers are the test's again
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_with_on_signal_flag_the_experiment_stops_at_its_next_point(tmp_path):
    d = str(tmp_path / "toy")
    points = []
    with pytest.raises(SystemExit) as e:
        with Run(d, on_signal="flag", summary=lambda st, err: {"status": st, "points": len(points)}) as run:
            for i in range(10):
                run.check()
                points.append(i)
                if i == 1:
                    os.kill(os.getpid(), signal.SIGTERM)
                    assert run.interrupted   # not raised: the point finishes
                    points.append("rest of point 1")
    assert e.value.code == 130
    assert summary_of(d) == {"status": "interrupted", "points": 3}


def test_control_no_signal_no_interruption(tmp_path):
    d = str(tmp_path / "toy")
    with Run(d, on_signal="flag") as run:
        for _ in range(3):
            run.check()
    assert not run.interrupted and summary_of(d)["status"] == "ok"


def test_finish_writes_the_summary_once_and_refuses_an_unknown_status(tmp_path):
    d = str(tmp_path / "toy")
    calls = []
    with Run(d, summary=lambda st, err: calls.append(st) or {"status": st}) as run:
        with pytest.raises(RunError, match="status 'done' is not ok, interrupted or failed"):
            run.finish("done")
        run.finish("ok")
    assert calls == ["ok"]


def test_a_failing_summary_leaves_the_status_alone(tmp_path):
    d = str(tmp_path / "toy")

    def broken(st, err):
        raise KeyError("counted")
    with pytest.raises(SystemExit):
        with Run(d, schema="s/1", summary=broken):
            raise RunError("died")
    s = summary_of(d)
    assert (s["schema"], s["status"], s["error"]) == ("s/1", "failed", "died")


def test_a_second_run_on_the_directory_refuses_naming_the_lock(tmp_path):
    d = str(tmp_path / "toy")
    with Run(d, summary=lambda st, err: {"status": st, "first": True}):
        with pytest.raises(RunError, match="is being written by another run .*another RB_RUN"):
            with Run(d, summary=lambda st, err: {"status": st, "second": True}):
                pass
        # control: another directory runs
        with Run(str(tmp_path / "other")):
            pass
    # the second changed nothing: the first's summary
    assert summary_of(d) == {"status": "ok", "first": True}
    # released at the end: a third run takes it
    with Run(d):
        pass


BASH_LOCK = """
set -euo pipefail
. "$RB_TOP/scripts/lib/common.sh"
. "$RB_TOP/scripts/lib/lifecycle.sh"
run_lock "$1"
echo locked
while [ -e "$2" ]; do sleep 0.05; done
"""


def test_a_bash_run_lock_and_a_python_run_exclude_each_other(tmp_path):
    d = str(tmp_path / "toy")
    hold = tmp_path / "hold"
    hold.touch()
    env = dict(os.environ, RB_TOP=TOP)
    p = subprocess.Popen(["bash", "-c", BASH_LOCK, "_", d, str(hold)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "locked"
        with pytest.raises(RunError, match="being written by another run"):
            with Run(d):
                pass
    finally:
        hold.unlink()
        p.wait(10)
    # once bash's run ended (its lock holder within a second), Python's runs
    deadline = time.monotonic() + 3
    while True:
        try:
            with Run(d) as run:
                # and bash's run_lock refuses while Python holds it
                b = subprocess.run(["bash", "-c", BASH_LOCK, "_", d, "/nonexistent"], capture_output=True, text=True, env=env)
                assert b.returncode == 1
                assert "is being written by another run" in b.stderr
            break
        except RunError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    assert run.rc == 0
    # control: with no run holding it, bash's run_lock takes it
    b = subprocess.run(["bash", "-c", BASH_LOCK, "_", d, "/nonexistent"], capture_output=True, text=True, env=env)
    assert b.returncode == 0 and b.stdout.strip() == "locked"


def test_children_are_stopped_and_cleanups_run_at_the_end(tmp_path):
    d = str(tmp_path / "toy")
    done = []
    with pytest.raises(SystemExit):
        with Run(d) as run:
            child = run.spawn(["sleep", "60"])
            run.at_end(lambda: done.append("sampler stopped"))
            raise Interrupted("test")
    assert child.returncode == -signal.SIGTERM
    assert done == ["sampler stopped"]


class FakeTestbed:
    def __init__(self):
        self.released = 0

    def release(self):
        self.released += 1


def test_the_testbed_is_released_at_the_end_also_when_failed(tmp_path):
    tb = FakeTestbed()
    with pytest.raises(SystemExit):
        with Run(str(tmp_path / "toy"), testbed=tb):
            raise RunError("x")
    assert tb.released == 1


def test_run_dir_points_latest_at_a_run_under_results(tmp_path):
    env = {"RB_RESULTS": str(tmp_path / "results")}
    d = lifecycle.experiment_dir("toy", env)
    assert os.path.isdir(d) and env["RB_RUN"] == os.path.dirname(d)
    assert os.readlink(tmp_path / "results" / "latest") == os.path.basename(env["RB_RUN"])
    # control: a run elsewhere moves no latest
    env2 = {"RB_RESULTS": str(tmp_path / "results"), "RB_RUN": str(tmp_path / "elsewhere")}
    lifecycle.run_dir(env2)
    assert os.readlink(tmp_path / "results" / "latest") == os.path.basename(env["RB_RUN"])


def test_a_child_in_a_group_of_its_own_is_stopped_with_its_children(tmp_path):
    d = str(tmp_path / "toy")
    pidfile = tmp_path / "grandchild"
    with Run(d) as run:
        run.spawn(["sh", "-c", 'sleep 60 & echo $! > "$1"; wait', "_", str(pidfile)], group=True)
        deadline = time.monotonic() + 5
        while not pidfile.exists() or not pidfile.read_text().strip():
            assert time.monotonic() < deadline
            time.sleep(0.02)
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 2
    while True:
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        # a zombie of init is gone as far as the test cares
        with open("/proc/%d/stat" % grandchild) as f:
            if f.read().split(") ")[1].startswith("Z"):
                break
        assert time.monotonic() < deadline, "the group's sleep still runs"
        time.sleep(0.05)


def test_the_status_summary_is_byte_for_byte_results_mark_status(tmp_path):
    # The bare summary is written by both languages until every experiment
    # has moved: results.sh's results_mark_status and this module's.
    bash_dir, py_dir = tmp_path / "bash" / "lb", tmp_path / "py" / "lb"
    bash_dir.mkdir(parents=True)
    py_dir.mkdir(parents=True)
    err = 'point 2: "quoted", tab\there, ünïcode, \x7f'
    script = ('. "$RB_TOP/scripts/lib/common.sh"; . "$RB_TOP/scripts/lib/results.sh"; '
              'results_mark_status "$1" rootbench.lb/2 failed "$2"')
    subprocess.run(["bash", "-c", script, "_", str(bash_dir), err], check=True, env=dict(os.environ, RB_TOP=TOP, RB_RUN=str(tmp_path)))
    s = lifecycle.status_summary(str(py_dir), "rootbench.lb/2", "failed", err)
    with open(bash_dir / "summary.json", encoding="utf-8") as f:
        bash_text = f.read()
    s["finished"] = json.loads(bash_text)["finished"]   # the same second
    lifecycle.write_json(str(py_dir / "summary.json"), s)
    assert (py_dir / "summary.json").read_bytes() == (bash_dir / "summary.json").read_bytes()

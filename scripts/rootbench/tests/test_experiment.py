"""The driver (scripts/rootbench/experiment.py) on the toy experiment's
fixture folder and on folders made here: --help gives the module's text
and the settings; a bad value, an unknown argument, an unknown SCALE and
a folder without experiment.py are refused naming what is wrong (exit 1);
a run writes its summary; an experiment that dies fails with its message."""

import json
import os
import subprocess

from rootbench.lifecycle import project_top

TOP = project_top()
DRIVER = os.path.join(TOP, "scripts", "rootbench", "experiment.py")
TOY = os.path.join(TOP, "scripts", "tests", "toy-experiment")


def drive(folder, *args, **env):
    e = {k: v for k, v in os.environ.items() if k not in ("TOY_POINTS", "SCALE", "FAMILY")}
    e.update(env)
    return subprocess.run(["/usr/bin/python3", "-I", "-S", DRIVER, folder, *args], capture_output=True, text=True, env=e)


def test_help_is_the_module_text_and_its_settings():
    p = drive(TOY, "--help")
    assert p.returncode == 0
    assert p.stdout.startswith("run: the toy experiment (make toy)")
    assert "TOY_POINTS: points the toy counts" in p.stdout
    assert "an integer from 1 to 100; default: smoke 2, quick 3, paper 5" in p.stdout


def test_a_bad_value_is_refused_naming_the_setting(tmp_path):
    p = drive(TOY, TOY_POINTS="0", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 1
    assert p.stderr == "toy: error: TOY_POINTS=0: must be an integer from 1 to 100 (int)\n"
    assert not (tmp_path / "run").exists()   # nothing started


def test_an_unknown_argument_and_scale_are_refused(tmp_path):
    p = drive(TOY, "--points", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 1 and "unknown argument --points" in p.stderr
    p = drive(TOY, SCALE="huge", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 1 and "unknown SCALE=huge: use smoke, quick, paper" in p.stderr


def test_a_run_writes_its_summary_at_the_scale(tmp_path):
    p = drive(TOY, SCALE="smoke", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "run" / "toy" / "summary.json", encoding="utf-8") as f:
        s = json.load(f)
    assert (s["status"], s["settings"], s["counted"]) == ("ok", {"points": 2}, 2)
    assert "toy: counted 2 points" in p.stderr


def test_a_folder_without_experiment_py_is_refused(tmp_path):
    p = drive(str(tmp_path))
    assert p.returncode == 1 and "has no experiment.py" in p.stderr


def write_exp(folder, body):
    folder.mkdir()
    (folder / "experiment.py").write_text(body)
    return str(folder)


def test_an_experiment_that_dies_fails_with_its_message(tmp_path):
    d = write_exp(tmp_path / "dier", 'SCHEMA = "rootbench.dier/1"\n'
                  'def run(ctx):\n    ctx.die("point 2 could not be measured")\n')
    p = drive(d, RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 1
    assert "dier: error: point 2 could not be measured" in p.stderr
    with open(tmp_path / "run" / "dier" / "summary.json", encoding="utf-8") as f:
        s = json.load(f)
    assert (s["schema"], s["status"], s["error"]) == ("rootbench.dier/1", "failed", "point 2 could not be measured")


def test_family_both_runs_once_per_family(tmp_path):
    d = write_exp(tmp_path / "fam", 'SCHEMA = "rootbench.fam/1"\nFAMILY = True\n'
                  'def run(ctx):\n    ctx.log("family %s at %s" % (ctx.family.family, ctx.family.service))\n')
    p = drive(d, FAMILY="both", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 0, p.stderr
    assert "family 4 at 198.18.0.53" in p.stderr and "family 6 at 2001:2::53" in p.stderr
    assert (tmp_path / "run" / "fam" / "summary.json").exists()
    assert (tmp_path / "run" / "fam-v6" / "summary.json").exists()
    # control: a family that is no family refused
    p = drive(d, FAMILY="7", RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 1 and "FAMILY=7: must be 4, 6 or both" in p.stderr


def test_an_interrupted_experiment_exits_130(tmp_path):
    d = write_exp(tmp_path / "intr", 'import os, signal\nSCHEMA = "rootbench.intr/1"\n'
                  'def run(ctx):\n    os.kill(os.getpid(), signal.SIGINT)\n    ctx.die("not reached")\n')
    p = drive(d, RB_RUN=str(tmp_path / "run"))
    assert p.returncode == 130
    with open(tmp_path / "run" / "intr" / "summary.json", encoding="utf-8") as f:
        assert json.load(f)["status"] == "interrupted"


def test_a_signal_from_outside_stops_a_blocked_experiment_interrupted(tmp_path):
    import signal
    import time
    d = write_exp(tmp_path / "slow", 'import time\nSCHEMA = "rootbench.slow/1"\n'
                  'def run(ctx):\n    ctx.points = 1\n    open(ctx.dir + "/ready", "w").close()\n    time.sleep(30)\n'
                  'def summary(ctx, status, error):\n    return {"status": status, "points": getattr(ctx, "points", 0)}\n')
    e = dict(os.environ, RB_RUN=str(tmp_path / "run"))
    p = subprocess.Popen(["/usr/bin/python3", "-I", "-S", DRIVER, d], stderr=subprocess.PIPE, text=True, env=e)
    ready = tmp_path / "run" / "slow" / "ready"
    deadline = time.monotonic() + 10
    while not ready.exists():
        assert p.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=10)[1]
    assert p.returncode == 130 and time.monotonic() - t0 < 2
    assert "slow: interrupted: summary in" in err
    with open(tmp_path / "run" / "slow" / "summary.json", encoding="utf-8") as f:
        assert json.load(f) == {"status": "interrupted", "points": 1}

"""The driver's PROG: an experiment whose messages carry another name
than its results folder (lb-verify writes <run>/lb) is run with its
messages, its RB_PROG and its failed run's words under PROG, its
results under NAME; control: without PROG both are NAME."""

import os
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DRIVER = os.path.join(TOP, "scripts", "rootbench", "experiment.py")


def run_folder(tmp_path, prog_line):
    folder = tmp_path / "named"
    folder.mkdir()
    (folder / "experiment.py").write_text(
        '"""a fixture"""\nimport os\nSCHEMA = "rootbench.named/1"\nNAME = "named"\n' + prog_line
        + 'def run(ctx):\n    ctx.log("rb_prog " + os.environ["RB_PROG"])\n    ctx.die("stop here")\n')
    env = dict(os.environ, RB_RUN=str(tmp_path / "run"), RB_RESULTS=str(tmp_path))
    p = subprocess.run([sys.executable, "-I", "-S", DRIVER, str(folder)], capture_output=True, text=True, env=env)
    return p, tmp_path / "run"


def test_prog_names_the_messages_and_name_the_results(tmp_path):
    p, run = run_folder(tmp_path, 'PROG = "other-words"\n')
    assert p.returncode == 1
    assert "other-words: rb_prog other-words\n" in p.stderr
    assert "other-words: error: stop here\n" in p.stderr
    assert (run / "named" / "summary.json").is_file()


def test_control_without_prog_both_are_name(tmp_path):
    p, run = run_folder(tmp_path, "")
    assert "named: rb_prog named\n" in p.stderr
    assert "named: error: stop here\n" in p.stderr
    assert (run / "named" / "summary.json").is_file()

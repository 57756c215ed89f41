"""lifecycle: one run's life in Python, as scripts/lib/lifecycle.sh gives it
to the bash experiments (both hold until every experiment has moved).

  with Run(exp_dir, schema=..., prog=..., summary=fn, testbed=tb) as run:
      for point in points:
          run.check()              # Interrupted once SIGINT/SIGTERM came
          ...

What it holds, the same as lifecycle.sh:
- the results directory (created) belongs to the run until it ends: flock
  on the directory itself, as run_lock's flock(1) takes it, so a bash run
  and a Python run on one directory exclude each other; a second run
  waits up to 2 s, then refuses, naming the lock;
- SIGINT and SIGTERM set run.interrupted and (on_signal="raise", the
  default) raise Interrupted at once; with on_signal="flag" the experiment
  looks at run.interrupted or calls run.check() at its points;
- whatever ends the block, a summary is written: the experiment's
  (summary(status, error) -> dict) or, without one or when it fails, the
  status and error alone (results_mark_status's fields); status ok,
  interrupted or failed (RunError's message, or the exception's);
- the children started through run.spawn stopped (TERM, then KILL after
  5 s), the cleanups registered run in reverse order, scratch (run.work)
  removed, the testbed released when this run brought it up, the lock
  released; then SystemExit: 130 when interrupted, 1 when failed, none
  when ok.

No interrupt witness: bash can lose a trap's handler while it parses a
command substitution (lifecycle.sh explains it), so it needs a process to
witness the signal. Python runs its handler in the main thread between
bytecodes, always, so a signal is never lost and no extra process runs.
"""

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

from rootbench.jqtext import json_pretty

STATUSES = ("ok", "interrupted", "failed")
LOCK_WAIT_S = 2.0       # flock -w 2 of run_lock
CHILD_STOP_S = 5.0      # TERM, then KILL


class RunError(Exception):
    """A failure the run states (bash's die): its message goes to stderr
    as "PROG: error: MESSAGE" and into the failed summary."""


class Interrupted(Exception):
    """SIGINT or SIGTERM reached the run (run.check(), or raised at once)."""


def utc_stamp(t=None):
    """A run directory's name (utc_stamp of common.sh): 20261202T123000Z."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))


def utc_now():
    """The time as summaries record it (date -u +%FT%TZ)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def disk_note(path):
    """What a failed write of path means, with the space left (results_disk_note)."""
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return ""
    avail = st.f_bavail * st.f_frsize // 1024
    return " (%d KiB free on the results file system%s)" % (avail, ": disk full" if avail < 1024 else "")


def write_text(path, text):
    """path replaced atomically by text (results_write): a reader never
    sees half a file; a failed write removes its temporary file and raises
    RunError naming path and the cause; path keeps its earlier content."""
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise RunError("cannot write %s: %s%s" % (path, e.strerror or e, disk_note(path))) from e


def write_json(path, value):
    """path replaced atomically by value as `jq .` prints it (results_write_json)."""
    write_text(path, json_pretty(value) + "\n")


def status_summary(exp_dir, schema, status, error):
    """The summary of a status and a message only (results_mark_status)."""
    return {"schema": schema, "experiment": os.path.basename(os.path.normpath(exp_dir)),
            "status": status, "error": error, "finished": utc_now()}


def project_top():
    """The project's top: RB_TOP, else two folders above this package."""
    return os.environ.get("RB_TOP") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_dir(env=None, top=None):
    """The run directory (RB_RUN, else RB_RESULTS/<UTC stamp>, RB_RESULTS
    default <top>/results), created, exported in env (os.environ: the
    children of this run share it); results/latest points at it when it
    lies under RB_RESULTS (results_run_dir)."""
    env = os.environ if env is None else env
    results = env.get("RB_RESULTS") or os.path.join(top or project_top(), "results")
    run = env.get("RB_RUN") or os.path.join(results, utc_stamp())
    env["RB_RUN"] = run
    os.makedirs(run, exist_ok=True)
    try:
        os.makedirs(results, exist_ok=True)
        if os.path.realpath(os.path.dirname(os.path.abspath(run))) == os.path.realpath(results):
            latest = os.path.join(results, "latest")
            tmp = latest + ".tmp.%d" % os.getpid()
            os.symlink(os.path.basename(os.path.normpath(run)), tmp)
            os.replace(tmp, latest)
    except OSError:
        pass
    return run


def experiment_dir(name, env=None, top=None):
    """<run>/NAME, created (results_experiment_dir)."""
    d = os.path.join(run_dir(env, top), name)
    os.makedirs(d, exist_ok=True)
    return d


class Run:
    """One run of an experiment on exp_dir (see the module's text).

    exp_dir   the directory the summary goes to (created and locked)
    schema    the summary's schema (the bare status summary records it)
    prog      the name messages start with (RB_PROG)
    summary   summary(status, error) -> dict: the experiment's summary of
              what was measured ("" error when there is none)
    testbed   a rootbench.testbed.Testbed: released at the end (down when
              this run brought it up)
    on_signal "raise" (Interrupted at once) or "flag" (run.interrupted set;
              the experiment stops at its next point, run.check())
    scratch   make run.work, a scratch directory removed at the end

    Attributes: interrupted, status (once finished), rc (the exit status),
    work (scratch or None), dir (exp_dir)."""

    def __init__(self, exp_dir, schema="", prog=None, summary=None, testbed=None,
                 on_signal="raise", scratch=True, log=None):
        if on_signal not in ("raise", "flag"):
            raise ValueError("on_signal must be raise or flag, not %r" % on_signal)
        self.dir = exp_dir
        self.schema = schema
        self.prog = prog or os.environ.get("RB_PROG") or os.path.basename(sys.argv[0] or "run")
        self.summary = summary
        self.testbed = testbed
        self.on_signal = on_signal
        self.scratch = scratch
        self.interrupted = False
        self.status = None
        self.rc = None
        self.work = None
        self.children = []
        self.cleanups = []
        self._lock_fd = None
        self._old_handlers = {}
        self._log = log

    # messages, as common.sh's log, warn and die print them
    def log(self, msg):
        if self._log:
            self._log(msg)
        else:
            print("%s: %s" % (self.prog, msg), file=sys.stderr, flush=True)

    def warn(self, msg):
        self.log("warning: %s" % msg)

    # -------------------------------------------------------------- signals
    def _signal(self, signum, frame):
        self.interrupted = True
        if self.on_signal == "raise" and self.status is None:
            raise Interrupted(signal.Signals(signum).name)

    def check(self):
        """Raise Interrupted when the run was interrupted (the experiment's
        points call it between measurements)."""
        if self.interrupted:
            raise Interrupted("interrupted")

    # ----------------------------------------------------------------- lock
    def lock(self):
        """exp_dir (created) held by this run, as run_lock holds it: flock
        on the directory; RunError when another run holds it for 2 s."""
        try:
            os.makedirs(self.dir, exist_ok=True)
        except OSError as e:
            raise RunError("cannot create %s: %s" % (self.dir, e.strerror or e)) from e
        # O_CLOEXEC: the run's children inherit no lock (flock(1)'s holder is
        # a process of its own for the same reason)
        fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise RunError("%s is being written by another run (it holds the directory's lock); "
                                   "wait for it, or give another RB_RUN" % self.dir) from None
                time.sleep(0.05)
        self._lock_fd = fd

    def unlock(self):
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ------------------------------------------------------------- children
    def spawn(self, argv, group=False, **kwargs):
        """subprocess.Popen(argv, **kwargs), stopped at the end of the run
        (TERM, then KILL after 5 s) unless it ended before. group=True: in
        a process group of its own, the whole group signalled (a pipeline
        or a script with children of its own; Ctrl-C at the terminal then
        reaches the run only, which stops it)."""
        if group:
            kwargs["process_group"] = 0
        p = subprocess.Popen(argv, **kwargs)
        p.rb_group = group
        self.children.append(p)
        return p

    @staticmethod
    def _signal_child(p, sig):
        try:
            if getattr(p, "rb_group", False):
                os.killpg(p.pid, sig)
            else:
                p.send_signal(sig)
        except OSError:
            pass

    def at_end(self, fn):
        """fn() called at the end of the run (before the summary: stop what
        runs; the last registered first; its errors are warned, not raised)."""
        self.cleanups.append(fn)
        return fn

    def stop_children(self):
        """Every child of spawn stopped and waited for; the cleanups run
        (run_children_stop: harmless twice)."""
        while self.cleanups:
            fn = self.cleanups.pop()
            try:
                fn()
            except Exception as e:  # noqa: BLE001 (the end goes on)
                self.warn("stopping: %s" % e)
        for p in self.children:
            if p.poll() is None or getattr(p, "rb_group", False):
                self._signal_child(p, signal.SIGTERM)
        deadline = time.monotonic() + CHILD_STOP_S
        for p in self.children:
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._signal_child(p, signal.SIGKILL)
                p.wait()
        self.children = []

    # -------------------------------------------------------------- summary
    def finish(self, status, error=""):
        """The summary of STATUS (ok, interrupted, failed) written now
        (run_finish); the end of the block writes none after it."""
        if status not in STATUSES:
            raise RunError("finish: status '%s' is not ok, interrupted or failed" % status)
        self._write_summary(status, error, rescue=False)

    def _write_summary(self, status, error, rescue):
        value = None
        if self.summary is not None:
            try:
                value = self.summary(status, error)
            except Exception as e:  # noqa: BLE001
                if not rescue:
                    raise
                self.warn("the experiment's summary failed (%s); writing the status alone" % e)
        if value is None:
            value = status_summary(self.dir, self.schema, status, error)
        try:
            write_json(os.path.join(self.dir, "summary.json"), value)
        except RunError:
            if not rescue:
                raise
            write_json(os.path.join(self.dir, "summary.json"), status_summary(self.dir, self.schema, status, error))
        self.status = status

    # ------------------------------------------------------------ the block
    def __enter__(self):
        for s in (signal.SIGINT, signal.SIGTERM):
            self._old_handlers[s] = signal.signal(s, self._signal)
        try:
            self.lock()
            if self.scratch:
                self.work = tempfile.mkdtemp(prefix="rb-%s." % self.prog)
        except BaseException:
            self._restore_signals()
            self.unlock()
            raise
        return self

    def _restore_signals(self):
        for s, h in self._old_handlers.items():
            signal.signal(s, h)
        self._old_handlers = {}

    def __exit__(self, etype, exc, tb):
        # From here on a signal only sets the flag: the end must run whole.
        self.on_signal = "flag"
        error = ""
        if etype is not None and issubclass(etype, (Interrupted, KeyboardInterrupt)):
            self.interrupted = True
        elif etype is not None and issubclass(etype, SystemExit) and exc.code in (0, None) and not self.interrupted:
            etype = None
        elif etype is not None and not self.interrupted:
            if issubclass(etype, RunError):
                error = str(exc)
                self.log("error: %s" % error)
            elif issubclass(etype, SystemExit):
                error = "%s exited with status %s before it wrote its summary" % (self.prog, exc.code)
            else:
                error = "%s: %s" % (etype.__name__, exc)
                traceback.print_exception(etype, exc, tb)
        try:
            self.stop_children()
            if self.status is None:
                if self.interrupted:
                    self._write_summary("interrupted", "interrupted before %s wrote its summary" % self.prog, rescue=True)
                    self.log("interrupted: summary in %s/summary.json (status interrupted)" % self.dir)
                elif etype is not None:
                    self._write_summary("failed", error, rescue=True)
                    self.log("failed: summary in %s/summary.json (status failed)" % self.dir)
                else:
                    self._write_summary("ok", "", rescue=True)
        finally:
            if self.work:
                shutil.rmtree(self.work, ignore_errors=True)
            if self.testbed is not None:
                self.testbed.release()
            self.unlock()
            self._restore_signals()
        if self.interrupted or self.status == "interrupted":
            self.rc = 130
        elif etype is not None or self.status == "failed":
            self.rc = 1
        else:
            self.rc = 0
        if self.rc:
            raise SystemExit(self.rc)
        return False

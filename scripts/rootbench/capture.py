"""capture: packet captures (tcpdump) inside testbed roles, started before
an experiment sends and stopped cleanly after it, so that the pcap holds
every packet the kernel handed to the capture (scripts/lib/capture.sh's
rules, for the Python experiments; both hold until every experiment has
moved).

  c = Capture(run, testbed, "server1", "server1", "eth0", FILE, FILTER)
  c.start()        False (warned) when it did not start listening
  ...              the experiment sends
  c.stop()         False (warned) when the pcap is incomplete
  c.stats()        [captured, received, dropped] as tcpdump reported them

Through the testbed's command line (either backend): `testbed capture`
execs tcpdump in the role's namespace, pinned to its CPUs and in a session
of its own, so a Ctrl-C at the terminal does not end the capture before
the experiment has stopped sending; only stop() ends it (a capture that
ended by itself is reported as incomplete). stop() fails when tcpdump
captured fewer packets than its filter received or the kernel dropped
some. Its messages go to FILE.log.
"""

import os
import signal
import subprocess
import time

LISTEN_WAIT = (100, 0.1)    # 100 looks, 0.1 s apart, for "listening on"
STOP_WAIT = (100, 0.1)      # 10 s for tcpdump to close its file, then KILL


def log_stats(text):
    """[captured, received, dropped] as tcpdump's messages give them when
    it exited (the last of each), ["?", "?", "?"] when one is missing."""
    found = {}
    for line in text.split("\n"):
        for key, tail in (("c", "packets captured"), ("r", "packets received by filter"),
                          ("d", "packets dropped by kernel")):
            if line.endswith(tail) and line.split():
                found[key] = line.split()[0]
    if len(found) < 3:
        return ["?", "?", "?"]
    return [found["c"], found["r"], found["d"]]


def own_filter(testbed, role, iface, filt):
    """FILT, only the frames the role's stack sends or receives. A bridge
    floods a frame to every port while its forwarding entry for the
    destination MAC has aged out, so a capture on a server also sees the
    first frames meant for the other server (the kernel drops them; a
    capture without this would count them as having reached the wrong
    server)."""
    mac = testbed.text("mac", role, iface).strip()
    return "(%s) and ether host %s" % (filt, mac)


def ignore_sigint():
    # (in the child, before exec: a Ctrl-C reaches the experiment, not the
    # testbed's capture verb before it hands over to tcpdump's own session;
    # bash's background jobs have it ignored so)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Capture:
    """One capture (see the module's text). warn(msg) defaults to run.warn."""

    def __init__(self, run, testbed, name, role, iface, file, filt, snaplen=128, warn=None):
        self.run, self.testbed = run, testbed
        self.name, self.role, self.iface, self.file, self.filter = name, role, iface, file, filt
        self.snaplen = snaplen
        self.log = file + ".log"
        self.proc = None
        self.warn = warn or run.warn

    def log_text(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def start(self):
        """tcpdump started, and True once it listens (up to 10 s); False,
        warned, when it did not start."""
        if self.proc is not None:
            self.warn("capture %s is already running" % self.name)
            return False
        argv = self.testbed.argv("capture", self.role, self.iface, self.snaplen, self.file, self.filter)
        with open(self.log, "w", encoding="utf-8") as log:
            self.proc = self.run.spawn(argv, stdin=subprocess.DEVNULL, stderr=log, env=self.testbed.env,
                                       preexec_fn=ignore_sigint)
        looks, pause = LISTEN_WAIT
        for _ in range(looks):
            if any(line.startswith("tcpdump: listening on") for line in self.log_text().split("\n")):
                return True
            if self.proc.poll() is not None:
                break
            time.sleep(pause)
        self.warn("capture %s in %s did not start: %s" % (self.name, self.role, self.log_text().replace("\n", " ")))
        self.proc.kill()
        self.proc.wait()
        self.proc = None
        return False

    def stop(self):
        """SIGTERM, and its exit waited for (10 s, then SIGKILL); False,
        warned, when the pcap is incomplete. True when it never ran."""
        p, self.proc = self.proc, None
        if p is None:
            return True
        if p.poll() is not None:
            last = self.log_text().rstrip("\n").split("\n")[-1]
            self.warn("capture %s had ended before it was stopped: its pcap misses the end (%s)" % (self.name, last))
            return False
        p.send_signal(signal.SIGTERM)
        looks, pause = STOP_WAIT
        for _ in range(looks):
            if p.poll() is not None:
                break
            time.sleep(pause)
        if p.poll() is None:
            self.warn("capture %s did not stop within 10 s; killed, its pcap may be cut short" % self.name)
            p.kill()
            p.wait()
            return False
        captured, received, dropped = self.stats()
        if captured == "?":
            self.warn("capture %s: tcpdump left no statistics in %s" % (self.name, self.log))
            return False
        try:
            short = int(captured) < int(received) or int(dropped) > 0
        except ValueError:
            short = True
        if short:
            self.warn("capture %s incomplete: %s captured, %s received by filter, %s dropped by kernel"
                      % (self.name, captured, received, dropped))
            return False
        return True

    @property
    def running(self):
        return self.proc is not None

    def stats(self):
        """[captured, received, dropped] from tcpdump's exit (["?"] * 3 before)."""
        if not os.path.isfile(self.log):
            return ["?", "?", "?"]
        return log_stats(self.log_text())

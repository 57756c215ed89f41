"""rootbench.capture's reading of tcpdump's exit messages: the three
counts when all are there (the last of each), "?" for all three when one
is missing (an incomplete capture's log: the control); the own-frames
filter wraps the experiment's."""

from rootbench.capture import log_stats, own_filter

LOG = ("tcpdump: listening on eth0, link-type EN10MB (Ethernet), snapshot length 128 bytes\n"
       "279 packets captured\n279 packets received by filter\n0 packets dropped by kernel\n")


def test_the_three_counts_of_tcpdumps_exit():
    assert log_stats(LOG) == ["279", "279", "0"]
    assert log_stats(LOG + "300 packets captured\n") == ["300", "279", "0"]


def test_control_a_log_without_every_count_gives_none():
    assert log_stats(LOG.replace("0 packets dropped by kernel\n", "")) == ["?", "?", "?"]
    assert log_stats("") == ["?", "?", "?"]
    # the count must end its line, as tcpdump writes it
    assert log_stats(LOG.replace("by kernel", "by kernel (x)")) == ["?", "?", "?"]


class FakeTestbed:
    def text(self, verb, *args):
        assert (verb, args) == ("mac", ("server1", "eth0"))
        return "02:00:00:00:02:11\n"


def test_own_filter_keeps_the_roles_frames_only():
    assert own_filter(FakeTestbed(), "server1", "eth0", "tcp port 53") == \
        "(tcp port 53) and ether host 02:00:00:00:02:11"

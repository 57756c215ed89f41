"""The configuration of the daemon under callgrind: server1's own, moved
to server1's own address and port 5300 with its state in scratch, so that
it runs beside the testbed's daemon; the service address and port 53 are
never in it (the negative control: the testbed's own lines)."""

from rootbench.experiment import sibling

exp = sibling(__file__, "../experiment")

NSD = """server:
    ip-address: 198.18.0.53
    ip-address: 2001:2::53
    ip-address: 198.18.2.11
    ip-address: 2001:2:0:2::11
    port: 53
    pidfile: "/run/rootbench/cb/server1/server.pid"
remote-control:
    control-enable: yes
    control-interface: "/run/rootbench/cb/server1/nsd.ctl"
"""

KNOT = """server:
    rundir: "/run/rootbench/cb/server1"
    listen: [ 198.18.0.53@53, 2001:2::53@53, 198.18.2.11@53, 2001:2:0:2::11@53 ]
control:
    listen: "/run/rootbench/cb/server1/knot.sock"
"""


def test_nsd_listens_on_server1s_address_and_port_5300_only():
    out = exp.callgrind_conf("nsd", NSD, "/run/rootbench/cb/server1", "/w", "198.18.2.11")
    assert [l.strip() for l in out.splitlines() if "ip-address" in l] == ["ip-address: 198.18.2.11"]
    assert "port: 5300" in out and "port: 53\n" not in out
    assert "control-enable: no" in out
    assert "/run/rootbench" not in out and 'pidfile: "/w/server.pid"' in out
    assert "198.18.2.11" in NSD and "198.18.0.53" in NSD     # the control: the input had them all


def test_knot_listens_on_server1s_address_and_port_5300_only():
    out = exp.callgrind_conf("knot", KNOT, "/run/rootbench/cb/server1", "/w", "198.18.2.11")
    assert "listen: [ 198.18.2.11@5300 ]" in out
    assert "@53," not in out and "198.18.0.53" not in out
    assert 'listen: "/w/knot.sock"' in out and "/run/rootbench" not in out


def test_the_daemons_run_in_the_foreground():
    assert exp.callgrind_daemon_argv("nsd", "/n", "/c") == ["/n", "-d", "-c", "/c"]
    assert exp.callgrind_daemon_argv("knot", "/k", "/c") == ["/k", "-c", "/c"]

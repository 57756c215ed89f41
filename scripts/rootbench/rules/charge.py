"""charge -- the rig's work on the server CPU (scripts/lib/charge.sh
measures it at every point with perf): the share above which a figure is
not the server's own, and the caveat in words. The UDP and TCP rules both
call it; nothing else restates it.
(From scripts/lib/charge.jq; test_rules_charge.py checks they agree.)"""

from rootbench.jqtext import to_text
from rootbench.rules.jqlib import each, get, gt, is_number, jmax, jround, le, length, plus, setpath
from rootbench.rules.spread import repeat_spread


def rig_share_limit():
    """The rig's share of the server CPU's busy time above which the figure
    measured there includes the rig's work (the switch's bridge, the
    router's forwarding) and is not the server's own."""
    return 0.05


def rig_pct(share):
    """A share as a percent, one decimal."""
    return jround(share * 1000) / 10


def receive_on_server_cpu(steer):
    """Whether the servers' kernel receive path ran on the servers' CPUs
    under receive steering steer, so that their busy share is the daemon
    and its receive: rps (RPS to the servers' CPUs) and napi (a receive
    thread pinned there); not none or rig (on the sending CPU, the
    switch's)."""
    return steer == "rps" or steer == "napi"


def rig_charge(shares):
    """The rig shares (numbers; null or "" for a point not measured) of
    the points that set a figure -> {points, measured_points, max, median,
    limit, own (null: not measured), caveat (null: none)}."""
    r = [s for s in each(shares) if is_number(s)]
    n = len(r)
    top = jmax(r)
    limit = rig_share_limit()
    if n == 0:
        caveat = ("the rig's share of the server CPU was not measured (CPU_CHARGE=off, or no perf): "
                  "the figure may include the rig's forwarding")
    elif gt(top, limit):
        caveat = ("the rig's forwarding (bridge, router) took up to %s %% of the server CPU's busy time there "
                  "(over %s %%): the figure includes the rig's work and is not the server's own"
                  % (to_text(rig_pct(top)), to_text(rig_pct(limit))))
    else:
        caveat = None
    return {"points": length(shares), "measured_points": n, "max": top, "median": repeat_spread(r)["median"],
            "limit": limit, "own": None if n == 0 else le(top, limit), "caveat": caveat}


def with_charge(verdict, charge):
    """A verdict the server owns (caused_by "server") gets server_own, and
    the caveat in its summary when the figure is not the server's own (or
    the charge was not measured)."""
    if verdict is not None and get(verdict, "caused_by") == "server" and get(charge, "caveat") is not None:
        v = setpath(verdict, "summary", plus(get(verdict, "summary"), plus("; ", get(charge, "caveat"))))
        return setpath(v, "server_own", get(charge, "own") is True)
    if verdict is not None and get(verdict, "caused_by") == "server":
        return setpath(verdict, "server_own", True)
    return verdict

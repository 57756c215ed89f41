"""budget: the servers' CPU budget throttling between two snapshots of
`scripts/testbed cpu-budget-stat` ({"server1": {periods,
throttled_periods, throttled_us}, ...}), for every experiment that runs
its servers under a budget (SERVER_CPU).
(From scripts/lib/budget.jq; test_rules_budget.py checks they agree.)"""

from rootbench.rules.jqlib import add, div, each, get, gt, jround, keys, minus, setpath


def throttle_mean(t):
    """The throttle figures t with mean_pause_us: throttled_us per
    throttled period, rounded; 0 when none was throttled."""
    tp = get(t, "throttled_periods")
    return setpath(t, "mean_pause_us", jround(div(get(t, "throttled_us"), tp)) if gt(tp, 0) else 0)


def throttle_add(ts):
    """The sum of throttle figures (nulls skipped; null if none)."""
    ts = [t for t in each(ts) if t is not None]
    if not ts:
        return None
    return throttle_mean({"periods": add([get(t, "periods") for t in ts]),
                          "throttled_periods": add([get(t, "throttled_periods") for t in ts]),
                          "throttled_us": add([get(t, "throttled_us") for t in ts])})


def throttle_delta(a, b):
    """How often and how long the budget held the servers back from
    snapshot a to b, all servers together; null when no server had a
    budget cgroup in both."""
    if a is None or b is None:
        return None
    deltas = []
    for r in keys(b):
        ar, br = get(a, r), get(b, r)
        if ar is not None and br is not None:
            deltas.append({k: minus(get(br, k), get(ar, k)) for k in ("periods", "throttled_periods", "throttled_us")})
    return throttle_add(deltas)

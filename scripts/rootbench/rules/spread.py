"""spread -- one figure measured several times: min, median and max, and
whether it moved more than 5 % from the median (flagged, never averaged
away). Used by the TCP rules (a knee over repetitions) and by the
comparison of servers (every figure over repetitions).
(From scripts/lib/spread.jq; test_rules_spread.py checks they agree.)"""

from rootbench.rules.jqlib import div, each, gt, jfloor, jround, jsort, minus, times


def repeat_spread(values):
    """An array of numbers (nulls, e.g. a knee not reached, are left out)
    -> {n, values, min, median, max, spread_pct, flagged}; the median of an
    even count is the upper of the two middle values."""
    k = jsort([v for v in each(values) if v is not None])
    if not k:
        return {"n": 0, "min": None, "median": None, "max": None, "spread_pct": None, "flagged": False}
    m = k[int(jfloor(len(k) / 2))]
    positive = gt(m, 0)
    return {"n": len(k), "values": k, "min": k[0], "median": m, "max": k[-1],
            "spread_pct": jround(div(times(minus(k[-1], k[0]), 1000), m)) / 10 if positive else None,
            "flagged": positive and (gt(minus(k[-1], m), times(0.05, m)) or gt(minus(m, k[0]), times(0.05, m)))}

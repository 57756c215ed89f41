"""projection -- a capacity projected from measurements below it, and the
rule that decides whether it may be quoted: the utilisation law's service
demand (the least-squares slope of the server CPU's busy time against the
handled rate) and the judgment of any projected figure (a service
demand's, a CPU budget's) against the figure measured directly. Used by
the TCP sweep's per-CPU figure and reconciliation (tcpbench/sweep/rules.jq,
reconcile.jq) and the UDP budget validation
(udpreplay/budget-validation/rules.jq). Pure.
(From scripts/lib/projection.jq; test_rules_projection.py checks they agree.)"""

from rootbench.jqtext import to_text
from rootbench.rules.jqlib import (add, alt, div, each, get, gt, jround, length, lt, le, minus, plus,
                                   times, unique)


def utilisation_fit(points):
    """Points [{x: rate/s, y: CPU us per s}] -> the least-squares line
    y = fixed + x * demand: {method: "slope", demand_us, fixed_us_per_s}
    from two or more rates; from one, the ratio y / x (method "ratio",
    fixed unknown); nulls from none, or when the slope is not positive
    (the busy share did not grow with the load)."""
    n = length(points)
    if n == 0:
        return {"method": None, "demand_us": None, "fixed_us_per_s": None}
    ps = each(points)
    if len(unique([get(p, "x") for p in ps])) < 2:
        ratios = [div(get(p, "y"), get(p, "x")) for p in ps]
        return {"method": "ratio", "demand_us": div(add(ratios), length(ratios)), "fixed_us_per_s": None}
    mx = div(add([get(p, "x") for p in ps]), n)
    my = div(add([get(p, "y") for p in ps]), n)
    sxy = add([times(minus(get(p, "x"), mx), minus(get(p, "y"), my)) for p in ps])
    sxx = add([times(minus(get(p, "x"), mx), minus(get(p, "x"), mx)) for p in ps])
    b = div(sxy, sxx)
    if gt(b, 0):
        return {"method": "slope", "demand_us": b, "fixed_us_per_s": minus(my, times(b, mx))}
    return {"method": "slope", "demand_us": None, "fixed_us_per_s": None}


def agreement_limit():
    """How close a projection must lie to the direct figure to be quoted
    (docs/methodology.md, "the methods reconciled")."""
    return 0.15


def judge(m, d):
    """One method's figure (m: {figure, why, ...}) against the direct
    figure d ({rate, kind}): m with ratio, agrees and verdict."""
    if get(m, "figure") is None:
        return plus(m, {"ratio": None, "agrees": None, "verdict": "no figure: %s" % to_text(alt(get(m, "why"), "none"))})
    if get(d, "rate") is None:
        return plus(m, {"ratio": None, "agrees": None, "verdict": "no direct figure to judge it by"})
    r = jround(times(div(get(m, "figure"), get(d, "rate")), 1000)) / 1000
    limit = agreement_limit()
    if get(d, "kind") == "knee":
        ok = le(abs(r - 1), limit)
        verdict = ("agrees with the direct knee within %s %%: may be quoted" % to_text(limit * 100) if ok
                   else "disagrees with the direct knee (ratio %s): not to be quoted" % to_text(r))
        return plus(m, {"ratio": r, "agrees": ok, "verdict": verdict})
    if lt(r, 1 - limit):
        return plus(m, {"ratio": r, "agrees": False, "verdict":
                        "below what the server was measured to handle directly (ratio %s to the bound): not to be quoted"
                        % to_text(r)})
    return plus(m, {"ratio": r, "agrees": None, "verdict":
                    "not contradicted by the direct bound (ratio %s), and not validated: the rig gave out before the server"
                    % to_text(r)})

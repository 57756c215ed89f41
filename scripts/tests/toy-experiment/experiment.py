"""run: the toy experiment (make toy): counts TOY_POINTS points, sends
nothing, and writes <run>/toy/summary.json as every experiment does
(the lifecycle of scripts/rootbench/lifecycle.py, its settings from
settings.json beside it)."""

from rootbench.experiment import sibling

SCHEMA = sibling(__file__, "rules").SCHEMA

NAME = "toy"


def run(ctx):
    """Count TOY_POINTS points, one a step, stopping when interrupted."""
    ctx.counted = 0
    while ctx.counted < ctx.int("TOY_POINTS"):
        ctx.check()
        ctx.counted += 1
    ctx.log("counted %d points" % ctx.counted)


def summary(ctx, status, error):
    """The summary of what was counted (also when interrupted or failed)."""
    s = {"schema": SCHEMA, "experiment": "toy", "status": status,
         "settings": ctx.settings_summary(), "counted": getattr(ctx, "counted", 0)}
    if error:
        s["error"] = error
    return s

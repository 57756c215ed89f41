"""host-speed -- the host's speed over an experiment made of parts (DoT's
sweeps, the budget validation's runs, the TCP limits' combinations, the
comparison's benches and DoT runs), each of which times the host at its
own start and end (host_speed: scripts/lib/experiment.sh exp_host_speed):
such an experiment brings no testbed up of its own, so it times nothing
itself and records its parts' earliest start and latest end.
(From scripts/lib/host-speed.jq; test_rules_host_speed.py checks they agree.)"""

from rootbench.rules.jqlib import each, get, max_by, min_by


def host_speed_span(parts):
    """An array of the parts' records (summary.json or bench.json; null
    for a missing one) -> {start, end}: the start timed first and the end
    timed last (by their "at", UTC), null where no part timed one (a lab:
    exp_host_speed gives null there)."""
    h = [p["host_speed"] for p in each(parts) if isinstance(p, dict) and isinstance(p.get("host_speed"), dict)]
    starts = [x["start"] for x in h if isinstance(x.get("start"), dict)]
    ends = [x["end"] for x in h if isinstance(x.get("end"), dict)]
    return {"start": min_by(starts, lambda s: get(s, "at")), "end": max_by(ends, lambda e: get(e, "at"))}

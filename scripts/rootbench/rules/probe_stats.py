"""probe-stats -- the compact per-protocol statistics a sweep's summary
carries for one probe run (rbprobe's JSON, schema rootbench.probe/1,
docs/probe.md): per protocol the counts by outcome, availability and
correctness (null when nothing was sent or answered, as rbprobe writes
them) and the latency percentiles in ms (null when nothing was answered).
(From scripts/lib/probe-stats.jq; test_rules_probe_stats.py checks they agree.)"""

from rootbench.jqtext import to_text
from rootbench.rules.jqlib import JqError, alt, get, get_opt, type_name


def probe_result_schema():
    """The schema of rbprobe's JSON."""
    return "rootbench.probe/1"


def probe_raw_checked(r):
    """rbprobe's result (input; null stays null), or an error naming the
    schema it has."""
    if r is None:
        return None
    if type_name(r) == "object" and r.get("schema") == probe_result_schema():
        return r
    raise JqError("a probe result of schema %s was expected; this one's schema is %s"
                  % (probe_result_schema(), to_text(alt(get_opt(r, "schema"), type_name(r)))))


def probe_stats_protocol(p):
    """One protocol's object of rbprobe's JSON (input) as STATS."""
    lat = get(p, "latency_ms")
    return {"sent": get(p, "sent"), "answered": get(p, "answered"), "timeouts": get(p, "timeouts"),
            "incorrect": get(p, "incorrect"), "errors": get(p, "errors"), "availability": get(p, "availability"),
            "correct_fraction": get(p, "correct_fraction"),
            "p50_ms": get(lat, "p50"), "p90_ms": get(lat, "p90"), "p99_ms": get(lat, "p99"),
            "p999_ms": get(lat, "p999"), "max_ms": get(lat, "max")}


def probe_stats(r):
    """rbprobe's JSON (input) as {"udp": STATS, "tcp": STATS}; an error for
    anything else."""
    if r is None:
        raise JqError("not an rbprobe result: null")
    r = probe_raw_checked(r)
    return {"udp": probe_stats_protocol(get(r, "udp")), "tcp": probe_stats_protocol(get(r, "tcp"))}

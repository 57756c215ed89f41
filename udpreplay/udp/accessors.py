"""accessors: how another experiment's Python reads a UDP summary (the
sizing matrix's server ceiling): only through these, which check the
schema, as the jq consumers read it through rules.jq's udp_* accessors
(tests/test_accessors.py checks the two agree on the fixture and fail
alike on another schema). A consumer older than the summary stops, naming
both schemas, instead of reading a field that moved."""

from rootbench.jqtext import to_text

UDP_SCHEMA = "rootbench.udp/1"


class SchemaError(ValueError):
    """A summary of another schema than the one these accessors read."""


def _alt(v):
    return None if v is False else v


def udp_summary_checked(s):
    if isinstance(s, dict) and s.get("schema") == UDP_SCHEMA:
        return s
    theirs = to_text(_alt(s.get("schema")) or "none") if isinstance(s, dict) else "none: not a summary"
    raise SchemaError("a UDP summary of schema %s (udpreplay/udp/rules.jq) was expected; this one's schema is %s: "
                      "read it with the rules of its version" % (UDP_SCHEMA, theirs))


def _field(s, name):
    return _alt(udp_summary_checked(s).get(name))


def udp_ceiling_qps(s):
    """The ceiling: answered queries/s."""
    return _field(s, "ceiling_qps")


def udp_ceiling_low_qps(s):
    """The sent rate held below the ceiling."""
    return _field(s, "ceiling_low_qps")


def udp_ceiling_high_qps(s):
    """The sent rate that first failed."""
    return _field(s, "ceiling_high_qps")


def udp_ceiling_text(s):
    """The ceiling in words."""
    return _field(s, "ceiling")


def udp_verdict(s):
    """What stopped it ({summary, layer, caused_by, server_own, ...})."""
    return _field(s, "verdict")


def udp_testbed(s):
    """The copy of the testbed the sweep ran on."""
    return _field(s, "testbed")

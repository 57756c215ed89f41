"""rootbench.rules.wire gives what scripts/lib/wire.jq gives (the testbed's
tbf overhead, scripts/tests/13-testbed-link.test, reads the jq's)."""

import functools

from rootbench.rules import wire
from rootbench.tests.jqagree import Case, python_text, run_jq, assert_agree

CASES = [Case("ethernet-header", "ethernet_header_bytes", lambda _: wire.ethernet_header_bytes(), None),
         Case("frame-overhead", "frame_overhead_bytes", lambda _: wire.frame_overhead_bytes(), None)]


@functools.lru_cache()
def jq():
    return run_jq("wire", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_control_a_changed_constant_is_seen():
    assert python_text(Case("frame-overhead", "frame_overhead_bytes", lambda _: 20, None)) != jq()["frame-overhead"]

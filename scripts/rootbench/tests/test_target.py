"""The target guard admits the testbed's addresses and refuses any other,
naming it; a generator's destination and source both pass through it."""

import os

import pytest

from rootbench import target
from rootbench.lifecycle import RunError

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HAVE = os.access(os.path.join(TOP, "analysis", "target-check"), os.X_OK)


@pytest.mark.skipif(not HAVE, reason="analysis/target-check not built")
def test_the_testbed_s_addresses_pass():
    target.guard(TOP, ["198.18.0.53", "198.18.1.11", "2001:2::53", "127.0.0.1"], allow="")


@pytest.mark.skipif(not HAVE, reason="analysis/target-check not built")
def test_control_a_foreign_destination_is_refused_by_name():
    with pytest.raises(RunError, match="8.8.8.8"):
        target.guard(TOP, ["198.18.0.53", "8.8.8.8"], allow="")


def test_control_no_address_is_refused():
    with pytest.raises(RunError, match="no address"):
        target.guard(TOP, ["", None], allow="")

"""The toy's rules: its accessor reads the points of a toy summary and
refuses a summary of another schema (the negative control)."""

import pytest

from rootbench.experiment import sibling

rules = sibling(__file__, "../rules")


def test_accessor_reads_the_points_counted():
    assert rules.toy_counted({"schema": "rootbench.toy/1", "counted": 3}) == 3


def test_accessor_refuses_another_schema_naming_both():
    with pytest.raises(rules.SchemaError, match="rootbench.toy/1 was expected; this one's schema is rootbench.toy/2"):
        rules.toy_counted({"schema": "rootbench.toy/2", "counted": 3})

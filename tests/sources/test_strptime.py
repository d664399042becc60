"""Checking a strptime pattern once, when the mapping is read."""

from __future__ import annotations

import pytest

from onrecord.sources.strptime import format_problem


@pytest.mark.parametrize("fmt", ["%m/%d/%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S%z",
                                 "%d %b %Y %T", "%-d/%-m/%Y", "%j %Y", "%H%M%S"])
def test_patterns_that_read(fmt):
    assert format_problem(fmt) is None


@pytest.mark.parametrize("fmt, says", [("%Y-%m-%d %Q", "%Q"), ("%H:%M %", "lone %"), ("YYYY-MM-DD", "no %"),
                                       ("%S.%f.%f", "twice")])
def test_patterns_that_do_not(fmt, says):
    assert says in format_problem(fmt)


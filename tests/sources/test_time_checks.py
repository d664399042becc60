"""The checks on written times: days a month lacks, plausible years, DST gaps and overlaps."""

from __future__ import annotations

from datetime import datetime, timezone

import pyarrow as pa
import pytest

from onrecord.sources.time_checks import TimeRules, day_pattern, localise, years_outside
from onrecord.sources.times import read_times


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp() * 1000)


@pytest.mark.parametrize("fmt, written, impossible", [
    ("%m%d%Y %H%M%S", ["02302019 100000", "02282019 100000", "04312019 235959"], [True, False, True]),  # glued
    ("%Y-%m-%d", ["2019-02-29", "2020-02-29", "2019-06-31"], [True, False, True]),
    ("%d.%m.%Y %H:%M", ["31.04.2019 10:00", "30.04.2019 10:00", "1.5.2019 10:00"], [True, False, False]),
    ("%b %d %Y", ["Feb 30 2019", "Feb 28 2019", "Mar 1 2019"], [True, False, False]),
    ("%m/%d/%Y %H:%M:%S%z", ["02/30/2019 10:00:00+0100", "03/01/2019 00:30:00+0100", "12/31/2019 23:00:00-0500"],
     [True, False, False]),
])
def test_a_day_the_month_lacks_is_found_in_any_pattern(fmt, written, impossible):
    reading = read_times(pa.array(written), fmt, "UTC")
    assert reading.impossible.tolist() == impossible
    assert all(v is not None for v in reading.utc_ms.to_pylist())  # pyarrow read them (moved), hence the check


def test_a_pattern_without_a_day_of_the_month_is_not_checked_for_one():
    assert day_pattern("%H:%M:%S") is None and day_pattern("%Y-%j") is None
    assert day_pattern("%m/%d/%Y") is not None


def test_years_outside_the_range_are_found_at_both_ends():
    lo = pa.array([ms("1899-12-31T23:59:59"), ms("1900-01-01T00:00:00"), ms("2100-12-31T23:59:59"),
                   ms("2101-01-01T00:00:00"), None], pa.int64())
    assert years_outside(lo, (1900, 2100)).tolist() == [True, False, False, True, False]


def test_gap_and_overlap_are_told_apart_and_read_by_the_rules():
    naive = pa.array([datetime(2019, 3, 10, 2, 30), datetime(2019, 11, 3, 1, 30), datetime(2019, 7, 1, 12)],
                     pa.timestamp("ms"))
    got = localise(naive, "America/Chicago", TimeRules())
    assert got.gap.tolist() == [True, False, False] and got.overlap.tolist() == [False, True, False]
    assert got.utc_ms.to_pylist()[1:] == [ms("2019-11-03T06:30:00"), ms("2019-07-01T17:00:00")]
    old = localise(naive, "America/Chicago", TimeRules(dst_gap="old_offset", dst_overlap="later"))
    assert old.utc_ms.to_pylist()[:2] == [ms("2019-03-10T08:30:00"), ms("2019-11-03T07:30:00")]
    new = localise(naive, "America/Chicago", TimeRules(dst_gap="new_offset"))
    assert new.utc_ms.to_pylist()[0] == ms("2019-03-10T07:30:00")

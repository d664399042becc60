"""Written times into UTC ms: strptime with %f and %z, epoch seconds and ms, day-first dates."""

from __future__ import annotations

from datetime import datetime, timezone

import pyarrow as pa
import pytest

from onrecord.sources.times import parse_times


def ms(text: str) -> int:
    t = datetime.fromisoformat(text)
    return int((t if t.tzinfo else t.replace(tzinfo=timezone.utc)).timestamp() * 1000)


def read(values: list, fmt: str, tz: str | None = "UTC") -> list:
    return parse_times(pa.array(values, pa.string()), fmt, tz).to_pylist()


def test_fraction_of_a_second_with_f_is_read_to_the_millisecond():
    got = read(["2026-03-14 09:30:05.123", "2026-03-14 09:30:05.5", "2026-03-14 09:30:05.123456",
                "2026-03-14 09:30:05", None], "%Y-%m-%d %H:%M:%S.%f")
    base = ms("2026-03-14T09:30:05")
    # an export that drops a zero fraction writes the whole second
    assert got == [base + 123, base + 500, base + 123, base, None]


def test_a_fraction_not_after_a_point_must_be_written():
    assert read(["093005123", "093005"], "%H%M%S%f") == [ms("1900-01-01T09:30:05.123"), None]
    assert read(["2026-03-14 09:30:05.x"], "%Y-%m-%d %H:%M:%S.%f") == [None]


def test_fraction_with_a_comma_and_a_zone_is_localised():
    got = read(["14/03/2026 09:30:05,250"], "%d/%m/%Y %H:%M:%S,%f", "America/Chicago")
    assert got == [ms("2026-03-14T14:30:05.250")]  # CDT is UTC-5


def test_offset_in_the_value_with_z_needs_no_zone():
    got = read(["2026-03-14 09:30:05-0500", "2026-03-14 09:30:05+01:00", "2026-03-14 09:30:05Z",
                "2026-03-14 09:30:05"], "%Y-%m-%d %H:%M:%S%z", tz=None)
    assert got == [ms("2026-03-14T14:30:05"), ms("2026-03-14T08:30:05"), ms("2026-03-14T09:30:05"), None]


def test_fraction_and_offset_together():
    got = read(["2026-03-14T09:30:05.042+02:00"], "%Y-%m-%dT%H:%M:%S.%f%z", tz=None)
    assert got == [ms("2026-03-14T07:30:05.042")]


@pytest.mark.parametrize("fmt, scale", [("epoch", 1000), ("epoch_s", 1000), ("epoch_ms", 1)])
def test_epoch_seconds_and_milliseconds(fmt, scale):
    assert read(["1773480605", "1773480605.25", "x", ""], fmt)[:3] == \
        [1773480605 * scale, round(1773480605.25 * scale), None]


def test_day_first_dates_read_the_day_first():
    got = read(["03/04/2026 09:05", "13/04/2026 09:05", "04/13/2026 09:05", "3/4/2026 9:05"], "%d/%m/%Y %H:%M")
    assert got == [ms("2026-04-03T09:05"), ms("2026-04-13T09:05"), None, ms("2026-04-03T09:05")]


def test_gnu_no_padding_flag_reads_as_the_plain_directive():
    assert read(["3/4/2026"], "%-d/%-m/%Y") == [ms("2026-04-03T00:00")]

"""PageTimes writes exactly what to_utc_iso, local_iso and interval write, in zones with
clock changes on the hour, off the hour (Lord Howe: half an hour) and none, around their
changes and at random times over decades."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from onrecord.timetext import PageTimes, interval, local_iso, to_utc_iso

ZONES = ["America/Chicago", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "Europe/London", "America/St_Johns"]


def _times(zone: ZoneInfo) -> list[int]:
    rng = random.Random(zone.key)
    out = [rng.randrange(-2_000_000_000_000, 2_500_000_000_000) for _ in range(3000)]
    for year in (1999, 2024, 2026):  # every quarter hour, and odd milliseconds, around the year's changes
        start = int(datetime(year, 1, 1, tzinfo=timezone.utc).timestamp() * 1000)
        for day in range(0, 366, 1):
            base = start + day * 86_400_000
            before = local_iso(base, zone)[-6:]
            after = local_iso(base + 86_400_000, zone)[-6:]
            if before != after:
                out += [base + q * 900_000 + rng.choice((0, 1, 999, 250)) for q in range(0, 4 * 48)]
    return out + [0, -1, 999, 1000]


@pytest.mark.parametrize("name", ZONES)
def test_page_times_write_what_the_one_by_one_functions_write(name):
    zone = ZoneInfo(name)
    page = PageTimes(zone)
    times = _times(zone)
    for ms in times:
        assert page.utc_iso(ms) == to_utc_iso(ms)
        assert page.local_iso(ms) == local_iso(ms, zone)
        assert page.interval(ms, ms) == interval(ms, ms, zone)
        assert page.moment(ms) == (to_utc_iso(ms), local_iso(ms, zone), interval(ms, ms, zone))
        hi = ms + 37_123
        assert page.interval(ms, hi) == interval(ms, hi, zone)
    assert page.interval(None, None) == interval(None, None, zone) and page.local_iso(None) is None

"""How times read: local with the zone, milliseconds where written, DST-correct chart numbers."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from onrecord.timetext import duration, when
from onrecord.views.web.chart import LocalClock
from onrecord.views.web.present import finding_value, offset_text

NY = ZoneInfo("America/New_York")


def _ms(text: str) -> int:
    return int(datetime.fromisoformat(text).timestamp() * 1000)


def test_local_time_shows_the_zone_and_milliseconds_only_when_written():
    assert when(_ms("2025-02-13T19:05:45.611+00:00"), NY) == "2025-02-13 14:05:45.611 EST"
    assert when(_ms("2025-07-01T12:00:00+00:00"), NY) == "2025-07-01 08:00:00 EDT"


def test_chart_numbers_are_wall_clock_on_both_sides_of_a_dst_change():
    wall = LocalClock(NY)
    for utc in ("2025-03-09T06:59:00+00:00", "2025-03-09T07:01:00+00:00"):  # 01:59 EST, then 03:01 EDT
        ms = _ms(utc)
        shown = datetime.fromtimestamp(wall(ms) / 1000, tz=timezone.utc).replace(tzinfo=None)
        assert shown == datetime.fromtimestamp(ms / 1000, tz=NY).replace(tzinfo=None)


def test_clock_offsets_say_which_way_in_words():
    assert "runs 12.5 s ahead ± 1.2 s; 12.5 s subtracted" in offset_text(
        {"status": "estimated", "offset_s": 12.5, "uncertainty_s": 1.2, "anchors": 3})
    assert "runs 233.1 s behind" in offset_text({"status": "estimated", "offset_s": -233.1, "uncertainty_s": 0.1})
    assert offset_text(None).startswith("no estimate")
    drifting = offset_text({"status": "estimated", "offset_s": 40.8, "uncertainty_s": 0.5, "anchors": 300,
                            "drift_ppm": -25.0, "drift_ref_ms": 1_736_300_000_000})
    assert "runs 40.8 s ahead ± 0.5 s at 2025-01-08" in drifting and "losing 2.16 s a day (-25.0 ppm)" in drifting
    assert "offset at each event's time" in drifting


def test_finding_values_read_as_times_durations_or_counts():
    t = _ms("2025-02-13T19:06:58+00:00")
    assert finding_value({"value_lo": t, "value_hi": t + 7000, "unit": "utc_ms"}, NY) == \
        "2025-02-13 14:06:58 EST – 14:07:05 EST"
    assert finding_value({"value_lo": 666.0, "value_hi": 675.0, "unit": "s"}, NY) == "11 min 06 s – 11 min 15 s"
    assert finding_value({"value_lo": 9, "value_hi": 9, "unit": "count"}, NY) == "9"
    assert finding_value({"value_lo": None, "value_hi": None, "unit": "s"}, NY) == "not established"
    assert duration(42.25) == "42.2 s" and duration(3725) == "1 h 02 min"

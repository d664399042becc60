"""One report as the API gives it: what its clock status says after a build."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from onrecord.views.web.shape import report_json

ROW = {"id": 4, "kind": "door_event", "agency": "MPSD", "unit": None, "call": None, "actor": None, "channel": None,
       "place": "East Doors", "lat": None, "lon": None, "text": "FORCED OPEN", "attrs": None,
       "time_text": "13:13:35", "t_src_lo": 1_633_371_215_000, "t_src_hi": 1_633_371_215_999,
       "t_aligned_lo": 1_633_370_915_000, "t_aligned_hi": 1_633_371_515_999, "source_id": 2,
       "file_name": "doors.csv", "source_kind": "sensor", "source_agency": "MPSD", "timezone": "America/Chicago",
       "file_sha256": "0" * 64, "record_id": 9, "ordinal": 126, "seq": 40, "sha256": "1" * 64, "raw": "x",
       "fused_id": None}


def test_a_report_whose_clock_nothing_tied_says_unknown_not_aligned():
    zone = ZoneInfo("America/Chicago")
    unknown = {"status": "unknown", "offset_s": None, "uncertainty_s": None}
    assert report_json(ROW | {"clock": unknown}, zone)["clock"] == "unknown"
    tied = {"status": "estimated", "offset_s": 12.5, "uncertainty_s": 1.2}
    assert report_json(ROW | {"clock": tied}, zone)["clock"] == "aligned"
    before = ROW | {"clock": None, "t_aligned_lo": None, "t_aligned_hi": None}
    assert report_json(before, zone)["clock"] == "source"

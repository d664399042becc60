"""Reading CSV exports through a mapping: times, zones, layouts, code tables."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from onrecord.errors import InputError
from onrecord.sources.csv_file import read_csv
from onrecord.sources.mapping import parse_mapping
from tests.helpers import CAD_MAPPING, CAD_ROWS


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp() * 1000)


def read(rows: str, mapping: str = CAD_MAPPING, **kw):
    return read_csv(rows.encode(), parse_mapping(mapping, "test.toml"), "test.csv", kw.get("tz"), kw.get("agency"))


def test_one_row_per_unit_yields_each_time_as_an_event_and_the_call_once():
    p = read(CAD_ROWS)
    kinds = p.events["kind"].to_pylist()
    # call C-1001 has two unit rows: one call_received, two dispatches, one arrival
    assert kinds == ["call_received", "unit_dispatched", "unit_arrived", "unit_dispatched",
                     "call_received", "unit_dispatched", "unit_arrived"]
    assert p.events["unit"].to_pylist()[0] is None and p.events["unit"].to_pylist()[1] == "S12"
    # 09:30:05 in Chicago (CDT, UTC-5) is 14:30:05 UTC
    assert p.events["t_src_lo"].to_pylist()[0] == ms("2026-03-14T14:30:05")
    assert p.events["t_src_hi"].to_pylist()[0] == p.events["t_src_lo"].to_pylist()[0]
    assert p.events["record_index"].to_pylist() == [1, 1, 1, 2, 3, 3, 3]
    assert p.events["agency"].to_pylist() == ["EVSO"] * 7
    assert p.events["attrs"].to_pylist()[0] == '{"priority":"3"}'
    assert p.events["text"].to_pylist()[4] == "Alarm, commercial"


def test_every_line_is_a_record_and_records_add_up_to_the_file():
    data = CAD_ROWS.replace("\n", "\r\n") + "\r\n"
    p = read(data)
    assert b"".join(p.records.raws) == data.encode()
    assert p.records.ordinals == [1, 2, 3, 4, 5]
    assert len(p.events["kind"].to_pylist()) == 7  # the blank last line makes no event


def test_quoted_field_spanning_lines_is_one_record():
    rows = CAD_ROWS.replace('"Alarm, commercial"', '"Alarm,\ncommercial"')
    p = read(rows)
    assert p.records.ordinals == [1, 2, 3, 4]
    assert p.records.raws[3].count(b"\n") == 2
    assert p.events["text"].to_pylist()[4] == "Alarm,\ncommercial"


def test_bad_time_is_rejected_with_its_line_column_and_value():
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "03/14/2026 9h31"))
    assert len(p.rejects) == 1
    r = p.rejects[0]
    assert (r.line, r.column, r.value) == (3, "Dispatched", "03/14/2026 9h31")
    assert "S14" not in p.events["unit"].to_pylist()


def test_blank_time_that_is_not_optional_is_rejected():
    p = read(CAD_ROWS.replace("03/14/2026 10:03:30", ""))
    assert [(r.line, r.column, r.reason) for r in p.rejects] == [(4, "Dispatched", "time is blank")]


def test_blank_required_field_is_rejected():
    p = read(CAD_ROWS.replace("C-1002,S20", "C-1002,"))
    assert [(r.line, r.column) for r in p.rejects] == [(4, "Unit")]


def test_header_that_does_not_match_the_mapping_names_what_is_missing():
    with pytest.raises(InputError) as err:
        read(CAD_ROWS.replace("OnScene", "Arrival"))
    assert err.value.line == 1 and "'OnScene'" in str(err.value)


def test_row_with_too_many_fields_names_its_line():
    with pytest.raises(InputError) as err:
        read(CAD_ROWS.replace("900 Quarry Ave,2", "900 Quarry Ave,2,extra"))
    assert err.value.line == 4


def test_command_line_zone_and_agency_win_over_the_mapping():
    p = read(CAD_ROWS, tz="UTC", agency="EVPD")
    assert p.events["t_src_lo"].to_pylist()[0] == ms("2026-03-14T09:30:05")
    assert set(p.events["agency"].to_pylist()) == {"EVPD"}


HEADERLESS = """
[mapping]
name = "river-city"
source_kind = "cad"
timezone = "America/Denver"

[file]
header = false
columns = ["call", "code", "date", "time", "agency"]

[fields]
call = "call"
text = { column = "code", codes = "cfs" }
agency = { column = "agency", codes = "agencies" }

[[events]]
kind = "call_received"
time = ["date", "time"]
format = "%m%d%Y %H%M%S"

[codes.cfs]
BURG = "Burglary"

[codes.agencies]
RC = "River City Police"
"""


def test_headerless_export_with_split_date_and_time_and_code_tables():
    p = read("9001,BURG,07042025,235959,RC\n9002,ZZZ,07052025,000001,XX\n", HEADERLESS)
    assert p.events["text"].to_pylist() == ["Burglary", "ZZZ"]  # no entry: kept as written
    assert p.events["agency"].to_pylist() == ["River City Police", "XX"]
    assert p.uncoded == {("cfs", "ZZZ"): 1, ("agencies", "XX"): 1}
    assert p.events["t_src_lo"].to_pylist()[0] == ms("2025-07-05T05:59:59")  # MDT is UTC-6


STATUS = """
[mapping]
name = "status-export"
source_kind = "cad"
timezone = "UTC"

[fields]
unit = "unit"

[[events]]
kind_from = "status"
time = "at"
format = "iso"
precision = "minute"

[events.kinds]
"On Scene" = "unit_arrived"
"""


def test_kind_from_a_status_column_and_minute_precision_interval():
    p = read("unit,status,at\nA1,On Scene,2025-02-01T10:15:00\nA2,Lunch,2025-02-01T10:16:00+01:00\n", STATUS)
    assert p.events["kind"].to_pylist() == ["unit_arrived"]
    assert p.events["t_src_hi"].to_pylist()[0] - p.events["t_src_lo"].to_pylist()[0] == 59_999
    assert [(r.line, r.column, r.value) for r in p.rejects] == [(3, "status", "Lunch")]


def test_iso_times_with_their_own_offset_ignore_the_zone():
    mapping = STATUS.replace('"On Scene" = "unit_arrived"', '"On Scene" = "unit_arrived"\ndefault = "unit_status"')
    p = read("unit,status,at\nA2,Lunch,2025-02-01T10:16:00+01:00\n", mapping)
    assert p.events["kind"].to_pylist() == ["unit_status"]
    assert p.events["t_src_lo"].to_pylist() == [ms("2025-02-01T09:16:00")]


def test_latin1_file_read_through_its_declared_encoding():
    mapping = CAD_MAPPING.replace('required = ["CallNo", "Unit"]',
                                  'required = ["CallNo", "Unit"]\nencoding = "latin-1"')
    rows = CAD_ROWS.replace("Larkspur", "Peñasco")
    p = read_csv(rows.encode("latin-1"), parse_mapping(mapping, "m.toml"), "t.csv", None, None)
    assert p.events["place"].to_pylist()[0] == "14 Peñasco Rd"
    assert b"".join(p.records.raws) == rows.encode("latin-1")


def test_wrong_encoding_names_the_line():
    with pytest.raises(InputError) as err:
        read_csv(CAD_ROWS.replace("Larkspur", "Peñasco").encode("latin-1"), parse_mapping(CAD_MAPPING, "m"), "t.csv",
                 None, None)
    assert err.value.line == 2 and "utf-8" in str(err.value)


# ---- the shapes of a new agency's export (fictional Harrow County exports)

CHRONOLOGY = """
[mapping]
name = "harrow-chronology"
source_kind = "cad"
agency = "HCSO"
timezone = "UTC"

[file]
required = ["Unit"]

[rows]
unless = { column = "Type", in = ["COMMENT", "NOTE"] }

[defaults]
Agency = "HCSO"

[fields]
unit = "Unit"
agency = "Agency"
text = { column = "Remark", default = "(no remark)" }

[[events]]
kind = "unit_arrived"
time = "At"
format = "%Y-%m-%d %H:%M:%S.%f"
when = { column = "Status", matches = "^(ONSC|ARR)" }

[[events]]
kind = "unit_dispatched"
time = "At"
format = "%Y-%m-%d %H:%M:%S.%f"
when = { column = "Status", equals = "DISP" }
"""

CHRONOLOGY_ROWS = """Type,Unit,Agency,Status,At,Remark
STATUS,P12,,DISP,2026-05-02 14:03:22.5,
COMMENT,,,,not a time,caller hung up
STATUS,P12,HCFD,ONSCENE,2026-05-02 14:09:01.25,at the door
NOTE,,,,,
STATUS,P14,,CLEAR,2026-05-02 14:30:00.0,
"""


def test_comment_rows_are_left_out_and_an_event_reads_only_its_own_status():
    p = read(CHRONOLOGY_ROWS, CHRONOLOGY)
    assert not p.rejects and p.left_out == 2  # a comment row's blank unit and odd time are no error
    ev = p.events.to_pydict()
    assert ev["kind"] == ["unit_dispatched", "unit_arrived"]
    assert ev["record_index"] == [1, 3]
    assert ev["t_src_lo"] == [ms("2026-05-02T14:03:22.500"), ms("2026-05-02T14:09:01.250")]
    assert ev["agency"] == ["HCSO", "HCFD"]  # [defaults] fills the blank column
    assert ev["text"] == ["(no remark)", "at the door"]


def test_a_filtered_row_that_is_read_still_rejects_a_bad_time():
    p = read(CHRONOLOGY_ROWS.replace("14:09:01.25", "14h09"), CHRONOLOGY)
    assert [(r.line, r.column) for r in p.rejects] == [(4, "At")]


def test_a_pattern_that_reads_no_time_is_one_error_naming_the_mapping_key():
    with pytest.raises(InputError) as err:
        read(CAD_ROWS, CAD_MAPPING.replace('format = "%m/%d/%Y %H:%M:%S"\nonce_per_call',
                                           'format = "%d.%m.%Y %H:%M:%S"\nonce_per_call'))
    e = err.value
    assert (e.file, e.field) == ("test.toml", "events[1].format") and "test.csv" in str(e) and "line 2" in str(e)


def test_offset_in_each_value_needs_no_zone():
    mapping = CHRONOLOGY.replace('timezone = "UTC"\n', "").replace("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S%z")
    p = read("Type,Unit,Agency,Status,At,Remark\nS,P1,,ARR,2026-05-02 09:03:22-05:00,\n", mapping)
    assert p.events["t_src_lo"].to_pylist() == [ms("2026-05-02T14:03:22")]


WIDE = """
[mapping]
name = "harrow-wide"
source_kind = "cad"
timezone = "UTC"
date = "2026-05-02"                    # the export writes times of day only

[fields]
call = "Call"
agency = "Agency"

[[events]]
kind = "call_received"
time = "Received"
format = "%H:%M:%S"

[[events]]
kind = "unit_dispatched"
wide = [1, 2, 3]
time = "Time{n}"
format = "%H:%M:%S"
unit = "Unit{n}"
agency = { column = "Agency{n}", default = "HCSO" }
"""

WIDE_ROWS = """Call,Agency,Received,Unit1,Time1,Agency1,Unit2,Time2,Agency2,Unit3,Time3,Agency3
H-1,HCSO,14:00:00,P12,14:01:10,,M7,14:02:30,HCFD,,,
H-2,HCSO,15:00:00,,,,,,,,,
"""


def test_a_wide_layout_yields_one_event_per_filled_slot():
    p = read(WIDE_ROWS, WIDE)
    ev = p.events.to_pydict()
    assert ev["kind"] == ["call_received", "unit_dispatched", "unit_dispatched", "call_received"]
    assert ev["unit"] == [None, "P12", "M7", None]
    assert ev["agency"] == ["HCSO", "HCSO", "HCFD", "HCSO"]
    assert ev["t_src_lo"][1:3] == [ms("2026-05-02T14:01:10"), ms("2026-05-02T14:02:30")]
    assert ev["time_text"][1] == "14:01:10"  # as written
    assert ev["record_index"] == [1, 1, 1, 2]


def test_a_half_filled_slot_is_a_blank_time_rejected():
    p = read(WIDE_ROWS.replace("M7,14:02:30", "M7,"), WIDE)
    assert [(r.line, r.column, r.reason) for r in p.rejects] == [(2, "Time2", "time is blank")]


PACKED = """
[mapping]
name = "harrow-packed"
source_kind = "cad"
timezone = "America/Chicago"

[fields]
call = "Call"

[[events]]
kind = "call_received"
time = ["Date", "Received"]
format = "%m/%d/%Y %H:%M:%S"
once_per_call = true

[[events]]
kind = "unit_dispatched"
split = { column = "Units", by = ";", into = ["Unit", "At"], sep = "@" }
time = ["Date", "At"]
format = "%m/%d/%Y %H:%M:%S"
unit = "Unit"
text = "{Unit} sent"
"""

PACKED_ROWS = """Call,Date,Received,Units
H-7,05/02/2026,14:02:00,E12@14:03:22;M7@14:05:10
H-8,05/02/2026,14:10:00,
H-9,05/02/2026,14:20:00, L3 @ 14:21:00 ;
"""


def test_a_packed_column_yields_one_event_per_unit_each_with_its_own_time():
    p = read(PACKED_ROWS, PACKED)
    ev = p.events.to_pydict()
    assert ev["kind"] == ["call_received", "unit_dispatched", "unit_dispatched", "call_received", "call_received",
                          "unit_dispatched"]
    assert ev["unit"] == [None, "E12", "M7", None, None, "L3"]
    assert ev["record_index"] == [1, 1, 1, 2, 3, 3]  # each piece cites the row it came from
    assert ev["t_src_lo"][1:3] == [ms("2026-05-02T19:03:22"), ms("2026-05-02T19:05:10")]  # CDT
    assert ev["text"][1] == "E12 sent" and ev["time_text"][2] == "05/02/2026 14:05:10"


def test_a_packed_piece_with_a_bad_time_rejects_its_row_once():
    p = read(PACKED_ROWS.replace("E12@14:03:22;M7@14:05:10", "E12@14h03;M7@14h05"), PACKED)
    assert [(r.line, r.column, r.value) for r in p.rejects] == [(2, "Date+At", "05/02/2026 14h03")]
    assert p.events["record_index"].to_pylist() == [2, 3, 3]  # the whole row is out, the others read


def test_a_packed_column_read_by_a_pattern():
    mapping = PACKED.replace('into = ["Unit", "At"], sep = "@"',
                             'pattern = "^(?P<Unit>[A-Z]+\\\\d+)\\\\s*@\\\\s*(?P<At>.+)$"')
    p = read(PACKED_ROWS, mapping)
    assert p.events["unit"].to_pylist() == [None, "E12", "M7", None, None, "L3"]
    bad = read(PACKED_ROWS.replace("M7@14:05:10", "7M at 14:05"), mapping)
    assert [(r.line, r.column, r.value) for r in bad.rejects] == [(2, "Units", "7M at 14:05")]

"""The engine every mapped format shares, on the shapes of a new agency's export: row
filters, defaults, per-event columns, wide layouts and packed columns (read through CSV)."""

from __future__ import annotations

import json

import pytest

from onrecord.errors import InputError
from tests.helpers import CAD_MAPPING, CAD_ROWS
from tests.sources.test_csv_file import ms, read

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


def test_an_event_s_own_attribute_is_checked_only_on_the_rows_its_when_reads():
    """The dispatch rows' Remark column says 'yes'/'no' whether the unit was armed; the other
    rows hold free text there. Only a dispatch row's value must be an armed word."""
    mapping = CHRONOLOGY.replace('when = { column = "Status", equals = "DISP" }',
                                 'when = { column = "Status", equals = "DISP" }\nattributes = { armed = "Remark" }')
    rows = CHRONOLOGY_ROWS.replace("DISP,2026-05-02 14:03:22.5,", "DISP,2026-05-02 14:03:22.5,yes")
    p = read(rows, mapping)
    assert not p.rejects  # "at the door" on the arrival row is no armed word, and no error
    assert json.loads(p.events.to_pydict()["attrs"][0])["armed"] == "true"
    bad = read(rows.replace(",yes", ",maybe"), mapping)
    assert [(r.line, r.column) for r in bad.rejects] == [(2, "Remark")]


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


def test_a_mapped_agency_column_says_whose_each_row_is_and_the_given_agency_fills_its_blanks():
    """--agency is the source's own agency (a recorder's owner): it does not overwrite the agency a
    row or a slot says (a patched channel, a mutual-aid unit), only a blank one."""
    rows = WIDE_ROWS.replace("H-2,HCSO,", "H-2,,")
    ev = read(rows, WIDE, agency="XCOM").events.to_pydict()
    assert ev["agency"] == ["HCSO", "HCSO", "HCFD", "XCOM"]


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


ROSTER = """
[mapping]
name = "harrow-roster"
source_kind = "roster"
agency = "HCFD"

[fields]
unit = "Unit"

[attributes]
vehicle = "Vehicle"

[codes.armed]
X = "yes"
Unarmed = "no"

[[events]]
kind = "roster_entry"
wide = [1, 2]
actor = "Member{n}"
attributes = { badge = "Badge{n}", armed = { column = "Armed{n}", codes = "armed", default = "no" } }
"""

ROSTER_ROWS = """Unit,Vehicle,Member1,Badge1,Armed1,Member2,Badge2,Armed2
E12,4411,Ada Quill,F-201,,Bo Renn,F-202,X
M7,4420,Cy Hale,F-310,Unarmed,,,
"""


def test_crew_side_by_side_one_roster_line_each_with_its_own_attributes():
    p = read(ROSTER_ROWS, ROSTER)
    ev = p.events.to_pydict()
    assert ev["actor"] == ["Ada Quill", "Bo Renn", "Cy Hale"] and ev["unit"] == ["E12", "E12", "M7"]
    attrs = [json.loads(a) for a in ev["attrs"]]
    # armed is read and stored in one spelling (docs/attributes.md)
    assert attrs == [{"vehicle": "4411", "badge": "F-201", "armed": "false"},
                     {"vehicle": "4411", "badge": "F-202", "armed": "true"},
                     {"vehicle": "4420", "badge": "F-310", "armed": "false"}]
    assert ev["record_index"] == [1, 1, 2]


def test_an_attribute_read_through_a_code_table_and_counted_where_uncoded():
    mapping = ROSTER.replace('vehicle = "Vehicle"',
                             'vehicle = "Vehicle"\narmed = { column = "Armed1", codes = "armed" }')
    p = read(ROSTER_ROWS.replace("Unarmed,,,", "maybe,,,"), mapping)
    assert json.loads(p.events["attrs"].to_pylist()[0])["armed"] == "false"  # the block's own wins
    assert p.uncoded[("armed", "maybe")] == 2  # once for the row's attribute, once for the block's
    # and armed read as neither yes nor no rejects its row, naming the line (docs/attributes.md)
    assert [(r.line, r.value) for r in p.rejects] == [(3, "maybe")] and "Y/N" in p.rejects[0].reason


SUMMARY = """
[mapping]
name = "harrow-summary"
source_kind = "cad"
timezone = "UTC"

[columns]
Day = { column = "Created", pattern = "^(\\\\S+)" }

[fields]
call = "Incident"

[[events]]
kind = "incident_created"
time = "Created"
format = "%m/%d/%Y %H:%M:%S"

[[events]]
kind = "unit_dispatched"
split = { column = "Units", by = "|", pattern = "^(?P<Unit>[A-Z]+\\\\d+)-(?P<At>\\\\d{6})$" }
time = ["Day", "At"]
format = "%m/%d/%Y %H%M%S"
unit = "Unit"
"""


def test_a_column_made_from_part_of_another_dates_a_packed_time_of_day():
    p = read("Incident,Created,Units\nH-3,10/21/2024 14:02:10,E12-140322|M7-140510\n", SUMMARY)
    ev = p.events.to_pydict()
    assert ev["kind"] == ["incident_created", "unit_dispatched", "unit_dispatched"]
    assert ev["t_src_lo"] == [ms("2024-10-21T14:02:10"), ms("2024-10-21T14:03:22"), ms("2024-10-21T14:05:10")]
    assert ev["time_text"][1] == "10/21/2024 140322"


def test_a_field_read_through_a_pattern():
    mapping = SUMMARY.replace('call = "Incident"', 'call = { column = "Incident", pattern = "(\\\\d+)$" }')
    p = read("Incident,Created,Units\nHC-2024-0017,10/21/2024 14:02:10,\n", mapping)
    assert p.events["call"].to_pylist() == ["0017"]


def test_two_columns_together_choose_the_kind():
    mapping = """
[mapping]
name = "harrow-status"
source_kind = "cad"
timezone = "UTC"

[fields]
unit = "Unit"

[[events]]
kind_from = "{Status}/{Source}"
time = "At"
format = "%Y-%m-%d %H:%M:%S"

[events.kinds]
"ARRIVED/AVL" = "unit_arrived"
"ARRIVED/RADIO" = "unit_status"
"""
    rows = ("Unit,Status,Source,At\nE12,ARRIVED,AVL,2026-05-02 14:09:00\nE12,ARRIVED,RADIO,2026-05-02 14:09:30\n"
            "M7,CLEARED,RADIO,2026-05-02 15:00:00\n")
    p = read(rows, mapping)
    assert p.events["kind"].to_pylist() == ["unit_arrived", "unit_status"]
    assert [(r.line, r.column, r.value) for r in p.rejects] == [(4, "{Status}/{Source}", "CLEARED/RADIO")]


def test_a_time_of_day_after_midnight_follows_the_call_onto_the_next_day():
    mapping = SUMMARY.replace('unit = "Unit"\n', 'unit = "Unit"\nafter = 1\n')
    p = read("Incident,Created,Units\nH-4,10/21/2024 23:58:10,E12-235930|M7-000310\n", mapping)
    assert p.events["t_src_lo"].to_pylist() == [ms("2024-10-21T23:58:10"), ms("2024-10-21T23:59:30"),
                                                ms("2024-10-22T00:03:10")]
    plain = read("Incident,Created,Units\nH-4,10/21/2024 23:58:10,E12-235930|M7-000310\n", SUMMARY)
    assert plain.events["t_src_lo"].to_pylist()[2] == ms("2024-10-21T00:03:10")  # without it: as written


def test_a_log_of_times_of_day_goes_on_past_midnight():
    mapping = """
[mapping]
name = "harrow-radio"
source_kind = "radio"
timezone = "UTC"
date = "2026-05-02"

[fields]
unit = "From"

[[events]]
kind = "radio_transmission"
time = "At"
format = "%H:%M:%S"
"""
    p = read("At,From\n23:59:40,E12\n23:59:58,M7\n00:00:12,E12\n00:00:09,M7\n", mapping)
    assert p.events["t_src_lo"].to_pylist() == [ms("2026-05-02T23:59:40"), ms("2026-05-02T23:59:58"),
                                                ms("2026-05-03T00:00:12"), ms("2026-05-03T00:00:09")]

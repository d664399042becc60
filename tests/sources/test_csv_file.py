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


def test_row_with_too_many_fields_is_refused_with_its_line_and_the_rest_read():
    p = read(CAD_ROWS.replace("900 Quarry Ave,2", "900 Quarry Ave,2,extra"))
    assert [(r.line, r.column) for r in p.rejects] == [(4, None)]
    assert "9 fields where 8" in p.rejects[0].reason
    assert set(p.events["call"].to_pylist()) == {"C-1001"}


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


ROSTER_MAPPING = """
[mapping]
name = "eastvale-roster"
source_kind = "roster"
agency = "EVSO"
[fields]
unit = "Unit"
actor = "Officer"
[attributes]
armed = "Armed"
[[events]]
kind = "roster_entry"
"""


def test_armed_reads_yes_and_no_in_one_spelling_and_n_is_not_armed():
    rows = "Unit,Officer,Armed\nS12,Dep. Hale,Y\nM7,Medic Ruiz,N\nS14,Dep. Orr,yes\nE3,FF Lin,False\nS15,Dep. Aho,\n"
    p = read(rows, ROSTER_MAPPING)
    assert p.rejects == []
    assert p.events["attrs"].to_pylist() == ['{"armed":"true"}', '{"armed":"false"}', '{"armed":"true"}',
                                             '{"armed":"false"}', '{"armed":null}']


def test_an_armed_value_outside_yes_and_no_rejects_its_row_naming_line_and_column():
    p = read("Unit,Officer,Armed\nS12,Dep. Hale,Y\nM7,Medic Ruiz,sometimes\n", ROSTER_MAPPING)
    assert [(r.line, r.column, r.value) for r in p.rejects] == [(3, "Armed", "sometimes")]
    assert "armed" in p.rejects[0].reason and "Y/N" in p.rejects[0].reason


STATUS_MAPPING = """
[mapping]
name = "eastvale-status"
source_kind = "cad"
agency = "EVSO"
timezone = "UTC"
[fields]
unit = "Unit"
[attributes]
entered_by = "Via"
[[events]]
kind = "unit_arrived"
time = "At"
format = "iso"
"""


def test_entered_by_is_stored_in_one_word_and_an_unknown_one_rejects_its_row():
    rows = "Unit,At,Via\nS12,2026-03-14T14:00:00Z,AVL\nS14,2026-03-14T14:00:09Z,MDT\nS15,2026-03-14T14:01:00Z,Radio\n"
    p = read(rows, STATUS_MAPPING)
    assert p.rejects == [] and p.events["attrs"].to_pylist() == [
        '{"entered_by":"avl"}', '{"entered_by":"terminal"}', '{"entered_by":"dispatcher"}']
    p = read(rows + "S16,2026-03-14T14:02:00Z,carrier pigeon\n", STATUS_MAPPING)
    assert [(r.line, r.column, r.value) for r in p.rejects] == [(5, "Via", "carrier pigeon")]


def test_a_fixed_value_is_the_same_on_every_row():
    # the whole log was typed by the dispatcher: no column says so, the mapping does
    m = CAD_MAPPING.replace('priority = "Pri"', 'priority = "Pri"\nentered_by = { value = "dispatcher" }')
    p = read(CAD_ROWS, m)
    attrs = p.events["attrs"].to_pylist()
    assert all('"entered_by":"dispatcher"' in a for a in attrs) and len(attrs) == 7
    # a template with no placeholder says the same
    same = read(CAD_ROWS, m.replace('{ value = "dispatcher" }', '{ template = "dispatcher" }'))
    assert same.events["attrs"].to_pylist() == attrs

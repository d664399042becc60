"""A camera view's shown_time is read at import, in whatever way a user writes it, or the
row is refused naming line and column; never kept unreadable and dropped at build
(fictional Marrow Point command-post camera log)."""

from __future__ import annotations

import json

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping import parse_mapping
from tests.sources.test_csv_file import ms, read

MONITOR = """
[mapping]
name = "marrow-cp-monitor"
source_kind = "camera"
timezone = "America/Chicago"

[fields]
text = "Note"
{place}
[attributes]
{shown}

[[events]]
kind = "camera_observation"
time = "Screen Clock"
format = "%m/%d/%Y %I:%M:%S %p"
"""

ROWS = """Screen Clock,Frame Time,Note
10/04/2021 01:47:03 PM,13:42:42,officers at east doors
10/04/2021 01:52:10 PM,13:47:49,subject on the floor
"""


def monitor(shown: str, place: str = "") -> str:
    return MONITOR.format(shown=shown, place=place)


def shown_of(p) -> list:
    return [json.loads(a).get("shown_time") for a in p.events["attrs"].to_pylist()]


def test_a_time_of_day_is_dated_by_the_view_s_own_day_and_stored_as_the_instant():
    p = read(ROWS, monitor('shown_time = "Frame Time"'))
    assert not p.rejects
    # 13:42:42 CDT is 18:42:42 UTC, four minutes twenty-one before the screen showed it
    assert shown_of(p) == ["2021-10-04T18:42:42.000Z", "2021-10-04T18:47:49.000Z"]
    assert p.events["t_src_lo"].to_pylist()[0] - ms("2021-10-04T18:42:42") == 261_000


def test_a_date_and_time_in_another_pattern_than_the_event_s_reads_with_its_declared_format():
    rows = ROWS.replace(",13:42:42,", ",2021-10-04 13:42:42,").replace(",13:47:49,", ",2021-10-04 13:47:49,")
    p = read(rows, monitor('shown_time = "Frame Time"'))  # ISO, naive: in the mapping's zone
    assert shown_of(p) == ["2021-10-04T18:42:42.000Z", "2021-10-04T18:47:49.000Z"]
    rows = ROWS.replace(",13:42:42,", ",04.10.2021 13:42:42,").replace(",13:47:49,", ",04.10.2021 13:47:49,")
    p = read(rows, monitor('shown_time = { column = "Frame Time", format = "%d.%m.%Y %H:%M:%S" }'))
    assert shown_of(p) == ["2021-10-04T18:42:42.000Z", "2021-10-04T18:47:49.000Z"]


def test_a_template_of_date_and_time_of_day_reads_too():
    rows = "Day,Screen Clock,Frame Time,Note\n10/04/2021,10/04/2021 01:47:03 PM,13:42:42,x\n"
    p = read(rows, monitor('shown_time = { template = "{Day} {Frame Time}", format = "%m/%d/%Y %H:%M:%S" }'))
    assert shown_of(p) == ["2021-10-04T18:42:42.000Z"]


def test_a_view_just_after_midnight_of_footage_just_before_it_is_on_the_day_before():
    rows = "Screen Clock,Frame Time,Note\n10/05/2021 12:03:00 AM,23:58:30,x\n"
    p = read(rows, monitor('shown_time = "Frame Time"'))
    assert shown_of(p) == ["2021-10-05T04:58:30.000Z"]  # 23:58:30 CDT on the 4th


def test_a_column_none_of_whose_values_reads_is_one_error_naming_key_line_and_what_to_write():
    rows = ROWS.replace(",13:42:42,", ",frame 1342,").replace(",13:47:49,", ",frame 1347,")
    with pytest.raises(InputError) as err:
        read(rows, monitor('shown_time = "Frame Time"'))
    e = err.value
    assert (e.file, e.field) == ("test.toml", "attributes.shown_time")
    assert "test.csv" in str(e) and "line 2" in str(e) and "format" in str(e)


def test_one_value_that_reads_as_no_time_rejects_its_row_naming_line_and_column():
    p = read(ROWS.replace(",13:47:49,", ",13h47,"), monitor('shown_time = "Frame Time"'))
    assert [(r.line, r.column) for r in p.rejects] == [(3, "Frame Time")]
    assert "shown_time" in p.rejects[0].reason and len(p.events) == 1


def test_a_blank_shown_time_is_a_view_of_nothing_replayed_not_an_error():
    p = read(ROWS.replace(",13:47:49,", ",,"), monitor('shown_time = "Frame Time"'))
    assert not p.rejects and shown_of(p) == ["2021-10-04T18:42:42.000Z", None]


def test_the_time_sits_beside_the_other_attributes_of_the_row_and_of_the_block():
    mapping = monitor('shown_time = "Frame Time"\nnote = "Note"').replace(
        'format = "%m/%d/%Y %I:%M:%S %p"', 'format = "%m/%d/%Y %I:%M:%S %p"\nattributes = { mode = "Note" }')
    p = read(ROWS, mapping)
    first = json.loads(p.events["attrs"].to_pylist()[0])
    assert first == {"note": "officers at east doors", "mode": "officers at east doors",
                     "shown_time": "2021-10-04T18:42:42.000Z"}


def test_format_is_refused_on_an_attribute_that_is_no_time_and_checked_on_one_that_is():
    with pytest.raises(InputError) as err:
        parse_mapping(monitor('priority = { column = "Note", format = "%H:%M" }'), "m.toml")
    assert err.value.field == "attributes.priority.format"
    with pytest.raises(InputError) as err:
        parse_mapping(monitor('shown_time = { column = "Frame Time", format = "%m/%d %H:%M" }'), "m.toml")
    assert err.value.field == "attributes.shown_time.format" and "year" in str(err.value)

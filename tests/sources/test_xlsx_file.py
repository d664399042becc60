"""Excel workbooks through a mapping: sheet, header row, each row cited as a path inside the
one workbook record; merged header cells refused naming the cells."""

from __future__ import annotations

import datetime as dt
import io

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping import parse_mapping
from onrecord.sources.xlsx_file import read_xlsx

openpyxl = pytest.importorskip("openpyxl", reason="openpyxl writes the test workbooks (the test extra)")

MAPPING = """
[mapping]
name = "harbor-xlsx"
source_kind = "cad"
agency = "HCSO"
timezone = "America/New_York"

[file]
format = "xlsx"
sheet = "Units"
header_row = 3

[fields]
call = "Call No"
unit = "Unit"

[[events]]
kind = "unit_dispatched"
time = "Dispatched"
format = "iso"

[[events]]
kind = "unit_arrived"
time = "On Scene"
format = "%m/%d/%Y %H:%M"
optional = true
"""


def workbook(merge: str | None = None) -> bytes:
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    ws = wb.create_sheet("Units")
    ws.append(["Harbor County units, fictional export"])
    ws.append([])
    ws.append(["Call No", "Unit", "Dispatched", "On Scene"])
    ws.append([26001, "K9-2", dt.datetime(2026, 6, 1, 13, 0, 5), "06/01/2026 13:09"])
    ws.append([26002, "M-1", dt.datetime(2026, 6, 1, 13, 20, 0), None])
    ws.append([])
    ws.append([26003, "K9-2", "2026-06-01 14:00:00", "soon"])
    if merge:
        ws.merge_cells(merge)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def read(data: bytes):
    return read_xlsx(data, parse_mapping(MAPPING, "harbor.toml"), "units.xlsx", None, None)


def test_rows_below_the_header_become_events_each_citing_its_row():
    data = workbook()
    p = read(data)
    assert p.records.raws == [data]  # the workbook exactly as handed over
    ev = p.events.to_pylist()
    assert [(e["kind"], e["call"], e["unit"]) for e in ev] == [
        ("unit_dispatched", "26001", "K9-2"), ("unit_arrived", "26001", "K9-2"),
        ("unit_dispatched", "26002", "M-1")]  # row 7's unreadable time rejects the row, as in a CSV
    assert [e["path"] for e in ev] == ["'Units'!4:4", "'Units'!4:4", "'Units'!5:5"]
    # 13:00:05 in New York (EDT) is 17:00:05 UTC
    assert ev[0]["t_src_lo"] == int(dt.datetime(2026, 6, 1, 17, 0, 5, tzinfo=dt.timezone.utc).timestamp() * 1000)
    r = p.rejects[0]
    assert (r.line, r.path, r.column, r.value) == (7, "'Units'!7:7", "On Scene", "soon")


def test_merged_header_cells_are_refused_naming_them():
    with pytest.raises(InputError) as exc:
        read(workbook("C3:D3"))
    assert exc.value.field == "'Units'!C3:D3" and exc.value.line == 3 and "merged" in str(exc.value)


def test_a_missing_sheet_or_column_is_named():
    with pytest.raises(InputError) as exc:
        read_xlsx(workbook(), parse_mapping(MAPPING.replace('"Units"', '"Calls"'), "h.toml"), "u.xlsx", None, None)
    assert "Calls" in str(exc.value) and exc.value.field == "file.sheet"
    with pytest.raises(InputError) as exc:
        read_xlsx(workbook(), parse_mapping(MAPPING.replace('"On Scene"', '"Arrived"'), "h.toml"), "u.xlsx",
                  None, None)
    assert "'Arrived'" in str(exc.value)
    with pytest.raises(InputError) as exc:
        read(b"PK\x03\x04 not really a zip")
    assert "workbook" in str(exc.value)

"""Excel workbooks (.xlsx, .xlsm, .xls, .ods) read through a mapping, with python-calamine.

`[file] sheet` names the worksheet (the first when not given) and `header_row` the row
that names the columns (1 when not given); each row below it is a record. A workbook is
a zip of XML parts, so no row is a slice of the file's bytes: the raw record is the
whole workbook, exactly as handed over, and each event cites its row as a path
(`'Calls'!12:12`, Excel's own reference to row 12). Merged cells in the header row
name no column: they are refused, naming the cells.
"""

from __future__ import annotations

import datetime as dt
import io

import pyarrow as pa
from python_calamine import CalamineError, CalamineWorkbook

from onrecord.errors import InputError
from onrecord.sources.lines import Records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed
from onrecord.sources.rows import RowReader


def read_xlsx(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    sheet = _sheet(data, mapping, file)
    header_at = mapping.header_row - 1
    _no_merged_header(sheet, header_at, file)
    rows = sheet.to_python(skip_empty_area=False)
    if len(rows) <= header_at:
        raise InputError(f"the sheet has no row {mapping.header_row} to name the columns", file=file,
                         field="file.header_row")
    names = [cell_text(c) or "" for c in rows[header_at]]
    missing = [c for c in mapping.columns_used() if c not in names]
    if missing:
        raise InputError(f"the header row does not match mapping {mapping.name}: it lacks "
                         f"{', '.join(repr(c) for c in missing)} (it has {', '.join(repr(n) for n in names if n)})",
                         file=file, line=mapping.header_row, field=f"'{sheet.name}'!{mapping.header_row}:"
                         f"{mapping.header_row}")
    parsed = Parsed(records=Records([data], [1], [None]))
    body = [(n, r) for n, r in enumerate(rows[header_at + 1:], start=mapping.header_row + 1)
            if any(c not in ("", None) for c in r)]
    if not body:
        return parsed
    nulls = set(mapping.null_values)
    cols = {}
    for col in mapping.columns_used():
        at = names.index(col)
        texts = (cell_text(r[at]) if at < len(r) else None for _, r in body)
        cols[col] = pa.array([None if t in nulls else t for t in texts], pa.string())
    lines = [n for n, _ in body]
    paths = [f"'{sheet.name}'!{n}:{n}" for n in lines]
    RowReader(mapping, pa.table(cols), [0] * len(body), lines, file, tz, agency, parsed, paths).read()
    return parsed


def _sheet(data: bytes, mapping: Mapping, file: str):
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except (CalamineError, ValueError, OSError) as exc:
        raise InputError(f"not a workbook calamine can read: {exc}", file=file) from exc
    name = mapping.sheet or (book.sheet_names[0] if book.sheet_names else None)
    if name not in book.sheet_names:
        raise InputError(f"the workbook has no sheet {name!r} (it has {', '.join(book.sheet_names)})",
                         file=file, field="file.sheet")
    return book.get_sheet_by_name(name)


def _no_merged_header(sheet, header_at: int, file: str) -> None:
    for (r0, c0), (r1, c1) in sheet.merged_cell_ranges or ():
        if r0 <= header_at <= r1:
            cells = f"{_cell(r0, c0)}:{_cell(r1, c1)}"
            raise InputError(f"the header row has merged cells ({cells}): a merged cell names no single column; "
                             f"unmerge them or point [file] header_row at a row that names each column",
                             file=file, line=header_at + 1, field=f"'{sheet.name}'!{cells}")


def _cell(row: int, col: int) -> str:
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row + 1}"


def cell_text(value) -> str | None:
    """A cell as text: whole numbers without '.0', dates and times in ISO 8601 (as the workbook holds them)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value.total_seconds())
    return str(value)

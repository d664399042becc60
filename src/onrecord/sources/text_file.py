"""Text documents (statements, press pieces): one event per document, every line kept."""

from __future__ import annotations

import json
import re

import pyarrow as pa

from onrecord.errors import InputError
from onrecord.sources.csv_file import decode
from onrecord.sources.lines import split_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed, events_table
from onrecord.sources.time_checks import years_outside
from onrecord.sources.times import read_times

HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z _-]{0,40}):\s*(.*)$")


def read_text(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    decode(data, mapping.encoding, file)
    records = split_records(data, b"")
    if not data.strip():
        raise InputError("the file is empty", file=file)
    text = data.decode(mapping.encoding)
    header, body_at, body_line = _header(records.raws, mapping.encoding)
    spec = mapping.text
    t_lo = None
    time_text = header.get(spec.time) if spec.time else None
    if time_text:
        rules = mapping.time_rules
        try:
            read = read_times(pa.array([time_text]), spec.format, tz or mapping.timezone, rules)
        except LookupError as exc:
            raise InputError(f"{exc}: give --tz or set [mapping] timezone", file=mapping.origin) from exc
        t_lo = read.utc_ms[0].as_py()
        why = "time does not read as " + spec.format if t_lo is None else \
            "the date does not exist (the month has no such day)" if read.impossible[0] else \
            f"the year is outside {rules.years[0]}-{rules.years[1]}" if years_outside(read.utc_ms, rules.years)[0] \
            else "the local time does not exist: clocks skipped it at a daylight-saving change" \
            if read.gap[0] and rules.dst_gap == "refuse" else None
        if why:
            raise InputError(why, file=file, line=_line_of(records.raws, spec.time), field=spec.time, value=time_text)
    attrs = {k.lower(): v for k, v in header.items()}
    # Claims found later point into the document by character offset.
    attrs["body_offset"] = body_at
    row = {
        "record_index": body_line, "kind": spec.event, "time_text": time_text, "t_src_lo": t_lo,
        "t_src_hi": t_lo, "agency": agency or header.get("Agency") or mapping.agency,
        "unit": header.get("Unit"), "call": None, "actor": header.get("Author"), "channel": None,
        "place": None, "lat": None, "lon": None, "text": text[body_at:], "attrs": json.dumps(attrs),
    }
    return Parsed(records=records, events=events_table({k: [v] for k, v in row.items()}))


def _header(raws: list[bytes], encoding: str) -> tuple[dict[str, str], int, int]:
    """`Key: value` lines up to the first blank line; (header, body char offset, body record)."""
    header: dict[str, str] = {}
    offset = 0
    for i, raw in enumerate(raws):
        line = raw.decode(encoding)
        if not line.strip():
            if header:
                return header, offset + len(line), min(i + 1, len(raws) - 1)
            break
        m = HEADER_LINE.match(line.rstrip("\r\n"))
        if not m:
            break
        header[m.group(1).strip()] = m.group(2).strip()
        offset += len(line)
    return {}, 0, 0


def _line_of(raws: list[bytes], key: str) -> int | None:
    for i, raw in enumerate(raws, start=1):
        if raw.lstrip().startswith(key.encode() + b":"):
            return i
    return None



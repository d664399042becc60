"""JSON documents and NDJSON streams read through a mapping.

`[file] records` (JSONPath of names, indexes and wildcards) selects the records of a JSON
document; in NDJSON each non-blank line is a record. The mapping's columns are JMESPath
expressions evaluated on each record (`unit`, `times.received`, `units[0].id`); each value
becomes text (numbers as written by JSON, objects and lists as compact JSON) and the
shared engine (rows.py) turns the columns into events.
"""

from __future__ import annotations

import json

import jmespath
import jmespath.exceptions
import pyarrow as pa

from onrecord.errors import InputError
from onrecord.sources.csv_file import decode
from onrecord.sources.json_spans import ByteOffsets, check_json, find_records, parse_path
from onrecord.sources.lines import Records, non_blank, slice_records, split_records
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed
from onrecord.sources.rows import RowReader


def read_json(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    text = _text(data, mapping, file)
    check_json(text, file)
    steps = parse_path(mapping.records or "$", mapping.origin, "file.records")
    spans = find_records(text, steps, 1 if text.startswith("\ufeff") else 0)
    at = ByteOffsets(text, data)
    records, wanted = slice_records(data, [(at(s.start), at(s.end), s.pointer) for s in spans])
    parsed = Parsed(records=records)
    if not spans:
        return parsed
    lines = [records.ordinals[i] for i in wanted]
    table = columns_table([s.value for s in spans], mapping)
    RowReader(mapping, table, wanted, lines, file, tz, agency, parsed, cites=[s.pointer for s in spans]).read()
    return parsed


def read_ndjson(data: bytes, mapping: Mapping, file: str, tz: str | None, agency: str | None) -> Parsed:
    _text(data, mapping, file)
    records = split_records(data, b"")
    wanted = non_blank(records.raws)
    values = []
    for i in wanted:
        line = records.raws[i].decode(mapping.encoding).lstrip("\ufeff").rstrip("\r\n")
        values.append(check_json(line, file, records.ordinals[i] - 1))
    parsed = Parsed(records=Records(records.raws, records.ordinals, [None] * len(records.raws)))
    for i in wanted:
        parsed.records.paths[i] = ""  # the whole line's document (RFC 6901: "" is the root)
    if not wanted:
        return parsed
    table = columns_table(values, mapping)
    RowReader(mapping, table, wanted, [records.ordinals[i] for i in wanted], file, tz, agency, parsed).read()
    return parsed


def _text(data: bytes, mapping: Mapping, file: str) -> str:
    decode(data, mapping.encoding, file)
    text = data.decode(mapping.encoding)
    if not text.strip():
        raise InputError("the file is empty", file=file)
    return text


def compile_paths(mapping: Mapping) -> dict:
    out = {}
    for col in mapping.columns_used():
        try:
            out[col] = jmespath.compile(col)
        except jmespath.exceptions.JMESPathError as exc:
            raise InputError(f"{col!r} is not a JMESPath expression: {exc}", file=mapping.origin,
                             field="fields") from exc
    return out


def columns_table(values: list, mapping: Mapping) -> pa.Table:
    """One string column per relative path the mapping names, a row per record."""
    nulls = set(mapping.null_values)
    cols = {}
    for col, expr in compile_paths(mapping).items():
        texts = [as_text(expr.search(v)) for v in values]
        cols[col] = pa.array([None if t in nulls else t for t in texts], pa.string())
    return pa.table(cols) if cols else pa.table({"": pa.nulls(len(values), pa.string())})


def as_text(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

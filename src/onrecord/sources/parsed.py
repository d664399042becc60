"""What an adapter hands the importer: the file's records and the events read from them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa

from onrecord.model import EVENT_SCHEMA
from onrecord.sources.lines import Records


@dataclass
class Reject:
    line: int
    column: str | None
    value: str | None
    reason: str
    path: str | None = None  # the record's JSON Pointer / XPath / sheet row, where the line does not say it


def events_table(columns: dict[str, list | pa.Array]) -> pa.Table:
    """Events as a table of the event schema; columns not given are all null."""
    n = len(columns.get("record_index", ()))
    arrays = []
    for f in EVENT_SCHEMA:
        values = columns.get(f.name)
        if values is None or (isinstance(values, list) and values.count(None) == n):
            arrays.append(pa.nulls(n, f.type))  # a column never given (a live batch: most of them), made at once
        elif isinstance(values, pa.Array | pa.ChunkedArray):
            arrays.append(values.cast(f.type))
        else:
            arrays.append(pa.array(values, f.type))
    return pa.Table.from_arrays(arrays, schema=EVENT_SCHEMA)


@dataclass
class Parsed:
    records: Records
    events: pa.Table = field(default_factory=EVENT_SCHEMA.empty_table)
    left_out: int = 0  # rows a [rows] when / unless filter left out (no events, no error)
    rejects: list[Reject] = field(default_factory=list)
    # Values read by an explicit rule but worth a reader's attention (a time in the hour a
    # DST change repeats): same shape as a reject, the row's events are kept.
    notes: list[Reject] = field(default_factory=list)
    # Values that had no entry in their code table: (table, value) -> count.
    uncoded: dict[tuple[str, str], int] = field(default_factory=dict)
    # What the import should say besides counts: each deviation a tolerant reader let
    # through, a schema not found, a schema's known defect patched.
    remarks: list[str] = field(default_factory=list)

    @property
    def event_count(self) -> int:
        return self.events.num_rows

"""The aligned timeline as a table (CSV or Parquet, with pyarrow): one row per event, with
every column a user needs to check it — both clocks, the offset applied, the fused event,
the source and the raw record (line, path, SHA-256). Untimed events are kept, timeless."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa

from onrecord.views.export.result import ExportResult, event_time, offset_applied

COLUMNS = [
    ("event_id", pa.int64()), ("kind", pa.string()), ("time_utc", pa.string()), ("t_lo_ms", pa.int64()),
    ("t_hi_ms", pa.int64()), ("clock", pa.string()), ("clock_offset_s", pa.float64()),
    ("source_t_lo_ms", pa.int64()), ("source_t_hi_ms", pa.int64()), ("time_as_written", pa.string()),
    ("agency", pa.string()), ("unit", pa.string()), ("call", pa.string()), ("actor", pa.string()),
    ("channel", pa.string()), ("place", pa.string()), ("lat", pa.float64()), ("lon", pa.float64()),
    ("text", pa.string()), ("attrs", pa.string()), ("fused_id", pa.int64()), ("source_id", pa.int64()),
    ("source_file", pa.string()), ("source_kind", pa.string()), ("source_agency", pa.string()),
    ("source_timezone", pa.string()), ("record_id", pa.int64()), ("record_line", pa.int64()),
    ("record_path", pa.string()), ("record_sha256", pa.string()),
]
SCHEMA = pa.schema(COLUMNS)


def timeline_table(reader) -> pa.Table:
    clocks = reader.clock_estimates()
    cols: dict[str, list] = {name: [] for name, _ in COLUMNS}
    for row in reader.export_events():
        lo, hi, clock = event_time(row)
        values = {
            "event_id": row["id"], "kind": row["kind"],
            "time_utc": None if lo is None else
            datetime.fromtimestamp(lo / 1000, tz=timezone.utc).isoformat(timespec="milliseconds"),
            "t_lo_ms": lo, "t_hi_ms": hi, "clock": clock, "clock_offset_s": offset_applied(row, clocks),
            "source_t_lo_ms": row["t_src_lo"], "source_t_hi_ms": row["t_src_hi"], "time_as_written": row["time_text"],
            "agency": row["agency"], "unit": row["unit"], "call": row["call"], "actor": row["actor"],
            "channel": row["channel"], "place": row["place"], "lat": row["lat"], "lon": row["lon"],
            "text": row["text"], "attrs": json.dumps(row["attrs"], ensure_ascii=False) if row["attrs"] else None,
            "fused_id": row["fused_id"], "source_id": row["source_id"], "source_file": row["file_name"],
            "source_kind": row["source_kind"], "source_agency": row["source_agency"],
            "source_timezone": row["timezone"], "record_id": row["record_id"], "record_line": row["ordinal"],
            "record_path": row["path"], "record_sha256": row["sha256"],
        }
        for name in cols:
            cols[name].append(values[name])
    return pa.Table.from_pydict(cols, schema=SCHEMA)


def write_csv(reader, out: Path) -> ExportResult:
    import pyarrow.csv as pcsv

    table = timeline_table(reader)
    pcsv.write_csv(table, str(out))
    return ExportResult("csv", [out], table.num_rows)


def write_parquet(reader, out: Path) -> ExportResult:
    import pyarrow.parquet as pq

    table = timeline_table(reader)
    pq.write_table(table, str(out))
    return ExportResult("parquet", [out], table.num_rows)

"""Timesketch JSONL: one event a line, importable as is (Timesketch's own rules: every line
has `message`, `datetime` (ISO 8601) and `timestamp_desc`; `timestamp` is microseconds
since the epoch, and is written consistent with `datetime`, since Timesketch never
cross-checks them). Provenance goes in extra fields."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from onrecord.views.export.result import ExportResult, event_time, offset_applied

SOURCE_LABEL = {"cad": "CAD", "call911": "911", "avl": "AVL", "eido": "EIDO", "cap": "CAP"}


def kind_label(kind: str) -> str:
    return kind.replace("_", " ").capitalize()


def timestamp_desc(row: dict, clock: str, offset: float | None) -> str:
    source = SOURCE_LABEL.get(row["source_kind"], row["source_kind"])
    if clock == "aligned":
        how = "clock offset applied" if offset is not None else "common clock"
    else:
        how = "source clock"
    return f"{kind_label(row['kind'])} ({source}, {how})"


def message(row: dict) -> str:
    parts = [kind_label(row["kind"])]
    if row.get("unit"):
        parts.append(f"unit {row['unit']}")
    if row.get("agency"):
        parts.append(f"({row['agency']})")
    text = (row.get("text") or "").replace("\n", " ").strip()
    return " ".join(parts) + (f": {text[:500]}" if text else "")


def timesketch_line(row: dict, clocks: dict) -> dict | None:
    lo, hi, clock = event_time(row)
    if lo is None:
        return None
    offset = offset_applied(row, clocks)
    when = datetime.fromtimestamp(lo / 1000, tz=timezone.utc)
    out = {
        "message": message(row),
        "datetime": when.isoformat(timespec="milliseconds"),
        "timestamp": lo * 1000,
        "timestamp_desc": timestamp_desc(row, clock, offset),
        "data_type": "onrecord:event",
        "event_id": row["id"], "kind": row["kind"], "agency": row.get("agency"), "unit": row.get("unit"),
        "call": row.get("call"), "actor": row.get("actor"), "channel": row.get("channel"),
        "place": row.get("place"), "time_as_written": row.get("time_text"),
        "time_uncertainty_s": (hi - lo) / 1000 if hi is not None else None,
        "clock": clock, "clock_offset_s": offset, "fused_id": row.get("fused_id"),
        "source_file": row["file_name"], "source_kind": row["source_kind"], "source_line": row["ordinal"],
        "source_path": row.get("path"), "record_sha256": row["sha256"],
    }
    return {k: v for k, v in out.items() if v is not None}


def write_timesketch(reader, out: Path) -> ExportResult:
    clocks = reader.clock_estimates()
    result = ExportResult("timesketch", [out], 0)
    with out.open("w", encoding="utf-8") as fh:
        for row in reader.export_events():
            line = timesketch_line(row, clocks)
            if line is None:
                result.left_out["no time (Timesketch places every event at a moment)"] += 1
                continue
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
            result.written += 1
    return result

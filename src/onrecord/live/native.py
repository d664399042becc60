"""The onrecord event JSON a sensor or alerting system can POST when it has no mapping of
its own: one object (or a list of them) with the event's columns — `kind`, `time`
(RFC 3339 with an offset), and any of unit, agency, call, channel, place, lat, lon,
text, attrs. docs/live.md. Each bad field is a rejection naming it, never a traceback.
"""

from __future__ import annotations

import json
from datetime import datetime

import pyarrow as pa

from onrecord.model import EVENT_COLUMNS
from onrecord.sources.lines import Records
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.vocab import EVENT_KINDS

TEXT_FIELDS = ("unit", "agency", "call", "actor", "channel", "place", "text")


def read_event_json(data: bytes, file: str, agency: str | None = None) -> Parsed:
    """One frame: its events (`record_index` 0), or the rejection of each bad item."""
    parsed = Parsed(records=Records([data], [1]))
    cols, rejects = _columns()
    _add_frame(cols, rejects, 0, data, agency)
    parsed.events = events_table(cols)
    parsed.rejects = rejects.get(0, [])
    return parsed


def read_event_json_frames(frames: list[bytes], agency: str | None = None,
                           rows: dict[int, list[dict]] | None = None) -> tuple[pa.Table, dict[int, list[Reject]]]:
    """Many frames in one pass: one table of their events (`record_index`: the frame's
    position), and each frame's rejections by position. A frame with a rejection has no
    events in the table (it is read whole or not at all, as one frame alone is). `rows`,
    when given, is filled with each frame's events as read (by position; the row's columns
    and `attrs_obj`, its attrs as parsed): what a live event is made of, without reading the
    table back or parsing the attrs a second time (live/ingest.py)."""
    rejects: dict[int, list[Reject]] = {}
    kept: dict[int, list[dict]] = {} if rows is None else rows
    for i, data in enumerate(frames):
        _read_frame(kept, rejects, i, data, agency)
    # the columns made at the end, a column at a time (not 16 appends a row)
    every = [(i, row) for i, frame_rows in kept.items() for row in frame_rows]
    cols: dict[str, list] = {"record_index": [i for i, _ in every]}
    for name in EVENT_COLUMNS:
        cols[name] = [row.get(name) for _, row in every]
    return events_table(cols), rejects


def _columns() -> tuple[dict[str, list], dict[int, list[Reject]]]:
    cols: dict[str, list] = {"record_index": []}
    for name in EVENT_COLUMNS:
        cols[name] = []
    return cols, {}


def _add_frame(cols: dict[str, list], rejects: dict[int, list[Reject]], index: int, data: bytes,
               agency: str | None) -> None:
    kept: dict[int, list[dict]] = {}
    _read_frame(kept, rejects, index, data, agency)
    for row in kept.get(index, ()):
        cols["record_index"].append(index)
        for name in EVENT_COLUMNS:
            cols[name].append(row.get(name))


def _read_frame(kept: dict[int, list[dict]], rejects: dict[int, list[Reject]], index: int, data: bytes,
                agency: str | None) -> None:
    """One frame's rows into `kept` (by its position), or its rejections into `rejects`."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        rejects[index] = [Reject(1, None, None, f"not JSON: {exc}")]
        return
    items = doc if isinstance(doc, list) else [doc]
    rows, bad = [], []
    for i, item in enumerate(items):
        where = f"[{i}]" if isinstance(doc, list) else ""
        row, why = _row(item)
        if why:
            bad.append(Reject(1, where + why[0], why[1], why[2]))
            continue
        if agency and not row.get("agency"):
            row["agency"] = agency
        rows.append(row)
    if bad:
        rejects[index] = bad
        return
    if rows:
        kept[index] = rows


def _row(item) -> tuple[dict, tuple | None]:
    if not isinstance(item, dict):
        return {}, ("", None, "an event must be a JSON object")
    kind = item.get("kind")
    if kind not in EVENT_KINDS:
        return {}, ("kind", _short(kind), "is not an event kind (docs/events.md)")
    t = item.get("time")
    try:
        when = datetime.fromisoformat(str(t).replace("Z", "+00:00")) if t is not None else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        return {}, ("time", _short(t), "must be an RFC 3339 time with an offset")
    ms = int(when.timestamp() * 1000)
    row = {"kind": kind, "time_text": str(t), "t_src_lo": ms, "t_src_hi": ms}
    for name in TEXT_FIELDS:
        v = item.get(name)
        if v is not None and not isinstance(v, str | int | float):
            return {}, (name, _short(v), "must be text")
        row[name] = None if v is None else str(v)
    for name in ("lat", "lon"):
        v = item.get(name)
        if v is not None and (not isinstance(v, int | float) or not (-180 <= v <= 180)):
            return {}, (name, _short(v), "must be a number of degrees")
        row[name] = v
    attrs = item.get("attrs")
    if attrs is not None and not isinstance(attrs, dict):
        return {}, ("attrs", _short(attrs), "must be an object")
    row["attrs"] = json.dumps(attrs, sort_keys=True) if attrs else None
    row["attrs_obj"] = attrs or {}  # as parsed: the live event's, not parsed again from the text
    return row, None


def _short(v) -> str | None:
    return None if v is None else str(v)[:200]

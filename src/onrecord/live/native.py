"""The onrecord event JSON a sensor or alerting system can POST when it has no mapping of
its own: one object (or a list of them) with the event's columns — `kind`, `time`
(RFC 3339 with an offset), and any of unit, agency, call, channel, place, lat, lon,
text, attrs. docs/live.md. Each bad field is a rejection naming it, never a traceback.
"""

from __future__ import annotations

import json
from datetime import datetime

from onrecord.model import EVENT_COLUMNS
from onrecord.sources.lines import Records
from onrecord.sources.parsed import Parsed, Reject, events_table
from onrecord.vocab import EVENT_KINDS

TEXT_FIELDS = ("unit", "agency", "call", "actor", "channel", "place", "text")


def read_event_json(data: bytes, file: str, agency: str | None = None) -> Parsed:
    parsed = Parsed(records=Records([data], [1]))
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        parsed.rejects.append(Reject(1, None, None, f"not JSON: {exc}"))
        return parsed
    items = doc if isinstance(doc, list) else [doc]
    cols: dict[str, list] = {"record_index": []}
    for name in EVENT_COLUMNS:
        cols[name] = []
    for i, item in enumerate(items):
        where = f"[{i}]" if isinstance(doc, list) else ""
        row, why = _row(item)
        if why:
            parsed.rejects.append(Reject(1, where + why[0], why[1], why[2]))
            continue
        if agency and not row.get("agency"):
            row["agency"] = agency
        cols["record_index"].append(0)
        for name in EVENT_COLUMNS:
            cols[name].append(row.get(name))
    parsed.events = events_table(cols)
    return parsed


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
    return row, None


def _short(v) -> str | None:
    return None if v is None else str(v)[:200]

"""The common language every stage shares (DESIGN.md, "The event model"; docs/events.md).

Sources hand events on as Arrow columns (EVENT_COLUMNS, EVENT_SCHEMA): a million-row
file never becomes a million Python objects. What the store gives back is one typed row
per record (Source, RawRecord, Event). Who-is-who writes Entity records; claims come
out of the text as Claim; every number a view shows is a Finding: values, times (UTC
ms) and evidence ids, never a finished sentence (findings/render.py words it for the
reader, in the reader's zone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

import pyarrow as pa

# ---- Event: the columns one import writes per event (store/schema.py `events`)

EVENT_COLUMNS = ("kind", "time_text", "t_src_lo", "t_src_hi", "agency", "unit", "call",
                 "actor", "channel", "place", "lat", "lon", "text", "attrs", "path")

# Events stay columns of Arrow arrays from the parser to the store. `record_index`
# points into the file's records (the raw record each event was read from).
EVENT_SCHEMA = pa.schema(
    [("record_index", pa.int64())]
    + [(name, {"t_src_lo": pa.int64(), "t_src_hi": pa.int64(), "lat": pa.float64(),
               "lon": pa.float64()}.get(name, pa.string())) for name in EVENT_COLUMNS])


class Source(TypedDict):
    """One imported file, as stored."""

    id: int
    case_id: int
    kind: str  # vocab.SOURCE_KINDS
    agency: str | None
    file_name: str
    file_sha256: str
    mapping_name: str
    mapping_text: str  # the mapping as used, so its events can be re-derived
    timezone: str | None
    record_count: int
    event_count: int
    rejected_count: int
    imported_at: str


class RawRecord(TypedDict):
    """One record exactly as handed over, on the case's hash chain."""

    id: int
    case_id: int
    source_id: int
    seq: int  # position on the chain, from 1
    ordinal: int  # line in the file where it starts, from 1
    path: str | None  # its JSON Pointer / XPath in the file, where the line does not say it
    raw: bytes
    sha256: bytes
    chain: bytes  # SHA-256(previous chain value || sha256)


class Event(TypedDict):
    """One event, as stored: its time as written, and read on its source's own clock."""

    id: int
    case_id: int
    source_id: int
    raw_record_id: int
    kind: str  # vocab.EVENT_KINDS
    time_text: str | None
    t_src_lo: int | None  # UTC ms on the source's clock; [lo, hi] is the written precision
    t_src_hi: int | None
    agency: str | None
    unit: str | None
    call: str | None
    actor: str | None
    channel: str | None
    place: str | None
    lat: float | None
    lon: float | None
    text: str | None
    attrs: str | None  # JSON object
    path: str | None  # where inside the raw record it was read (JSON Pointer, XPath, sheet row)


# ---- Entity: who is who (reconstruct/who_is_who.py)

@dataclass
class Entity:
    id: int
    kind: str  # unit, person, agency
    name: str  # the canonical name
    agency: str | None = None
    aliases: set[str] = field(default_factory=set)
    attrs: dict = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)


# ---- Claim: who says what number about whom (claims/)

@dataclass
class Claim:
    id: str
    doc: str
    start: int  # character span of the value in the original document text
    end: int
    text: str  # the value as written, e.g. "upwards of four minutes"
    sentence: str
    sentence_start: int
    speaker: str | None  # entity id; "author:<doc>" when the writer says it
    speaker_text: str | None
    subject: str | None  # entity id of who/what the claim is about
    subject_text: str | None
    measure: str
    lo: float | None  # None = open (no bound on that side)
    hi: float | None
    unit: str
    hedge: str | None
    quoted: bool = False
    qualifier: str | None = None  # e.g. the action for time_of_action
    of_total: float | None = None  # "40 of the 130" keeps the 130 here
    time_ref: dict[str, Any] | None = None
    value_text: str | None = None  # a value in words: the place of place_of_action


# ---- Finding: a metric, a discrepancy, a warning, an alert

@dataclass
class Finding:
    """Data, never a sentence: `payload` holds what the sentence needs (values, times in
    UTC ms, names as the records write them, reason codes); findings/render.py words it."""

    name: str
    status: str  # established / not_established (payload["reason"] says why)
    kind: str = "metric"  # metric, discrepancy, warning, alert
    subject: str | None = None
    value_lo: float | None = None
    value_hi: float | None = None
    unit: str | None = None  # utc_ms, s, count
    payload: dict = field(default_factory=dict)
    evidence: list[int] = field(default_factory=list)

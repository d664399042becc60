"""One ingest node: frames from the feeds onto the case's evidence chain, then read.

A frame (a WebSocket message, a webhook's body, a dropped file, a CSV row) is appended to
the chain, in the case's store, through the store's writer, *before* anything reads it;
only then is it acknowledged, and only then read through its feed's mapping into events
(stored too, pointing at the frame). A frame that cannot be read — malformed, a unit no
roster knows, a time hours off, over the feed's rate — stays on the chain as evidence and
is rejected with a reason (the log `live-rejects.jsonl` in the case folder, and the board).

Writes run in one thread (SQLite takes one writer; the frames of a burst go in one
transaction each way).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa

from onrecord.live.clocks import LiveClocks
from onrecord.live.events import LiveEvent, interpret
from onrecord.live.native import read_event_json
from onrecord.live.units import UnitDirectory
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed
from onrecord.sources.registry import ADAPTERS
from onrecord.store.case import Case
from onrecord.store.receipts import LIVE_EVERY_S
from onrecord.store.writer import SourceMeta, add_frame_events, append_frames, open_live_source

FAR_OFF_MS = 3_600_000  # a live record stamped an hour from now is not live
REJECTS_FILE = "live-rejects.jsonl"


@dataclass
class FeedSpec:
    name: str
    type: str  # eido-websocket, webhook, folder, csv-tail
    mapping: Mapping | None = None  # None: the onrecord event JSON (native.py)
    agency: str | None = None
    tz: str | None = None
    source_kind: str = "sensor"
    clock_of: str | None = None  # an imported source's file name whose clock it shares
    offset_s: float | None = None  # its clock offset, when the user knows it
    unknown_units: str = "accept"  # or "reject": a unit no roster or build knows
    max_rate: float = 5000.0  # frames a second read; beyond, kept and rejected as a flood
    options: dict = field(default_factory=dict)  # url, path, ... (the feed's own)

    @property
    def file_name(self) -> str:
        return f"live:{self.name}"


@dataclass
class Outcome:
    raw_id: int
    events: list[LiveEvent]
    reject: str | None = None
    table: pa.Table | None = None  # the events as read, to store


class LiveFeed:
    """A feed's source in the case: its id, the running SHA-256 of its records, its reader."""

    def __init__(self, spec: FeedSpec, source_id: int, digest, frames: int):
        self.spec, self.source_id, self.digest, self.frames = spec, source_id, digest, frames
        self.header: bytes | None = None  # a tailed CSV's header line
        self.history: list[bytes] = []  # an EIDO feed's notify messages (snapshots are diffed)
        self.received, self.last_event_t, self.lag_ms = 0, None, None
        self.rejected = 0
        self.taken_bytes, self.seen = 0, set()
        self._bucket, self._bucket_t = spec.max_rate, time.monotonic()
        self.receipted_at = time.monotonic()  # the feed's newest signed receipt (store/receipts.py)

    def over_rate(self) -> bool:
        now = time.monotonic()
        self._bucket = min(self.spec.max_rate, self._bucket + (now - self._bucket_t) * self.spec.max_rate)
        self._bucket_t = now
        if self._bucket < 1:
            return True
        self._bucket -= 1
        return False


class IngestNode:
    def __init__(self, case: Case, directory: UnitDirectory, clocks: LiveClocks,
                 publish: Callable[[list[LiveEvent]], None] = lambda evs: None,
                 on_reject: Callable[[dict], None] = lambda r: None):
        self.case, self.directory, self.clocks = case, directory, clocks
        self.publish, self.on_reject = publish, on_reject
        self.feeds: dict[str, LiveFeed] = {}
        self._lock = threading.Lock()
        self.source_kinds: dict[int, str] = {}

    # ---- feeds

    def open_feed(self, spec: FeedSpec) -> LiveFeed:
        """The feed's source, opened (a restart finds it and re-hashes what it holds)."""
        from onrecord.store.reader import open_reader

        mapping = spec.mapping
        meta = SourceMeta(kind=mapping.source_kind if mapping else spec.source_kind,
                          agency=spec.agency or (mapping.agency if mapping else None), file_name=spec.file_name,
                          file_sha256="", mapping_name=mapping.name if mapping else "onrecord-event-json",
                          mapping_text=mapping.raw_text if mapping else "", timezone=spec.tz or
                          (mapping.timezone if mapping else None), rejected_count=0)
        opening = json.dumps({"onrecord_live_feed": spec.name, "type": spec.type, "opened_at": _now_iso(),
                              **{k: str(v) for k, v in spec.options.items()}}, sort_keys=True).encode() + b"\n"
        meta.file_sha256 = hashlib.sha256(opening).hexdigest()
        with self._lock:
            source_id, existed = open_live_source(self.case, meta, opening)
            if not existed:  # the feed's opening on a receipt; its frames come after (docs/store.md)
                from onrecord.store.receipts import issue_live

                issue_live(self.case, source_id)
        digest, held = hashlib.sha256(), [opening]
        if existed:
            held = [bytes(raw) for (raw,) in open_reader(self.case).source_bytes(source_id)]
        for raw in held:
            digest.update(raw)
        feed = LiveFeed(spec, source_id, digest, len(held))
        # where a restarted feed takes up again: the bytes of a tailed file already taken,
        # the files of a folder already taken, an EIDO feed's snapshots so far
        feed.taken_bytes = sum(len(r) for r in held[1:])
        feed.seen = {hashlib.sha256(r).digest() for r in held[1:]}
        if spec.type == "csv-tail" and len(held) > 1:
            feed.header = held[1]
        if spec.type == "eido-websocket":
            feed.history = held[1:]
        self.clocks.bind(source_id, spec.clock_of, spec.offset_s)
        self.source_kinds[source_id] = meta.kind
        self.feeds[spec.name] = feed
        return feed

    # ---- frames

    def accept(self, feed: LiveFeed, frames: list[bytes]) -> list[Outcome]:
        """Frames onto the chain (then acknowledged), then read; what each became."""
        if not frames:
            return []
        with self._lock:
            for f in frames:
                feed.digest.update(f)
            first = append_frames(self.case, feed.source_id, frames, feed.digest.hexdigest())
            feed.frames += len(frames)
            outcomes = [self._read(feed, first + i, f) for i, f in enumerate(frames)]
            self._store_events(feed, first, outcomes)
            if time.monotonic() - feed.receipted_at >= LIVE_EVERY_S:
                self.checkpoint(feed)
        for o in outcomes:
            if o.reject:
                self._rejected(feed, o)
        events = [e for o in outcomes for e in o.events]
        if events:
            self.publish(events)
        return outcomes

    def checkpoint(self, feed: LiveFeed) -> dict:
        """A signed receipt of the feed's source as far as it goes now: its frames and events
        so far are then proven outside the database too."""
        from onrecord.store.receipts import issue_live

        feed.receipted_at = time.monotonic()
        return issue_live(self.case, feed.source_id)

    def _read(self, feed: LiveFeed, raw_id: int, frame: bytes) -> Outcome:
        feed.received += 1
        if feed.over_rate():
            return Outcome(raw_id, [], "flood: over the feed's rate of "
                                        f"{feed.spec.max_rate:g} frames a second (kept, not read)")
        try:
            parsed = self._parse(feed, frame)
        except Exception as exc:  # a reader's failure on one frame must not stop the feed
            return Outcome(raw_id, [], f"cannot be read: {exc}"[:300])
        if parsed is None:
            return Outcome(raw_id, [])
        if parsed.rejects:
            r = parsed.rejects[0]
            where = f" (field {r.column})" if r.column else ""
            return Outcome(raw_id, [], f"{r.reason}{where}" + (f": {r.value!r}" if r.value is not None else ""))
        out = Outcome(raw_id, [], table=parsed.events)
        now = time.time() * 1000
        for row in parsed.events.to_pylist():
            ev = self._event(feed, raw_id, row)
            if ev.t is not None and abs(ev.t - now) > FAR_OFF_MS:
                return Outcome(raw_id, [], f"time {row.get('time_text')!r} is {abs(ev.t - now) / 3_600_000:.1f} "
                                           "hours from now on the common clock: not a live record")
            if ev.unit is not None and feed.spec.unknown_units == "reject" and ev.unit not in \
                    self.directory.entities:
                return Outcome(raw_id, [], f"unit {ev.unit_name!r} is on no roster of the case")
            out.events.append(ev)
        return out

    def _parse(self, feed: LiveFeed, frame: bytes) -> Parsed | None:
        spec, m = feed.spec, feed.spec.mapping
        if m is None:
            return read_event_json(frame, spec.file_name, spec.agency)
        if spec.type == "csv-tail" and m.format == "csv" and m.header:
            if feed.header is None:
                feed.header = frame
                return None  # the header line: kept, read as the names of the columns
            return ADAPTERS["csv"](feed.header + frame, m, spec.file_name, spec.tz, spec.agency)
        if spec.type == "eido-websocket":
            return self._eido(feed, frame)
        return ADAPTERS[m.format](frame, m, spec.file_name, spec.tz, spec.agency)

    def _eido(self, feed: LiveFeed, frame: bytes) -> Parsed:
        """The EIDO importer's diff of snapshots by $id (sources/eido, issue 17) over the feed's
        notify messages so far; the events of the newest message are this frame's."""
        try:
            msg = json.loads(frame)
        except ValueError as exc:
            raise ValueError(f"not JSON: {exc}") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("event"), dict):
            raise ValueError("not a NENA-STA-024 event message (no 'event' object)")
        reader = ADAPTERS.get("eido") if feed.spec.mapping.format == "eido" else None
        if reader is None:
            raise LookupError("no eido reader is installed to diff the EIDO snapshots (the EIDO importer, issue 17)")
        feed.history.append(frame)
        data = b"".join(h if h.endswith(b"\n") else h + b"\n" for h in feed.history)
        parsed = reader(data, feed.spec.mapping, feed.spec.file_name, feed.spec.tz, feed.spec.agency)
        newest = len(parsed.records.raws) - 1
        keep = [i for i, r in enumerate(parsed.events.column("record_index").to_pylist()) if r == newest]
        parsed.events = parsed.events.take(pa.array(keep, pa.int64())) if keep else parsed.events.slice(0, 0)
        parsed.rejects = [r for r in parsed.rejects if r.line == newest + 1]
        return parsed

    def _event(self, feed: LiveFeed, raw_id: int, row: dict) -> LiveEvent:
        lo, hi, status = self.clocks.align(feed.source_id, row.get("t_src_lo"), row.get("t_src_hi"))
        attrs = json.loads(row["attrs"]) if row.get("attrs") else {}
        ev = LiveEvent(id=0, source_id=feed.source_id, kind=row["kind"], t_lo=lo, t_hi=hi,
                       unit=self.directory.key(row.get("unit"), row.get("agency")), unit_name=row.get("unit"),
                       agency=row.get("agency"), call=row.get("call"), channel=row.get("channel"),
                       text=row.get("text"), attrs=attrs, source_kind=self.source_kinds.get(feed.source_id),
                       clock=status, frame=raw_id)
        ev.t_src = row.get("t_src_lo")  # type: ignore[attr-defined]
        return interpret(ev)

    def _store_events(self, feed: LiveFeed, first_raw: int, outcomes: list[Outcome]) -> None:
        kept = [(o, o.table) for o in outcomes if o.events and o.table is not None]
        if not kept:
            return
        tables = []
        for o, t in kept:
            idx = pa.array([o.raw_id - first_raw] * t.num_rows, pa.int64())
            tables.append(t.set_column(0, "record_index", idx))
        first_event = add_frame_events(self.case, feed.source_id, first_raw, pa.concat_tables(tables))
        n = first_event
        for o, _ in kept:
            for ev in o.events:
                ev.id, n = n, n + 1
                self._refine(feed, ev)
                if ev.t is not None:
                    feed.last_event_t = max(feed.last_event_t or ev.t, ev.t)
                    feed.lag_ms = time.time() * 1000 - ev.t

    def _refine(self, feed: LiveFeed, ev: LiveEvent) -> None:
        """A unit's moment seen here and by a feed of known clock refines this feed's clock
        (for the events after it: what was read stays as it was read)."""
        src_t = getattr(ev, "t_src", None)
        for what in ev.whats:
            if ev.unit is not None and what.startswith("unit_") and src_t is not None and ev.t is not None:
                self.clocks.learn(feed.source_id, (what, ev.unit), src_t, ev.t)

    def _rejected(self, feed: LiveFeed, o: Outcome) -> None:
        feed.rejected += 1
        row = {"at": _now_iso(), "feed": feed.spec.name, "raw_record": o.raw_id, "reason": o.reject}
        with open(Path(self.case.path) / REJECTS_FILE, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        self.on_reject(row)

    def feed_status(self) -> list[dict]:
        """Each feed as the board lists it: frames, rejected, its lag, how well its clock is known."""
        out = []
        for f in self.feeds.values():
            c = self.clocks.clock(f.source_id)
            out.append({"feed": f.spec.name, "type": f.spec.type, "frames": f.received, "rejected": f.rejected,
                        "lag_s": None if f.lag_ms is None else round(f.lag_ms / 1000, 1),
                        "clock": c.status, "offset_s": c.offset_s, "uncertainty_s": c.uncertainty_s})
        return out


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")

"""One ingest node: frames from the feeds onto the case's evidence chain, then read.

A frame (a WebSocket message, a webhook's body, a dropped file, a CSV row) is appended to
the chain, in the case's store, through the store's writer, *before* anything reads it;
only then is it acknowledged, and only then read through its feed's mapping into events
(stored too, pointing at the frame). A frame that cannot be read — malformed, a unit no
roster knows, a time hours off, over the feed's rate — stays on the chain as evidence and
is rejected with a reason (the log `live-rejects.jsonl` in the case folder, and the board).

Group commit: frames are handed to one writer thread, which takes every frame waiting —
from any feed, up to MAX_BATCH_FRAMES / MAX_BATCH_BYTES, waiting at most LINGER_S for more
after the first — and writes the batch in one transaction (store/live_writer.py): the
frames on the chain, then read (a feed's frames of the batch in one pass of its reader
where its format allows), then their events; then the commit; then each frame is
acknowledged (its caller's `accept` returns, or its future is done). A commit costs a
sync of the file whatever it holds: one a batch, not two a frame, is what lets thousands
of frames a second in. At a low rate a batch is one frame and waits LINGER_S at most.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from onrecord.live.batch_read import csv_lines_together, frame_rows
from onrecord.live.clocks import LiveClocks
from onrecord.live.events import LiveEvent, interpret
from onrecord.live.native import read_event_json, read_event_json_frames
from onrecord.live.units import UnitDirectory
from onrecord.sources.mapping import Mapping
from onrecord.sources.parsed import Parsed, Reject
from onrecord.sources.registry import ADAPTERS
from onrecord.store.case import Case
from onrecord.store.live_writer import LiveWrite, live_transaction, writer_connection
from onrecord.store.receipts import LIVE_EVERY_S
from onrecord.store.writer import SourceMeta, open_live_source

FAR_OFF_MS = 3_600_000  # a live record stamped an hour from now is not live
REJECTS_FILE = "live-rejects.jsonl"
# A batch: at most this many frames or bytes (a webhook's frame is at most 4 MB), and after
# its first frame at most this long waiting for more (what a frame's latency may grow by
# at a low rate; under load the batch fills while the previous one commits).
MAX_BATCH_FRAMES = 2000
MAX_BATCH_BYTES = 16 << 20
LINGER_S = 0.002
# A feed's receipt digests every row of its source so far, a slice of this many rows after
# each batch; as the source grows, receipts come no oftener than RECEIPT_SPACING times the
# writer's time the last one took (at most a twentieth of it), and at least LIVE_EVERY_S apart.
RECEIPT_SLICE = 5000
RECEIPT_SPACING = 20.0


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
    table: pa.Table | None = None  # the events as read, to store (of this frame, or of its batch)
    position: int | None = None  # its events' record_index in `table` (None: all of the table)


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
        self.receipt_took = 0.0  # the writer's time it took (it digests every row of the source so far)
        self.receipt = None  # a receipt under way (store/receipts.py, LiveReceipt), and its time so far
        self.receipt_work = 0.0

    def saved(self) -> tuple:
        """What writing a batch changes in the feed, to be put back if the batch is not kept."""
        return (self.digest.copy(), self.frames, self.header, len(self.history), self.received,
                self._bucket, self._bucket_t)

    def restore(self, saved: tuple) -> None:
        self.digest, self.frames, self.header, n, self.received, self._bucket, self._bucket_t = saved
        del self.history[n:]

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
        self.max_batch_frames, self.max_batch_bytes, self.linger_s = MAX_BATCH_FRAMES, MAX_BATCH_BYTES, LINGER_S
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._publisher: threading.Thread | None = None
        self._handoff: queue.SimpleQueue = queue.SimpleQueue()  # committed batches, to publish
        self._loop: asyncio.AbstractEventLoop | None = None  # where they are published (deliver_on_loop)
        self._start_lock = threading.Lock()
        # the writer's store connection, kept between batches where the store allows it
        self._kept = writer_connection(case)
        # what group commit did: (frames, seconds from taking the batch to its commit, of which committing)
        self.batches: deque = deque(maxlen=100_000)
        self.receipts: deque = deque(maxlen=1000)  # (feed, its frames, seconds signing its receipt took)

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
        """Frames onto the chain, read, their events stored and published; what each became.
        Returns once the batch holding them is committed (they are then acknowledged)."""
        if not frames:
            return []
        return self.submit(feed, frames).result()

    async def accept_async(self, feed: LiveFeed, frames: list[bytes]) -> list[Outcome]:
        """`accept` for the event loop: no thread is held while the frames wait for their
        batch (a thread each would cap how many webhooks can be in one batch). Shielded: a
        caller that goes away does not take its frames out of a batch being written."""
        if not frames:
            return []
        return await asyncio.shield(asyncio.wrap_future(self.submit(feed, frames)))

    def submit(self, feed: LiveFeed, frames: list[bytes]) -> Future:
        """The frames queued for the writer thread; the future's result is their outcomes."""
        fut: Future = Future()
        with self._start_lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(target=self._write_loop, name="onrecord-live-ingest", daemon=True)
                self._writer.start()
                if self._loop is None:
                    self._publisher = threading.Thread(target=self._publish_loop, name="onrecord-live-publish",
                                                       daemon=True)
                    self._publisher.start()
        self._queue.put((feed, list(frames), fut))
        return fut

    async def deliver_on_loop(self, publish: Callable[[list[LiveEvent]], Awaitable[None]]) -> None:
        """From now on (before the first frame), committed batches are published on this
        event loop by `publish` (the stream's, a coroutine function), in order, then their
        frames acknowledged: one hand-over from the writer thread a batch, where a thread
        publishing through the loop takes three (to it, to the loop, back), each a wait for
        a free core on a loaded machine."""
        self._loop, self._apublish = asyncio.get_running_loop(), publish
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._delivered = threading.Event()
        self._delivery = asyncio.create_task(self._deliver_loop())

    async def _deliver_loop(self) -> None:
        while True:
            item = await self._inbox.get()
            if item is None:
                self._delivered.set()
                return
            events, done = item
            try:
                if events:
                    await self._apublish(events)
            except Exception as exc:  # on the chain and stored: a restarted node reads them again
                _not_handed(events, exc)
            finally:
                for fut, outs in done:
                    fut.set_result(outs)

    def close(self) -> None:
        """Stops the writer (and the publishing) once the frames queued before are written and
        their events published. Not on the delivering event loop's own thread: it waits for it."""
        with self._start_lock:
            writer, publisher, self._writer, self._publisher = self._writer, self._publisher, None, None
        if writer is not None and writer.is_alive():
            self._queue.put(None)
            writer.join()
        if publisher is not None and publisher.is_alive():
            self._handoff.put(None)
            publisher.join()
        with self._lock:  # no batch is being written now: the writer's connection goes
            self._kept.drop()
        if self._loop is not None and not self._delivered.is_set() and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._inbox.put_nowait, None)
            self._delivered.wait(60)

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch, size, stop = [first], len(first[1]), False
            nbytes = sum(len(f) for f in first[1])
            deadline = time.monotonic() + self.linger_s
            while size < self.max_batch_frames and nbytes < self.max_batch_bytes:
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
                size += len(item[1])
                nbytes += sum(len(f) for f in item[1])
            batch = [b for b in batch if b[2].set_running_or_notify_cancel()]
            if batch:
                self._write_batch(batch)
            if stop:
                return

    def _write_batch(self, batch: list[tuple[LiveFeed, list[bytes], Future]]) -> None:
        """One transaction for the batch; then each item's future (acknowledged), or its
        failure for all of them (nothing of the batch was kept, nothing is acknowledged)."""
        t = time.monotonic()
        try:
            with self._lock:
                results, committing = self._commit(batch)
            self.batches.append((sum(len(b[1]) for b in batch), time.monotonic() - t, committing))
        except BaseException as exc:  # the store refused the batch: every caller hears why
            for _, _, fut in batch:
                fut.set_exception(exc)
            return
        rejects = [(feed, o) for (feed, _, _), outs in zip(batch, results) for o in outs if o.reject]
        if rejects:  # logged before the frames are acknowledged: their senders may look for the reason
            try:
                self._rejected(rejects)
            except Exception as exc:  # the frames are on the chain with their reasons unread: say so, go on
                print(f"onrecord live: {len(rejects)} rejections not logged in {REJECTS_FILE}: {exc}",
                      file=sys.stderr, flush=True)
        events = [e for outs in results for o in outs for e in o.events]
        item = (events, [(fut, outs) for (_, _, fut), outs in zip(batch, results)])
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._inbox.put_nowait, item)
        else:
            self._handoff.put(item)
        # Committed and handed to the rules: only now a slice of a receipt (up to tens of ms of
        # the writer), which no alert needs, so that none waits behind it
        with self._lock:
            self._receipts_step(list({id(f): f for f, _, _ in batch}.values()))

    def _publish_loop(self) -> None:
        """Committed batches, in order: their events onto the stream, then their frames
        acknowledged. A thread of its own, so that the next batch is written while this one
        is published (through JetStream, a round trip to the server)."""
        while True:
            item = self._handoff.get()
            if item is None:
                return
            events, done = item
            try:
                if events:
                    self.publish(events)
            except Exception as exc:  # on the chain and stored: a restarted node reads them again
                _not_handed(events, exc)
            finally:
                for fut, outs in done:
                    fut.set_result(outs)

    def _commit(self, batch: list[tuple[LiveFeed, list[bytes], Future]]) -> tuple[list[list[Outcome]], float]:
        """The batch's frames on the chain (a feed's frames of the batch together, in the
        order they came), read, their events stored, committed; each item's outcomes, and
        how long the commit itself took."""
        by_feed: dict[str, list[int]] = {}
        for i, (feed, _, _) in enumerate(batch):
            by_feed.setdefault(feed.spec.name, []).append(i)
        saved = {name: batch[idx[0]][0].saved() for name, idx in by_feed.items()}
        results: list[list[Outcome]] = [[] for _ in batch]
        try:
            with live_transaction(self.case, self._kept) as w:
                written = []
                for idx in by_feed.values():
                    feed = batch[idx[0]][0]
                    frames = [f for i in idx for f in batch[i][1]]
                    digest = feed.digest.copy()
                    for f in frames:
                        digest.update(f)
                    first = w.append_frames(feed.source_id, frames, digest.hexdigest())
                    feed.digest, feed.frames = digest, feed.frames + len(frames)
                    written.append((feed, idx, first, frames))
                for feed, idx, first, frames in written:
                    outcomes = self._read_frames(feed, first, frames)
                    self._store_events(w, feed, first, outcomes, frames)
                    at = 0
                    for i in idx:
                        results[i] = outcomes[at:at + len(batch[i][1])]
                        at += len(batch[i][1])
                committing = time.monotonic()
            committing = time.monotonic() - committing
        except BaseException:
            for name, idx in by_feed.items():  # nothing of the batch is kept: nor is it counted
                batch[idx[0]][0].restore(saved[name])
            raise
        return results, committing

    def checkpoint(self, feed: LiveFeed) -> dict:
        """A signed receipt of the feed's source as far as it goes now, made at once: its frames
        and events so far are then proven outside the database too."""
        from onrecord.store.receipts import issue_live

        t = time.monotonic()
        try:
            return issue_live(self.case, feed.source_id)
        finally:
            self._receipted(feed, time.monotonic() - t)

    def _receipts_step(self, feeds: list[LiveFeed]) -> None:
        """After a batch: each feed's receipt that is due begun, and every receipt under way
        taken a slice (RECEIPT_SLICE rows) further — so the writer is held by a receipt for a
        slice at a time, however large the source (store/receipts.py, LiveReceipt)."""
        from onrecord.store.receipts import LiveReceipt

        now = time.monotonic()
        for feed in feeds:
            if feed.receipt is None and now - feed.receipted_at >= max(LIVE_EVERY_S,
                                                                       RECEIPT_SPACING * feed.receipt_took):
                try:
                    feed.receipt, feed.receipt_work = LiveReceipt(self.case, feed.source_id), 0.0
                except Exception as exc:
                    self._receipt_failed(feed, exc)
        for feed in self.feeds.values():
            if feed.receipt is None:
                continue
            t = time.monotonic()
            try:
                signed = feed.receipt.step(RECEIPT_SLICE)
            except Exception as exc:
                self._receipt_failed(feed, exc)
                continue
            feed.receipt_work += time.monotonic() - t
            if signed is not None:
                feed.receipt = None
                self._receipted(feed, feed.receipt_work)

    def _receipted(self, feed: LiveFeed, work_s: float) -> None:
        feed.receipted_at, feed.receipt_took = time.monotonic(), work_s
        self.receipts.append((feed.spec.name, feed.frames, work_s))

    def _receipt_failed(self, feed: LiveFeed, exc: Exception) -> None:
        # the batches are committed and stand; the receipt is tried again LIVE_EVERY_S later
        feed.receipt, feed.receipted_at = None, time.monotonic()
        print(f"onrecord live: feed {feed.spec.name}: its receipt could not be signed now: {exc}", file=sys.stderr,
              flush=True)

    def _read_frames(self, feed: LiveFeed, first_raw: int, frames: list[bytes]) -> list[Outcome]:
        """Each frame read through its feed's mapping: in one pass for the batch where the
        format allows (the onrecord event JSON; a tailed CSV's lines), else one by one."""
        outcomes: list[Outcome | None] = [None] * len(frames)
        todo = []
        for i in range(len(frames)):
            feed.received += 1
            if feed.over_rate():
                outcomes[i] = Outcome(first_raw + i, [], "flood: over the feed's rate of "
                                                         f"{feed.spec.max_rate:g} frames a second (kept, not read)")
            else:
                todo.append(i)
        read = self._read_together(feed, [frames[i] for i in todo])
        if read is None:  # one by one
            for i in todo:
                outcomes[i] = self._read_one(feed, first_raw + i, frames[i])
            return outcomes  # type: ignore[return-value]
        table, rejects, skipped, rows = read
        if rows is None:  # the reader gave its table only: its rows read back from it
            rows = {}
            for row in _rows(table):
                rows.setdefault(row["record_index"], []).append(row)
        for k, i in enumerate(todo):
            raw_id = first_raw + i
            if k in skipped:
                outcomes[i] = Outcome(raw_id, [])
            elif k in rejects:
                outcomes[i] = Outcome(raw_id, [], _reason(rejects[k]))
            else:
                outcomes[i] = self._events_of(feed, raw_id, rows.get(k, []), table, k)
        return outcomes  # type: ignore[return-value]

    def _read_together(self, feed: LiveFeed, frames: list[bytes]):
        """(events with `record_index` the frame's position, rejections by position, positions
        that are no record — a CSV's header line, each position's rows as Python values where
        the reader gave them, else None), or None where the frames must be read one by one."""
        spec, m = feed.spec, feed.spec.mapping
        if not frames:
            return pa.Table.from_pylist([]), {}, set(), {}
        if m is None:  # the onrecord event JSON: its rows as parsed, with their attrs
            rows: dict[int, list[dict]] = {}
            table, rejects = read_event_json_frames(frames, spec.agency, rows)
            return table, {k: v[0] for k, v in rejects.items()}, set(), rows
        if spec.type == "csv-tail" and m.format == "csv":
            read = csv_lines_together(feed, frames)
            return None if read is None else (*read, None)
        return None

    def _read_one(self, feed: LiveFeed, raw_id: int, frame: bytes) -> Outcome:
        try:
            parsed = self._parse(feed, frame)
        except Exception as exc:  # a reader's failure on one frame must not stop the feed
            return Outcome(raw_id, [], f"cannot be read: {exc}"[:300])
        if parsed is None:
            return Outcome(raw_id, [])
        if parsed.rejects:
            return Outcome(raw_id, [], _reason(parsed.rejects[0]))
        return self._events_of(feed, raw_id, parsed.events.to_pylist(), parsed.events, None)

    def _events_of(self, feed: LiveFeed, raw_id: int, rows: list[dict], table: pa.Table, k: int | None) -> Outcome:
        """A frame's rows as live events, or its rejection (a time far from now, a unit no
        roster knows); `table` holds them (`k`: their record_index in it, None: all of it)."""
        out = Outcome(raw_id, [], table=table, position=k)
        now = time.time() * 1000
        for row in rows:
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
        attrs = row["attrs_obj"] if "attrs_obj" in row else json.loads(row["attrs"]) if row.get("attrs") else {}
        ev = LiveEvent(id=0, source_id=feed.source_id, kind=row["kind"], t_lo=lo, t_hi=hi,
                       unit=self.directory.key(row.get("unit"), row.get("agency")), unit_name=row.get("unit"),
                       agency=row.get("agency"), call=row.get("call"), channel=row.get("channel"),
                       text=row.get("text"), attrs=attrs, source_kind=self.source_kinds.get(feed.source_id),
                       clock=status, frame=raw_id)
        ev.t_src = row.get("t_src_lo")  # type: ignore[attr-defined]
        return interpret(ev)

    def _store_events(self, w: LiveWrite, feed: LiveFeed, first_raw: int, outcomes: list[Outcome],
                      frames: list[bytes] | None = None) -> None:
        """The kept frames' events in one write (their rows in frame order, as their ids go);
        should that write fail, the frames stay on the chain, each rejected with the reason."""
        kept = [o for o in outcomes if o.events and o.table is not None]
        if not kept:
            return
        by_table = {}
        for o in kept:
            by_table.setdefault(id(o.table), (o.table, []))[1].append(o)
        rows = _whole(by_table, first_raw)
        if rows is None:
            pieces = [frame_rows(table, [(o.position, o.raw_id - first_raw) for o in outs])
                      for table, outs in by_table.values()]
            rows = pa.concat_tables(pieces)
            rows = rows.take(pc.sort_indices(rows, [("record_index", "ascending")]))
        try:
            n = w.add_events(feed.source_id, first_raw, rows, frames)
        except Exception as exc:  # kept as evidence, rejected: the feed goes on
            for o in kept:
                o.events, o.reject = [], f"its events could not be stored: {exc}"[:300]
            return
        for o in kept:
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

    def _rejected(self, rejects: list[tuple[LiveFeed, Outcome]]) -> None:
        rows = []
        for feed, o in rejects:
            feed.rejected += 1
            rows.append({"at": _now_iso(), "feed": feed.spec.name, "raw_record": o.raw_id, "reason": o.reject})
        with open(Path(self.case.path) / REJECTS_FILE, "a", encoding="utf-8") as fh:
            fh.write("".join(json.dumps(row) + "\n" for row in rows))
        for row in rows:
            self.on_reject(row)

    def feed_status(self) -> list[dict]:
        """Each feed as the board lists it: frames, rejected, its lag, how well its clock is known."""
        out = []
        for f in self.feeds.values():
            c = self.clocks.clock(f.source_id)
            out.append({"feed": f.spec.name, "source": f.source_id, "type": f.spec.type, "frames": f.received,
                        "rejected": f.rejected,
                        "lag_s": None if f.lag_ms is None else round(f.lag_ms / 1000, 1),
                        "clock": c.status, "offset_s": c.offset_s, "uncertainty_s": c.uncertainty_s})
        return out


# What a live event is made of (_event, _events_of): a batch's rows are read as Python
# values for these columns only, not the event's every column
ROW_COLUMNS = ("record_index", "kind", "time_text", "t_src_lo", "t_src_hi", "unit", "agency", "call", "channel",
               "text", "attrs")


def _rows(table: pa.Table) -> list[dict]:
    names = [n for n in ROW_COLUMNS if n in table.column_names]
    return [dict(zip(names, values)) for values in zip(*(table.column(n).to_pylist() for n in names))]


def _whole(by_table: dict, first_raw: int) -> pa.Table | None:
    """The batch's one table as it is, when it holds the kept frames' events and nothing else,
    each row's `record_index` already its frame's place in the batch, in order (the usual
    batch: no frame of it over the rate or rejected after reading); else None."""
    if len(by_table) != 1:
        return None
    table, outs = next(iter(by_table.values()))
    if any(o.position is None or o.position != o.raw_id - first_raw for o in outs) or \
            sum(len(o.events) for o in outs) != table.num_rows:
        return None  # a frame read alone, a frame before them left out, or rows of a frame rejected
    at = table.column("record_index").to_numpy()
    return table if len(at) < 2 or bool((at[1:] >= at[:-1]).all()) else None


def _not_handed(events: list[LiveEvent], exc: Exception) -> None:
    print(f"onrecord live: {len(events)} events (raw records {events[0].frame} ...) stored but not handed to "
          f"the rules: {exc}", file=sys.stderr, flush=True)


def _reason(r: Reject) -> str:
    where = f" (field {r.column})" if r.column else ""
    return f"{r.reason}{where}" + (f": {r.value!r}" if r.value is not None else "")


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")

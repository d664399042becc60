"""Writing one imported source: its raw records on the chain, and its events, in one transaction.

Both stores run the same statements, in the same order, under the case's write lock, on
one write session (session.py): refuse a file already imported, read the chain head,
add the source, hand out ids, write the raw records and the events in bulk (Arrow
tables), move the head. Only the lock differs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timezone

import pyarrow as pa
from sqlalchemy import insert, select, text, update

from onrecord.errors import InputError, shorten
from onrecord.model import EVENT_SCHEMA
from onrecord.store import search_index
from onrecord.store.batch import event_table, raw_table
from onrecord.store.case import Case
from onrecord.store.evidence import chain_hashes, record_hashes
from onrecord.store.schema import cases, events, raw_records, sources

Progress = Callable[[str, int], None]  # (stage, rows just written)


@dataclass
class SourceMeta:
    kind: str
    agency: str | None
    file_name: str
    file_sha256: str
    mapping_name: str
    mapping_text: str
    timezone: str | None
    rejected_count: int


@dataclass
class Batch:
    """What one import adds, before ids are known."""
    meta: SourceMeta
    raws: list[bytes]
    ordinals: list[int]
    hashes: list[bytes]
    events: pa.Table
    paths: list[str | None] | None = None  # JSON Pointer / XPath of each record, where lines do not say it

    def tables(self, case_id: int, source_id: int, head: tuple[int, bytes], first_raw: int, first_event: int):
        """(raw records, events, new head) once the lock is held and ids are known.

        head is the case's (record count, last chain value) before this import."""
        count, last = head[0], bytes(head[1])
        chain = chain_hashes(last, self.hashes)
        raw = raw_table(case_id, source_id, first_raw, count + 1, self.ordinals, self.raws, self.hashes, chain,
                        self.paths)
        ev = event_table(case_id, source_id, first_event, first_raw, self.events)
        return raw, ev, move_head(case_id, count + len(self.raws), chain[-1] if chain else last)


class AlreadyImported(Exception):
    def __init__(self, source_id: int, file_name: str):
        super().__init__(source_id, file_name)
        self.source_id, self.file_name = source_id, file_name


def find_source(case_id: int, file_sha256: str):
    """The source holding a file with these bytes; a withdrawn one does not count (it may be
    imported again, remove-source's purpose being to redo an import that went wrong)."""
    return select(sources.c.id, sources.c.file_name).where(
        sources.c.case_id == case_id, sources.c.file_sha256 == file_sha256, sources.c.withdrawn_at.is_(None))


def read_head(case_id: int):
    return select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == case_id)


def add_source(case_id: int, batch: Batch):
    m = batch.meta
    return insert(sources).values(
        case_id=case_id, kind=m.kind, agency=m.agency, file_name=m.file_name,
        file_sha256=m.file_sha256, mapping_name=m.mapping_name, mapping_text=m.mapping_text,
        timezone=m.timezone, record_count=len(batch.raws), event_count=batch.events.num_rows,
        rejected_count=m.rejected_count, imported_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    ).returning(sources.c.id)


def move_head(case_id: int, record_count: int, chain_head: bytes):
    return update(cases).where(cases.c.id == case_id).values(record_count=record_count, chain_head=chain_head)


def events_changed(case_id: int):
    """The case's events are no longer those its last build was made on (views say so)."""
    return update(cases).where(cases.c.id == case_id).values(generation=cases.c.generation + 1)


SLICE = 250_000  # rows per bulk write: the progress bar moves, memory stays flat
BULK = (raw_records, events)


def write_source(case: Case, batch: Batch, progress: Progress) -> int:
    """All or nothing: a failure or a killed process leaves the case as it was."""
    from onrecord.store.session import write_session  # loads the Arrow drivers only when needed

    with write_session(case) as db:
        if not db.sqlite:  # SQLite's BEGIN IMMEDIATE already holds the whole file
            db.run(text("LOCK TABLE raw_records, events IN SHARE ROW EXCLUSIVE MODE"))
            db.run(select(cases.c.id).where(cases.c.id == case.id).with_for_update())
        found = db.first_row(find_source(case.id, batch.meta.file_sha256))
        if found:
            raise AlreadyImported(*found)
        head = db.first_row(read_head(case.id))
        source_id = db.first_row(add_source(case.id, batch))[0]
        raw, ev, new_head = batch.tables(case.id, source_id, tuple(head), db.next_id(raw_records), db.next_id(events))
        _bulk(db, raw, ev, progress, batch.meta.file_name)
        db.run(new_head)
        db.run(events_changed(case.id))
        search_index.refresh(search_index.session_sink(db), case.id)  # its words, in the same transaction
        return source_id


COPY_LINE = re.compile(r"\bline (\d+)\b")


def refused_by_store(exc: Exception, table, rows: pa.Table, start: int, raw: pa.Table, file: str) -> InputError:
    """The store's refusal of a bulk write as the user's error: the file's line, not the
    row of the bulk load (PostgreSQL's COPY says "line 781" of what it was sent)."""
    found = COPY_LINE.search(str(exc))
    line = None
    if found:
        row = start + int(found.group(1)) - 1
        if row < rows.num_rows:
            if table is raw_records:
                line = rows.column("ordinal")[row].as_py()
            else:
                first_raw = raw.column("id")[0].as_py()
                line = raw.column("ordinal")[rows.column("raw_record_id")[row].as_py() - first_raw].as_py()
    why = COPY_LINE.sub("", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return InputError(f"the store refused a value ({shorten(why.strip(' ,:'))}); nothing was imported",
                      file=file, line=line)


def _bulk(db, raw: pa.Table, ev: pa.Table, progress: Progress, file: str) -> None:
    from onrecord.store.adbc import driver_errors  # the drivers load only when writing

    refused = driver_errors()

    # A large import into a small case writes faster with the secondary indexes built
    # once afterwards than kept up row by row (ids are dense: the first new id says how
    # many events the case holds already).
    held = ev.column("id")[0].as_py() - 1 if ev.num_rows else 0
    with db.indexes_rebuilt([t.name for t in BULK]) if ev.num_rows > held else nullcontext():
        for table, rows in zip(BULK, (raw, ev)):
            for start in range(0, rows.num_rows, SLICE):
                part = rows.slice(start, SLICE)
                try:
                    db.ingest(table, part)
                except refused as exc:
                    raise refused_by_store(exc, table, rows, start, raw, file) from exc
                progress(table.name.replace("_", " "), part.num_rows)


# ---- live feeds (live/ingest.py): a source that grows a few frames at a time

def find_live_source(case_id: int, file_name: str):
    return select(sources.c.id, sources.c.record_count, sources.c.event_count).where(
        sources.c.case_id == case_id, sources.c.file_name == file_name)


def lock_for_writing(db, case: Case) -> None:
    """The case's write lock on PostgreSQL (SQLite's BEGIN IMMEDIATE holds the whole file already)."""
    if not db.sqlite:
        db.run(text("LOCK TABLE raw_records, events IN SHARE ROW EXCLUSIVE MODE"))
        db.run(select(cases.c.id).where(cases.c.id == case.id).with_for_update())


def open_live_source(case: Case, meta: SourceMeta, opening: bytes) -> tuple[int, bool]:
    """The source a live feed appends its frames to: (its id, whether it was there already).
    A new one starts with `opening`, a record saying what the feed is (so two feeds of the
    same format never hold the same bytes, and the chain says when each was opened)."""
    from onrecord.store.session import write_session

    with write_session(case) as db:
        lock_for_writing(db, case)
        found = db.first_row(find_live_source(case.id, meta.file_name))
        if found:
            return int(found[0]), True
        batch = Batch(meta, [opening], [1], record_hashes([opening]), EVENT_SCHEMA.empty_table())
        source_id = db.first_row(add_source(case.id, batch))[0]
        head = db.first_row(read_head(case.id))
        raw, _, new_head = batch.tables(case.id, source_id, tuple(head), db.next_id(raw_records), 1)
        db.ingest(raw_records, raw)
        db.run(new_head)
        return int(source_id), False

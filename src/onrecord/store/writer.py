"""Writing one imported source: its raw records on the chain, and its events, in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from itertools import repeat
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import Connection, insert, select, text, update

from onrecord.store.bulk import bulk_insert, next_id
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite
from onrecord.store.evidence import chain_hashes
from onrecord.store.schema import cases, events, raw_records, sources

EVENT_FIELDS = ("kind", "time_text", "t_src_lo", "t_src_hi", "agency", "unit", "call", "actor",
                "channel", "place", "lat", "lon", "text", "attrs")

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


class AlreadyImported(Exception):
    def __init__(self, source_id: int, file_name: str):
        super().__init__(source_id, file_name)
        self.source_id, self.file_name = source_id, file_name


def existing_source(conn: Connection, case_id: int, file_sha256: str):
    return conn.execute(
        select(sources.c.id, sources.c.file_name).where(
            sources.c.case_id == case_id, sources.c.file_sha256 == file_sha256)
    ).first()


def write_source(case: Case, meta: SourceMeta, raws: list[bytes], ordinals: list[int],
                 hashes: list[bytes], ev: dict[str, list], progress: Progress) -> int:
    """All or nothing: a failure or a killed process leaves the case as it was."""
    with case.engine.connect() as conn, _bulk_mode(conn), conn.begin():
        _lock(conn, case)
        found = existing_source(conn, case.id, meta.file_sha256)
        if found:
            raise AlreadyImported(found.id, found.file_name)
        head = conn.execute(select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == case.id)).one()
        source_id = conn.execute(insert(sources).values(
            case_id=case.id, kind=meta.kind, agency=meta.agency, file_name=meta.file_name,
            file_sha256=meta.file_sha256, mapping_name=meta.mapping_name, mapping_text=meta.mapping_text,
            timezone=meta.timezone, record_count=len(raws), event_count=len(ev["kind"]),
            rejected_count=meta.rejected_count, imported_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        )).inserted_primary_key[0]
        first_raw, first_event = next_id(conn, raw_records), next_id(conn, events)
        chain = chain_hashes(bytes(head.chain_head), hashes)
        seq0 = head.record_count + 1
        raw_rows = zip(range(first_raw, first_raw + len(raws)), repeat(case.id), repeat(source_id),
                       range(seq0, seq0 + len(raws)), ordinals, raws, hashes, chain)
        bulk_insert(conn, "raw_records", ("id", "case_id", "source_id", "seq", "ordinal", "raw", "sha256", "chain"),
                    raw_rows, lambda n: progress("raw records", n))
        ids = range(first_event, first_event + len(ev["kind"]))
        record_ids = (first_raw + i for i in ev["record_index"])
        event_rows = zip(ids, repeat(case.id), repeat(source_id), record_ids, *(ev[f] for f in EVENT_FIELDS))
        bulk_insert(conn, "events", ("id", "case_id", "source_id", "raw_record_id", *EVENT_FIELDS),
                    event_rows, lambda n: progress("events", n))
        conn.execute(update(cases).where(cases.c.id == case.id).values(
            record_count=head.record_count + len(raws), chain_head=chain[-1] if chain else head.chain_head))
    return source_id


@contextmanager
def _bulk_mode(conn: Connection):
    """SQLite checks each row's foreign keys one by one; the writer hands out the ids
    itself, consistent by construction, so the check is off while it writes."""
    if not is_sqlite(conn.engine):
        yield
        return
    driver = conn.connection.driver_connection
    driver.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
    finally:
        driver.execute("PRAGMA foreign_keys=ON")


def _lock(conn: Connection, case: Case) -> None:
    """One writer at a time: ids and the chain head are handed out under this lock."""
    if is_sqlite(conn.engine):
        # a first (no-op) write takes SQLite's write lock before the head is read
        conn.execute(update(cases).where(cases.c.id == case.id).values(record_count=cases.c.record_count))
        return
    conn.execute(text("LOCK TABLE raw_records, events IN SHARE ROW EXCLUSIVE MODE"))
    conn.execute(select(cases.c.id).where(cases.c.id == case.id).with_for_update())

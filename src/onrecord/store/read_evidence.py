"""The evidence reads of a CaseReader (store/reader.py): each covered table's rows as
canonical values, in key order, for the digests a receipt holds (store/digests.py), and
the chain value at a position. Statements and the canonical form only: the reader runs them.

What each digest covers is listed here, once: an import's receipt holds the digest of
the source's raw records (their ids, chain positions, line numbers, hashes: the bytes
themselves are held by the chain) and of its events (every stored column); a build's
receipt holds the digest of every derived table of the case.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import Float, Integer, LargeBinary, Table, func, select, text

from onrecord.store.engine import is_sqlite
from onrecord.store.schema import (
    aligned_events,
    claims,
    clock_estimates,
    entities,
    entity_mentions,
    events,
    findings,
    fused_events,
    raw_records,
    sources,
)

if TYPE_CHECKING:  # imported where used: a server never reads a frame, and never loads pandas or pyarrow
    import pyarrow as pa


@dataclass(frozen=True)
class Covered:
    """A table a digest covers: the column rows are ordered and named by, and what a row is called."""

    table: Table
    key: str
    label: str  # "event 12", "finding 3" ...
    skip: tuple[str, ...] = ("case_id",)

    @property
    def columns(self) -> list:
        return [c for c in self.table.columns if c.name not in self.skip]

    @property
    def schema(self) -> pa.Schema:
        """The Arrow type each covered column is read as, whatever the store's driver made of it."""
        import pyarrow as pa

        return pa.schema([(c.name, _arrow_type(c)) for c in self.columns])


RAW_LAYOUT = Covered(raw_records, "seq", "raw record at chain position", skip=("case_id", "raw"))
EVENTS = Covered(events, "id", "event")
DERIVED = {c.table.name: c for c in (
    Covered(clock_estimates, "source_id", "clock estimate of source"),
    Covered(fused_events, "id", "fused event"),
    Covered(aligned_events, "event_id", "aligned time of event"),
    Covered(entities, "id", "entity"),
    Covered(entity_mentions, "id", "entity mention"),
    Covered(claims, "id", "claim"),
    Covered(findings, "id", "finding"),
)}


def _arrow_type(column) -> pa.DataType:
    import pyarrow as pa

    kind = column.type
    if isinstance(kind, Integer):  # BigInteger too: one width, so the text of a value is one text
        return pa.int64()
    if isinstance(kind, Float):
        return pa.float64()
    if isinstance(kind, LargeBinary):
        return pa.binary()
    return pa.string()


class EvidenceReads:
    """Mixin of CaseReader."""

    def _covered_where(self, covered: Covered, source_id: int | None, upto: int | None = None):
        t = covered.table
        where = [t.c.case_id == self.case.id]
        if source_id is not None:
            where.append(t.c.source_id == source_id)
        if upto is not None:  # a live feed's rows as far as its receipt saw them
            where.append(t.c[covered.key] <= upto)
        return where

    def covered_count(self, covered: Covered, source_id: int | None = None, upto: int | None = None) -> int:
        return int(self._scalar(select(func.count()).select_from(covered.table)
                                .where(*self._covered_where(covered, source_id, upto))))

    def covered_batches(self, covered: Covered, source_id: int | None = None, upto: int | None = None,
                        after: int | None = None, limit: int | None = None) -> Iterator[pa.RecordBatch]:
        """The covered columns of each row, in key order, as Arrow batches: of one source, or of
        the case; with `after` and `limit`, the next `limit` rows whose key is past `after` (a
        digest made a slice at a time)."""
        where = self._covered_where(covered, source_id, upto)
        key = covered.table.c[covered.key]
        if after is not None and key.primary_key and is_sqlite(self.case.engine):
            # a slice by the table's own key (its rowid): `+case_id` keeps SQLite off the
            # case's time index, which would sort every row of the case for each slice
            where[0] = text(f"+{covered.table.name}.case_id = :case").bindparams(case=self.case.id)
        stmt = select(*covered.columns).where(*where)
        if after is not None:
            stmt = stmt.where(key > after)
        stmt = stmt.order_by(covered.table.c[covered.key])
        if limit is not None:
            stmt = stmt.limit(limit)
        yield from self._batches(stmt)

    def covered_digest(self, covered: Covered, source_id: int | None = None, upto: int | None = None) -> dict:
        """The digest (store/digests.py) of the covered rows as they are stored now."""
        from onrecord.store.digests import digest_batches

        return digest_batches(self.covered_count(covered, source_id, upto),
                              self.covered_batches(covered, source_id, upto), covered.schema, covered.key)

    def covered_digests_by_source(self, covered: Covered, wanted: dict[int, tuple[int, int | None]]) -> dict:
        """source id -> digest of its covered rows, for many sources in one pass over the
        case's table (a scan per source would read a large case's table once per source).
        `wanted`: source id -> (the row count that sets its block size, the last key to cover
        or None)."""
        from onrecord.store.digests import Digester, digest_by_source

        digesters = {sid: Digester(count, covered.schema, covered.key) for sid, (count, _) in wanted.items()}
        digest_by_source(self.covered_batches(covered), digesters, {sid: u for sid, (_, u) in wanted.items()})
        return {sid: d.result() for sid, d in digesters.items()}

    def source_upto(self, source_id: int) -> dict:
        """The last key of a source's raw records (chain position) and events (id): how far a
        receipt of a live feed, which goes on growing, saw it."""
        r, e = raw_records.c, events.c
        last = {"raw records": self._scalar(select(func.max(r.seq)).where(r.case_id == self.case.id,
                                                                          r.source_id == source_id)),
                "events": self._scalar(select(func.max(e.id)).where(e.case_id == self.case.id,
                                                                    e.source_id == source_id))}
        return {k: int(v or 0) for k, v in last.items()}  # 0: none yet (no key is 0 or less)

    def chain_at(self, seq: int) -> bytes | None:
        """The chain value at a position of the case's chain (None: no record there)."""
        r = raw_records.c
        found = self._scalar(select(r.chain).where(r.case_id == self.case.id, r.seq == seq))
        return None if found is None else bytes(found)

    def record_at(self, seq: int) -> dict | None:
        """The raw record at a chain position: its id, source and line."""
        r = raw_records.c
        rows = self._rows(select(r.id, r.source_id, r.ordinal, sources.c.file_name)
                          .join(sources, sources.c.id == r.source_id).where(r.case_id == self.case.id, r.seq == seq))
        return rows[0] if rows else None

    def event_line(self, event_id: int) -> dict | None:
        """The file and line an event cites."""
        e, r = events.c, raw_records.c
        rows = self._rows(select(sources.c.file_name, r.ordinal).select_from(
            events.join(raw_records, r.id == e.raw_record_id).join(sources, sources.c.id == e.source_id))
            .where(e.case_id == self.case.id, e.id == event_id))
        return rows[0] if rows else None

    def sources_after(self, seq: int) -> list[dict]:
        """The sources of the records after a chain position: (source id, file, records there, first position)."""
        r = raw_records.c
        return self._rows(select(r.source_id, sources.c.file_name, func.count().label("records"),
                                 func.min(r.seq).label("first"))
                          .join(sources, sources.c.id == r.source_id)
                          .where(r.case_id == self.case.id, r.seq > seq)
                          .group_by(r.source_id, sources.c.file_name).order_by(func.min(r.seq)))

"""Keeping a case's full-text index current (tables: schema_search.py; queries: read_search.py).

Every writer that changes what search reads calls `refresh` inside its own write
transaction, so the index changes with the rows, all or nothing: an import or a live
frame adds its events' words, a build or a linkage replaces the claims', a removal takes
its source's events out (`forget_source`) before they go. Migration 0013 runs the same
`refresh` for the cases already in a store.

What is indexed is the text cut into words as search_query.py cuts it, so both stores and
the Python check of what a reader is shown agree word for word:
- an event: its text, actor, place and unit (the "fields"), and its raw line apart (roles
  that may not see raw lines search the fields alone);
- a claim: its sentence and its speaker.

`refresh` works from `search_state`: the event ids already indexed run up to
`events_upto`, so only newer events are read; if the events changed more than once since
(changes the index missed) and fewer events up to there remain than were indexed (a
withdrawal it was not told of), the case's event index is rebuilt.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from sqlalchemy import delete, func, insert, select, text, update

from onrecord.store.schema import cases, events, raw_records
from onrecord.store.schema import claims as claims_t
from onrecord.store.schema_search import claims_fts, claims_search, events_fts, events_search, search_state
from onrecord.store.search_query import words

if TYPE_CHECKING:  # imported where the index is written: a server only reads it, and never loads pyarrow
    import pyarrow as pa

CHUNK = 20_000  # events read and indexed at a time: memory stays flat over a million
MAX_POSITION = 16_383  # PostgreSQL's largest tsvector position
MAX_POSITIONS = 256  # positions PostgreSQL keeps per word


def raw_words(raw) -> list[str]:
    """The words of a stored line; a binary document (a workbook) has none to search."""
    data = bytes(raw or b"")
    if b"\x00" in data:
        return []
    return words(data.decode("utf-8", errors="replace"))


def event_words(text, actor, place, unit) -> list[str]:
    return [w for part in (text, actor, place, unit) for w in words(part)]


def claim_words(sentence, speaker) -> list[str]:
    return words(sentence) + words(speaker)


def tsvector_literal(fields: list[str], raw: list[str] = ()) -> str:
    """A tsvector written out (cast, not parsed, so its words are exactly ours): the fields
    at weight A, the raw line after a gap (a phrase never runs from one into the other) at D."""
    at: dict[str, list[str]] = defaultdict(list)
    for offset, part, weight in ((0, fields, "A"), (len(fields) + 1, raw, "")):
        for i, w in enumerate(part):
            if len(at[w]) < MAX_POSITIONS:
                at[w].append(f"{min(offset + i + 1, MAX_POSITION)}{weight}")
    return " ".join(f"'{w}':{','.join(p)}" for w, p in at.items())


class _Sink:
    """Where the index is written: a write session's ADBC cursor (imports, builds) or a
    SQLAlchemy connection (the migration)."""

    def __init__(self, rows, execute, ingest, sqlite: bool):
        self.rows, self.execute, self.ingest, self.sqlite = rows, execute, ingest, sqlite


def session_sink(db) -> _Sink:
    """The sink of a store/session.py WriteSession."""
    def ingest(name: str, data: pa.Table, temporary: bool = False) -> None:
        if data.num_rows:
            db.cur.adbc_ingest(name, data, mode="create_append" if temporary else "append", temporary=temporary)
    return _Sink(db.run, db.cur.execute, ingest, db.sqlite)


def connection_sink(conn) -> _Sink:
    """The sink of a SQLAlchemy connection (Alembic's, in migration 0013)."""
    from sqlalchemy import column, table

    def ingest(name: str, data: pa.Table, temporary: bool = False) -> None:
        if not data.num_rows:
            return
        if temporary:
            conn.exec_driver_sql("CREATE TEMP TABLE IF NOT EXISTS search_stage (id bigint, case_id integer, "
                                 "source_id integer, tsv text) ON COMMIT DROP")
        conn.execute(insert(table(name, *(column(n) for n in data.column_names))), data.to_pylist())
    def rows(stmt) -> list[tuple]:
        result = conn.execute(stmt)
        return [tuple(r) for r in result] if result.returns_rows else []
    return _Sink(rows, conn.exec_driver_sql, ingest, conn.dialect.name == "sqlite")


def _pg_insert(sink: _Sink, target: str, key: str, ids: list[int], case_id: int, source_ids: list[int],
               vectors: list[str]) -> None:
    import pyarrow as pa

    # binary COPY cannot write a tsvector from text: the rows go to a temporary table and are cast from there
    if not ids:
        return
    sink.ingest("search_stage", pa.table({"id": pa.array(ids, pa.int64()),
                                          "case_id": pa.array([case_id] * len(ids), pa.int32()),
                                          "source_id": pa.array(source_ids, pa.int32()),
                                          "tsv": pa.array(vectors, pa.string())}), temporary=True)
    sink.execute(f"INSERT INTO {target} ({key}, case_id, source_id, tsv) SELECT id, case_id, source_id, "
                 "CAST(tsv AS tsvector) "
                 "FROM search_stage")
    sink.execute("DELETE FROM search_stage")


def _index_events(sink: _Sink, case_id: int, rows: list[tuple]) -> None:
    """`rows`: (id, source id, text, actor, place, unit, raw line) in id order."""
    ids = [int(r[0]) for r in rows]
    # Ids are handed out again after the newest rows are deleted (max + 1), by any case of a
    # PostgreSQL database: whatever the index holds for these ids is of rows gone, and goes
    if sink.sqlite:
        sink.rows(delete(events_fts).where(events_fts.c.rowid.between(ids[0], ids[-1])))
        sink.ingest("events_fts", fts_event_rows(case_id, rows))
        return
    sink.rows(delete(events_search).where(events_search.c.event_id.between(ids[0], ids[-1])))
    fields = [event_words(*r[2:6]) for r in rows]
    raws = [raw_words(r[6]) for r in rows]
    _pg_insert(sink, "events_search", "event_id", ids, case_id, [int(r[1]) for r in rows],
               [tsvector_literal(f, r) for f, r in zip(fields, raws)])


def fts_event_rows(case_id: int, rows: list[tuple]) -> pa.Table:
    """SQLite's `events_fts` rows of events given as `_index_events` takes them."""
    import pyarrow as pa

    return pa.table({
        "rowid": pa.array([int(r[0]) for r in rows], pa.int64()),
        "fields": pa.array([" ".join(event_words(*r[2:6])) for r in rows], pa.string()),
        "raw": pa.array([" ".join(raw_words(r[6])) for r in rows], pa.string()),
        "case_id": pa.array([case_id] * len(rows), pa.int64()),
        "source_id": pa.array([int(r[1]) for r in rows], pa.int64())})


def index_appended(sink: _Sink, case_id: int, rows: list[tuple]) -> None:
    """Events a writer has just appended, indexed from the rows it holds (`_index_events`'s),
    not read back: the caller has found the index current up to before them (a live batch,
    store/live_writer.py, which then moves `search_state` on itself)."""
    if rows:
        _index_events(sink, case_id, rows)


def _index_claims(sink: _Sink, case_id: int) -> None:
    import pyarrow as pa

    c = claims_t.c
    rows = sink.rows(select(c.id, *_texts(c.sentence, c.speaker), c.source_id).where(c.case_id == case_id)
                     .order_by(c.id))
    mine = select(c.id).where(c.case_id == case_id)  # and any left under these ids (see _index_events)
    if sink.sqlite:
        sink.rows(delete(claims_fts).where((claims_fts.c.case_id == case_id) | claims_fts.c.rowid.in_(mine)))
        sink.ingest("claims_fts", pa.table({
            "rowid": pa.array([int(r[0]) for r in rows], pa.int64()),
            "fields": pa.array([" ".join(claim_words(r[1], r[2])) for r in rows], pa.string()),
            "case_id": pa.array([case_id] * len(rows), pa.int64()),
            "source_id": pa.array([int(r[3]) for r in rows], pa.int64())}))
    else:
        s = claims_search.c
        sink.rows(delete(claims_search).where((s.case_id == case_id) | s.claim_id.in_(mine)))
        _pg_insert(sink, "claims_search", "claim_id", [int(r[0]) for r in rows], case_id, [int(r[3]) for r in rows],
                   [tsvector_literal(claim_words(r[1], r[2])) for r in rows])


def _texts(*columns):
    # never NULL: SQLite's ADBC driver guesses a column's type from its first rows, and a text
    # column starting with thousands of NULLs would be read as integers
    return [func.coalesce(col, "").label(col.name) for col in columns]


def _forget_events(sink: _Sink, case_id: int, which=None) -> None:
    """Take events of the case out of the index: those `which` selects, else all of them."""
    if sink.sqlite:
        where = events_fts.c.rowid.in_(which) if which is not None else events_fts.c.case_id == case_id
        sink.rows(delete(events_fts).where(where))
    else:
        s = events_search.c
        sink.rows(delete(events_search).where(s.case_id == case_id, *([s.event_id.in_(which)] if which is not None
                                                                       else [])))


def _state(sink: _Sink, case_id: int) -> dict:
    s = search_state.c
    found = sink.rows(select(s.generation, s.derived_generation, s.events_upto, s.events_indexed)
                      .where(s.case_id == case_id))
    if not found:
        sink.rows(insert(search_state).values(case_id=case_id, generation=-1, derived_generation=-1, events_upto=0,
                                              events_indexed=0))
        return {"generation": -1, "derived_generation": -1, "events_upto": 0, "events_indexed": 0}
    return dict(zip(("generation", "derived_generation", "events_upto", "events_indexed"), (int(v) for v in found[0])))


def refresh(sink: _Sink, case_id: int) -> int:
    """Bring the case's index up to its events and claims; returns how many documents were
    written (0 when it was current)."""
    gen, dgen = (int(v) for v in sink.rows(select(cases.c.generation, cases.c.derived_generation)
                                           .where(cases.c.id == case_id))[0])
    st = _state(sink, case_id)
    written = 0
    if st["generation"] != gen:
        e = events.c
        # Each writer changes the generation by one and refreshes in the same transaction, a
        # removal telling the index first (forget_source): a larger step means changes the
        # index missed, so it counts what is left of what it holds (a million-row count: not
        # on every live frame)
        if gen != st["generation"] + 1:
            present = int(sink.rows(select(func.count()).select_from(events)
                                    .where(e.case_id == case_id, e.id <= st["events_upto"]))[0][0])
            if present != st["events_indexed"]:
                _forget_events(sink, case_id)
                st["events_upto"] = st["events_indexed"] = 0
        # `+case_id` keeps SQLite off the case's time index, which would sort every event of the
        # case to find the few after `events_upto` (each live batch refreshes: a cost growing
        # with the case); the events' own key finds them
        one_case = text("+events.case_id = :case").bindparams(case=case_id) if sink.sqlite else e.case_id == case_id
        while True:
            rows = sink.rows(select(e.id, e.source_id, *_texts(e.text, e.actor, e.place, e.unit), raw_records.c.raw)
                             .join(raw_records, raw_records.c.id == e.raw_record_id)
                             .where(one_case, e.id > st["events_upto"]).order_by(e.id).limit(CHUNK))
            if not rows:
                break
            _index_events(sink, case_id, rows)
            st["events_upto"], st["events_indexed"] = int(rows[-1][0]), st["events_indexed"] + len(rows)
            written += len(rows)
        st["generation"] = gen
    if st["derived_generation"] != dgen:
        _index_claims(sink, case_id)
        st["derived_generation"] = dgen
        written += 1
    sink.rows(update(search_state).where(search_state.c.case_id == case_id).values(**st))
    return written


def forget_source(sink: _Sink, case_id: int, source_id: int) -> None:
    """A source's events leave the index (its withdrawal, before they are deleted), and the
    state is set so that ids the store hands out again after them are indexed anew."""
    e = events.c
    st = _state(sink, case_id)
    gone = select(e.id).where(e.case_id == case_id, e.source_id == source_id)
    n = int(sink.rows(select(func.count()).select_from(events).where(
        e.case_id == case_id, e.source_id == source_id, e.id <= st["events_upto"]))[0][0])
    _forget_events(sink, case_id, gone)
    rest = sink.rows(select(func.max(e.id)).where(e.case_id == case_id, e.source_id != source_id))[0][0]
    sink.rows(update(search_state).where(search_state.c.case_id == case_id).values(
        events_indexed=st["events_indexed"] - n, events_upto=min(st["events_upto"], int(rest or 0))))

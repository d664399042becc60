"""A live feed's frames and their events, a batch at a time, in one transaction (group commit).

The ingest node (live/ingest.py) gathers the frames that arrive together — from one feed
or several — and writes them here: the frames on the case's chain first, then (once read)
their events, then one commit. A commit costs a sync of the file whatever it holds, so one
per batch instead of two per frame is what lets a feed run at thousands of frames a second.

The events go in under a savepoint: should storing them fail, they alone are rolled back
and the frames still commit — a frame is evidence whether or not it could be read, and no
frame is acknowledged before the commit that holds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pyarrow as pa
from sqlalchemy import bindparam, delete, select, update

from onrecord.store import listing, search_index
from onrecord.store.batch import event_table, raw_table
from onrecord.store.bulk import next_id_query
from onrecord.store.case import Case
from onrecord.store.evidence import chain_hashes, record_hashes
from onrecord.store.schema import cases, events, raw_records, sources
from onrecord.store.schema_search import events_fts, search_state
from onrecord.store.writer import lock_for_writing

# Built once, compiled once (session.py, run_prepared): a batch runs each of them.
RECORD_COUNT = select(sources.c.record_count).where(sources.c.id == bindparam("source"),
                                                    sources.c.case_id == bindparam("case"))
HEAD = select(cases.c.record_count, cases.c.chain_head).where(cases.c.id == bindparam("case"))
MOVE_HEAD = update(cases).where(cases.c.id == bindparam("case")).values(
    record_count=bindparam("count"), chain_head=bindparam("head"))
SOURCE_FRAMES = update(sources).where(sources.c.id == bindparam("source")).values(
    record_count=bindparam("count"), file_sha256=bindparam("sha"))
SOURCE_EVENTS = update(sources).where(sources.c.id == bindparam("source")).values(
    event_count=sources.c.event_count + bindparam("n"))
EVENTS_CHANGED = update(cases).where(cases.c.id == bindparam("case")).values(generation=cases.c.generation + 1)
NEXT_RAW, NEXT_EVENT = next_id_query(raw_records), next_id_query(events)
# The search index's state beside the case's generations: a batch indexes its own events
# from memory when the index was current up to before it (search_index.py)
INDEX_STATE = select(cases.c.generation, cases.c.derived_generation, search_state.c.generation,
                     search_state.c.derived_generation, search_state.c.events_upto).select_from(
    cases.join(search_state, search_state.c.case_id == cases.c.id)).where(cases.c.id == bindparam("case"))
INDEX_MOVED = update(search_state).where(search_state.c.case_id == bindparam("case")).values(
    generation=bindparam("gen"), events_upto=bindparam("upto"),
    events_indexed=search_state.c.events_indexed + bindparam("n"))
FTS_CLEARED = delete(events_fts).where(events_fts.c.rowid.between(bindparam("lo"), bindparam("hi")))


class LiveWrite:
    """One live batch's writes, on one write session (session.py)."""

    def __init__(self, db, case: Case):
        self.db, self.case = db, case
        self.changed = False
        # the batch's events as the search index takes them (id, source, text, actor, place,
        # unit, raw line); None once an add_events call could not give its raw lines
        self.documents: list[tuple] | None = []
        self.appended: tuple[int, int] | None = None  # the first and last id of the batch's events

    def append_frames(self, source_id: int, frames: list[bytes], file_sha256: str) -> int:
        """Frames on the chain, in order; returns the first one's raw record id (the others
        follow). `file_sha256`: the SHA-256 of all the source's records with these, as verify
        recomputes it."""
        db, case_id = self.db, self.case.id
        found = db.run_prepared(RECORD_COUNT, source=source_id, case=case_id)
        if not found:
            raise LookupError(f"live source {source_id} is not in the case")
        count = int(found[0][0])
        head = db.run_prepared(HEAD, case=case_id)[0]
        first = int(db.run_prepared(NEXT_RAW)[0][0])
        hashes = record_hashes(frames)
        chain = chain_hashes(bytes(head[1]), hashes)
        ordinals = list(range(count + 1, count + 1 + len(frames)))
        db.ingest(raw_records, raw_table(case_id, source_id, first, head[0] + 1, ordinals, frames, hashes, chain))
        db.run_prepared(MOVE_HEAD, case=case_id, count=head[0] + len(frames), head=chain[-1])
        db.run_prepared(SOURCE_FRAMES, source=source_id, count=count + len(frames), sha=file_sha256)
        return first

    def add_events(self, source_id: int, first_raw: int, events_of_frames: pa.Table,
                   frames: list[bytes] | None = None) -> int:
        """The events read from frames of this batch (`record_index` counts from the frame
        whose raw record id is `first_raw`); returns the first event's id. All or none of
        them: a failure rolls back to before them, the frames stay, and it is raised.
        `frames`: those frames (from `first_raw` on), whose lines the search index takes
        from memory; without them the index reads the batch's events back at its end."""
        db = self.db
        db.cur.execute("SAVEPOINT live_events")
        try:
            first = int(db.run_prepared(NEXT_EVENT)[0][0])
            if events_of_frames.num_rows:
                rows = event_table(self.case.id, source_id, first, first_raw, events_of_frames)
                db.ingest(events, rows)
                db.run_prepared(SOURCE_EVENTS, source=source_id, n=events_of_frames.num_rows)
        except BaseException:
            db.cur.execute("ROLLBACK TO SAVEPOINT live_events")
            db.cur.execute("RELEASE SAVEPOINT live_events")
            raise
        db.cur.execute("RELEASE SAVEPOINT live_events")
        if events_of_frames.num_rows:
            self.changed = True
            last = first + events_of_frames.num_rows - 1
            self.appended = (self.appended[0] if self.appended else first, last)
            if frames is None or self.documents is None:
                self.documents = None
            else:
                at = events_of_frames.column("record_index").to_pylist()
                cols = [rows.column(n).to_pylist() for n in ("text", "actor", "place", "unit")]
                self.documents += [(first + k, source_id, *(c[k] for c in cols), frames[i])
                                   for k, i in enumerate(at)]
        return first

    def index(self) -> None:
        """The batch's events in the search index, in its transaction: from memory when the
        index was current up to before the batch (each live batch keeps it so), else by
        search_index.refresh (a change it missed, a first batch)."""
        db, case_id, docs = self.db, self.case.id, self.documents
        found = db.run_prepared(INDEX_STATE, case=case_id)
        if docs and found:
            gen, dgen, igen, idgen, upto = (int(v) for v in found[0])
            if igen == gen - 1 and idgen == dgen and docs[0][0] > upto:
                lo, hi = docs[0][0], docs[-1][0]
                if db.sqlite:  # statements compiled once: a batch is a few milliseconds in all
                    db.run_prepared(FTS_CLEARED, lo=lo, hi=hi)  # ids handed out again (search_index.py)
                    db.cur.adbc_ingest("events_fts", search_index.fts_event_rows(case_id, docs), mode="append")
                else:
                    search_index.index_appended(search_index.session_sink(db), case_id, docs)
                db.run_prepared(INDEX_MOVED, case=case_id, gen=gen, upto=hi, n=len(docs))
                return
        search_index.refresh(search_index.session_sink(db), case_id)


def writer_connection(case: Case):
    """The ingest writer's connection to keep between its batches (adbc.KeptConnection)."""
    from onrecord.store.adbc import KeptConnection

    return KeptConnection(case)


@contextmanager
def live_transaction(case: Case, kept=None) -> Iterator[LiveWrite]:
    """One batch: committed when the block ends (then, and only then, may its frames be
    acknowledged), nothing of it kept if it fails. `kept`: the ingest writer's connection,
    kept between its batches (adbc.KeptConnection)."""
    from onrecord.store.session import write_session

    with write_session(case, kept) as db:
        lock_for_writing(db, case)
        w = LiveWrite(db, case)
        yield w
        if w.changed:
            db.run_prepared(EVENTS_CHANGED, case=case.id)
            w.index()  # the batch's words, in its transaction
            if w.appended:  # the timeline list's rows of its events (store/listing.py)
                listing.render_appended(db, case, *w.appended)


"""The one door to a case's data: `open_reader(case, actor)`.

Every read of case data — the CLI's views, the web's routes, the report, the build's
event load, linkage's contact rows, scenario scoring, verify, the importer's "already
imported?" — goes through a CaseReader opened here, for one case and the actor who reads.
The actor is the local user (a store without accounts, the command line) or a signed-in
account (docs/access.md). Access and redaction have one place each:

- the access check: `open_reader` (may this actor read this case at all?);
- what is withheld: `read_access.py` (sources restricted to another agency), applied in the
  statements of read_timeline.py and read_records.py; the bulk reads (`_stream`, `_frame`,
  `_batches`: the receipts' digests) refuse an actor withheld anything;
- redaction: `CaseReader._rows`, `_tuples` and `_json_rows` (the web list's stored rows),
  through which every row-returning query of every read method runs (protected people by
  their pseudonyms; store/redact.py);
- caches: each reader keeps its own (`remember`), so answers are never served to an actor
  who sees the case differently.

The audit of reads is per request (views/web/audit_reads.py) and per command
(cli/audit_commands.py): what a reader returns is known there, not here.

tests/store/test_reader_door.py fails when a module outside the store starts touching
the case tables itself.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from sqlalchemy import create_engine, event, exists, func, select

from onrecord.errors import AccessDenied
from onrecord.store.case import Case, open_case
from onrecord.store.engine import pooled, watch_sqlite
from onrecord.store.read_access import AccessReads
from onrecord.store.read_bulk import BulkReads
from onrecord.store.read_evidence import EvidenceReads
from onrecord.store.read_records import RecordReads
from onrecord.store.read_search import SearchReads
from onrecord.store.read_timeline import TimelineReads
from onrecord.store.roles import may
from onrecord.store.schema import aligned_events, cases, sources

if TYPE_CHECKING:  # imported where used: a server never reads a frame, and never loads pandas or pyarrow
    import pandas as pd


@dataclass(frozen=True)
class Actor:
    """Who reads: the person at this machine (`local`, on a store without accounts: they can
    open the case folder, so every byte of it is theirs already), or a signed-in `user`
    with a role (store/roles.py), the agencies they belong to and the cases granted them."""

    name: str
    kind: str = "local"
    role: str = "admin"
    agencies: frozenset[str] = frozenset()
    cases: frozenset[int] | None = None  # None: every case (the local user)

    def may(self, right: str) -> bool:
        return may(self.role, right)


LOCAL_USER = Actor("local user")
ANSWERS_KEPT = 32
READ_CACHE_KIB = 16_384  # page cache of each of a server's read connections (was 64 MiB: RSS, not speed)
READ_POOL = 12  # connections of a server's read-only engine: its worker threads (views/web/threads.py)
# (with `serve --workers N`, each process keeps READ_POOL // N: the cores are the same, and so is the memory)


def open_reader(case: Case | Path | str, actor: Actor = LOCAL_USER, *, database_url: str | None = None,
                read_only: bool = False, pool: int = READ_POOL) -> CaseReader:
    """A reader of one case for one actor. The access check: the local user may read every
    case folder they can open; a signed-in user the cases granted them. `read_only`: on SQLite, a connection that
    never takes the write lock, so a server keeps answering while an import or a build
    writes; `pool`: the connections it keeps open (a server's worker threads)."""
    if not isinstance(case, Case):
        case = open_case(Path(case), database_url)
    if actor.cases is not None and case.id not in actor.cases:
        raise AccessDenied(f"{actor.name} may not read case {case.name} (an admin grants it: onrecord user add)")
    return CaseReader(_read_only(case, pool) if read_only else case, actor)


def _read_only(case: Case, pool: int = READ_POOL) -> Case:
    """The same case on a read-only SQLite connection (the store's engine begins every
    transaction, reads included, as a writer would). PostgreSQL reads never block: unchanged."""
    if case.engine.dialect.name != "sqlite" or not case.engine.url.database:
        return case
    engine = create_engine(f"sqlite:///file:{Path(case.engine.url.database).resolve()}?mode=ro&uri=true",
                           **pooled(pool))
    # Each of the pool's connections keeps its own page cache, the same pages in each, and every
    # commit to the file (the audit's, a session's) empties them all: a page of events needs far
    # less than READ_CACHE_KIB, and the file's pages are in the system's cache as well
    event.listen(engine, "connect", lambda conn, _: conn.execute(f"PRAGMA cache_size=-{READ_CACHE_KIB}"))
    watch_sqlite(engine)
    case.engine.dispose()
    return dataclasses.replace(case, engine=engine)


class CaseReader(AccessReads, TimelineReads, RecordReads, SearchReads, BulkReads, EvidenceReads):
    """The reads of one case for one actor. Opened by `open_reader`, never directly."""

    def __init__(self, case: Case, actor: Actor):
        self.case, self.actor = case, actor
        self._lock = threading.Lock()
        self._answers: OrderedDict = OrderedDict()
        self._facts: dict[tuple, tuple] = {}  # question -> (case version, answer): never evicted
        self._facts_lock = threading.Lock()

    # ---- where every query runs: the place for the read audit and for redaction

    def _rows(self, stmt, params: dict | None = None) -> list[dict]:
        with self.case.engine.connect() as conn:
            result = conn.execute(stmt, params)
            keys = list(result.keys())  # once, not per row: 20,000 rows are drawn at a time
            rows = result.fetchall()
        redact = self.redactor()
        if not redact:
            return [dict(zip(keys, r)) for r in rows]
        # every string read, and the raw line (bytes): protected people by their pseudonyms
        texts = [i for i, k in enumerate(keys) if k == "raw"]
        return [dict(zip(keys, (redact.value(v) if isinstance(v, str) or i in texts else v
                                for i, v in enumerate(r)))) for r in rows]

    def _json_rows(self, stmt, params: dict, kept: frozenset[str]) -> list[tuple] | None:
        """(id, time, JSON text) rows of a statement whose last column is a row of JSON text
        stored for the web's list (store/listing.py), each text as `_rows` would show its
        values (Redactor.json_row; `kept`: keys the renderer wrote, read from no case data);
        None when a row has no text (the caller renders those rows from `_rows` instead)."""
        with self.case.engine.connect() as conn:
            rows = conn.execute(stmt, params).fetchall()
        if any(r[-1] is None for r in rows):
            return None
        redact = self.redactor()
        if not redact:
            return rows
        return [(*r[:-1], redact.json_row(r[-1], kept)) for r in rows]

    def _tuples(self, stmt) -> list[tuple]:
        with self.case.engine.connect() as conn:
            rows = conn.execute(stmt).fetchall()
        redact = self.redactor()
        if not redact:
            return [tuple(r) for r in rows]
        return [tuple(redact.text(v) if isinstance(v, str) else v for v in r) for r in rows]

    def _scalar(self, stmt):
        with self.case.engine.connect() as conn:
            return conn.execute(stmt).scalar()

    def _stream(self, stmt, batch: int = 50_000) -> Iterator:
        """Rows one batch at a time, for reads of every record of a case (verify)."""
        self._whole_case()
        with self.case.engine.connect() as conn:
            yield from conn.execute(stmt.execution_options(yield_per=batch))

    def _frame(self, stmt, categories: tuple[str, ...] = ()) -> pd.DataFrame:
        """Millions of rows as Arrow columns (store/arrow_read.py), for the build."""
        from onrecord.store.arrow_read import arrow_frame  # pandas and pyarrow: the build's, not a server's

        self._whole_case()
        return arrow_frame(self.case, stmt, categories)

    def _batches(self, stmt) -> Iterator:
        """Every row of a table as Arrow record batches, one at a time (the digests of receipts)."""
        from onrecord.store.arrow_read import arrow_batches

        self._whole_case()
        yield from arrow_batches(self.case, stmt)

    def _whole_case(self) -> None:
        # Bulk reads (the build, linkage, verify) read every record of every source as stored:
        # only an actor withheld nothing and shown everything may make them.
        if self.withheld_sources() or not (self.actor.may("raw") and self.actor.may("personal")):
            raise AccessDenied(f"{self.actor.name} may not read the whole case at once")

    # ---- this reader's own answers

    def remember(self, key: tuple, make: Callable[[], object]):
        """A recent answer to the same question on the same version of the case (zoomed-out
        charts count a million events: a second look should not count them again). Kept
        per reader: what one actor may see is never handed to another."""
        key = (self.version(), *key)
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        value = make()
        with self._lock:
            self._answers[key] = value
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        return value

    def remember_fact(self, key: tuple, make: Callable[[], object], version: tuple | None = None):
        """A slow fact about the case (filter values, the busiest window: seconds over a
        million events), kept until the case changes. One caller works it out; the others
        wait for its answer rather than work it out again. `version`: the case's version as
        the caller has just read it (one query per request, not one per question)."""
        version = self.version() if version is None else version
        found = self._facts.get(key)
        if found is not None and found[0] == version:
            return found[1]  # the common case: no lock, so concurrent requests do not queue here
        with self._facts_lock:
            found = self._facts.get(key)
            if found is None or found[0] != version:
                found = self._facts[key] = (version, make())
            return found[1]

    # ---- the case as a whole

    def _kept(self, name: str, make: Callable[[], object]):
        """A statement of this reader's asked on every request, built once: SQLAlchemy then
        neither builds it nor works out its cache key again."""
        kept = self.__dict__.setdefault("_statements", {})
        found = kept.get(name)
        if found is None:
            found = kept[name] = make()
        return found

    def _exists(self, table) -> bool:
        return bool(self._tuples(self._kept(f"exists {table.name}", lambda: select(table.c.case_id).where(
            table.c.case_id == self.case.id).limit(1))))

    def is_built(self) -> bool:
        """`onrecord build` has run: the case has aligned times (else times are each source's own clock)."""
        return self._exists(aligned_events)

    def version(self) -> tuple:
        """Changes when records are added, when the events change (an import, a live feed, a
        removal) and when a build or a linkage rewrites the derived tables: cheap to ask on every
        request, so slow summaries (filter values, the busiest window) can be cached on it."""
        c, a = cases.c, aligned_events.c
        built = exists().where(a.case_id == self.case.id)  # is_built(), in the same query: one per request fewer
        stmt = self._kept("version", lambda: select(
            c.record_count, c.generation, c.derived_generation, built.label("built")).where(c.id == self.case.id))
        if self.case.engine.dialect.name != "sqlite":
            row = self._tuples(stmt)[0]
            return (*row[:3], bool(row[3]))
        with self.case.engine.connect() as conn:
            # SQLite says whether the file changed since this connection last looked: its
            # data_version moves with every other connection's commit (of any process) and
            # total_changes with this one's own. Unchanged, the version read then still holds,
            # and a page of events costs one query fewer.
            raw = conn.connection.dbapi_connection
            mark = (raw.execute("PRAGMA data_version").fetchone()[0], raw.total_changes)
            kept = conn.connection.info.get(("case version", self.case.id))
            if kept is not None and kept[0] == mark:
                return kept[1]
            row = conn.execute(stmt).one()
            found = (*row[:3], bool(row[3]))
            conn.connection.info[("case version", self.case.id)] = (mark, found)
            return found

    def generation(self) -> int:
        """How many times the case's events have changed (store/writer.py: events_changed)."""
        return int(self._scalar(select(cases.c.generation).where(cases.c.id == self.case.id)))

    def stale_build(self) -> str | None:
        """Why the last build no longer covers the case's events (imported, withdrawn or
        added by a live feed after it), or None: every view says so until a rebuild."""
        if not self.is_built():
            return None
        c = cases.c
        now, built = self._tuples(select(c.generation, c.built_generation).where(c.id == self.case.id))[0]
        if built is None or int(now) == int(built):
            return None
        return (f"the events changed after the last build ({int(now) - int(built)} change(s): an import, a live "
                "feed or a removed source); times, fused events and findings are the last build's until "
                "`onrecord build` runs again")

    def display_zone(self) -> ZoneInfo:
        """The case's local zone: set in onrecord.toml, else the zone most sources were written in."""
        zone = self.case.settings.get("case", {}).get("timezone")
        if not zone:
            zone = self._scalar(
                select(sources.c.timezone).where(sources.c.case_id == self.case.id, sources.c.timezone.is_not(None))
                .group_by(sources.c.timezone).order_by(func.count().desc()).limit(1))
        return ZoneInfo(zone or "UTC")

    def sources(self) -> list[dict]:
        """The case's sources this actor may read (withheld ones are not listed)."""
        stmt = select(sources).where(sources.c.case_id == self.case.id)
        if withheld := self.withheld_sources():
            stmt = stmt.where(sources.c.id.not_in(sorted(withheld)))
        return self._rows(stmt.order_by(sources.c.id))

"""The SQLite write path of an import: Arrow tables handed to SQLite whole, through ADBC.

Python's sqlite3 binds every value of every row from Python objects; for a million-row
export (a million raw records, three million events) that is most of the import's time.
ADBC's SQLite driver binds straight from the Arrow columns in C. It links its own
SQLite library, so the import runs on its own connection and its own transaction, with
the same statements the PostgreSQL path runs (compiled from writer.py's).
"""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

import pyarrow as pa
from sqlalchemy.dialects import sqlite as sqlite_dialect

from onrecord.store.adbc import adbc_cursor, all_rows
from onrecord.store.bulk import sqlite_indexes_dropped
from onrecord.store.case import Case
from onrecord.store.writer import Batch, Progress, write_rows

DIALECT = sqlite_dialect.dialect()
SLICE = 250_000  # rows per ingest call: the progress bar moves, memory stays flat
# The same settings the case's SQLAlchemy engine uses (engine.py); the wait matches a
# second import queueing behind a running one.
PRAGMAS = ("PRAGMA journal_mode=DELETE", "PRAGMA synchronous=NORMAL", "PRAGMA cache_size=-262144",
           "PRAGMA temp_store=MEMORY", "PRAGMA foreign_keys=OFF", "PRAGMA busy_timeout=30000")
BULK_TABLES = ("raw_records", "events")


def write_sqlite(case: Case, batch: Batch, progress: Progress) -> int:
    with adbc_cursor(case, autocommit=True) as cur:
        for pragma in PRAGMAS:
            cur.execute(pragma)
        # IMMEDIATE: the write lock is taken before the chain head is read.
        cur.execute("BEGIN IMMEDIATE")
        try:
            source_id = write_rows(lambda stmt: _row(cur, stmt), lambda raw, ev: _ingest(cur, raw, ev, progress),
                                   case.id, batch)
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    return source_id


def _ingest(cur, raw: pa.Table, ev: pa.Table, progress: Progress) -> None:
    # A large import into a small case writes faster with the secondary indexes built
    # once afterwards than kept up row by row (ids are dense: the first new id says how
    # many events the case holds already).
    held = ev.column("id")[0].as_py() - 1 if ev.num_rows else 0
    large = ev.num_rows > held
    with sqlite_indexes_dropped(partial(all_rows, cur), cur.execute, BULK_TABLES) if large else nullcontext():
        for name, table in zip(BULK_TABLES, (raw, ev)):
            for start in range(0, table.num_rows, SLICE):
                part = table.slice(start, SLICE)
                cur.adbc_ingest(name, part, mode="append")
                progress(name.replace("_", " "), part.num_rows)


def _row(cur, statement) -> tuple | None:
    """A SQLAlchemy Core statement compiled for SQLite and run on the ADBC cursor."""
    compiled = statement.compile(dialect=DIALECT)
    cur.execute(str(compiled), [compiled.params[name] for name in compiled.positiontup])
    return cur.fetchone() if cur.description else None

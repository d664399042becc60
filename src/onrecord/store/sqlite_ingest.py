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

from onrecord.store.adbc import adbc_transaction, all_rows
from onrecord.store.bulk import sqlite_indexes_dropped
from onrecord.store.case import Case
from onrecord.store.session import sqlite_rows
from onrecord.store.writer import Batch, Progress, write_rows

SLICE = 250_000  # rows per ingest call: the progress bar moves, memory stays flat
BULK_TABLES = ("raw_records", "events")


def write_sqlite(case: Case, batch: Batch, progress: Progress) -> int:
    with adbc_transaction(case) as cur:
        return write_rows(lambda stmt: _row(cur, stmt), lambda raw, ev: _ingest(cur, raw, ev, progress),
                          case.id, batch)


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
    """A SQLAlchemy Core statement run on the ADBC cursor: its first row, if any."""
    return next(iter(sqlite_rows(cur, statement)), None)

"""The SQLite write path of an import: Arrow tables handed to SQLite whole, through ADBC.

Python's sqlite3 binds every value of every row from Python objects; for a million-row
export (a million raw records, three million events) that is most of the import's time.
ADBC's SQLite driver binds straight from the Arrow columns in C. It links its own
SQLite library, so the import runs on its own connection and its own transaction, with
the same statements the PostgreSQL path runs (compiled from writer.py's).
"""

from __future__ import annotations

from contextlib import closing

import adbc_driver_sqlite.dbapi as adbc_sqlite
from sqlalchemy.dialects import sqlite as sqlite_dialect

from onrecord.store.bulk import sqlite_indexes_query
from onrecord.store.case import Case
from onrecord.store.writer import AlreadyImported, Batch, Progress, add_source, find_source, read_head

DIALECT = sqlite_dialect.dialect()
SLICE = 250_000  # rows per ingest call: the progress bar moves, memory stays flat
# The same settings the case's SQLAlchemy engine uses (engine.py); the wait matches a
# second import queueing behind a running one.
PRAGMAS = ("PRAGMA journal_mode=DELETE", "PRAGMA synchronous=NORMAL", "PRAGMA cache_size=-262144",
           "PRAGMA temp_store=MEMORY", "PRAGMA foreign_keys=OFF", "PRAGMA busy_timeout=30000")
BULK_TABLES = ("raw_records", "events")


def write_sqlite(case: Case, batch: Batch, progress: Progress) -> int:
    # Two SQLite libraries in one process must not hold the same file open at once: closing
    # one's descriptor would drop the other's locks. The engine's pooled connections are
    # closed first; they reopen on the next query.
    case.engine.dispose()
    with closing(adbc_sqlite.connect(case.engine.url.database, autocommit=True)) as con, \
            closing(con.cursor()) as cur:
        for pragma in PRAGMAS:
            cur.execute(pragma)
        # IMMEDIATE: the write lock is taken before the chain head is read.
        cur.execute("BEGIN IMMEDIATE")
        try:
            source_id = _write(cur, case.id, batch, progress)
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    return source_id


def _write(cur, case_id: int, batch: Batch, progress: Progress) -> int:
    found = _one(cur, find_source(case_id, batch.meta.file_sha256))
    if found:
        raise AlreadyImported(*found)
    head = _one(cur, read_head(case_id))
    source_id = _one(cur, add_source(case_id, batch))[0]
    first_raw, first_event = (_one(cur, f"SELECT COALESCE(MAX(id), 0) + 1 FROM {t}")[0] for t in BULK_TABLES)
    raw, ev, new_head = batch.tables(case_id, source_id, head, first_raw, first_event)
    # A large import into a small case writes faster with the secondary indexes built
    # once afterwards (a sort) than kept up row by row; inside the transaction, so a
    # killed import still leaves them as they were.
    rebuild = _indexes(cur) if ev.num_rows >= first_event else []
    for name, _ in rebuild:
        cur.execute(f'DROP INDEX "{name}"')
    for name, table in (("raw records", raw), ("events", ev)):
        for start in range(0, table.num_rows, SLICE):
            part = table.slice(start, SLICE)
            cur.adbc_ingest(name.replace(" ", "_"), part, mode="append")
            progress(name, part.num_rows)
    for _, sql in rebuild:
        cur.execute(sql)
    _run(cur, new_head)
    return source_id


def _indexes(cur) -> list[tuple[str, str]]:
    cur.execute(sqlite_indexes_query(BULK_TABLES))
    return [tuple(r) for r in cur.fetchall()]


def _run(cur, statement) -> None:
    if isinstance(statement, str):
        cur.execute(statement)
        return
    compiled = statement.compile(dialect=DIALECT)
    cur.execute(str(compiled), [compiled.params[name] for name in compiled.positiontup])


def _one(cur, statement) -> tuple | None:
    _run(cur, statement)
    return cur.fetchone()

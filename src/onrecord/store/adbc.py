"""A case's store opened through Apache Arrow's ADBC drivers, for the bulk paths (an
import's rows written whole, a build's events read whole and its rows written whole).

Both drivers move Arrow columns in C: SQLite's binds them, PostgreSQL's sends them with
binary COPY. Python's drivers would turn every value of every row into a Python object.

ADBC links its own SQLite library. Two SQLite libraries in one process must not hold the
same file open at once: closing one's descriptor drops the other's locks, and in WAL mode
either, closing its last connection, deletes the WAL under the other. Every engine's idle
connections to the file are closed first (they reopen on the next query), and a sqlite3
connection still open, or opened while ADBC holds the file, is an error
(engine.py watch_sqlite). A process
that reads the store through Python's `sqlite3` while it writes (the live process: its
accounts, sessions and audit beside its ingest) calls `one_sqlite_library()` first: from
then on its SQLite connections here are Python's `sqlite3` too (python_sqlite.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager, nullcontext

from onrecord.store import engine as engines
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite
from onrecord.store.write_lock import wait_limit

# The same settings the case's SQLAlchemy engine uses (engine.py). The busy wait is set
# first, as the connection opens (_connect): setting the journal mode takes a lock, and
# without a busy timeout a second process fails at once with "database is locked" (writers
# queue on the case's write lock, write_lock.py; the wait covers readers and the moment a
# commit holds the file).
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
           "PRAGMA cache_size=-262144", "PRAGMA temp_store=MEMORY", "PRAGMA foreign_keys=OFF")


def driver_errors() -> tuple[type[Exception], ...]:
    """What a store's driver raises here: ADBC's, and sqlite3's (one_sqlite_library)."""
    import sqlite3

    from adbc_driver_manager import Error

    return (Error, sqlite3.Error)


def _connect(case: Case, autocommit: bool):
    # each driver is loaded only by the paths that need it
    if is_sqlite(case.engine) and engines.one_library:
        from onrecord.store import python_sqlite

        # autocommit either way: a read needs no transaction, a write opens its own (BEGIN IMMEDIATE)
        con = python_sqlite.connect(case.engine.url.database, wait_limit(case.settings))
        return con
    if is_sqlite(case.engine):
        import adbc_driver_sqlite.dbapi as sqlite_driver

        path = engines.sqlite_file(case.engine)
        engines.release_sqlite(path)
        con = sqlite_driver.connect(case.engine.url.database, autocommit=autocommit)
        # every connection waits for another process's lock as long as a writer would, readers
        # included (a receipt's digests read while another import commits)
        with closing(con.cursor()) as cur:
            cur.execute(f"PRAGMA busy_timeout={int(wait_limit(case.settings) * 1000)}")
        return con
    import adbc_driver_postgresql.dbapi as postgresql_driver

    url = case.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    return postgresql_driver.connect(url, autocommit=autocommit)


@contextmanager
def adbc_cursor(case: Case, autocommit: bool = False) -> Iterator:
    # ADBC's own SQLite: the file marked held from before it connects until after it has closed
    held = engines.adbc_holds(engines.sqlite_file(case.engine)) \
        if is_sqlite(case.engine) and not engines.one_library else nullcontext()
    with held, closing(_connect(case, autocommit)) as con, closing(con.cursor()) as cur:
        yield cur


@contextmanager
def adbc_transaction(case: Case) -> Iterator:
    """An ADBC cursor inside one write transaction on the case: committed when the block
    ends, rolled back if it fails. On SQLite IMMEDIATE: the write lock is taken before
    anything is read, so what is read (a chain head, the next free id) cannot change
    underneath; on PostgreSQL the writer takes its locks itself (writer.py)."""
    if not is_sqlite(case.engine):
        with adbc_cursor(case) as cur:
            try:
                yield cur
                cur.connection.commit()
            except BaseException:
                cur.connection.rollback()
                raise
        return
    with adbc_cursor(case, autocommit=True) as cur:
        for pragma in PRAGMAS:
            cur.execute(pragma)
        cur.execute("BEGIN IMMEDIATE")
        try:
            yield cur
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise


def all_rows(cur, sql: str) -> list[tuple]:
    """Every row of a query on an ADBC cursor, as plain tuples."""
    cur.execute(sql)
    return [tuple(r) for r in cur.fetchall()]

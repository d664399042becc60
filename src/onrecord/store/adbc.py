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


class KeptConnection:
    """One writer's own SQLite connection, kept open between its transactions (the live
    ingest writer's, a batch every few milliseconds): a connection opened per batch parses
    the store's schema again, prepares every statement again and starts with an empty page
    cache, which cost more CPU than a small batch's own rows. Only for a process that reaches
    SQLite through `sqlite3` alone (engine.one_sqlite_library): between transactions the
    connection holds no lock, so other processes' writers go on as before (they still queue
    on the case's write lock). A failed transaction drops it; the next opens a fresh one.
    Elsewhere (ADBC, PostgreSQL) each transaction opens its own connection as before."""

    def __init__(self, case: Case):
        self.case, self._con, self._cur = case, None, None

    def usable(self) -> bool:
        return is_sqlite(self.case.engine) and engines.one_library

    def cursor(self):
        if self._cur is None:
            self._con = _connect(self.case, True)
            self._cur = self._con.cursor()
            for pragma in PRAGMAS:  # settings of the connection: once, as it opens
                self._cur.execute(pragma)
        return self._cur

    def drop(self) -> None:
        con, self._con, self._cur = self._con, None, None
        if con is not None:
            try:
                con.close()
            except Exception:  # already broken: that is why it is dropped
                pass


@contextmanager
def adbc_transaction(case: Case, kept: KeptConnection | None = None) -> Iterator:
    """An ADBC cursor inside one write transaction on the case: committed when the block
    ends, rolled back if it fails. On SQLite IMMEDIATE: the write lock is taken before
    anything is read, so what is read (a chain head, the next free id) cannot change
    underneath; on PostgreSQL the writer takes its locks itself (writer.py). `kept`: the
    writer's own connection where it can be kept (KeptConnection), else one of its own."""
    if not is_sqlite(case.engine):
        with adbc_cursor(case) as cur:
            try:
                yield cur
                cur.connection.commit()
            except BaseException:
                cur.connection.rollback()
                raise
        return
    if kept is not None and kept.usable():
        cur = kept.cursor()
        try:
            cur.execute("BEGIN IMMEDIATE")
        except BaseException:
            kept.drop()
            raise
        try:
            yield cur
            cur.execute("COMMIT")
        except BaseException:
            try:
                cur.execute("ROLLBACK")
            except Exception:  # the connection itself failed: a fresh one next time
                kept.drop()
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

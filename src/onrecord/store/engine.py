"""Connecting to a case's database: a SQLite file in the case folder, or PostgreSQL by URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event

from onrecord.store.write_lock import DEFAULT_WAIT_S

DATABASE_URL_ENV = "ONRECORD_DATABASE_URL"
one_library = False  # set by one_sqlite_library(): this process reaches SQLite through sqlite3 only
SQLITE_FILE = "case.db"


def normalise_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://) and use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def sqlite_url(case_dir: Path) -> str:
    return f"sqlite:///{(case_dir / SQLITE_FILE).resolve()}"


def make_engine(url: str, busy_wait_s: float = DEFAULT_WAIT_S, pool_size: int | None = None) -> Engine:
    """`busy_wait_s`: how long a SQLite reader or writer waits on another process's lock.
    It is the case's write-lock wait (write_lock.py), not a few seconds: in rollback-journal
    mode a long import holds the file exclusively from its first cache spill to its commit,
    and a reader opening the case meanwhile must wait for it as a second writer would.
    `pool_size`: connections kept open for a server's worker threads (pooled(): none is
    opened and closed again per request)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        # the busy wait is set as the connection opens, before any statement can meet a lock
        engine = create_engine(url, connect_args={"timeout": busy_wait_s}, **pooled(pool_size))
        event.listen(engine, "connect", _sqlite_pragmas)
        # Let SQLAlchemy's BEGIN reach SQLite so a whole import is one transaction.
        # Deferred: readers never wait for a lock; writers take it with their first write.
        event.listen(engine, "begin", lambda conn: conn.exec_driver_sql(
            "BEGIN IMMEDIATE" if conn.get_execution_options().get("immediate") else "BEGIN"))
        return engine
    return create_engine(url, connect_args={"application_name": "onrecord"}, **pooled(pool_size))


def pooled(size: int | None) -> dict:
    """Pool settings for `size` concurrent users of an engine (a server's worker threads).
    SQLAlchemy's default keeps 5 and closes every connection beyond them on return, so under
    load each request would open a connection (and run the pragmas) anew."""
    return {} if size is None else {"pool_size": size, "max_overflow": max(2, size // 3)}


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # Python's sqlite3 opens transactions itself; hand that to SQLAlchemy's begin hook.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    # Only a new, empty file takes it: big pages make bulk imports of millions of rows
    # markedly faster (fewer page splits) and cost little on the timeline's range reads.
    cur.execute("PRAGMA page_size=32768")
    cur.execute("PRAGMA foreign_keys=ON")
    # A rollback journal keeps a killed import from leaving anything behind; the
    # journal is synced only at commit, which is what atomicity needs.
    cur.execute("PRAGMA journal_mode=DELETE")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA cache_size=-262144")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that reads and then writes: on SQLite it takes the write lock at BEGIN
    (IMMEDIATE), so it waits its turn behind another writer instead of failing at once with
    "database is locked" when its first write finds the lock taken after its reads."""
    with engine.connect().execution_options(immediate=True) as conn, conn.begin():
        yield conn


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def url_from_environment() -> str | None:
    return os.environ.get(DATABASE_URL_ENV) or None


def one_sqlite_library() -> None:
    """From now on this process opens SQLite stores through Python's `sqlite3` only, the
    library SQLAlchemy's engines use: ADBC's connections (adbc.py) become python_sqlite.py's,
    with the same statements, transactions and Arrow tables. PostgreSQL is unaffected."""
    global one_library
    one_library = True

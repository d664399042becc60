"""Connecting to a case's database: a SQLite file in the case folder, or PostgreSQL by URL."""

from __future__ import annotations

import os
import threading
import weakref
from collections import Counter
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
    It is the case's write-lock wait (write_lock.py), not a few seconds: a writer waits its
    turn behind a long import's transaction. In WAL mode readers never wait for a writer,
    but a reader may still meet another process's checkpoint or journal-mode change.
    `pool_size`: connections kept open for a server's worker threads (pooled(): none is
    opened and closed again per request)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        # the busy wait is set as the connection opens, before any statement can meet a lock
        engine = create_engine(url, connect_args={"timeout": busy_wait_s}, **pooled(pool_size))
        event.listen(engine, "connect", _sqlite_pragmas)
        watch_sqlite(engine)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, connect_args={"application_name": "onrecord"}, **pooled(pool_size))


def _sqlite_begin(conn: Connection) -> None:
    """Let SQLAlchemy's BEGIN reach SQLite so a whole import is one transaction. Deferred:
    readers never wait for a lock; writers take it with their first write. A connection
    marked `one_read` (a lone SELECT asked on every request: a session's lookup) opens
    none: one statement is its own read transaction, and BEGIN and ROLLBACK around it
    were two more statements a request."""
    options = conn.get_execution_options()
    if options.get("one_read"):
        return
    conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get("immediate") else "BEGIN")


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
    # WAL: readers never wait for a writer's commit (the audit's every 2 s, a session's
    # last-seen), which in rollback-journal mode held out every read starting meanwhile and
    # made a served case's p99 (benchmarks/web_load.py). A killed import still leaves nothing
    # behind: frames without a commit frame are never read and are dropped on recovery.
    # The mode is the file's, kept once set (page_size above is fixed from then on). Safe
    # only while one process's SQLite connections to a file go through one SQLite library:
    # see watch_sqlite.
    cur.execute("PRAGMA journal_mode=WAL")
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


# Every SQLite file this process holds open through Python's sqlite3, and the engines that
# hold it. ADBC's SQLite driver links a second copy of the library (adbc.py); in WAL mode
# that copy and this one must never hold one file open at once: locks of one process never
# conflict, so either copy, closing its last connection, checkpoints and deletes the WAL and
# its index under the other's open connections, and either, opening first, may rebuild the
# index the other is using. adbc.py asks `release_sqlite` before it connects; a sqlite3
# connection opened while ADBC holds the file is refused (`adbc_holds`).
_guard = threading.Lock()
_engines: dict[str, weakref.WeakSet] = {}  # file -> engines connecting to it (an engine collected: its connections too)
_adbc_files: Counter[str] = Counter()  # file -> ADBC connections open on it


class TwoSqliteLibraries(RuntimeError):
    """A programming error: Python's sqlite3 and ADBC's SQLite would hold one file at once."""


def sqlite_file(engine: Engine) -> str | None:
    """The file an SQLite engine opens (plain path or `file:` URI), resolved; None for memory."""
    database = engine.url.database or ""
    if database.startswith("file:"):
        database = database[len("file:"):].split("?", 1)[0]
    return str(Path(database).resolve()) if database and database != ":memory:" else None


def watch_sqlite(engine: Engine) -> Engine:
    """Keep the engine on its file's list, for release_sqlite and adbc_holds."""
    path = sqlite_file(engine)
    if path is None:
        return engine
    with _guard:
        _engines.setdefault(path, weakref.WeakSet()).add(engine)

    def opened(_conn, _record):
        if _adbc_files[path] and not one_library:
            raise TwoSqliteLibraries(f"{path}: a sqlite3 connection opened while ADBC's SQLite holds the file "
                                     "(two SQLite libraries in one process: store/engine.py watch_sqlite)")

    event.listen(engine, "connect", opened, insert=True)  # before the pragmas touch the file
    return engine


def release_sqlite(path: str) -> None:
    """Before ADBC's SQLite opens `path`: every idle sqlite3 connection of this process to it
    closed; one still in use (a transaction or read under way) is a TwoSqliteLibraries error."""
    with _guard:
        engines = list(_engines.get(path, ()))
    busy = 0
    for engine in engines:
        # counted before dispose, which closes the idle ones and puts a new pool in the old's
        # place: checked-out connections of the old stay open, and the new one knows nothing of them
        busy += getattr(engine.pool, "checkedout", lambda: 0)()
        engine.dispose()
    if busy:
        raise TwoSqliteLibraries(f"{path}: {busy} sqlite3 connection(s) in use as ADBC's SQLite opens the file "
                                 "(two SQLite libraries in one process: store/engine.py watch_sqlite)")


@contextmanager
def adbc_holds(path: str) -> Iterator[None]:
    """While ADBC's SQLite holds `path` open: no sqlite3 connection may open it."""
    with _guard:
        _adbc_files[path] += 1
    try:
        yield
    finally:
        with _guard:
            _adbc_files[path] -= 1

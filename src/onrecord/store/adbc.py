"""A SQLite case's file opened through Apache Arrow's ADBC driver, for the bulk paths
(an import's rows written whole, a build's events read whole).

ADBC links its own SQLite library. Two SQLite libraries in one process must not hold the
same file open at once: closing one's descriptor drops the other's locks. The case
engine's pooled connections are closed first; they reopen on the next query.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager

from onrecord.store.case import Case

# The same settings the case's SQLAlchemy engine uses (engine.py); the wait matches a
# second writer queueing behind a running one.
PRAGMAS = ("PRAGMA journal_mode=DELETE", "PRAGMA synchronous=NORMAL", "PRAGMA cache_size=-262144",
           "PRAGMA temp_store=MEMORY", "PRAGMA foreign_keys=OFF", "PRAGMA busy_timeout=30000")


@contextmanager
def adbc_cursor(case: Case, autocommit: bool = False) -> Iterator:
    import adbc_driver_sqlite.dbapi as adbc_sqlite  # loaded only by the paths that need it

    case.engine.dispose()
    with closing(adbc_sqlite.connect(case.engine.url.database, autocommit=autocommit)) as con, \
            closing(con.cursor()) as cur:
        yield cur


@contextmanager
def adbc_transaction(case: Case) -> Iterator:
    """An ADBC cursor inside one write transaction on the case: committed when the block
    ends, rolled back if it fails. IMMEDIATE: the write lock is taken before anything is
    read, so what is read (a chain head, the next free id) cannot change underneath."""
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

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


@contextmanager
def adbc_cursor(case: Case, autocommit: bool = False) -> Iterator:
    import adbc_driver_sqlite.dbapi as adbc_sqlite  # loaded only by the paths that need it

    case.engine.dispose()
    with closing(adbc_sqlite.connect(case.engine.url.database, autocommit=autocommit)) as con, \
            closing(con.cursor()) as cur:
        yield cur


def all_rows(cur, sql: str) -> list[tuple]:
    """Every row of a query on an ADBC cursor, as plain tuples."""
    cur.execute(sql)
    return [tuple(r) for r in cur.fetchall()]

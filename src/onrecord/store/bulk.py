"""Bulk inserts on the driver connection: executemany on SQLite, COPY on PostgreSQL.

SQLAlchemy's per-row overhead is too much for a million rows; the drivers' own bulk
paths are used inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice

from sqlalchemy import Connection, Table, func, select

from onrecord.store.engine import is_sqlite

CHUNK = 50_000


def bulk_insert(conn: Connection, table: str, names: tuple[str, ...], rows: Iterable[tuple],
                done: Callable[[int], None] = lambda n: None) -> None:
    driver = conn.connection.driver_connection
    rows = iter(rows)
    if is_sqlite(conn.engine):
        sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        while True:
            cur = driver.executemany(sql, islice(rows, CHUNK))
            n = cur.rowcount
            if n > 0:
                done(n)
            if n < CHUNK:
                return
    with driver.cursor() as cur, cur.copy(f"COPY {table} ({', '.join(names)}) FROM STDIN") as copy:
        while True:
            n = 0
            for row in islice(rows, CHUNK):
                copy.write_row(row)
                n += 1
            if not n:
                return
            done(n)


def next_id(conn: Connection, table: Table) -> int:
    """The next free id: ids are handed out by the writer under its lock, unique across
    the cases sharing one PostgreSQL database."""
    return (conn.execute(select(func.max(table.c.id))).scalar() or 0) + 1

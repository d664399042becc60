"""Bulk inserts on the driver connection: executemany on SQLite, COPY on PostgreSQL.

SQLAlchemy's per-row overhead is too much for a million rows; the drivers' own bulk
paths are used inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import contextmanager
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


def next_id_query(table: Table):
    """The next free id: ids are handed out by the writer under its lock, unique across
    the cases sharing one PostgreSQL database."""
    return select(func.coalesce(func.max(table.c.id), 0) + 1)


def next_id(conn: Connection, table: Table) -> int:
    return conn.execute(next_id_query(table)).scalar()


def sqlite_indexes_query(tables: Iterable[str]) -> str:
    """SQLite's secondary indexes of some tables, with the SQL that made each."""
    names = ", ".join(f"'{t}'" for t in tables)
    return ("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
            f"AND tbl_name IN ({names}) ORDER BY name")


@contextmanager
def sqlite_indexes_dropped(fetch_all: Callable[[str], list], execute: Callable[[str], object],
                           tables: Iterable[str]):
    """SQLite: write millions of rows with the tables' secondary indexes dropped, and build
    each once afterwards (a sort, far cheaper than keeping it up row by row). Run inside
    the caller's transaction, so a failure or a killed process leaves them as they were.
    `fetch_all` and `execute` run SQL on whichever connection holds that transaction."""
    indexes = fetch_all(sqlite_indexes_query(tables))
    for name, _ in indexes:
        execute(f'DROP INDEX "{name}"')
    yield
    for _, sql in indexes:
        execute(sql)

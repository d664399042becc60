"""Helpers of the bulk writers (session.py): the next free id, and SQLite's secondary
indexes dropped while millions of rows go in."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import contextmanager

from sqlalchemy import Connection, Table, func, select


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

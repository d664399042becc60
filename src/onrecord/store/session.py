"""One write transaction on a case's store, for a writer of millions of derived rows (the build).

Both stores take the same SQLAlchemy Core statements and the same Arrow tables. SQLite
runs them through ADBC: the statements compiled for SQLite, the tables bound from their
columns in C (Python's sqlite3 would bind every value of every row from a Python object).
PostgreSQL runs them on the case's SQLAlchemy connection and sends the tables with COPY.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial

import pyarrow as pa
from sqlalchemy import Connection, Float, Integer, LargeBinary, String, Table
from sqlalchemy.dialects import sqlite as sqlite_dialect

from onrecord.store.adbc import adbc_transaction, all_rows
from onrecord.store.batch import python_rows
from onrecord.store.bulk import bulk_insert, sqlite_indexes_dropped
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite

SQLITE = sqlite_dialect.dialect()


def sqlite_rows(cur, statement) -> list[tuple]:
    """A SQLAlchemy Core statement compiled for SQLite and run on an ADBC cursor; its rows."""
    compiled = statement.compile(dialect=SQLITE)
    cur.execute(str(compiled), [compiled.params[name] for name in compiled.positiontup])
    return [tuple(r) for r in cur.fetchall()] if cur.description else []


class SQLiteSession:
    def __init__(self, cur):
        self.cur = cur

    def run(self, statement) -> list[tuple]:
        return sqlite_rows(self.cur, statement)

    def ingest(self, table: Table, data: pa.Table) -> None:
        if data.num_rows:
            self.cur.adbc_ingest(table.name, data, mode="append")

    def indexes_rebuilt(self, tables: Iterable[str]) -> AbstractContextManager:
        """Millions of rows go in faster with the tables' secondary indexes built afterwards."""
        return sqlite_indexes_dropped(partial(all_rows, self.cur), self.cur.execute, tables)


class ServerSession:
    def __init__(self, conn: Connection):
        self.conn = conn

    def run(self, statement) -> list[tuple]:
        result = self.conn.execute(statement)
        return [tuple(r) for r in result.all()] if result.returns_rows else []

    def ingest(self, table: Table, data: pa.Table) -> None:
        if data.num_rows:
            bulk_insert(self.conn, table.name, tuple(data.column_names), python_rows(data))

    def indexes_rebuilt(self, tables: Iterable[str]) -> AbstractContextManager:
        # Several cases share a PostgreSQL database's tables: their indexes stay.
        return nullcontext()


@contextmanager
def write_session(case: Case) -> Iterator[SQLiteSession | ServerSession]:
    """All or nothing: a failure or a killed process leaves the case as it was."""
    if is_sqlite(case.engine):
        with adbc_transaction(case) as cur:
            yield SQLiteSession(cur)
        return
    with case.engine.begin() as conn:
        yield ServerSession(conn)


def _arrow_type(column) -> pa.DataType:
    kind = column.type
    if isinstance(kind, Integer):
        return pa.int64()
    if isinstance(kind, Float):
        return pa.float64()
    if isinstance(kind, LargeBinary):
        return pa.binary()
    if isinstance(kind, String):
        return pa.string()
    raise TypeError(f"{column.table.name}.{column.name}: no Arrow type for {kind!r}")


def arrow_rows(table: Table, rows: list[dict]) -> pa.Table:
    """Rows (dicts keyed by column name, all with the same keys) as an Arrow table, each
    column typed from the table's own column, so a column of all NULLs keeps its type."""
    names = [c.name for c in table.columns if rows and c.name in rows[0]]
    schema = pa.schema([(name, _arrow_type(table.c[name])) for name in names])
    return pa.Table.from_pylist(rows, schema=schema)

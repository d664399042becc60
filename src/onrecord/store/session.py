"""One write transaction on a case's store, for writers of millions of rows (an import,
a build).

Both stores take the same SQLAlchemy Core statements and the same Arrow tables, through
Apache Arrow's ADBC drivers (adbc.py): the statements compiled for the store, the tables
handed over whole — bound from their columns in C on SQLite, sent with binary COPY on
PostgreSQL. Python's drivers would make a Python object of every value of every row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial

import pyarrow as pa
from sqlalchemy import BigInteger, Float, Integer, LargeBinary, String, Table
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.dialects.postgresql import psycopg as postgresql_dialect

from onrecord.errors import CaseError
from onrecord.store.adbc import adbc_transaction, all_rows
from onrecord.store.bulk import next_id_query, sqlite_indexes_dropped
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite
from onrecord.store.write_lock import case_write_lock, wait_limit

SQLITE = sqlite_dialect.dialect()
# ADBC's PostgreSQL driver takes $1, $2 ... (and the casts SQLAlchemy writes beside them
# type a NULL parameter)
POSTGRESQL = postgresql_dialect.dialect(paramstyle="numeric_dollar")


def compiled_rows(cur, statement, dialect=SQLITE) -> list[tuple]:
    """A SQLAlchemy Core statement compiled for the store and run on an ADBC cursor; its rows."""
    compiled = statement.compile(dialect=dialect)
    cur.execute(str(compiled), [compiled.params[name] for name in compiled.positiontup or ()])
    return [tuple(r) for r in cur.fetchall()] if cur.description else []


# Statements compiled once (SQLAlchemy's compiler costs more than SQLite takes to run a
# small statement): module-level statements with bind parameters, by their identity.
_COMPILED: dict[tuple[int, bool], tuple] = {}


class WriteSession:
    def __init__(self, cur, sqlite: bool):
        self.cur, self.sqlite = cur, sqlite

    def run(self, statement) -> list[tuple]:
        return compiled_rows(self.cur, statement, SQLITE if self.sqlite else POSTGRESQL)

    def run_prepared(self, statement, **params) -> list[tuple]:
        """A statement built once (its values `bindparam`s, given here), compiled once."""
        key = (id(statement), self.sqlite)
        hit = _COMPILED.get(key)
        if hit is None or hit[0] is not statement:
            compiled = statement.compile(dialect=SQLITE if self.sqlite else POSTGRESQL)
            hit = _COMPILED[key] = (statement, str(compiled), tuple(compiled.positiontup or ()), dict(compiled.params))
        _, sql, order, defaults = hit
        values = defaults | params
        self.cur.execute(sql, [values[name] for name in order])
        return [tuple(r) for r in self.cur.fetchall()] if self.cur.description else []

    def first_row(self, statement) -> tuple | None:
        return next(iter(self.run(statement)), None)

    def next_id(self, table: Table) -> int:
        return int(self.first_row(next_id_query(table))[0])

    def ingest(self, table: Table, data: pa.Table) -> None:
        if data.num_rows:
            self.cur.adbc_ingest(table.name, typed_for(table, data), mode="append")

    def indexes_rebuilt(self, tables: Iterable[str]) -> AbstractContextManager:
        """Millions of rows go into SQLite faster with the tables' secondary indexes built
        afterwards. Several cases share a PostgreSQL database's tables: their indexes stay."""
        if not self.sqlite:
            return nullcontext()
        return sqlite_indexes_dropped(partial(all_rows, self.cur), self.cur.execute, tables)


@contextmanager
def write_session(case: Case, kept=None) -> Iterator[WriteSession]:
    """All or nothing: a failure or a killed process leaves the case as it was. Another
    writer of the same case is waited for (write_lock.py), then this one runs. `kept`: a
    writer's own connection kept between its sessions (adbc.KeptConnection)."""
    from onrecord.store.adbc import driver_errors

    wait = wait_limit(case.settings)
    with case_write_lock(case.path, wait):
        try:
            with adbc_transaction(case, kept) as cur:
                if not is_sqlite(case.engine):  # a writer on another machine: waited for, within bounds
                    cur.execute(f"SET LOCAL lock_timeout = '{int(wait * 1000)}ms'")
                yield WriteSession(cur, is_sqlite(case.engine))
        except driver_errors() as exc:
            if not any(s in str(exc) for s in ("database is locked", "lock timeout")):
                raise
            raise CaseError(f"another writer held this case's store for over {wait:.0f} s; nothing was "
                            "written: try again when it has finished") from exc


def _arrow_type(column) -> pa.DataType:
    kind = column.type
    if isinstance(kind, BigInteger):
        return pa.int64()
    if isinstance(kind, Integer):
        # binary COPY writes a column's values at its width: a PostgreSQL INTEGER takes 32 bits
        return pa.int32()
    if isinstance(kind, Float):
        return pa.float64()
    if isinstance(kind, LargeBinary):
        return pa.binary()
    if isinstance(kind, String):
        return pa.string()
    raise TypeError(f"{column.table.name}.{column.name}: no Arrow type for {kind!r}")


# The Arrow schema of a table's columns, by (table, column names): a live batch of a few
# frames asked SQLAlchemy each column's type twice a batch (a third of its fixed cost)
_SCHEMAS: dict[tuple[int, tuple[str, ...]], tuple[Table, pa.Schema]] = {}


def typed_for(table: Table, data: pa.Table) -> pa.Table:
    """`data` with each column cast to the type of the table's column of that name."""
    key = (id(table), tuple(data.column_names))
    hit = _SCHEMAS.get(key)
    if hit is None or hit[0] is not table:
        hit = _SCHEMAS[key] = (table, pa.schema([(name, _arrow_type(table.c[name])) for name in key[1]]))
    schema = hit[1]
    if data.schema.equals(schema):
        return data
    for i, f in enumerate(schema):  # only the columns of another type cast (Table.cast casts every one)
        if not data.schema.field(i).type.equals(f.type):
            data = data.set_column(i, f.name, data.column(i).cast(f.type))
    return data.cast(schema) if not data.schema.equals(schema) else data  # what is left: nullability


def arrow_rows(table: Table, rows: list[dict]) -> pa.Table:
    """Rows (dicts keyed by column name, all with the same keys) as an Arrow table, each
    column typed from the table's own column, so a column of all NULLs keeps its type."""
    names = [c.name for c in table.columns if rows and c.name in rows[0]]
    schema = pa.schema([(name, _arrow_type(table.c[name])) for name in names])
    return pa.Table.from_pylist(rows, schema=schema)

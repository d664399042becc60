"""ADBC's cursor, as the store's writers and Arrow readers use it, over Python's `sqlite3`:
for a process that must reach its SQLite store through one SQLite library only.

Why: ADBC's SQLite driver links its own copy of the SQLite library. SQLite's locks are
POSIX advisory locks, and locks one process holds never conflict with each other, so two
copies in one process are blind to each other: a read through `sqlite3` while an ADBC
write transaction is open takes that transaction's rollback journal for a crashed
writer's, rolls it back and deletes it (ADBC's commit then fails with "disk I/O error"),
and closing a `sqlite3` connection drops every lock ADBC holds on the file. In WAL mode
(the case store's, engine.py) it is worse: either copy, closing its last connection,
checkpoints and deletes the WAL under the other's open connections. Within one copy,
SQLite tracks every connection to a file and keeps their locks right.

The live process (live/service.py) reads accounts, sessions and the audit through
`sqlite3` while its ingest writes batches, so it switches to this (engine.py,
`one_sqlite_library`): the same statements, the same Arrow tables, the same transaction
boundaries, bound row by row instead of column-wise in C. A live batch is tens to a few
thousand rows, where that costs less than ADBC's connection opened per batch
(benchmarks/live_sqlite_library.py). `onrecord serve`'s processes switch to it too
(views/web/workers.py one_library). Imports and builds in their own processes keep ADBC.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterator

import pyarrow as pa

FETCH_ROWS = 65_536  # rows per Arrow batch read (fetch_record_batch)
_SQL_TYPE = {pa.types.is_integer: "INTEGER", pa.types.is_floating: "REAL", pa.types.is_binary: "BLOB",
             pa.types.is_large_binary: "BLOB", pa.types.is_string: "TEXT", pa.types.is_large_string: "TEXT",
             pa.types.is_boolean: "INTEGER"}


def connect(path: str, busy_s: float) -> PythonSqliteConnection:
    """A connection of its own (opened and closed like ADBC's, never a pooled one whose
    settings a writer's pragmas would change), in autocommit: transactions are the
    caller's BEGIN and COMMIT, as on ADBC's autocommit connections."""
    con = sqlite3.connect(path, timeout=busy_s, isolation_level=None, check_same_thread=False)
    return PythonSqliteConnection(con)


class PythonSqliteConnection:
    def __init__(self, con: sqlite3.Connection):
        self.raw = con

    def cursor(self) -> PythonSqliteCursor:
        return PythonSqliteCursor(self)

    def commit(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()


class PythonSqliteCursor:
    """The part of ADBC's DB-API cursor the store uses: execute, fetchall, description,
    adbc_ingest, fetch_arrow_table, fetch_record_batch."""

    def __init__(self, connection: PythonSqliteConnection):
        self.connection = connection
        self._cur = connection.raw.cursor()

    @property
    def description(self):
        return self._cur.description

    def execute(self, sql: str, parameters=None) -> None:
        self._cur.execute(sql, tuple(parameters or ()))

    def fetchall(self) -> list[tuple]:
        return self._cur.fetchall()

    def adbc_ingest(self, table_name: str, data: pa.Table | pa.RecordBatch, mode: str = "append",
                    temporary: bool = False) -> int:
        """The table's rows appended to `table_name` (with mode `create_append`, made first
        if absent, typed from the Arrow columns), as ADBC's bulk ingest does."""
        names = list(data.schema.names)
        if mode in ("create", "create_append"):
            typed = ", ".join(f"{_quoted(f.name)} {_sql_type(f)}" for f in data.schema)
            exists = " IF NOT EXISTS" if mode == "create_append" else ""
            self._cur.execute(f"CREATE {'TEMP ' if temporary else ''}TABLE{exists} {_quoted(table_name)} ({typed})")
        elif mode != "append":
            raise ValueError(f"ingest mode {mode!r} is not one the store uses")
        if not data.num_rows:
            return 0
        rows = zip(*(data.column(i).to_pylist() for i in range(len(names))), strict=True)
        self._cur.executemany(_insert(table_name, tuple(names)), rows)
        return data.num_rows

    def fetch_arrow_table(self) -> pa.Table:
        batches = list(self.fetch_record_batch())
        if not batches:
            return pa.table({d[0]: pa.array([], pa.null()) for d in self._cur.description or ()})
        return pa.Table.from_batches(batches)

    def fetch_record_batch(self) -> Iterator[pa.RecordBatch]:
        """The rows as Arrow batches, each column typed as its first non-NULL value in the
        first batch (the store's Arrow readers put a typed row first, arrow_read.py, as
        ADBC's SQLite driver also types a column from its first rows)."""
        names = [d[0] for d in self._cur.description or ()]
        types: list[pa.DataType] | None = None
        while rows := self._cur.fetchmany(FETCH_ROWS):
            values = list(zip(*rows, strict=True))
            if types is None:
                types = [_type_of(col) for col in values]
            yield pa.RecordBatch.from_arrays([_array(col, t) for col, t in zip(values, types, strict=True)],
                                             names=names)

    def close(self) -> None:
        self._cur.close()


@functools.lru_cache(maxsize=256)
def _insert(table_name: str, names: tuple[str, ...]) -> str:
    """The INSERT of `names` into `table_name` (a live writer ingests three tables a batch)."""
    marks = ", ".join("?" for _ in names)
    return f"INSERT INTO {_quoted(table_name)} ({', '.join(_quoted(n) for n in names)}) VALUES ({marks})"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_type(f: pa.Field) -> str:
    for test, name in _SQL_TYPE.items():
        if test(f.type):
            return name
    raise TypeError(f"column {f.name}: no SQLite type for Arrow {f.type}")


def _type_of(values) -> pa.DataType:
    first = next((v for v in values if v is not None), None)
    if isinstance(first, bool | int):
        return pa.int64()
    if isinstance(first, float):
        return pa.float64()
    if isinstance(first, bytes | memoryview):
        return pa.binary()
    if isinstance(first, str):
        return pa.string()
    return pa.null()


def _array(values, kind: pa.DataType) -> pa.Array:
    try:
        return pa.array(values, kind)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError):
        # SQLite types values, not columns: a later row may hold another type than the first
        return pa.array([None if v is None else str(v) for v in values], pa.string())

"""Reading millions of rows of a case as Arrow columns, through ADBC.

Python's drivers hand back a tuple of Python objects per row; for a build over millions
of events that is most of the time spent loading. ADBC's drivers fill Arrow columns in
C. SQLite's guesses each column's type from the first rows it reads, so a text column
that starts with NULLs would be taken for integers: there a first row of typed
placeholders goes ahead of the query's rows and is dropped after. PostgreSQL's knows
every column's type.
"""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from sqlalchemy import Float, Integer, LargeBinary, Select

from onrecord.store.adbc import adbc_cursor
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite

SENTINEL_ID = -1  # no stored row has a negative id


def _placeholder(column) -> str:
    if isinstance(column.type, Integer):
        return str(SENTINEL_ID)
    if isinstance(column.type, Float):
        return "0.0"
    if isinstance(column.type, LargeBinary):
        return "X''"
    return "''"


def _sql(case: Case, stmt: Select) -> str:
    sql = str(stmt.compile(dialect=case.engine.dialect, compile_kwargs={"literal_binds": True}))
    if is_sqlite(case.engine):
        first = ", ".join(f"{_placeholder(c)} AS {c.name}" for c in stmt.selected_columns)
        # UNION ALL yields its parts in order: the placeholders first, then the query's rows.
        sql = f"SELECT {first} UNION ALL SELECT * FROM ({sql})"
    return sql


def _without_placeholder(batch):
    if batch.num_rows == 0 or batch.column(0)[0].as_py() != SENTINEL_ID:
        raise RuntimeError("reading rows as Arrow: the typed first row did not come first")
    return batch.slice(1)


def arrow_batches(case: Case, stmt: Select) -> Iterator[pa.RecordBatch]:
    """The rows of `stmt` (its first column an integer key) as Arrow record batches, one at a
    time, for reads of every row of a table that need not hold them all at once (the digests
    of receipts and of verify)."""
    sqlite = is_sqlite(case.engine)
    with adbc_cursor(case) as cur:
        cur.execute(_sql(case, stmt))
        first = True
        for batch in cur.fetch_record_batch():
            if first and sqlite:
                batch = _without_placeholder(batch)
            first = False
            yield batch


def arrow_frame(case: Case, stmt: Select, categories: tuple[str, ...] = ()) -> pd.DataFrame:
    """The rows of `stmt` (its first column an id) as a DataFrame, read as Arrow. Text
    columns named in `categories` (a few values over millions of rows) become categories
    while still Arrow, without a Python string per row."""
    with adbc_cursor(case) as cur:
        cur.execute(_sql(case, stmt))
        table = cur.fetch_arrow_table()
    if is_sqlite(case.engine):
        table = _without_placeholder(table)
    for name in categories:
        i = table.schema.get_field_index(name)
        table = table.set_column(i, name, pc.dictionary_encode(table.column(i)))
    return table.to_pandas()

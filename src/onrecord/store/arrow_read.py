"""Reading millions of rows of a SQLite case as Arrow columns, through ADBC.

Python's sqlite3 hands back a tuple of Python objects per row; for a build over millions
of events that is most of the time spent loading. ADBC's SQLite driver fills Arrow
columns in C. It guesses each column's type from the first rows it reads, so a text
column that starts with NULLs would be taken for integers: a first row of typed
placeholders goes ahead of the query's rows and is dropped after.
"""

from __future__ import annotations

import pandas as pd
import pyarrow.compute as pc
from sqlalchemy import Float, Integer, Select

from onrecord.store.adbc import adbc_cursor
from onrecord.store.case import Case
from onrecord.store.engine import is_sqlite

SENTINEL_ID = -1  # no stored row has a negative id


def _placeholder(column) -> str:
    if isinstance(column.type, Integer):
        return str(SENTINEL_ID)
    if isinstance(column.type, Float):
        return "0.0"
    return "''"


def sqlite_frame(case: Case, stmt: Select, categories: tuple[str, ...] = ()) -> pd.DataFrame:
    """The rows of `stmt` (its first column an id) as a DataFrame, read as Arrow. Text
    columns named in `categories` (a few values over millions of rows) become categories
    while still Arrow, without a Python string per row."""
    if not is_sqlite(case.engine):
        raise ValueError("sqlite_frame reads SQLite cases only")
    columns = list(stmt.selected_columns)
    sql = str(stmt.compile(dialect=case.engine.dialect, compile_kwargs={"literal_binds": True}))
    first = ", ".join(f"{_placeholder(c)} AS {c.name}" for c in columns)
    with adbc_cursor(case) as cur:
        # UNION ALL yields its parts in order: the placeholders first, then the query's rows.
        cur.execute(f"SELECT {first} UNION ALL SELECT * FROM ({sql})")
        table = cur.fetch_arrow_table()
    if table.num_rows == 0 or table.column(0)[0].as_py() != SENTINEL_ID:
        raise RuntimeError("reading the events as Arrow: the typed first row did not come first")
    table = table.slice(1)
    for name in categories:
        i = table.schema.get_field_index(name)
        table = table.set_column(i, name, pc.dictionary_encode(table.column(i)))
    return table.to_pandas()

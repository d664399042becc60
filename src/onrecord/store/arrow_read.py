"""Reading millions of rows of a case as Arrow columns, through ADBC.

Python's drivers hand back a tuple of Python objects per row; for a build over millions
of events that is most of the time spent loading. ADBC's drivers fill Arrow columns in
C. SQLite's guesses each column's type from the first rows it reads, so a text column
that starts with NULLs would be taken for integers: there a first row of typed
placeholders goes ahead of the query's rows and is dropped after. PostgreSQL's knows
every column's type.
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


def arrow_frame(case: Case, stmt: Select, categories: tuple[str, ...] = ()) -> pd.DataFrame:
    """The rows of `stmt` (its first column an id) as a DataFrame, read as Arrow. Text
    columns named in `categories` (a few values over millions of rows) become categories
    while still Arrow, without a Python string per row."""
    sql = str(stmt.compile(dialect=case.engine.dialect, compile_kwargs={"literal_binds": True}))
    sqlite = is_sqlite(case.engine)
    if sqlite:
        first = ", ".join(f"{_placeholder(c)} AS {c.name}" for c in stmt.selected_columns)
        # UNION ALL yields its parts in order: the placeholders first, then the query's rows.
        sql = f"SELECT {first} UNION ALL SELECT * FROM ({sql})"
    with adbc_cursor(case) as cur:
        cur.execute(sql)
        table = cur.fetch_arrow_table()
    if sqlite:
        if table.num_rows == 0 or table.column(0)[0].as_py() != SENTINEL_ID:
            raise RuntimeError("reading the events as Arrow: the typed first row did not come first")
        table = table.slice(1)
    for name in categories:
        i = table.schema.get_field_index(name)
        table = table.set_column(i, name, pc.dictionary_encode(table.column(i)))
    return table.to_pandas()

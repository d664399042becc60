"""The full-text index of a case (search_index.py writes it, read_search.py reads it).

Both stores keep `search_state` (how far the index has got: declared on the store's one
metadata). The index itself is each store's own kind of table, so it is not on that
metadata (the migrations create it, 0013):

- SQLite: FTS5 tables `events_fts(fields, raw, case_id, source_id)` and `claims_fts(fields,
  case_id, source_id)`,
  their rowid the event's or claim's id (FTS5 keeps its own shadow tables beside them);
- PostgreSQL: `events_search(event_id, case_id, source_id, tsv)` and `claims_search(claim_id,
  case_id, source_id, tsv)`, a tsvector each with a GIN index. An event's fields are weight A, its raw line D,
  so a role that may not see raw lines searches the fields alone.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, MetaData, Table, column, table
from sqlalchemy.dialects.postgresql import TSVECTOR

from onrecord.store.schema import metadata

search_state = Table(
    "search_state",
    metadata,
    Column("case_id", ForeignKey("cases.id"), primary_key=True),
    Column("generation", BigInteger, nullable=False),  # cases.generation the events index is of
    Column("derived_generation", BigInteger, nullable=False),  # cases.derived_generation of the claims index
    Column("events_upto", BigInteger, nullable=False),  # every event up to this id is indexed
    Column("events_indexed", BigInteger, nullable=False),
)

pg_metadata = MetaData()  # PostgreSQL only
events_search = Table(
    "events_search", pg_metadata,
    Column("event_id", BigInteger, primary_key=True, autoincrement=False),
    Column("case_id", Integer, nullable=False),
    Column("source_id", Integer, nullable=False),
    Column("tsv", TSVECTOR, nullable=False),
)
claims_search = Table(
    "claims_search", pg_metadata,
    Column("claim_id", BigInteger, primary_key=True, autoincrement=False),
    Column("case_id", Integer, nullable=False),
    Column("source_id", Integer, nullable=False),
    Column("tsv", TSVECTOR, nullable=False),
)

# SQLite only: FTS5 virtual tables, as SQLAlchemy sees them in statements
events_fts = table("events_fts", column("rowid"), column("events_fts"), column("fields"), column("raw"),
                   column("case_id"), column("source_id"))
claims_fts = table("claims_fts", column("rowid"), column("claims_fts"), column("fields"), column("case_id"),
                   column("source_id"))

FTS5_TOKENIZER = "unicode61 remove_diacritics 0"  # the text is stored already cut into words (search_query.py)
SQLITE_DDL = (
    # the case and source beside the words: a search ranks, filters and cuts its page in the index
    # alone, and joins the events of that page only
    f"CREATE VIRTUAL TABLE events_fts USING fts5(fields, raw, case_id UNINDEXED, source_id UNINDEXED, "
    f"tokenize='{FTS5_TOKENIZER}')",
    f"CREATE VIRTUAL TABLE claims_fts USING fts5(fields, case_id UNINDEXED, source_id UNINDEXED, "
    f"tokenize='{FTS5_TOKENIZER}')",
)
INDEX_TABLES = ("events_fts", "claims_fts", "events_search", "claims_search")


def is_index_table(name: str | None) -> bool:
    """A table of the store's own full-text machinery (FTS5's shadow tables included):
    created by migration 0013, not declared on the metadata."""
    return bool(name) and any(name == t or name.startswith(t + "_") for t in INDEX_TABLES)

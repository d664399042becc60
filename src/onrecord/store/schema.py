"""Tables of the case store (SQLAlchemy Core). Migrations in `migrations/` follow this.

Times are integer milliseconds since the epoch, UTC: the same on SQLite and PostgreSQL,
cheap to index and to compare. Raw rows and hashes are bytes, never re-encoded text,
so a stored record is provably the line that was handed over.
"""

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

# On SQLite only INTEGER PRIMARY KEY is the rowid itself; BIGINT would add a second index.
RowId = BigInteger().with_variant(Integer(), "sqlite")

cases = Table(
    "cases",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("uid", String(36), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("created_at", String(40), nullable=False),
    # The head of the evidence chain: deleting the newest records must not go unseen.
    Column("record_count", BigInteger, nullable=False, default=0),
    Column("chain_head", LargeBinary(32), nullable=False),
)

sources = Table(
    "sources",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("agency", String(80)),
    Column("file_name", String(500), nullable=False),
    Column("file_sha256", String(64), nullable=False),
    Column("mapping_name", String(120), nullable=False),
    # The mapping text as used, so the events can be re-derived and audited later.
    Column("mapping_text", Text, nullable=False),
    Column("timezone", String(64)),
    Column("record_count", BigInteger, nullable=False),
    Column("event_count", BigInteger, nullable=False),
    Column("rejected_count", BigInteger, nullable=False, default=0),
    Column("imported_at", String(40), nullable=False),
    Column("clock_offset_s", Float),
    Column("clock_offset_unc_s", Float),
    Column("clock_pinned", Boolean, nullable=False, default=False),
    UniqueConstraint("case_id", "file_sha256", name="uq_sources_case_file"),
)

raw_records = Table(
    "raw_records",
    metadata,
    # Ids are handed out by the importer under the case's write lock, in chain order.
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("source_id", ForeignKey("sources.id"), nullable=False),
    Column("seq", BigInteger, nullable=False),  # position in the case's chain, from 1
    Column("ordinal", BigInteger, nullable=False),  # line in the file where it starts, from 1
    Column("raw", LargeBinary, nullable=False),
    Column("sha256", LargeBinary(32), nullable=False),
    Column("chain", LargeBinary(32), nullable=False),
    UniqueConstraint("case_id", "seq", name="uq_raw_records_case_seq"),
    Index("ix_raw_records_source", "source_id", "ordinal"),
)

events = Table(
    "events",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("source_id", ForeignKey("sources.id"), nullable=False),
    Column("raw_record_id", ForeignKey("raw_records.id"), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("time_text", String(80)),
    # The written time read on the source's own clock (UTC ms), as an interval
    # [lo, hi] whose width is the precision of what was written.
    Column("t_src_lo", BigInteger),
    Column("t_src_hi", BigInteger),
    Column("agency", String(80)),
    Column("unit", String(80)),
    Column("call", String(80)),
    Column("actor", String(200)),
    Column("channel", String(80)),
    Column("place", String(300)),
    Column("lat", Float),
    Column("lon", Float),
    Column("text", Text),
    Column("attrs", Text),  # JSON object
    Index("ix_events_case_time", "case_id", "t_src_lo"),
    Index("ix_events_source", "source_id"),
)

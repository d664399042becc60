"""Tables of the case store (SQLAlchemy Core). Migrations in `migrations/` follow this.

Times are integer milliseconds since the epoch, UTC: the same on SQLite and PostgreSQL,
cheap to index and to compare. Raw rows and hashes are bytes, never re-encoded text,
so a stored record is provably the line that was handed over.
"""

from sqlalchemy import (
    BigInteger,
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
    text,
)

metadata = MetaData()

def ImportedText(sqlite_length: int):  # noqa: N802 (reads as a column type)
    """Text copied from an agency's file (a unit, a call number, a place): unbounded, since
    exports write what they like and both stores must take the same inputs (migration
    0008). SQLite never enforces a VARCHAR length, so the length its existing cases
    declare stays (no table need be copied to change a word no one reads)."""
    return Text().with_variant(String(sqlite_length), "sqlite")


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
    # Counts every change to the case's events (an import, a live feed's events, a removal);
    # a build keeps the count it was made on, so every view can say the build is older (0009).
    Column("generation", BigInteger, nullable=False, default=0, server_default="0"),
    Column("built_generation", BigInteger),
    Column("derived_generation", BigInteger, nullable=False, default=0, server_default="0"),  # builds, linkages
)

sources = Table(
    "sources",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("agency", ImportedText(80)),
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
    # `onrecord remove-source`: its records stay on the chain, its events are withdrawn (0009)
    Column("withdrawn_at", String(40)),
    Column("withdrawn_reason", Text),
    # a file's bytes once among the sources not withdrawn: a withdrawn file may be imported
    # again, with a corrected mapping (0016)
    Index("uq_sources_case_current_file", "case_id", "file_sha256", unique=True,
          sqlite_where=text("withdrawn_at IS NULL"), postgresql_where=text("withdrawn_at IS NULL")),
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
    # Its JSON Pointer or XPath in the file where lines do not say it (several records on
    # one line, a record that is part of a document); null for a CSV line.
    Column("path", String(1000)),
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
    Column("time_text", ImportedText(80)),
    # The written time read on the source's own clock (UTC ms), as an interval
    # [lo, hi] whose width is the precision of what was written.
    Column("t_src_lo", BigInteger),
    Column("t_src_hi", BigInteger),
    Column("agency", ImportedText(80)),
    Column("unit", ImportedText(80)),
    Column("call", ImportedText(80)),
    Column("actor", ImportedText(200)),
    Column("channel", ImportedText(80)),
    Column("place", ImportedText(300)),
    Column("lat", Float),
    Column("lon", Float),
    Column("text", Text),
    Column("attrs", Text),  # JSON object
    # Where inside its raw record the event was read (an EIDO component's JSON Pointer,
    # a worksheet row), when finer than the record itself.
    Column("path", String(1000)),
    Index("ix_events_case_time", "case_id", "t_src_lo"),
)


# ---- Derived tables: written by `onrecord build`, never edited by hand, rebuilt at will.

clock_estimates = Table(
    "clock_estimates",
    metadata,
    Column("source_id", ForeignKey("sources.id"), primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    # reference (the clock others are read against), estimated, pinned, loose (only bounded), or unknown
    Column("status", String(12), nullable=False),
    Column("offset_s", Float),  # how far the clock runs ahead: written time - true time
    Column("uncertainty_s", Float),
    Column("drift_ppm", Float),  # how many millionths faster than true time it runs, where measured
    Column("drift_ref_ms", BigInteger),  # ... and the moment (UTC ms) at which offset_s holds
    Column("anchors", Integer, nullable=False, default=0),  # shared events it rests on
    Column("evidence", Text),  # JSON: [{event, reference_event, residual_s}, ...]
    Column("note", Text),
)

fused_events = Table(
    "fused_events",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("kind", String(40), nullable=False),
    # Reports disagreeing about the time are kept as an interval, never averaged away.
    Column("t_lo", BigInteger),
    Column("t_hi", BigInteger),
    Column("t_best", BigInteger),
    Column("reports", Integer, nullable=False),
    Column("sources", Integer, nullable=False),
    Column("agency", ImportedText(80)),
    Column("unit_entity_id", BigInteger),
    Column("place", ImportedText(300)),
    Column("label", Text),
    Index("ix_fused_case_time", "case_id", "t_lo"),
)

aligned_events = Table(
    "aligned_events",
    metadata,
    Column("event_id", ForeignKey("events.id"), primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    # The event's time on the common clock: written precision widened by the clock's uncertainty.
    Column("t_lo", BigInteger),
    Column("t_hi", BigInteger),
    Column("fused_id", BigInteger),
    Index("ix_aligned_case_time", "case_id", "t_lo"),
    # only the few events fused with others (migration 0004)
    Index("ix_aligned_fused", "fused_id", sqlite_where=text("fused_id IS NOT NULL"),
          postgresql_where=text("fused_id IS NOT NULL")),
)

# Each event's row of the timeline's list, rendered once as JSON text for one `stamp` (the
# clock its times are on and the display zone): store/listing.py (migration 0017). A rendering,
# not evidence: a row goes with its event (ON DELETE CASCADE), so whoever deletes an event row
# (a removal, or by hand: tampering, which `verify` then finds among the events) is never
# refused, and no row outlives the event it shows.
event_listings = Table(
    "event_listings",
    metadata,
    Column("event_id", ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("stamp", String(80), nullable=False),
    Column("body", Text, nullable=False),
    Index("ix_event_listings_case", "case_id"),
)

entities = Table(
    "entities",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("kind", String(12), nullable=False),  # person, unit, agency, place
    Column("name", ImportedText(200), nullable=False),
    Column("agency", ImportedText(80)),
    Column("aliases", Text),  # JSON list of the ways records write it
    Column("attrs", Text),  # JSON: rank, role, armed, unit ids ...
    Column("evidence", Text),  # JSON: why these mentions are one entity
)

entity_mentions = Table(
    "entity_mentions",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("entity_id", BigInteger, nullable=False),
    Column("event_id", BigInteger),
    Column("claim_id", BigInteger),
    Column("role", String(20), nullable=False),  # unit, actor, speaker, subject, crew
    Column("text", ImportedText(300), nullable=False),  # the mention as written
    Column("score", Float),
    Index("ix_mentions_entity", "entity_id"),
    Index("ix_mentions_event", "event_id"),
)

claims = Table(
    "claims",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("source_id", ForeignKey("sources.id"), nullable=False),
    Column("event_id", BigInteger),
    Column("span_lo", Integer),
    Column("span_hi", Integer),
    Column("sentence", Text),
    Column("speaker", ImportedText(200)),
    Column("speaker_entity_id", BigInteger),
    Column("subject", ImportedText(200)),
    Column("subject_entity_id", BigInteger),
    Column("measure", String(60), nullable=False),
    Column("value_lo", Float),
    Column("value_hi", Float),
    Column("unit", String(20)),
    Column("hedge", String(40)),
    Column("time_ref", ImportedText(80)),
    Column("payload", Text),
)

findings = Table(
    "findings",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("kind", String(20), nullable=False),  # metric, discrepancy, warning, alert
    Column("name", String(80), nullable=False),  # e.g. first_entry, unit_time_outside
    Column("subject", ImportedText(200)),  # the unit / agency / person it is about, if any
    # established: the value stands on its evidence; not_established: payload's "reason" says why
    Column("status", String(20), nullable=False),
    Column("value_lo", Float),
    Column("value_hi", Float),
    Column("unit", String(20)),  # "utc_ms", "s", "count"
    # JSON: the values, times (UTC ms), names and reason codes the finding's sentence is
    # made of when it is read (findings/render.py); never the sentence itself (migration 0006)
    Column("payload", Text),
    Column("evidence", Text, nullable=False),  # JSON: {"events": [...], "claims": [...], "fused": [...]}
    Index("ix_findings_case_kind", "case_id", "kind"),
)

# Accounts, sessions, the audit log, protected people, restricted sources, annotations
# (issue 16), and the full-text index's state: their own modules, on this same metadata.
from onrecord.store import schema_access, schema_search  # noqa: E402,F401

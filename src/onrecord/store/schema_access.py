"""Tables of who may read a case and what they did (issue 16): accounts, sessions, API
tokens, failed sign-ins, the audit log and its chain head, protected people, restricted
sources, annotations. Declared on the store's one `metadata` (schema.py imports this
module), migrated by revision 0011 (0012: accounts' OIDC subjects; 0014: OIDC sign-ins under way, audit spools;
0015: the live board's acknowledgements of alerts).

Accounts belong to the store, not to one case: a PostgreSQL server holding many cases
holds one set of users, each granted the cases they may read (`user_cases`); a SQLite
case folder holds its own. Secrets are never stored: passwords as argon2 hashes, session
and API tokens as SHA-256 of the token.
"""

from sqlalchemy import BigInteger, Column, ForeignKey, Index, Integer, LargeBinary, String, Table, Text

from onrecord.store.schema import RowId, metadata

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(120), nullable=False, unique=True),
    Column("role", String(20), nullable=False),  # viewer, analyst, auditor, admin (store/roles.py)
    Column("password_hash", Text, nullable=False),
    Column("totp_secret", String(64)),  # base32; NULL: no second factor enrolled
    Column("totp_last_step", BigInteger),  # the newest 30-s step a code was accepted for: each code once
    Column("disabled", Integer, nullable=False, default=0),
    Column("locked_until_ms", BigInteger),  # AC-7: set by the 5th failure in 15 minutes
    Column("created_at_ms", BigInteger, nullable=False),
    Column("password_set_at_ms", BigInteger, nullable=False),
    # OIDC sign-in (revision 0012): the provider's `sub` for this person, linked by an admin
    Column("oidc_subject", String(255)),
    Index("ux_users_oidc_subject", "oidc_subject", unique=True),
)

user_agencies = Table(
    "user_agencies",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("agency", String(80), primary_key=True),
)

user_cases = Table(
    "user_cases",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("case_id", ForeignKey("cases.id"), primary_key=True),
)

sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("id", RowId, primary_key=True),
    Column("user_name", String(120), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    Index("ix_sign_in_failures_user_at", "user_name", "at_ms"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("last_seen_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger),
    Column("from_addr", String(64)),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("revoked_ms", BigInteger),
)

# OIDC sign-ins begun and not yet finished (revision 0014): in the store, so any of a
# server's processes can finish one; `used_ms` keeps a finished state from being used again
oidc_pending = Table(
    "oidc_pending",
    metadata,
    Column("state_sha256", String(64), primary_key=True),
    Column("nonce", String(100), nullable=False),
    Column("verifier", String(200), nullable=False),
    Column("redirect_uri", Text, nullable=False),
    Column("next_url", Text, nullable=False),
    Column("browser_sha256", String(64), nullable=False),
    Column("started_ms", BigInteger, nullable=False),
    Column("used_ms", BigInteger),
    Index("ix_oidc_pending_started", "started_ms"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", RowId, primary_key=True, autoincrement=False),  # 1, 2, 3 ... in chain order
    Column("at_ms", BigInteger, nullable=False),  # UTC, to the millisecond (AU-8)
    Column("actor", String(120), nullable=False),
    Column("via", String(10), nullable=False),  # web, api, cli
    Column("case_id", Integer),
    Column("action", String(40), nullable=False),  # read, sign_in, sign_in_failed, lockout, user_change ...
    Column("what", Text, nullable=False),  # route and query, or the command
    Column("record_ids", Text),  # JSON: the ids of the records returned
    Column("from_addr", String(64)),
    Column("outcome", String(10), nullable=False),  # allowed, denied, error
    Column("entry_sha256", LargeBinary(32), nullable=False),  # SHA-256(previous entry's hash + this entry)
    Index("ix_audit_log_actor_at", "actor", "at_ms"),
)

# How many lines of each server process's audit spool file are in the chain (revision 0014;
# access/audit_spool.py): updated in the transaction that writes them, so none is written twice
audit_spool = Table(
    "audit_spool",
    metadata,
    Column("name", String(80), primary_key=True),
    Column("committed", BigInteger, nullable=False),
)

audit_chain = Table(
    "audit_chain",
    metadata,
    Column("id", Integer, primary_key=True),  # one row: the head of the audit chain
    Column("entry_count", BigInteger, nullable=False),
    Column("head", LargeBinary(32), nullable=False),
)

protected_people = Table(
    "protected_people",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("name", String(200), nullable=False),  # as it is written in the records
    Column("reason", String(20), nullable=False),  # victim, minor, witness, juvenile
    Column("pseudonym", String(40), nullable=False),  # "Victim 3": stable within the case
    Column("marked_by", String(120), nullable=False),
    Column("marked_at_ms", BigInteger, nullable=False),
    Index("ix_protected_people_case", "case_id"),
)

restricted_sources = Table(
    "restricted_sources",
    metadata,
    Column("source_id", ForeignKey("sources.id"), primary_key=True),  # readable by its agency's users only
    Column("restricted_by", String(120), nullable=False),
    Column("restricted_at_ms", BigInteger, nullable=False),
)

annotations = Table(
    "annotations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("cases.id"), nullable=False),
    Column("target", String(20), nullable=False),  # event, finding, search
    Column("target_id", BigInteger),
    Column("kind", String(20), nullable=False),  # tag, comment, star, disputed, saved_search
    Column("text", Text),
    Column("author", String(120), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    Index("ix_annotations_case_target", "case_id", "target", "target_id"),
)

# Who acknowledged an alert on the live board, and when (revision 0015; access/alert_acks.py): kept
# in the store, so a restarted live process shows them again. An alert's id names its rule,
# subject and episode (live/engine.py), which a restart's replay of the events gives again.
alert_acknowledgements = Table(
    "alert_acknowledgements",
    metadata,
    Column("case_id", ForeignKey("cases.id"), primary_key=True),
    Column("alert_id", String(300), primary_key=True),
    Column("acknowledged_by", String(120), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)

"""A file withdrawn by `onrecord remove-source` can be imported again (with a corrected
mapping, say): a file's bytes are unique among a case's sources that are not withdrawn,
not among all of them. The withdrawn source keeps its row, hash and records as evidence.

SQLite cannot drop a table's UNIQUE constraint, so there `sources` is made anew from its
own definition less the constraint, and its rows put back, with foreign-key checks deferred
to the commit (the raw records and events pointing at it are orphans for a moment). Not by
alembic's batch copy: it renames the copy into place, and SQLite counts the orphans a drop
makes but discounts them only as parent rows are inserted, so the commit would fail.

Revision ID: 0016
Revises: 0015
"""

import re

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

CURRENT = sa.text("withdrawn_at IS NULL")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_without_unique()
    else:
        # (IF EXISTS: a store downgraded past 0016 has none, see downgrade())
        op.execute("ALTER TABLE sources DROP CONSTRAINT IF EXISTS uq_sources_case_file")
    op.create_index('uq_sources_case_current_file', 'sources', ['case_id', 'file_sha256'], unique=True,
                    sqlite_where=CURRENT, postgresql_where=CURRENT)


def _sqlite_without_unique() -> None:
    bind = op.get_bind()
    ddl = bind.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sources'").scalar()
    anew, n = re.subn(r",\s*CONSTRAINT uq_sources_case_file UNIQUE \(case_id, file_sha256\)", "", ddl)
    if n == 0:
        return  # (a store downgraded past 0016 has none: downgrade())
    others = [row[0] for row in bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'sources' AND type IN ('index', 'trigger') "
        "AND sql IS NOT NULL")]
    op.execute("PRAGMA defer_foreign_keys = ON")
    op.execute("CREATE TEMP TABLE sources_0016 AS SELECT * FROM sources")
    op.execute("DROP TABLE sources")
    op.execute(anew)
    op.execute("INSERT INTO sources SELECT * FROM sources_0016")  # the orphans have their parents again
    op.execute("DROP TABLE sources_0016")
    for sql in others:
        op.execute(sql)


def downgrade() -> None:
    # The constraint is not put back: a store that has imported a withdrawn file again holds
    # the same bytes twice and could not take it (and on SQLite it would mean the table copy).
    op.drop_index('uq_sources_case_current_file', table_name='sources')

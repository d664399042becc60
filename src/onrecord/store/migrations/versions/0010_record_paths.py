"""Where a record sits inside its file, beyond the line: nested formats (JSON, XML, EIDO,
CAP, workbooks) hold several records on one line, or records that are parts of one
document. `raw_records.path` is the record's JSON Pointer or XPath in the file (null for
a CSV line, or for the bytes between records); `events.path` is where inside its record
an event was read (an EIDO component's pointer, a worksheet row), null when the record
itself is the place. Both are nullable: the records and events imported before keep
what they cite.

Revision ID: 0010
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE on both stores: a batch (table copy) on SQLite would trip the
    # foreign keys that point at raw_records
    op.add_column('raw_records', sa.Column('path', sa.String(length=1000), nullable=True))
    op.add_column('events', sa.Column('path', sa.String(length=1000), nullable=True))


def downgrade() -> None:
    op.drop_column('events', 'path')
    op.drop_column('raw_records', 'path')

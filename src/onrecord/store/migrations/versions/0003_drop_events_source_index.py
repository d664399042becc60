"""Drop the index of events by source: nothing looks events up by source, and keeping
it costs every import (a million-row export writes three million entries into it).

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index('ix_events_source', table_name='events')


def downgrade() -> None:
    op.create_index('ix_events_source', 'events', ['source_id'], unique=False)

"""Index only the aligned events that belong to a fused event: the index answers "the
reports of fused event N", and nearly every event of a case (a year of other calls)
belongs to none. A build writes one aligned row per event; indexing their NULLs cost it
a sort of millions of entries nobody looks up.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

FUSED = sa.text("fused_id IS NOT NULL")


def upgrade() -> None:
    op.drop_index('ix_aligned_fused', table_name='aligned_events')
    op.create_index('ix_aligned_fused', 'aligned_events', ['fused_id'], unique=False,
                    sqlite_where=FUSED, postgresql_where=FUSED)


def downgrade() -> None:
    op.drop_index('ix_aligned_fused', table_name='aligned_events')
    op.create_index('ix_aligned_fused', 'aligned_events', ['fused_id'], unique=False)

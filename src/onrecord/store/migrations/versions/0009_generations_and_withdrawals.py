"""A case counts the changes to its events (so a view can say its build is older than
them), the generation each build was made on, the writes of its derived tables (so a
cache of a view is keyed on them, not on counts), and a source's withdrawal.

Revision ID: 0009
Revises: 0008 (re-chained at merge; written on 0006)
"""

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy): on SQLite a batch copy of `sources` would trip the
    # foreign keys of the raw records and events that point at it
    op.add_column('cases', sa.Column('generation', sa.BigInteger(), nullable=False, server_default='0'))
    op.add_column('cases', sa.Column('built_generation', sa.BigInteger(), nullable=True))
    op.add_column('cases', sa.Column('derived_generation', sa.BigInteger(), nullable=False, server_default='0'))
    op.add_column('sources', sa.Column('withdrawn_at', sa.String(40), nullable=True))
    op.add_column('sources', sa.Column('withdrawn_reason', sa.Text(), nullable=True))
    # A case built before this migration: its build counts as made on its events as they are.
    op.execute("UPDATE cases SET built_generation = 0 WHERE EXISTS "
               "(SELECT 1 FROM aligned_events a WHERE a.case_id = cases.id)")


def downgrade() -> None:
    for table, column in (('sources', 'withdrawn_reason'), ('sources', 'withdrawn_at'),
                          ('cases', 'derived_generation'), ('cases', 'built_generation'), ('cases', 'generation')):
        op.drop_column(table, column)

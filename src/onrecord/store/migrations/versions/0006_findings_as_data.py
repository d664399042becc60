"""Findings as data: a finding keeps values, times and reason codes, and its sentence is
written when it is read, in the reader's zone; the stored `summary` column goes.

Findings, claims and the rest of the derived tables of a build made before this cannot
be worded from (their payloads lack what the sentences need), so they are cleared: every
case in the store then reads as not built, and every view says to run `onrecord build`
(and `onrecord link` for prior warnings). Builds are derived data: a rebuild refills them.
Raw records, events and sources are untouched.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

# children first: nothing here is referenced by a foreign key from the others
DERIVED = ('aligned_events', 'fused_events', 'clock_estimates', 'entity_mentions', 'entities', 'findings', 'claims')


def upgrade() -> None:
    for table in DERIVED:
        op.execute(f'DELETE FROM {table}')
    with op.batch_alter_table('findings') as batch:
        batch.drop_column('summary')


def downgrade() -> None:
    with op.batch_alter_table('findings') as batch:
        batch.add_column(sa.Column('summary', sa.Text(), nullable=False, server_default=''))

"""A drifting clock's offset holds at one moment: keep that moment beside the rate.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('clock_estimates') as batch:
        batch.add_column(sa.Column('drift_ref_ms', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('clock_estimates') as batch:
        batch.drop_column('drift_ref_ms')

"""What the processes of one server (`onrecord serve --workers N`) share through the store:
OIDC sign-ins under way (`oidc_pending`: a sign-in begun on one process finishes on
whichever the provider's redirect reaches, each `state` used once across all of them), and
how far each process's local audit spool has been written into the chain (`audit_spool`:
its entries reach the store exactly once, whenever the process stops).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'oidc_pending',
        sa.Column('state_sha256', sa.String(64), primary_key=True),
        sa.Column('nonce', sa.String(100), nullable=False),
        sa.Column('verifier', sa.String(200), nullable=False),
        sa.Column('redirect_uri', sa.Text(), nullable=False),
        sa.Column('next_url', sa.Text(), nullable=False),
        sa.Column('browser_sha256', sa.String(64), nullable=False),
        sa.Column('started_ms', sa.BigInteger(), nullable=False),
        sa.Column('used_ms', sa.BigInteger()),
    )
    op.create_index('ix_oidc_pending_started', 'oidc_pending', ['started_ms'])
    op.create_table(
        'audit_spool',
        sa.Column('name', sa.String(80), primary_key=True),
        sa.Column('committed', sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('audit_spool')
    op.drop_index('ix_oidc_pending_started', 'oidc_pending')
    op.drop_table('oidc_pending')

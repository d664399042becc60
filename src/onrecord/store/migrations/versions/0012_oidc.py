"""OIDC sign-in: an account may be linked to the subject (`sub`) an OpenID Connect provider
gives its user (`onrecord user add ... --oidc-subject SUB`). One subject, one account.

Revision ID: 0012
Revises: 0009 (the head: 0006, 0010, 0011, 0008, 0009)
"""

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.add_column(sa.Column('oidc_subject', sa.String(255)))
        batch.create_index('ux_users_oidc_subject', ['oidc_subject'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.drop_index('ux_users_oidc_subject')
        batch.drop_column('oidc_subject')

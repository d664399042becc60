"""The live board's acknowledgements of alerts (`alert_acknowledgements`: case, alert id,
who, when), kept in the store so that a restarted live process shows who acknowledged
what; before, they lived in the running process and the audit log only.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'alert_acknowledgements',
        sa.Column('case_id', sa.Integer(), sa.ForeignKey('cases.id'), primary_key=True),
        sa.Column('alert_id', sa.String(300), primary_key=True),
        sa.Column('acknowledged_by', sa.String(120), nullable=False),
        sa.Column('at_ms', sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('alert_acknowledgements')

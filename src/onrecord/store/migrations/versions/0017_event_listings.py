"""Each event's row of the timeline's list, rendered once as JSON text (store/listing.py):
a page of `/api/events` is its rows' texts joined. Empty after the upgrade: rows are
rendered by the next import, build or linkage (`onrecord build` renders them all), and
until then pages are rendered from the events as before.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('event_listings',
                    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
                    sa.Column('case_id', sa.Integer(), nullable=False),
                    sa.Column('stamp', sa.String(80), nullable=False),
                    sa.Column('body', sa.Text(), nullable=False),
                    sa.ForeignKeyConstraint(['case_id'], ['cases.id']),
                    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('event_id'))
    op.create_index('ix_event_listings_case', 'event_listings', ['case_id'])


def downgrade() -> None:
    op.drop_index('ix_event_listings_case', table_name='event_listings')
    op.drop_table('event_listings')

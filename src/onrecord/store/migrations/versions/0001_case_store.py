"""case store

Revision ID: 0001
Revises:
Create Date: 2026-11-29 19:13:06.946813
"""

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table('cases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.String(length=40), nullable=False),
    sa.Column('record_count', sa.BigInteger(), nullable=False),
    sa.Column('chain_head', sa.LargeBinary(length=32), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('uid')
    )
    op.create_table('sources',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('agency', sa.String(length=80), nullable=True),
    sa.Column('file_name', sa.String(length=500), nullable=False),
    sa.Column('file_sha256', sa.String(length=64), nullable=False),
    sa.Column('mapping_name', sa.String(length=120), nullable=False),
    sa.Column('mapping_text', sa.Text(), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=True),
    sa.Column('record_count', sa.BigInteger(), nullable=False),
    sa.Column('event_count', sa.BigInteger(), nullable=False),
    sa.Column('rejected_count', sa.BigInteger(), nullable=False),
    sa.Column('imported_at', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('case_id', 'file_sha256', name='uq_sources_case_file')
    )
    op.create_table('raw_records',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('ordinal', sa.BigInteger(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('sha256', sa.LargeBinary(length=32), nullable=False),
    sa.Column('chain', sa.LargeBinary(length=32), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('case_id', 'seq', name='uq_raw_records_case_seq')
    )
    with op.batch_alter_table('raw_records', schema=None) as batch_op:
        batch_op.create_index('ix_raw_records_source', ['source_id', 'ordinal'], unique=False)

    op.create_table('events',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('raw_record_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('time_text', sa.String(length=80), nullable=True),
    sa.Column('t_src_lo', sa.BigInteger(), nullable=True),
    sa.Column('t_src_hi', sa.BigInteger(), nullable=True),
    sa.Column('agency', sa.String(length=80), nullable=True),
    sa.Column('unit', sa.String(length=80), nullable=True),
    sa.Column('call', sa.String(length=80), nullable=True),
    sa.Column('actor', sa.String(length=200), nullable=True),
    sa.Column('channel', sa.String(length=80), nullable=True),
    sa.Column('place', sa.String(length=300), nullable=True),
    sa.Column('lat', sa.Float(), nullable=True),
    sa.Column('lon', sa.Float(), nullable=True),
    sa.Column('text', sa.Text(), nullable=True),
    sa.Column('attrs', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.ForeignKeyConstraint(['raw_record_id'], ['raw_records.id'], ),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index('ix_events_case_time', ['case_id', 't_src_lo'], unique=False)
        batch_op.create_index('ix_events_source', ['source_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index('ix_events_source')
        batch_op.drop_index('ix_events_case_time')

    op.drop_table('events')
    with op.batch_alter_table('raw_records', schema=None) as batch_op:
        batch_op.drop_index('ix_raw_records_source')

    op.drop_table('raw_records')
    op.drop_table('sources')
    op.drop_table('cases')


"""derived tables

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 19:24:05.993184
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table('entities',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('agency', sa.String(length=80), nullable=True),
    sa.Column('aliases', sa.Text(), nullable=True),
    sa.Column('attrs', sa.Text(), nullable=True),
    sa.Column('evidence', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('entity_mentions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('entity_id', sa.BigInteger(), nullable=False),
    sa.Column('event_id', sa.BigInteger(), nullable=True),
    sa.Column('claim_id', sa.BigInteger(), nullable=True),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('text', sa.String(length=300), nullable=False),
    sa.Column('score', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('entity_mentions', schema=None) as batch_op:
        batch_op.create_index('ix_mentions_entity', ['entity_id'], unique=False)
        batch_op.create_index('ix_mentions_event', ['event_id'], unique=False)

    op.create_table('findings',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('subject', sa.String(length=200), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('value_lo', sa.Float(), nullable=True),
    sa.Column('value_hi', sa.Float(), nullable=True),
    sa.Column('unit', sa.String(length=20), nullable=True),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('payload', sa.Text(), nullable=True),
    sa.Column('evidence', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('findings', schema=None) as batch_op:
        batch_op.create_index('ix_findings_case_kind', ['case_id', 'kind'], unique=False)

    op.create_table('fused_events',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('t_lo', sa.BigInteger(), nullable=True),
    sa.Column('t_hi', sa.BigInteger(), nullable=True),
    sa.Column('t_best', sa.BigInteger(), nullable=True),
    sa.Column('reports', sa.Integer(), nullable=False),
    sa.Column('sources', sa.Integer(), nullable=False),
    sa.Column('agency', sa.String(length=80), nullable=True),
    sa.Column('unit_entity_id', sa.BigInteger(), nullable=True),
    sa.Column('place', sa.String(length=300), nullable=True),
    sa.Column('label', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('fused_events', schema=None) as batch_op:
        batch_op.create_index('ix_fused_case_time', ['case_id', 't_lo'], unique=False)

    op.create_table('claims',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.BigInteger(), nullable=True),
    sa.Column('span_lo', sa.Integer(), nullable=True),
    sa.Column('span_hi', sa.Integer(), nullable=True),
    sa.Column('sentence', sa.Text(), nullable=True),
    sa.Column('speaker', sa.String(length=200), nullable=True),
    sa.Column('speaker_entity_id', sa.BigInteger(), nullable=True),
    sa.Column('subject', sa.String(length=200), nullable=True),
    sa.Column('subject_entity_id', sa.BigInteger(), nullable=True),
    sa.Column('measure', sa.String(length=60), nullable=False),
    sa.Column('value_lo', sa.Float(), nullable=True),
    sa.Column('value_hi', sa.Float(), nullable=True),
    sa.Column('unit', sa.String(length=20), nullable=True),
    sa.Column('hedge', sa.String(length=40), nullable=True),
    sa.Column('time_ref', sa.String(length=80), nullable=True),
    sa.Column('payload', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('clock_estimates',
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('offset_s', sa.Float(), nullable=True),
    sa.Column('uncertainty_s', sa.Float(), nullable=True),
    sa.Column('drift_ppm', sa.Float(), nullable=True),
    sa.Column('anchors', sa.Integer(), nullable=False),
    sa.Column('evidence', sa.Text(), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], ),
    sa.PrimaryKeyConstraint('source_id')
    )
    op.create_table('aligned_events',
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('t_lo', sa.BigInteger(), nullable=True),
    sa.Column('t_hi', sa.BigInteger(), nullable=True),
    sa.Column('fused_id', sa.BigInteger(), nullable=True),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ),
    sa.PrimaryKeyConstraint('event_id')
    )
    with op.batch_alter_table('aligned_events', schema=None) as batch_op:
        batch_op.create_index('ix_aligned_case_time', ['case_id', 't_lo'], unique=False)
        batch_op.create_index('ix_aligned_fused', ['fused_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('aligned_events', schema=None) as batch_op:
        batch_op.drop_index('ix_aligned_fused')
        batch_op.drop_index('ix_aligned_case_time')

    op.drop_table('aligned_events')
    op.drop_table('clock_estimates')
    op.drop_table('claims')
    with op.batch_alter_table('fused_events', schema=None) as batch_op:
        batch_op.drop_index('ix_fused_case_time')

    op.drop_table('fused_events')
    with op.batch_alter_table('findings', schema=None) as batch_op:
        batch_op.drop_index('ix_findings_case_kind')

    op.drop_table('findings')
    with op.batch_alter_table('entity_mentions', schema=None) as batch_op:
        batch_op.drop_index('ix_mentions_event')
        batch_op.drop_index('ix_mentions_entity')

    op.drop_table('entity_mentions')
    op.drop_table('entities')


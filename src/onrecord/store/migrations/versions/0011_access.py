"""Who may read a case and what they did: accounts, sessions, API tokens, failed
sign-ins, the hash-chained audit log, protected people, restricted sources, annotations.
Nothing existing changes.

Revision ID: 0011
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

RowId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TABLES = ('annotations', 'restricted_sources', 'protected_people', 'audit_chain', 'audit_log', 'api_tokens',
          'sessions', 'sign_in_failures', 'user_cases', 'user_agencies', 'users')  # children first


def upgrade() -> None:
    op.create_table(
        'users',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('name', sa.String(120), nullable=False, unique=True),
        sa.Column('role', sa.String(20), nullable=False),
        sa.Column('password_hash', sa.Text(), nullable=False),
        sa.Column('totp_secret', sa.String(64)),
        sa.Column('totp_last_step', sa.BigInteger()),
        sa.Column('disabled', sa.Integer(), nullable=False),
        sa.Column('locked_until_ms', sa.BigInteger()),
        sa.Column('created_at_ms', sa.BigInteger(), nullable=False),
        sa.Column('password_set_at_ms', sa.BigInteger(), nullable=False),
    )
    op.create_table(
        'user_agencies',
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), primary_key=True),
        sa.Column('agency', sa.String(80), primary_key=True),
    )
    op.create_table(
        'user_cases',
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), primary_key=True),
        sa.Column('case_id', sa.Integer(), sa.ForeignKey('cases.id'), primary_key=True),
    )
    op.create_table(
        'sign_in_failures',
        sa.Column('id', RowId, primary_key=True),
        sa.Column('user_name', sa.String(120), nullable=False),
        sa.Column('at_ms', sa.BigInteger(), nullable=False),
    )
    op.create_index('ix_sign_in_failures_user_at', 'sign_in_failures', ['user_name', 'at_ms'])
    op.create_table(
        'sessions',
        sa.Column('token_sha256', sa.String(64), primary_key=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=False),
        sa.Column('csrf', sa.String(64), nullable=False),
        sa.Column('created_ms', sa.BigInteger(), nullable=False),
        sa.Column('last_seen_ms', sa.BigInteger(), nullable=False),
        sa.Column('ended_ms', sa.BigInteger()),
        sa.Column('from_addr', sa.String(64)),
    )
    op.create_table(
        'api_tokens',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=False),
        sa.Column('token_sha256', sa.String(64), nullable=False, unique=True),
        sa.Column('created_ms', sa.BigInteger(), nullable=False),
        sa.Column('revoked_ms', sa.BigInteger()),
    )
    op.create_table(
        'audit_log',
        sa.Column('id', RowId, primary_key=True, autoincrement=False),
        sa.Column('at_ms', sa.BigInteger(), nullable=False),
        sa.Column('actor', sa.String(120), nullable=False),
        sa.Column('via', sa.String(10), nullable=False),
        sa.Column('case_id', sa.Integer()),
        sa.Column('action', sa.String(40), nullable=False),
        sa.Column('what', sa.Text(), nullable=False),
        sa.Column('record_ids', sa.Text()),
        sa.Column('from_addr', sa.String(64)),
        sa.Column('outcome', sa.String(10), nullable=False),
        sa.Column('entry_sha256', sa.LargeBinary(32), nullable=False),
    )
    op.create_index('ix_audit_log_actor_at', 'audit_log', ['actor', 'at_ms'])
    op.create_table(
        'audit_chain',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('entry_count', sa.BigInteger(), nullable=False),
        sa.Column('head', sa.LargeBinary(32), nullable=False),
    )
    # the one row of the audit chain: no entries yet, the same genesis as the evidence chain
    op.bulk_insert(sa.table('audit_chain', sa.column('id', sa.Integer()), sa.column('entry_count', sa.BigInteger()),
                            sa.column('head', sa.LargeBinary())), [{'id': 1, 'entry_count': 0, 'head': bytes(32)}])
    op.create_table(
        'protected_people',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('case_id', sa.Integer(), sa.ForeignKey('cases.id'), nullable=False),
        sa.Column('name', sa.String(200), nullable=False),
        sa.Column('reason', sa.String(20), nullable=False),
        sa.Column('pseudonym', sa.String(40), nullable=False),
        sa.Column('marked_by', sa.String(120), nullable=False),
        sa.Column('marked_at_ms', sa.BigInteger(), nullable=False),
    )
    op.create_index('ix_protected_people_case', 'protected_people', ['case_id'])
    op.create_table(
        'restricted_sources',
        sa.Column('source_id', sa.Integer(), sa.ForeignKey('sources.id'), primary_key=True),
        sa.Column('restricted_by', sa.String(120), nullable=False),
        sa.Column('restricted_at_ms', sa.BigInteger(), nullable=False),
    )
    op.create_table(
        'annotations',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('case_id', sa.Integer(), sa.ForeignKey('cases.id'), nullable=False),
        sa.Column('target', sa.String(20), nullable=False),
        sa.Column('target_id', sa.BigInteger()),
        sa.Column('kind', sa.String(20), nullable=False),
        sa.Column('text', sa.Text()),
        sa.Column('author', sa.String(120), nullable=False),
        sa.Column('at_ms', sa.BigInteger(), nullable=False),
    )
    op.create_index('ix_annotations_case_target', 'annotations', ['case_id', 'target', 'target_id'])


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)

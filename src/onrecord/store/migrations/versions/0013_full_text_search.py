"""Full-text search (issue 16): an index of every case's event text, raw lines and claims
(SQLite FTS5; PostgreSQL tsvector with a GIN index) and `search_state`, how far it has
got. The cases already in the store are indexed here; from now on every import, live
frame, removal, build and linkage keeps it current (store/search_index.py).

Revision ID: 0013
Revises: 0012 (the chain runs 0006, 0010, 0011, 0008, 0009, 0012)
"""

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    from onrecord.store.schema_search import SQLITE_DDL
    from onrecord.store.search_index import connection_sink, refresh

    op.create_table(
        'search_state',
        sa.Column('case_id', sa.Integer(), sa.ForeignKey('cases.id'), primary_key=True),
        sa.Column('generation', sa.BigInteger(), nullable=False),
        sa.Column('derived_generation', sa.BigInteger(), nullable=False),
        sa.Column('events_upto', sa.BigInteger(), nullable=False),
        sa.Column('events_indexed', sa.BigInteger(), nullable=False),
    )
    bind = op.get_bind()
    if bind.dialect.name == 'sqlite':
        for ddl in SQLITE_DDL:
            op.execute(ddl)
    else:
        from sqlalchemy.dialects.postgresql import TSVECTOR

        for name, key in (('events_search', 'event_id'), ('claims_search', 'claim_id')):
            op.create_table(
                name,
                sa.Column(key, sa.BigInteger(), primary_key=True, autoincrement=False),
                sa.Column('case_id', sa.Integer(), nullable=False),
                sa.Column('source_id', sa.Integer(), nullable=False),
                sa.Column('tsv', TSVECTOR(), nullable=False),
            )
            op.create_index(f'ix_{name}_tsv', name, ['tsv'], postgresql_using='gin')
            op.create_index(f'ix_{name}_case', name, ['case_id'])
    sink = connection_sink(bind)
    for (case_id,) in bind.execute(sa.text('SELECT id FROM cases ORDER BY id')).fetchall():
        refresh(sink, case_id)


def downgrade() -> None:
    for name in ('events_fts', 'claims_fts', 'events_search', 'claims_search'):
        op.execute(f'DROP TABLE IF EXISTS {name}')
    op.drop_table('search_state')

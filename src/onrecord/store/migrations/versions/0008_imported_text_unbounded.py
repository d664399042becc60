"""Text copied from imported files is unbounded on PostgreSQL, as it is on SQLite: a unit
or call over 80 characters, or a place over 300, was accepted by SQLite (which never
enforces a VARCHAR length) and refused by PostgreSQL with a driver traceback. VARCHAR(n)
to TEXT is a catalogue change on PostgreSQL: no table is rewritten.

Revision ID: 0008
Revises: 0011 (re-chained after main's 0011 when main was merged)
"""

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0011'
branch_labels = None
depends_on = None

WIDENED = {
    'sources': {'agency': 80},
    'events': {'time_text': 80, 'agency': 80, 'unit': 80, 'call': 80, 'actor': 200, 'channel': 80, 'place': 300},
    'fused_events': {'agency': 80, 'place': 300},
    'entities': {'name': 200, 'agency': 80},
    'entity_mentions': {'text': 300},
    'claims': {'speaker': 200, 'subject': 200, 'time_ref': 80},
    'findings': {'subject': 200},
}


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        return  # lengths are not enforced there; see schema.ImportedText
    for table, columns in WIDENED.items():
        for column, length in columns.items():
            op.alter_column(table, column, type_=sa.Text(), existing_type=sa.String(length))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        return
    # values longer than the old limits are cut to fit, not lost silently elsewhere
    for table, columns in WIDENED.items():
        for column, length in columns.items():
            op.alter_column(table, column, type_=sa.String(length), existing_type=sa.Text(),
                            postgresql_using=f'left({column}, {length})')

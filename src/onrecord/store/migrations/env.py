"""Alembic environment: always handed a live connection by onrecord.store.migrate."""

from alembic import context

from onrecord.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

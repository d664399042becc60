"""The migrations build exactly the schema the code declares, on both stores."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from onrecord.store.case import init_case
from onrecord.store.migrate import current_revision, head_revision
from onrecord.store.schema import metadata


def test_a_new_case_is_at_the_newest_revision_and_matches_the_declared_schema(tmp_path, backend):
    case = init_case(tmp_path / "case")
    assert current_revision(case.engine) == head_revision()
    with case.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []  # a table, column or index one side has and the other lacks

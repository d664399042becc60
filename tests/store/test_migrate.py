"""The migrations build exactly the schema the code declares, on both stores."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from onrecord.store.case import init_case
from onrecord.store.migrate import current_revision, head_revision
from onrecord.store.schema import metadata
from onrecord.store.schema_search import is_index_table


def test_a_new_case_is_at_the_newest_revision_and_matches_the_declared_schema(tmp_path, backend):
    case = init_case(tmp_path / "case")
    assert current_revision(case.engine) == head_revision()
    # the full-text index is each store's own kind of table (schema_search.py), declared apart
    skip_index = lambda name, kind, parent: not (kind == "table" and is_index_table(name))
    with case.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"include_name": skip_index}), metadata)
        tables = set(inspect(conn).get_table_names())
    assert diff == []  # a table, column or index one side has and the other lacks
    index = {"events_fts", "claims_fts"} if backend == "sqlite" else {"events_search", "claims_search"}
    assert index <= tables


def test_a_case_built_before_findings_became_data_reads_as_not_built(tmp_path, cli, monkeypatch):
    """Migration 0006: a build whose findings kept finished sentences cannot be worded anew;
    its derived tables are cleared and every view says to rebuild. SQLite only: the
    PostgreSQL test database is shared by the session's tests."""
    from alembic import command
    from sqlalchemy import func, inspect, select, text

    from onrecord.store import migrate
    from onrecord.store.case import open_case
    from onrecord.store.engine import DATABASE_URL_ENV
    from onrecord.store.schema import events, findings
    from tests.helpers import write_cad

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    case_dir = tmp_path / "case"
    data, mapping = write_cad(tmp_path / "in")
    assert cli("init", case_dir)[0] == 0 and cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    assert cli("build", case_dir)[0] == 0
    case = open_case(case_dir)
    cfg = migrate._config()
    with case.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
        conn.execute(text("UPDATE findings SET summary = 'first shots: not established — old words'"))
    assert current_revision(case.engine) == "0005"
    case.engine.dispose()

    code, _, err = cli("metrics", case_dir)
    assert code == 2 and "onrecord build" in err
    case = open_case(case_dir)
    assert current_revision(case.engine) == head_revision()
    assert "summary" not in {c["name"] for c in inspect(case.engine).get_columns("findings")}
    with case.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(findings)).scalar() == 0
        assert conn.execute(select(func.count()).select_from(events)).scalar() == 7  # the import is untouched
    assert cli("build", case_dir)[0] == 0 and cli("metrics", case_dir)[0] == 0

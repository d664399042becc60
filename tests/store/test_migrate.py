"""The migrations build exactly the schema the code declares, on both stores."""

from __future__ import annotations

import pytest
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


def test_0016_lets_a_withdrawn_file_in_again_and_keeps_every_record_and_reference(tmp_path):
    """Migration 0016 on a SQLite store made before it (UNIQUE(case_id, file_sha256) in the
    table): the table is made anew without it, its rows and the records pointing at it
    intact; afterwards the same bytes may be a second source while the first is withdrawn."""
    from alembic import command
    from sqlalchemy import text

    from onrecord.store import migrate
    from onrecord.store.engine import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    cfg = migrate._config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0015")
        conn.execute(text("INSERT INTO cases (id, uid, name, created_at, record_count, chain_head, generation, "
                          "derived_generation) VALUES (1, 'u', 'c', 't', 1, x'00', 1, 0)"))
        conn.execute(text("INSERT INTO sources (id, case_id, kind, file_name, file_sha256, mapping_name, "
                          "mapping_text, record_count, event_count, rejected_count, imported_at, withdrawn_at) "
                          "VALUES (7, 1, 'cad', 'a.csv', 'abc', 'm', '', 1, 0, 0, 't', 'w')"))
        conn.execute(text("INSERT INTO raw_records (id, case_id, source_id, seq, ordinal, raw, sha256, chain) "
                          "VALUES (1, 1, 7, 1, 1, x'61', x'00', x'00')"))
    migrate.upgrade(engine)
    assert current_revision(engine) == head_revision()
    with engine.begin() as conn:
        assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
        assert conn.execute(text("SELECT source_id FROM raw_records")).scalar() == 7
        conn.execute(text("INSERT INTO sources (id, case_id, kind, file_name, file_sha256, mapping_name, "
                          "mapping_text, record_count, event_count, rejected_count, imported_at) "
                          "VALUES (8, 1, 'cad', 'a.csv', 'abc', 'm', '', 1, 0, 0, 't')"))
    with engine.begin() as conn, pytest.raises(Exception, match="UNIQUE"):
        conn.execute(text("INSERT INTO sources (id, case_id, kind, file_name, file_sha256, mapping_name, "
                          "mapping_text, record_count, event_count, rejected_count, imported_at) "
                          "VALUES (9, 1, 'cad', 'a.csv', 'abc', 'm', '', 1, 0, 0, 't')"))
    engine.dispose()

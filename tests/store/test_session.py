"""One write transaction with bulk Arrow writes, on SQLite (ADBC) and PostgreSQL."""

from __future__ import annotations

import pyarrow as pa
import pytest
from sqlalchemy import delete, func, select, text

from onrecord.store.bulk import next_id_query
from onrecord.store.case import init_case
from onrecord.store.schema import entity_mentions, findings
from onrecord.store.session import arrow_rows, write_session


def _mentions(case_id: int, first: int, n: int) -> pa.Table:
    return arrow_rows(entity_mentions, [
        {"id": first + i, "case_id": case_id, "entity_id": 7, "event_id": None, "role": "unit",
         "text": f"E{i}", "score": None} for i in range(n)])


def _first(db) -> int:
    # ids are unique across the cases sharing a PostgreSQL database
    return db.run(next_id_query(entity_mentions))[0][0]


def _count(case, table) -> int:
    with case.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table).where(table.c.case_id == case.id)).scalar()


def test_typed_from_the_table_even_when_all_null():
    t = _mentions(1, 1, 3)
    assert t.schema.field("event_id").type == pa.int64()
    assert t.schema.field("score").type == pa.float64()
    assert t.schema.field("text").type == pa.string()
    assert t.column("event_id").null_count == 3


def test_statements_and_tables_land_together(tmp_path, backend):
    case = init_case(tmp_path / "case")
    with write_session(case) as db:
        db.ingest(entity_mentions, _mentions(case.id, _first(db), 1000))
        db.run(delete(entity_mentions).where(entity_mentions.c.case_id == case.id, entity_mentions.c.text == "E0"))
        mine = select(func.count()).select_from(entity_mentions).where(entity_mentions.c.case_id == case.id)
        assert db.run(mine)[0][0] == 999
    assert _count(case, entity_mentions) == 999


def test_a_failure_leaves_the_case_as_it_was(tmp_path, backend):
    case = init_case(tmp_path / "case")
    with write_session(case) as db:
        db.ingest(entity_mentions, _mentions(case.id, _first(db), 10))
    with pytest.raises(RuntimeError, match="half-way"):
        with write_session(case) as db:
            db.run(delete(entity_mentions).where(entity_mentions.c.case_id == case.id))
            db.ingest(entity_mentions, _mentions(case.id, _first(db), 50))
            raise RuntimeError("stopped half-way")
    assert _count(case, entity_mentions) == 10
    assert _count(case, findings) == 0


def test_indexes_are_back_after_a_bulk_write(tmp_path, backend):
    case = init_case(tmp_path / "case")
    with write_session(case) as db:
        with db.indexes_rebuilt(("entity_mentions",)):
            db.ingest(entity_mentions, _mentions(case.id, _first(db), 100))
    with case.engine.connect() as conn:
        if backend == "sqlite":
            names = {r[0] for r in conn.execute(text(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entity_mentions'"))}
        else:
            names = {r[0] for r in conn.execute(text(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'entity_mentions'"))}
    assert {"ix_mentions_entity", "ix_mentions_event"} <= names

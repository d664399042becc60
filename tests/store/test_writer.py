"""Both stores take the same inputs, and a store's refusal cites the file's line."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text

from onrecord.store.case import open_case
from onrecord.store.schema import events
from tests.helpers import CAD_ROWS, store_state, write_cad


def test_long_units_calls_and_places_are_kept_whole_on_both_stores(case_dir, cli, tmp_path):
    unit, call, place = "U" * 120, "C" * 150, "P" * 5000
    rows = CAD_ROWS.replace("C-1002,S20", f"{call},{unit}").replace("900 Quarry Ave", place)
    data, mapping = write_cad(tmp_path / "in", rows)
    code, _, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0, err
    case = open_case(case_dir)
    with case.engine.connect() as conn:
        got = conn.execute(select(events.c.unit, events.c.call, events.c.place).where(
            events.c.case_id == case.id, events.c.unit == unit)).all()
    case.engine.dispose()
    assert got and set(got) == {(unit, call, place)}


def test_a_nul_byte_is_refused_alike_with_line_and_field(case_dir, cli, tmp_path):
    before = store_state(case_dir)
    second = "14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:40"  # line 3's address
    data, mapping = write_cad(tmp_path / "in", CAD_ROWS.replace(second, second.replace("Lark", "Lark\x00")))
    code, _, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 2 and "line 3" in err and "'Address'" in err and "NUL" in err
    assert store_state(case_dir) == before
    code, out, err = cli("import", case_dir, data, "--mapping", mapping, "--skip-bad-rows")
    assert code == 0 and "line 3" in out


@pytest.fixture
def refusing_store(case_dir, backend):
    """The store itself refuses one unit value (as a constraint of a DBA's would): the only
    way left to make the bulk write fail, now that the reader checks every value."""
    case = open_case(case_dir)
    with case.engine.begin() as conn:
        if backend == "sqlite":
            conn.execute(text("CREATE TRIGGER refuse_unit BEFORE INSERT ON events WHEN NEW.unit = 'ZQ-REFUSED' "
                              "BEGIN SELECT RAISE(ABORT, 'unit refused by the store'); END"))
        else:
            conn.execute(text("ALTER TABLE events ADD CONSTRAINT refuse_unit "
                              "CHECK (unit IS DISTINCT FROM 'ZQ-REFUSED')"))
    yield case_dir
    with case.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER refuse_unit" if backend == "sqlite" else
                          "ALTER TABLE events DROP CONSTRAINT refuse_unit"))
    case.engine.dispose()


def test_a_store_refusal_is_one_sentence_citing_the_files_line(refusing_store, cli, tmp_path, backend):
    before = store_state(refusing_store)
    rows = CAD_ROWS.replace("C-1002,S20", "C-1002,ZQ-REFUSED")
    data, mapping = write_cad(tmp_path / "in", rows)
    code, _, err = cli("import", refusing_store, data, "--mapping", mapping)
    assert code == 2 and "store refused" in err and "Traceback" not in err, err
    if backend == "postgres":  # COPY names the row it was sent; the message names the file's line
        assert "line 4" in err, err
    assert store_state(refusing_store) == before

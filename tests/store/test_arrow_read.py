"""Reading a case's events as Arrow, on both stores: text columns that start with
thousands of NULLs are still text (SQLite's driver guesses types from the first rows it
reads), and every value is the one the store holds."""

from __future__ import annotations

from sqlalchemy import select

from onrecord.store.arrow_read import arrow_frame
from onrecord.store.case import open_case
from onrecord.store.schema import events
from tests.helpers import write_cad

HEADER = "CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene\n"


def test_text_after_thousands_of_nulls_reads_as_text(cli, tmp_path, backend):
    case_dir = tmp_path / "case"
    assert cli("init", case_dir)[0] == 0
    blank = "".join(f"C-{i},S{i % 9},,,3,03/14/2026 09:30:05,03/14/2026 09:31:10,\n" for i in range(3000))
    filled = "C-9001,S4,Welfare check,12 Larkspur Rd,3,03/14/2026 10:30:05,03/14/2026 10:31:10,03/14/2026 10:40:00\n"
    data, mapping = write_cad(tmp_path, HEADER + blank + filled)
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    case = open_case(case_dir)
    stmt = select(events.c.id, events.c.kind, events.c.t_src_lo, events.c.place, events.c.text,
                  events.c.lat).where(events.c.case_id == case.id).order_by(events.c.id)
    df = arrow_frame(case, stmt)
    with case.engine.connect() as conn:
        expected = conn.execute(stmt).all()
    assert len(df) == len(expected) > 6000
    assert list(df["id"]) == [r.id for r in expected]
    assert df["place"].iloc[:3000].isna().all()
    assert df["place"].dropna().tolist() == ["12 Larkspur Rd"] * 3
    assert df["text"].dropna().tolist() == ["Welfare check"] * 3
    assert df["t_src_lo"].tolist() == [r.t_src_lo for r in expected]
    assert df["lat"].isna().all()

"""`onrecord verify`: any altered, deleted or inserted record is found and named."""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, func, insert, select, update

from onrecord.store.case import open_case
from onrecord.store.schema import cases, events, raw_records
from tests.helpers import CAD_ROWS, write_cad


def _imported(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    other = CAD_ROWS.replace("C-10", "C-20")
    data2, _ = write_cad(tmp_path / "in2", other, "second.csv")
    assert cli("import", case_dir, data2, "--mapping", mapping)[0] == 0
    return open_case(case_dir)


def _record(case, seq):
    with case.engine.connect() as conn:
        return conn.execute(select(raw_records).where(raw_records.c.case_id == case.id, raw_records.c.seq == seq)).one()


def test_intact_case_exits_zero(case_dir, cli, tmp_path):
    _imported(case_dir, cli, tmp_path)
    code, out, _ = cli("verify", case_dir)
    assert code == 0 and "intact: 8 records in 2 sources" in out


def test_altered_record_is_named(case_dir, cli, tmp_path):
    case = _imported(case_dir, cli, tmp_path)
    rec = _record(case, 3)
    with case.engine.begin() as conn:
        conn.execute(update(raw_records).where(raw_records.c.id == rec.id).values(raw=rec.raw.replace(b"S14", b"S41")))
    code, _, err = cli("verify", case_dir)
    assert code == 1
    assert f"raw record {rec.id} (eastvale.csv, line 3, chain position 3) was altered" in err


def test_altered_record_with_its_hash_recomputed_still_breaks_the_chain(case_dir, cli, tmp_path):
    case = _imported(case_dir, cli, tmp_path)
    rec = _record(case, 2)
    forged = rec.raw.replace(b"09:40:00", b"09:35:00")
    with case.engine.begin() as conn:
        conn.execute(update(raw_records).where(raw_records.c.id == rec.id).values(
            raw=forged, sha256=hashlib.sha256(forged).digest()))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and f"raw record {rec.id}" in err and "breaks the chain" in err


def _delete(case, seq: int) -> None:
    rec = _record(case, seq)
    with case.engine.begin() as conn:
        conn.execute(delete(events).where(events.c.raw_record_id == rec.id))
        conn.execute(delete(raw_records).where(raw_records.c.id == rec.id))


def test_deleted_record_in_the_middle_is_named(case_dir, cli, tmp_path):
    _delete(_imported(case_dir, cli, tmp_path), 5)
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "chain position 5 was deleted" in err


def test_deleted_newest_record_is_found_by_the_case_head(case_dir, cli, tmp_path):
    _delete(_imported(case_dir, cli, tmp_path), 8)
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "chain position 8 was deleted" in err


def test_inserted_record_is_named(case_dir, cli, tmp_path):
    case = _imported(case_dir, cli, tmp_path)
    last = _record(case, 8)
    with case.engine.begin() as conn:
        new_id = conn.execute(select(func.max(raw_records.c.id))).scalar() + 1
        conn.execute(insert(raw_records).values(
            id=new_id, case_id=case.id, source_id=last.source_id, seq=9, ordinal=99, raw=b"forged\n",
            sha256=hashlib.sha256(b"forged\n").digest(), chain=bytes(32)))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "breaks the chain" in err and f"raw record {new_id}" in err


def test_rewritten_chain_head_is_found(case_dir, cli, tmp_path):
    case = _imported(case_dir, cli, tmp_path)
    with case.engine.begin() as conn:
        conn.execute(update(cases).where(cases.c.id == case.id).values(chain_head=bytes(32)))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "chain head" in err

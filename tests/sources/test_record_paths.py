"""Nested formats end to end: imported, every event citing line and path, and `verify`
finding a path that no longer leads to its record."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from onrecord.store.case import open_case
from onrecord.store.schema import raw_records
from tests.sources.test_json_file import CALLS, MAPPING
from tests.sources.test_xml_file import DOC
from tests.sources.test_xml_file import MAPPING as XML_MAPPING


def _write(tmp_path, name, data: bytes, mapping: str):
    (tmp_path / name).write_bytes(data)
    (tmp_path / f"{name}.toml").write_text(mapping, encoding="utf-8")
    return tmp_path / name, tmp_path / f"{name}.toml"


def test_json_events_cite_line_and_pointer_and_verify_checks_the_pointers(case_dir, cli, tmp_path):
    data = json.dumps({"export": {"calls": CALLS}}, indent=2, ensure_ascii=False).encode()
    f, m = _write(tmp_path, "calls.json", data, MAPPING.format(fmt="json", records='records = "$.export.calls[*]"'))
    code, _, err = cli("import", case_dir, f, "--mapping", m)
    assert code == 0, err
    code, out, _ = cli("timeline", case_dir, "--json")
    rows = json.loads(out)["events"]
    assert {(r["call"], r["record"]["path"]) for r in rows} == {("N-1", "/export/calls/0"), ("N-2", "/export/calls/1")}
    assert all(r["record"]["line"] > 1 for r in rows)
    assert cli("verify", case_dir)[0] == 0
    case = open_case(case_dir)
    with case.engine.begin() as conn:  # the two records' paths swapped: each cites the other's place
        rows = conn.execute(select(raw_records.c.id, raw_records.c.path).where(
            raw_records.c.case_id == case.id, raw_records.c.path.is_not(None)).order_by(raw_records.c.seq)).all()
        conn.execute(update(raw_records).where(raw_records.c.id == rows[0].id).values(path=rows[1].path))
        conn.execute(update(raw_records).where(raw_records.c.id == rows[1].id).values(path=rows[0].path))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "calls.json" in err and "/export/calls/1" in err and "no longer leads" in err


def test_xml_events_cite_line_and_xpath_and_verify_checks_them(case_dir, cli, tmp_path):
    f, m = _write(tmp_path, "calls.xml", DOC.encode(), XML_MAPPING.format(records="lp:Call"))
    code, _, err = cli("import", case_dir, f, "--mapping", m)
    assert code == 0, err
    rows = json.loads(cli("timeline", case_dir, "--json")[1])["events"]
    assert {(r["call"], r["record"]["line"], r["record"]["path"]) for r in rows} == {
        ("L-10", 4, "/lp:Export/lp:Call[1]"), ("L-11", 6, "/lp:Export/lp:Call[2]")}
    assert cli("verify", case_dir)[0] == 0
    case = open_case(case_dir)
    with case.engine.begin() as conn:
        conn.execute(update(raw_records).where(raw_records.c.case_id == case.id,
                                               raw_records.c.path == "/lp:Export/lp:Call[2]")
                     .values(path="/lp:Export/lp:Agency"))
    code, _, err = cli("verify", case_dir)
    assert code == 1 and "/lp:Export/lp:Agency" in err

"""ADBC's cursor over Python's sqlite3 (store/python_sqlite.py), as a process that calls
engine.one_sqlite_library() uses it: the same writes and the same Arrow reads as ADBC's."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone

import pyarrow as pa
import pytest

from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.pipeline import verify_case
from onrecord.store import python_sqlite
from onrecord.store.adbc import driver_errors
from onrecord.store.case import init_case, open_case
from onrecord.store.reader import open_reader


def test_ingest_then_read_back_as_arrow(tmp_path):
    con = python_sqlite.connect(str(tmp_path / "t.db"), 5)
    cur = con.cursor()
    data = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", None, "c"],
                     "raw": pa.array([b"x", b"y", None], pa.binary()), "w": [0.5, None, 2.0]})
    cur.adbc_ingest("t", data, mode="create_append", temporary=True)
    cur.adbc_ingest("t", data.slice(0, 1), mode="create_append", temporary=True)  # made once, then appended
    cur.execute("SELECT id, name, raw, w FROM t ORDER BY id, rowid")
    got = cur.fetch_arrow_table()
    assert got.schema.types == [pa.int64(), pa.string(), pa.binary(), pa.float64()]
    assert got.column("id").to_pylist() == [1, 1, 2, 3]
    assert got.column("name").to_pylist() == ["a", "a", None, "c"]
    assert got.column("raw").to_pylist() == [b"x", b"x", b"y", None]
    con.close()


def test_a_column_is_typed_by_its_first_value_as_the_readers_typed_first_row_does(tmp_path):
    con = python_sqlite.connect(str(tmp_path / "t.db"), 5)
    cur = con.cursor()
    cur.execute("SELECT -1 AS id, '' AS text UNION ALL SELECT 5, NULL")
    batches = list(cur.fetch_record_batch())
    assert batches[0].schema.types == [pa.int64(), pa.string()]
    assert batches[0].column(1).to_pylist() == ["", None]
    con.close()


def test_the_stores_refusal_is_a_driver_error(tmp_path):
    con = python_sqlite.connect(str(tmp_path / "t.db"), 5)
    cur = con.cursor()
    cur.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    with pytest.raises(driver_errors()):
        cur.adbc_ingest("t", pa.table({"id": [1, 1]}))
    con.close()


def _live_case(tmp_path, name):
    case = init_case(tmp_path / name)
    ingest = IngestNode(case, UnitDirectory(), LiveClocks({}, {}))
    feed = ingest.open_feed(FeedSpec(name="sensors", type="webhook", agency="NCSO"))
    now = time.time()  # a live record is of now: one stamped hours away is rejected
    frames = [json.dumps({"kind": "unit_arrived", "unit": f"1A{i}", "text": "on scene", "attrs": {"n": i},
                          "time": datetime.fromtimestamp(now - 60 + i, timezone.utc).isoformat()}).encode()
              for i in range(20)]
    ingest.accept(feed, frames[:5])
    ingest.accept(feed, frames[5:] + [b"not json"])
    ingest.close()
    return case


def test_a_live_case_written_through_sqlite3_is_the_one_adbc_writes(tmp_path, monkeypatch):
    by_adbc = _live_case(tmp_path, "adbc")
    monkeypatch.setattr("onrecord.store.engine.one_library", True)
    by_sqlite3 = _live_case(tmp_path, "sqlite3")
    for case in (by_adbc, by_sqlite3):
        assert verify_case(open_case(case.path)).intact
    columns = ["id", "kind", "unit", "text", "attrs"]
    frames = [open_reader(c).event_frame()[columns] for c in (by_adbc, by_sqlite3)]  # read through sqlite3
    assert frames[0].to_dict("records") == frames[1].to_dict("records")
    assert len(frames[1]) == 20
    monkeypatch.setattr("onrecord.store.engine.one_library", False)
    assert open_reader(by_sqlite3).event_frame()[columns].to_dict("records") == frames[1].to_dict("records")

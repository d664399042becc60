"""Every generated source of a seed imports with the mapping beside it, and the imported
events are exactly the records truth knows, with the clock errors truth states."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from datetime import datetime

import pytest

pytest.importorskip("onrecord.sources.importer")


def _t(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_every_source_imports_with_its_mapping(imported, truth1):
    _, results = imported
    assert set(results) == set(truth1["sources"])
    per_file = Counter(k.split("#")[0] for k in truth1["records"])
    for name, r in results.items():
        kind = truth1["sources"][name]["kind"]
        expected = truth1["sources"][name]["rows"] if kind in ("roster", "tip", "contact") else per_file[name]
        assert (r.events, r.rejects) == (expected, []), name


def test_imported_times_carry_each_source_clock_error(imported, truth1):
    case, _ = imported
    db = next(case.path.glob("*.db")) if hasattr(case, "path") else None
    if db is None:
        pytest.skip("store is not a SQLite file here")
    con = sqlite3.connect(db)
    rows = con.execute("select s.file_name, e.kind, e.attrs, e.t_src_lo from events e "
                       "join sources s on s.id = e.source_id where e.t_src_lo is not null").fetchall()
    seen = 0
    for file, kind, attrs, t_ms in rows:
        rec = truth1["records"].get(f"{file}#{json.loads(attrs).get('rid')}#{kind}")
        offset = truth1["sources"][file]["clock_offset_s"]
        if rec is None or offset is None:
            continue
        seen += 1
        error = t_ms / 1000 - _t(rec["true_time"]) - offset
        slack = 60 if file == "fire_patients.csv" else 1.01  # written to the minute / the second
        assert -slack <= error <= 0.01, (file, kind, error)
    assert seen >= 0.95 * len(truth1["records"])

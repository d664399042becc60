"""The CaseReader's reads for the web, on SQLite and PostgreSQL alike (the small CAD case)."""

from __future__ import annotations

from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.reader import open_reader
from tests.helpers import write_cad


def test_window_paging_bins_and_detail_on_both_stores(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    reader = open_reader(case_dir)
    assert reader.is_built() is False
    first = reader.timeline(TimelineQuery(limit=4))
    rest = reader.timeline(TimelineQuery(limit=4, after=first.next))
    ids = [e["id"] for e in first.events + rest.events]
    assert len(ids) == 7 == len(set(ids)) and rest.next is None and first.clock == "source"
    assert reader.timeline_count(TimelineQuery(agency="EVSO"), cap=5) == 5
    bins = reader.timeline_bins(TimelineQuery(), 3_600_000, "unit")
    assert sum(b["n"] for b in bins) == 7 and {b["lane"] for b in bins} == {None, "S12", "S14", "S20"}
    lo, hi = reader.busiest_window()
    assert lo <= first.events[0]["t_lo"] and hi > rest.events[-1]["t_lo"]
    d = reader.event_detail(ids[0])
    assert d["raw"].startswith("C-1001,S12") and d["ordinal"] == 2 and d["clock"] is None
    reader.case.engine.dispose()

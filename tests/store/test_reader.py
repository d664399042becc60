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


def test_a_page_statement_kept_for_its_shape_answers_with_each_querys_own_values(case_dir, cli, tmp_path):
    """The web's pages run one statement per shape of query (which filters are set), kept
    and run again with the next query's values: each answer is the one a statement built
    for that query alone gives (the counting path builds its own)."""
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    reader = open_reader(case_dir)
    every = reader.timeline(TimelineQuery(limit=None, count=True)).events
    agencies, units = {e["agency"] for e in every if e["agency"]}, {e["unit"] for e in every if e["unit"]}
    assert len(agencies) >= 1 and len(units) >= 2
    times = sorted(e["t_lo"] for e in every)
    asked = [TimelineQuery(agency=a, limit=2) for a in sorted(agencies)] + \
            [TimelineQuery(unit=u, limit=2) for u in sorted(units)] + \
            [TimelineQuery(t_from=t, t_to=t + 3_600_000, limit=3) for t in times[::2]]
    for q in asked:
        kept, alone = reader.timeline(q), reader.timeline(TimelineQuery(**{**q.__dict__, "count": True}))
        assert [e["id"] for e in kept.events] == [e["id"] for e in alone.events] and kept.next == alone.next
        after = reader.timeline(TimelineQuery(**{**q.__dict__, "after": kept.next})) if kept.next else None
        if after is not None:
            rest = [e for e in every if all(getattr(q, f) in (None, e[f]) for f in ("agency", "unit"))
                    and (q.t_from is None or q.t_from <= e["t_lo"] <= q.t_to)]
            assert [e["id"] for e in kept.events + after.events] == [e["id"] for e in rest][:len(kept.events)
                                                                                         + len(after.events)]
    # one statement per shape (agency, unit, a window; each with and without a cursor), not one per query
    assert len(reader._page_statements) <= 6 < len(asked)
    reader.case.engine.dispose()

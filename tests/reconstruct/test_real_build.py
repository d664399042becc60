"""`onrecord build` on real agency exports: four cities' CAD dialects in one case. They
share no moment (other cities, other years), so the build must say what it cannot
establish and why — never a silent zero offset, never a crash."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from onrecord.store.case import open_case
from onrecord.store.schema import aligned_events, clock_estimates, entity_mentions, events
from tests.conftest import shared_path


def test_four_real_dialects_build_and_say_what_they_cannot_establish(case_dir, cli):
    for mapping, parts in [("sf-fire", ["sf-fire-calls.csv"]), ("seattle-police", ["seattle-police-calls.csv"]),
                           ("dallas-police", ["dallas-police-calls.csv"])]:
        assert cli("import", case_dir, shared_path("data", "cad", *parts), "--mapping", mapping)[0] == 0
    assert cli("import", case_dir, *sorted(shared_path("data", "cad", "reno").glob("CAD*.csv")),
               "--mapping", "reno-cad")[0] == 0
    code, out, err = cli("build", case_dir)
    assert code == 0, err
    c = open_case(case_dir)
    with c.engine.connect() as conn:  # this case's rows: a PostgreSQL database holds others too
        def count(table, *where):
            return conn.execute(select(func.count()).select_from(table).where(table.c.case_id == c.id, *where)).scalar()
        clocks = conn.execute(select(clock_estimates.c.status, clock_estimates.c.offset_s, clock_estimates.c.note)
                              .where(clock_estimates.c.case_id == c.id)).all()
        n_events, n_aligned = count(events), count(aligned_events)
        unit_rows = count(events, events.c.unit.is_not(None))
        unit_mentions = count(entity_mentions, entity_mentions.c.role == "unit")
    # no shared moment: every clock unknown, said so, none taken as right
    assert len(clocks) == 6 and all(s == "unknown" and off is None and "no recorded moment" in note
                                    for s, off, note in clocks)
    assert n_aligned == n_events  # every event still gets its (wide) interval on the timeline
    assert unit_mentions == unit_rows > 1000  # every unit the exports write is resolved to an entity
    code, out, _ = cli("metrics", case_dir, "--json")
    assert code == 0
    metrics = json.loads(out)["metrics"]
    shots = next(m for m in metrics if m["name"] == "first_shots")
    assert shots["status"] == "not_established" and "no sensor or camera" in shots["summary"]

"""The responding vehicles' location fixes for scale runs: count, window, units, and an
import that reads every fix as a position of a unit the rosters know."""

from __future__ import annotations

import csv

import pytest

from onrecord.scenario.generate import tell_story
from onrecord.scenario.incident_feed import AFTER_S, BEFORE_S, write_incident_feed
from onrecord.scenario.truth import TruthBook


@pytest.fixture(scope="module")
def story():
    return tell_story(5)


def test_fixes_cover_the_incident_in_time_order(story, tmp_path):
    book = TruthBook()
    info = write_incident_feed(story, tmp_path, 5, 2000, book)
    rows = list(csv.DictReader((tmp_path / info["file"]).open()))
    assert len(rows) == 2000 == info["rows"] == book.sources["city_fleet_fixes.csv"]["rows"]
    times = [int(r["FixTimeUtcMs"]) for r in rows]
    assert times == sorted(times)
    assert (story.t0 - BEFORE_S) * 1000 <= times[0] and times[-1] <= (story.t0 + AFTER_S) * 1000
    w = story.world
    responders = {w.unit(u).cad_id for u in story.runs if w.unit(u).agency in (w.police, w.fire)}
    assert {r["Unit"] for r in rows} <= responders and len({r["Unit"] for r in rows}) > 5
    assert len({r["FixId"] for r in rows}) == 2000


def test_same_seed_same_bytes(story, tmp_path):
    a = write_incident_feed(story, tmp_path / "a", 5, 500, TruthBook())
    b = write_incident_feed(story, tmp_path / "b", 5, 500, TruthBook())
    assert (tmp_path / "a" / a["file"]).read_bytes() == (tmp_path / "b" / b["file"]).read_bytes()


def test_imported_and_built_as_positions_of_known_units(tmp_path):
    from sqlalchemy import func, select

    from onrecord.reconstruct.build import reconstruct
    from onrecord.scenario.generate import generate_case
    from onrecord.scenario.into_case import import_scenario
    from onrecord.store.reader import open_reader
    from onrecord.store.schema import events, sources

    generate_case(5, tmp_path / "scenario", incident_feed=3000)
    case = import_scenario(tmp_path / "scenario", tmp_path / "case", None)
    with case.engine.connect() as conn:
        n = conn.execute(select(func.count()).select_from(events).join(sources, sources.c.id == events.c.source_id)
                         .where(sources.c.file_name == "city_fleet_fixes.csv",
                                events.c.kind == "unit_position")).scalar()
    assert n == 3000
    r = reconstruct(open_reader(case))
    feed = set(r.events.loc[r.events["file_name"] == "city_fleet_fixes.csv", "id"])
    resolved = r.who.unit_mentions[r.who.unit_mentions["event_id"].isin(feed)]
    assert len(resolved) == 3000
    # written by unit id, each fix is a rostered unit, not a new unknown vehicle
    assert not any(r.who.entities[int(e)].attrs.get("unrostered") for e in resolved["entity_id"].unique())

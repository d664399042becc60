"""The timeline list's stored rows (store/listing.py): rendered by the import, the build and
a re-build for the case's current clock and zone, the same as a row rendered from its event
on the spot; a page whose rows are missing or stale is rendered from the events; a viewer
sees the stored rows through the redactor."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import delete, func, select, update

from onrecord.live.ingest import FeedSpec
from onrecord.store.engine import DATABASE_URL_ENV
from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.schema import clock_estimates, event_listings, events


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    from onrecord.store.case import open_case
    from tests.views.conftest import _import_scenario

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DATABASE_URL_ENV, raising=False)
        c = open_case(_import_scenario(tmp_path_factory.mktemp("listing")))
        yield c
        c.engine.dispose()


def _reader(case, actor=None):
    from onrecord.store.reader import LOCAL_USER, open_reader

    return open_reader(case, actor or LOCAL_USER)


def _pages(reader, stamp: str, q: TimelineQuery | None = None) -> list[dict]:
    """Every page of the whole timeline as the web reads it, rows parsed."""
    zone = reader.display_zone()
    q = q or TimelineQuery(limit=500, columns="listing")
    out = []
    while True:
        page = reader.timeline_listing(q, stamp, zone)
        assert page.ids == [json.loads(t)["id"] for t in page.events]
        out += [json.loads(t) for t in page.events]
        if page.next is None:
            return out
        q.after = page.next


def _stored(case) -> dict[str, int]:
    with case.engine.connect() as conn:
        return dict(conn.execute(select(event_listings.c.stamp, func.count()).where(
            event_listings.c.case_id == case.id).group_by(event_listings.c.stamp)).all())


def _timed(case) -> int:
    with case.engine.connect() as conn:
        return conn.execute(select(func.count()).where(events.c.case_id == case.id,
                                                       events.c.t_src_lo.is_not(None))).scalar()


def test_rows_after_import_build_and_rebuild_are_the_rows_rendered_from_the_events(case):
    from onrecord.pipeline import build_case
    from onrecord.store.listing import current_stamp

    reader = _reader(case)
    now = current_stamp(reader)
    assert now.startswith("source ")
    assert _stored(case) == {now: _timed(case)}  # the import rendered a row for every timed event
    stored = _pages(reader, now)
    assert stored == _pages(reader, "no such stamp")  # every page rendered from its events instead
    assert {r["clock"] for r in stored} == {"source"}

    build_case(case)
    reader = _reader(case)
    built = current_stamp(reader)
    assert built.startswith("build ") and _stored(case) == {built: len(stored)}  # no row of the old clock left
    rows = _pages(reader, built)
    assert rows == _pages(reader, "no such stamp") and len(rows) == len(stored)
    assert rows != stored  # the times moved to the common clock
    said = reader.clocks_not_aligned()
    assert all(r["clock"] == said.get(r["source"]["id"], "aligned") for r in rows)

    # a re-build whose clock estimates differ: the rows follow the new estimates, not the old
    source = rows[0]["source"]["id"]
    build_case(case)
    with case.engine.begin() as conn:  # as a build would leave a source whose clock it could not estimate
        conn.execute(update(clock_estimates).where(clock_estimates.c.source_id == source).values(status="unknown"))
    from onrecord.pipeline import link_case

    link_case(case)  # a linkage's refresh renders the rows anew on the derived generation it leaves
    reader = _reader(case)
    again = current_stamp(reader)
    assert again != built and _stored(case) == {again: len(rows)}
    rebuilt = _pages(reader, again)
    assert rebuilt == _pages(reader, "no such stamp")
    assert {r["clock"] for r in rebuilt if r["source"]["id"] == source} == {"unknown"}


def test_a_page_with_a_row_missing_is_rendered_from_its_events(case):
    from onrecord.store.listing import current_stamp

    reader = _reader(case)
    now = current_stamp(reader)
    whole = _pages(reader, now)
    gone = whole[len(whole) // 2]["id"]
    with case.engine.begin() as conn:
        conn.execute(delete(event_listings).where(event_listings.c.event_id == gone))
    assert _pages(reader, now) == whole
    from onrecord.store.listing import refresh

    assert refresh(case) == 1  # the next refresh renders just that row
    assert _stored(case) == {now: len(whole)}


def test_stored_rows_pass_the_redactor_for_a_viewer(case, monkeypatch):
    from onrecord.access.marks import protect
    from onrecord.store import read_access
    from onrecord.store.listing import current_stamp
    from onrecord.store.reader import Actor

    reader = _reader(case)
    now = current_stamp(reader)
    contacts = _pages(reader, now, TimelineQuery(limit=500, columns="listing", kind="contact"))
    person = next(r["actor"] for r in contacts if r["actor"] and len(r["actor"].split()) >= 2)
    monkeypatch.setattr(read_access, "RECHECK_S", 0.0)  # the protection reaches the readers at once
    _, pseudonym = protect(case.engine, case.id, person, "victim", "test")
    viewer = _reader(case, Actor("someone", kind="user", role="viewer"))
    seen = _pages(viewer, now, TimelineQuery(limit=500, columns="listing", kind="contact"))
    assert [r["id"] for r in seen] == [r["id"] for r in contacts]
    assert person not in json.dumps(seen) and pseudonym in {r["actor"] for r in seen}
    assert seen == _pages(viewer, "no such stamp", TimelineQuery(limit=500, columns="listing", kind="contact"))


def test_a_live_feed_renders_the_rows_of_the_events_it_appends(case_dir):
    from onrecord.store.case import open_case
    from onrecord.store.listing import current_stamp
    from tests.live.test_ingest import frame, node

    n = node(case_dir)
    feed = n.open_feed(FeedSpec("sensors", "webhook", max_rate=1000))
    n.accept(feed, [frame(), frame(unit="12A5", text="second frame")])
    n.accept(feed, [frame(unit="12A6")])
    case = open_case(case_dir)
    reader = _reader(case)
    now = current_stamp(reader)
    assert _stored(case) == {now: 3}  # each batch's events, rendered in the batch's transaction
    rows = _pages(reader, now, TimelineQuery(limit=2, columns="listing"))
    assert rows == _pages(reader, "no such stamp", TimelineQuery(limit=2, columns="listing"))
    assert [r["unit"] for r in rows] == ["12A4", "12A5", "12A6"] and {r["clock"] for r in rows} == {"source"}


def test_verify_names_a_stored_row_changed_by_hand_and_a_deleted_event_takes_its_row(tmp_path, backend):
    """The rows are a rendering, but the web shows them: one changed outside onrecord makes
    the case not intact, naming the event; an event row deleted by hand (tampering) is not
    refused for its row, which goes with it (ON DELETE CASCADE), and verify finds the event gone."""
    from onrecord.pipeline import verify_case
    from onrecord.store.case import open_case
    from tests.views.conftest import _import_scenario

    case = open_case(_import_scenario(tmp_path))  # on SQLite and on PostgreSQL (backend)
    try:
        assert verify_case(case).intact
        with case.engine.connect() as conn:
            first, body = conn.execute(select(event_listings.c.event_id, event_listings.c.body)
                                       .where(event_listings.c.case_id == case.id)  # a server holds others
                                       .order_by(event_listings.c.event_id).limit(1)).one()
        row = json.loads(body)
        changed = json.dumps(row | {"text": "a sentence nobody wrote"}, separators=(",", ":"))
        with case.engine.begin() as conn:
            conn.execute(update(event_listings).where(event_listings.c.event_id == first).values(body=changed))
        result = verify_case(case)
        assert not result.intact
        assert [p for p in result.problems if "list row" in p and f"event {first})" in p]
        with case.engine.begin() as conn:
            conn.execute(update(event_listings).where(event_listings.c.event_id == first).values(body=body))
        assert verify_case(case).intact  # as rendered: intact again

        with case.engine.begin() as conn:
            conn.execute(delete(events).where(events.c.id == first))
            assert conn.execute(select(func.count()).where(event_listings.c.event_id == first)).scalar() == 0
        result = verify_case(case)
        assert not result.intact and not [p for p in result.problems if "list row" in p]
        assert [p for p in result.problems if "event" in p]
    finally:
        case.engine.dispose()


def test_a_removal_and_a_re_import_leave_the_rows_of_the_events_as_they_stand(tmp_path):
    """A removal takes its source's rows with its events; the file imported again (whose
    events may take the removed ones' ids) gets rows of its own, and an import of a file
    already in the case changes none: every page is what its events render."""
    from onrecord.scenario.generate import generate_case
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case
    from onrecord.store.listing import altered, current_stamp
    from onrecord.store.removal import remove_source

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DATABASE_URL_ENV, raising=False)
        manifest = generate_case(1, tmp_path / "scenario")
        case = init_case(tmp_path / "case")
        try:
            files = {}
            for spec in manifest["sources"]:
                files[spec["file"]] = (tmp_path / "scenario" / spec["file"],
                                       load_mapping(str(tmp_path / "scenario" / spec["mapping"])))
                import_file(case, *files[spec["file"]])
            before = _stored(case)
            sensors = next(f for f in files if f.endswith("campus_sensors.csv"))
            remove_source(case, "campus_sensors.csv", "imported by mistake")
            now = current_stamp(_reader(case))
            assert _stored(case) == {now: _timed(case)} and _timed(case) < sum(before.values())
            for _ in range(2):  # imported again, then once more (already in: nothing changes)
                import_file(case, *files[sensors])
                reader = _reader(case)
                now = current_stamp(reader)
                assert _stored(case) == {now: _timed(case)} == before
                assert _pages(reader, now) == _pages(reader, "no such stamp")
                assert altered(reader) == (_timed(case), [])
        finally:
            case.engine.dispose()

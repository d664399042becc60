"""`/api/events` answered from the list's stored rows (store/listing.py) is, byte for byte,
the answer rendered from the events on the spot (the path a page takes when a row is missing,
and the only path before the rows were stored), for every role that may view: an analyst of
the restricted source's agency, an analyst of another agency (that source withheld), a viewer
and an auditor (protected people by their pseudonyms, in stored rows as in rendered ones), an
admin; on a built case and on one only imported; over every page of the case, in pages of
500 and of 37, whole and filtered."""

from __future__ import annotations

import shutil

import pytest
from sqlalchemy import delete, func, select

from tests.access.conftest import PASSWORD
from tests.views.derived import LOCAL

ROLES = [("own", "analyst", True), ("other", "analyst", False), ("view", "viewer", True),
         ("audit", "auditor", True), ("boss", "admin", True)]


@pytest.fixture(scope="module", params=["built", "imported"])
def served(request, built_case, generated_case, tmp_path_factory):
    """A copy of the case, its shot-sensor source restricted to its agency, two people
    protected, its list rows rendered for its current state; bearer headers per user."""
    from fastapi.testclient import TestClient

    from onrecord.access.marks import protect, restrict_source
    from onrecord.access.store import AccessStore
    from onrecord.store import listing, read_access
    from onrecord.store.case import open_case
    from onrecord.store.reader import open_reader
    from onrecord.views.web.app import create_app

    read_access.RECHECK_S = 0.0  # marks made here reach open readers at once
    path = tmp_path_factory.mktemp("listing-pages") / "case"
    shutil.copytree(built_case[0] if request.param == "built" else generated_case, path)
    case = open_case(path)
    listing.refresh(case)  # built_case's derived rows are written by hand, not by a build
    reader = open_reader(case)
    sensors = next(s for s in reader.sources() if s["file_name"] == "campus_sensors.csv")
    restrict_source(case.engine, case.id, sensors["id"], "test")
    people = sorted({e["actor"] for e in reader.timeline(_everything(kind="contact")).events
                     if e["actor"] and len(e["actor"].split()) >= 2})
    assert len(people) >= 2
    pseudonyms = {p: protect(case.engine, case.id, p, "victim", "test")[1] for p in people[:2]}
    access = AccessStore(case.engine)
    heads = {}
    for name, role, same in ROLES:
        access.accounts.add(name, role, PASSWORD, case.id, (sensors["agency"] if same else "ZZFD",))
        heads[name] = {"Authorization": f"Bearer {access.tokens.create(access.accounts.find(name).id)[1]}"}
    yield TestClient(create_app(path), base_url=LOCAL), heads, case, pseudonyms, sensors
    case.engine.dispose()


def _everything(**kw):
    from onrecord.store.read_timeline import TimelineQuery

    return TimelineQuery(limit=None, columns="listing", **kw)


def _walk(web, head, **params) -> list[bytes]:
    """Every page of a window, following next_cursor: the answers' bytes."""
    out, cursor = [], None
    params = {"from": "2000-01-01T00:00:00", "to": "2100-01-01T00:00:00"} | params
    while True:
        r = web.get("/api/events", params=params | ({"cursor": cursor} if cursor else {}), headers=head)
        assert r.status_code == 200, r.text
        out.append(r.content)
        cursor = r.json()["next_cursor"]
        if cursor is None:
            return out


def _answers(served) -> dict:
    web, heads, _, _, sensors = served
    windows = [{"limit": 500}, {"limit": 37}, {"limit": 500, "kind": "contact"},
               {"limit": 200, "agency": sensors["agency"]}]
    return {(name, i): _walk(web, heads[name], **w) for name, _, _ in ROLES for i, w in enumerate(windows)}


def test_stored_rows_answer_the_same_bytes_as_rows_rendered_from_the_events(served, monkeypatch):
    from onrecord.store import listing
    from onrecord.store.reader import open_reader
    from onrecord.store.schema import event_listings

    _, _, case, pseudonyms, _ = served
    rendered = []
    render = listing.row_text
    monkeypatch.setattr(listing, "row_text", lambda r, zone: rendered.append(r["id"]) or render(r, zone))
    timed = len(open_reader(case).timeline(_everything()).events)  # every event the list can show
    with case.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(event_listings)).scalar() == timed
    stored = _answers(served)
    assert rendered == []  # every page was its stored rows

    with case.engine.begin() as conn:  # no stored row: every page is rendered from its events
        conn.execute(delete(event_listings).where(event_listings.c.case_id == case.id))
    computed = _answers(served)
    assert rendered  # the computed path ran
    assert stored.keys() == computed.keys()
    for key in stored:
        assert stored[key] == computed[key], key

    # the answers differ by role where they should: the redaction and the withheld source
    everyone = {name: b"".join(stored[(name, 0)]) for name, _, _ in ROLES}
    for person, pseudonym in pseudonyms.items():
        assert person.encode() in everyone["own"] and pseudonym.encode() not in everyone["own"]
        assert pseudonym.encode() in everyone["view"] and person.encode() not in everyone["view"]
        assert pseudonym.encode() in everyone["audit"] and person.encode() not in everyone["audit"]
    assert len(everyone["other"]) < len(everyone["own"])
    assert b"campus_sensors.csv" in everyone["own"] and b"campus_sensors.csv" not in everyone["other"]

    assert listing.refresh(case) == timed  # rendered again, the stored path answers as before
    rendered.clear()
    assert _answers(served) == stored and rendered == []

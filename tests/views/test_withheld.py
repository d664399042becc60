"""Per-agency access and redaction, through the web API of a built case:

- a source restricted to its agency is not shown to other agencies' users: not listed, its
  events not in windows or details, a fused event's counts are of what is shown, and the
  findings resting on it say that evidence is withheld (no value, no sentence from it);
- protected people appear as their pseudonym to roles without the right, everywhere the
  API shows text; raw lines are withheld from roles without "raw", personal details of
  prior contacts from roles without "personal"; the stored bytes are unchanged."""

from __future__ import annotations

import shutil

import pytest

from tests.access.conftest import PASSWORD
from tests.views.derived import LOCAL


@pytest.fixture(scope="module")
def served(built_case, tmp_path_factory):
    """The built case, copied, its shot-sensor source restricted; bearer headers per user."""
    from fastapi.testclient import TestClient

    from onrecord.access.marks import restrict_source
    from onrecord.access.store import AccessStore
    from onrecord.store import read_access
    from onrecord.store.case import open_case
    from onrecord.store.reader import open_reader
    from onrecord.views.web.app import create_app

    read_access.RECHECK_S = 0.0  # marks made during the tests reach open readers at once
    path = tmp_path_factory.mktemp("withheld") / "case"
    shutil.copytree(built_case[0], path)
    case = open_case(path)
    sensors = [s for s in open_reader(case).sources() if s["file_name"] == "campus_sensors.csv"][0]
    restrict_source(case.engine, case.id, sensors["id"], "test")
    access = AccessStore(case.engine)
    heads = {}
    for name, role, agencies in [("own", "analyst", (sensors["agency"],)), ("other", "analyst", ("ZZFD",)),
                                 ("view", "viewer", (sensors["agency"],))]:
        access.accounts.add(name, role, PASSWORD, case.id, agencies)
        heads[name] = {"Authorization": f"Bearer {access.tokens.create(access.accounts.find(name).id)[1]}"}
    yield TestClient(create_app(path), base_url=LOCAL), heads, sensors, case
    case.engine.dispose()


def _get(served, who, path, **params):
    web, heads, _, _ = served
    r = web.get(path, params=params, headers=heads[who])
    return r


def test_a_restricted_source_is_not_listed_for_other_agencies(served):
    files = lambda who: {s["file_name"] for s in _get(served, who, "/api/sources").json()["sources"]}
    assert "campus_sensors.csv" in files("own") and "campus_sensors.csv" not in files("other")
    assert len(files("other")) == len(files("own")) - 1


def test_its_events_are_in_no_window_and_no_detail(served, built_case):
    _, ids = built_case
    shot = ids["shot_events"][0]
    assert _get(served, "own", f"/api/events/{shot}").status_code == 200
    assert _get(served, "other", f"/api/events/{shot}").status_code == 404
    window = {"from": "2025-02-13T13:00:00", "to": "2025-02-13T16:00:00", "kind": "shots_detected", "limit": 5000}
    assert _get(served, "own", "/api/events", **window).json()["events"]
    assert _get(served, "other", "/api/events", **window).json()["events"] == []
    chart = _get(served, "other", "/api/timeline", **{k: v for k, v in window.items() if k != "limit"}).json()
    assert chart["count"] == 0


def test_findings_resting_on_it_say_evidence_is_withheld(served, built_case):
    _, ids = built_case
    shots = set(ids["shot_events"])
    own = {f["id"]: f for f in _get(served, "own", "/api/findings").json()["findings"]}
    other = {f["id"]: f for f in _get(served, "other", "/api/findings").json()["findings"]}
    assert set(own) == set(other)  # the finding is there; what it rests on is not
    for fid, f in other.items():
        rests_on_shots = bool(shots & set(own[fid]["evidence"]["events"]))
        assert f["withheld"] is rests_on_shots, fid
        if rests_on_shots:
            assert f["status"] == "withheld" and f["value_lo"] is None and f["value_hi"] is None
            assert f["value_text"] == "evidence withheld" and "withheld" in f["summary"]
            assert not shots & set(f["evidence"]["events"])
            assert str(own[fid]["value_lo"]).split(".")[0] not in f["summary"]
        else:
            assert f == own[fid]
    assert any(f["withheld"] for f in other.values())


def test_a_fused_event_counts_only_what_is_shown(served, built_case):
    """The fixture's fused event joins CAD and radio; restricting the radio's source to its agency
    leaves the other agency one report, and the answer says some were withheld."""
    from onrecord.access.marks import restrict_source

    _, heads, _, case = served
    radio = _get(served, "own", f"/api/events/{built_case[1]['radio_event']}").json()["source"]["id"]
    restrict_source(case.engine, case.id, radio, "test")
    try:
        own = _get(served, "own", "/api/fused/1").json()
        other = _get(served, "other", "/api/fused/1").json()
        if own["withheld"]:  # "own" is not of the radio's agency either
            assert own["report_count"] == 1
        assert other["withheld"] and other["report_count"] == 1 and other["source_count"] == 1
        assert [r["source"]["file"] for r in other["reports"]] == ["county_cad.csv"]
    finally:
        restrict_source(case.engine, case.id, radio, "test", lift=True)
    assert _get(served, "other", "/api/fused/1").json()["report_count"] == 2


def test_protected_people_are_pseudonyms_to_roles_without_the_right(served):
    from onrecord.access.marks import protect

    _, _, _, case = served
    contacts = _get(served, "own", "/api/events", kind="contact", limit=50, **{"from": "2000-01-01T00:00:00"}).json()
    contact = next(e["id"] for e in contacts["events"] if e["actor"])
    seen = _get(served, "own", f"/api/events/{contact}").json()
    person = seen["actor"]
    assert person and person in seen["record"]["raw"]
    _, pseudonym = protect(case.engine, case.id, person, "minor", "test")
    _, speaker = protect(case.engine, case.id, "Deputy Example", "witness", "test")
    viewer = _get(served, "view", f"/api/events/{contact}").json()
    assert viewer["actor"] == pseudonym and person not in str(viewer)
    assert viewer["record"]["raw"] is None  # a viewer sees no raw lines at all
    assert viewer["record"]["sha256"] == seen["record"]["sha256"]  # the evidence is untouched
    personal = [k for k in seen["attributes"] if "dob" in k.lower() or "address" in k.lower()]
    assert all(viewer["attributes"][k] == "(withheld)" for k in personal if seen["attributes"][k])
    claims = _get(served, "view", "/api/claims").json()["claims"]
    assert claims and all(c["speaker"] != "Deputy Example" for c in claims)
    assert speaker in {c["speaker"] for c in claims}
    subjects = {f["subject"] for f in _get(served, "view", "/api/findings").json()["findings"]}
    assert "Deputy Example" not in subjects and speaker in subjects
    # the analyst, whose role has the right, sees the name and the line as stored
    again = _get(served, "own", f"/api/events/{contact}").json()
    assert again["actor"] == person and person in again["record"]["raw"]
    assert "Deputy Example" in {c["speaker"] for c in _get(served, "own", "/api/claims").json()["claims"]}


def test_a_whole_case_read_is_refused_to_a_restricted_actor(served):
    from onrecord.access.store import AccessStore
    from onrecord.errors import AccessDenied
    from onrecord.store.reader import open_reader
    from onrecord.store.schema_access import users  # noqa: F401  (the tables are registered)

    _, _, _, case = served
    actor = AccessStore(case.engine).actor("other")
    with pytest.raises(AccessDenied):
        open_reader(case, actor).event_frame()


def test_search_finds_only_what_the_reader_may_see(served):
    from onrecord.access.marks import protect

    _, _, sensors, case = served
    own = _get(served, "own", "/api/search", q="impulse rounds").json()
    other = _get(served, "other", "/api/search", q="impulse rounds").json()
    assert any(e["source"]["file"] == "campus_sensors.csv" for e in own["events"])
    assert not any(e["source"]["file"] == "campus_sensors.csv" for e in other["events"])
    contacts = _get(served, "own", "/api/events", kind="contact", limit=50, **{"from": "2000-01-01T00:00:00"}).json()
    person = next(e["actor"] for e in contacts["events"] if e["actor"] and len(e["actor"].split()) >= 2)
    surname = person.split()[-1]
    theirs = {e["id"] for e in _get(served, "own", "/api/search", q=surname).json()["events"] if e["actor"] == person}
    assert theirs  # the analyst finds the person's records by name
    _, pseudonym = protect(case.engine, case.id, person, "victim", "test")
    viewer = _get(served, "view", "/api/search", q=surname).json()["events"]
    assert not theirs & {e["id"] for e in viewer}  # found only through the protected name: no match for a viewer
    assert person not in str(viewer)
    by_pseudonym = _get(served, "view", "/api/search", q=pseudonym).json()["events"]
    # The scan reads stored text, so a pseudonym finds only rows whose own words match it
    # (docs/access.md): whatever it finds must never show the person behind it.
    assert all(e["actor"] == pseudonym for e in by_pseudonym if e["actor"])
    assert person not in str(by_pseudonym)
    assert _get(served, "view", "/api/search", q="100%_").status_code == 200  # wildcards are literal

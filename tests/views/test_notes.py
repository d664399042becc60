"""Annotations: analysts tag, comment, star and dispute; each attributed, audited, shown
with the event, refused to viewers and to pages without the session's CSRF token, and
never a change to the evidence."""

from __future__ import annotations

import json
import re

import pytest

from tests.views.test_signin import served, sign_in  # noqa: F401  (the fixture and the form)


@pytest.fixture
def analyst(served):  # noqa: F811
    web = served[0]
    sign_in(web)  # "ana", an analyst
    csrf = json.loads(re.search(r'id="onrecord-config">([^<]+)<', web.get("/timeline").text).group(1))["csrf"]
    return web, csrf


def test_an_analyst_annotates_an_event_and_it_is_shown_and_audited(analyst, served):  # noqa: F811
    from onrecord.pipeline import verify_case
    from onrecord.store.case import open_case

    web, csrf = analyst
    event = web.get("/api/events", params={"limit": 1, "from": "2000-01-01T00:00:00"}).json()["events"][0]["id"]
    made = []
    for kind, text in [("comment", "radio garbled here"), ("tag", "timeline-gap"), ("star", None),
                       ("disputed", "the unit was still en route")]:
        r = web.post("/api/annotations", json={"target": "event", "target_id": event, "kind": kind, "text": text},
                     headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        made.append(r.json())
    assert all(a["author"] == "ana" and a["at"].endswith("Z") for a in made)
    shown = web.get(f"/api/events/{event}").json()["annotations"]
    assert [(a["kind"], a["text"]) for a in shown] == [(a["kind"], a["text"]) for a in made]
    assert "radio garbled here" in web.get(f"/events/{event}").text
    listed = web.get("/api/annotations", params={"target": "event", "target_id": event}).json()["annotations"]
    assert len(listed) == 4
    web.audit.flush()
    notes = [e for e in web.audit.entries() if e["action"] == "annotate"]
    assert len(notes) == 4 and all(e["actor"] == "ana" and e["outcome"] == "allowed" for e in notes)
    case = open_case(served[3])
    assert verify_case(case).intact  # the evidence is as it was
    case.engine.dispose()


def test_a_session_without_the_csrf_token_cannot_annotate(analyst):
    web, _ = analyst
    r = web.post("/api/annotations", json={"target": "event", "target_id": 1, "kind": "star"})
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    r = web.post("/api/annotations", json={"target": "event", "target_id": 1, "kind": "star"},
                 headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403


@pytest.mark.parametrize("body,words", [
    ({"target": "event", "target_id": 1, "kind": "disputed"}, "reason"),
    ({"target": "event", "target_id": 1, "kind": "tag", "text": "two words"}, "one word"),
    ({"target": "event", "target_id": 987654321, "kind": "star"}, "no event"),
    ({"target": "finding", "target_id": 5, "kind": "star"}, "no finding")])
def test_bad_annotations_are_422_with_a_sentence(analyst, body, words):
    web, csrf = analyst
    r = web.post("/api/annotations", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and words in r.json()["detail"]


def test_a_viewer_may_not_annotate_and_a_token_needs_no_csrf(served):  # noqa: F811
    web, access, _, _ = served
    _, viewer = access.tokens.create(access.accounts.find("vic").id)
    _, analyst = access.tokens.create(access.accounts.find("ana").id)
    body = {"target": "event", "target_id": 1, "kind": "star"}
    r = web.post("/api/annotations", json=body, headers={"Authorization": f"Bearer {viewer}"})
    assert r.status_code == 403 and "may not annotate" in r.json()["detail"]
    assert web.post("/api/annotations", json=body, headers={"Authorization": f"Bearer {analyst}"}).status_code == 201

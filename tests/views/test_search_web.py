"""Search on the web: /api/search's hits carry where the timeline draws them (the chart's
time and lane) and the words that matched; the timeline page has the search form; a saved
search is an annotation of the case, refused without its query."""

from __future__ import annotations

import pytest

from onrecord.store.search_query import words
from onrecord.views.web.chart import lane_label
from tests.views.test_notes import analyst  # noqa: F401  (the fixture)
from tests.views.test_signin import served  # noqa: F401  (the fixture)


@pytest.mark.parametrize("lanes", ["agency", "unit", "source"])
def test_a_hit_is_where_the_timeline_draws_its_event(analyst, lanes):  # noqa: F811
    web, _ = analyst
    page = web.get("/api/events", params={"limit": 200, "from": "2000-01-01T00:00:00"}).json()["events"]
    e = next(x for x in page if len(words(x["text"])) >= 3 and x["t_lo"])
    first, second = words(e["text"])[:2]
    found = web.get("/api/search", params={"q": f'"{first} {second}"', "lanes": lanes, "limit": 1000}).json()
    hit = next(h for h in found["events"] if h["id"] == e["id"])
    assert {first, second} <= set(hit["matched"])
    value = {"agency": None, "unit": e["unit"], "source": e["source"]["kind"]}[lanes]
    assert hit["chart"]["lane"] == lane_label(lanes, e["agency"], value)
    chart = web.get("/api/timeline", params={"from": e["local_lo"][:19], "to": e["local_lo"][:19],
                                             "lanes": lanes}).json()
    drawn = {i: x for t in chart["traces"] for i, x in zip(t["id"], t["x"])}
    assert drawn[e["id"]] == hit["chart"]["x"]


def test_the_timeline_page_has_the_search_form(analyst):  # noqa: F811
    web, _ = analyst
    page = web.get("/timeline").text
    assert 'id="search"' in page and 'id="s-q"' in page and 'id="s-save"' in page and 'id="hits"' in page


def test_a_saved_search_is_an_annotation_of_the_case(analyst):  # noqa: F811
    web, csrf = analyst
    post = lambda body: web.post("/api/annotations", json=body, headers={"X-CSRF-Token": csrf})
    r = post({"target": "search", "kind": "saved_search", "text": '"shots fired" build*'})
    assert r.status_code == 201, r.text
    assert r.json()["target_id"] is None and r.json()["author"] == "ana"
    listed = web.get("/api/annotations", params={"target": "search"}).json()["annotations"]
    assert [a["text"] for a in listed] == ['"shots fired" build*']
    assert post({"target": "search", "kind": "saved_search", "text": ",;"}).status_code == 422  # no words
    assert post({"target": "event", "target_id": 1, "kind": "saved_search", "text": "x"}).status_code == 422
    assert post({"target": "search", "kind": "comment", "text": "x"}).status_code == 422
    assert post({"target": "event", "kind": "comment", "text": "x"}).status_code == 422  # which event?
    web.audit.flush()
    assert any(e["action"] == "annotate" and e["what"].startswith("POST /api/annotations") for e in web.audit.entries())

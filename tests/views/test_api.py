"""The JSON API: the same data as the pages, 404 and 422 with a message, paging that adds up."""

from __future__ import annotations

import hashlib

import pytest

from tests.views.derived import LOCAL

WINDOW = {"from": "2025-02-13T14:00:00", "to": "2025-02-13T14:30:00"}  # case local time (America/New_York)


def _all_pages(client, **params) -> list[dict]:
    out, cursor = [], None
    while True:
        body = client.get("/api/events", params=params | ({"cursor": cursor} if cursor else {})).json()
        out += body["events"]
        cursor = body["next_cursor"]
        if cursor is None:
            return out


def test_current_case_says_not_built_and_names_the_zone(client):
    body = client.get("/api/cases/current").json()
    assert body["built"] is False and "onrecord build" in body["not_built_note"]
    assert body["timezone"] == "America/New_York" and body["events"] > 3000
    assert {"BCSO", "SCPD", "BCFR"} <= set(body["agencies"]) and len(set(body["agency_colours"].values())) > 3
    assert body["busiest_window"]["local_lo"].startswith("2025-02-13")


def test_pages_add_up_to_one_big_page_in_time_order(client):
    paged = _all_pages(client, limit=37, **WINDOW)
    whole = client.get("/api/events", params={"limit": 5000, **WINDOW}).json()["events"]
    assert [e["id"] for e in paged] == [e["id"] for e in whole] and len(whole) > 100
    assert len({e["id"] for e in paged}) == len(paged)
    assert [e["t_lo"] for e in paged] == sorted(e["t_lo"] for e in paged)
    first = paged[0]
    assert first["clock"] == "source" and first["local_lo"].endswith("-05:00") and first["t_lo"].endswith("Z")
    assert "2025-02-13T14:00:00" <= first["local_lo"][:19] and paged[-1]["local_lo"][:19] <= "2025-02-13T14:30:00"


@pytest.mark.parametrize("field,value", [("agency", "BCFR"), ("unit", "13D29"), ("kind", "unit_arrived"),
                                         ("source_kind", "radio")])
def test_filters_keep_only_matching_events(client, field, value):
    got = _all_pages(client, limit=500, **{field: value})
    assert got, f"nothing for {field}={value}"
    key = {"source_kind": lambda e: e["source"]["kind"]}.get(field, lambda e: e[field])
    assert {key(e) for e in got} == {value}


def test_event_detail_quotes_the_exact_source_line_and_its_hash(client, scenario_dir):
    e = client.get("/api/events", params={"source_kind": "radio", "limit": 1}).json()["events"][0]
    d = client.get(f"/api/events/{e['id']}").json()
    lines = (scenario_dir / "sources" / d["source"]["file"]).read_bytes().splitlines(keepends=True)
    raw = lines[d["record"]["line"] - 1]
    assert d["record"]["raw"] == raw.decode().rstrip("\r\n")
    assert d["record"]["sha256"] == hashlib.sha256(raw).hexdigest() or \
        d["record"]["sha256"] == hashlib.sha256(raw.rstrip(b"\r\n")).hexdigest()
    assert d["clock"] == "source" and d["clock_estimate"] is None and d["fused"] is None
    assert d["source_clock"]["local_text"].endswith("EST")


@pytest.mark.parametrize("path", ["/api/events/987654321", "/api/fused/5", "/api/events/4611686018427387904"])
def test_unknown_ids_are_404_or_422_with_a_message(client, path):
    r = client.get(path)
    assert r.status_code in (404, 422) and isinstance(r.json()["detail"], str) and r.json()["detail"]
    if path.endswith("987654321"):
        assert r.status_code == 404 and "987654321" in r.json()["detail"]


@pytest.mark.parametrize("params,words", [
    ({"from": "yesterday-ish"}, "from"), ({"limit": 0}, "limit"), ({"limit": "many"}, "limit"),
    ({"cursor": "@@@"}, "cursor"), ({"from": "2025-02-13T15:00:00", "to": "2025-02-13T14:00:00"}, "after"),
    ({"kind": "Not A Kind!"}, "kind"), ({"lanes": "weather"}, "lanes")])
def test_bad_parameters_are_422_with_a_message(client, params, words):
    path = "/api/timeline" if "lanes" in params else "/api/events"
    r = client.get(path, params=params)
    assert r.status_code == 422 and words in r.json()["detail"]


def test_html_page_for_unknown_event_is_a_404_page(client):
    r = client.get("/events/987654321")
    assert r.status_code == 404 and "No event 987654321" in r.text and "<html" in r.text


def test_chart_points_match_the_window_and_bins_add_up(client):
    events = _all_pages(client, limit=5000, **WINDOW)
    points = client.get("/api/timeline", params=WINDOW | {"lanes": "unit"}).json()
    assert points["mode"] == "points" and points["count"] == len(events)
    assert sorted(i for t in points["traces"] for i in t["id"]) == sorted(e["id"] for e in events)
    assert all(y in points["lanes"] for t in points["traces"] for y in t["y"])
    bins = client.get("/api/timeline", params=WINDOW | {"max_points": 100}).json()
    assert bins["mode"] == "bins" and bins["count_at_least"] == 101
    assert sum(n for t in bins["traces"] for n in t["n"]) == len(events)


def test_plotly_is_served_locally(client):
    r = client.get("/vendor/plotly.min.js")
    assert r.status_code == 200 and b"plotly.js" in r.content[:200] and len(r.content) > 1_000_000
    assert "/vendor/plotly.min.js" in client.get("/timeline").text


@pytest.mark.parametrize("page", ["/metrics", "/discrepancies", "/subjects"])
def test_pages_say_not_built_yet_instead_of_failing(client, page):
    r = client.get(page)
    assert r.status_code == 200 and "Not built yet" in r.text and "onrecord build" in r.text


def test_sources_page_lists_each_file_with_its_hash(client, scenario_dir):
    r = client.get("/sources")
    assert r.status_code == 200 and "county_radio.csv" in r.text
    digest = hashlib.sha256((scenario_dir / "sources" / "county_radio.csv").read_bytes()).hexdigest()
    assert digest in r.text and "not built yet" in r.text


def test_pages_answer_while_a_writer_holds_the_store(generated_case):
    """An import or a build writing must not stall or break the pages (SQLite write lock held)."""
    import sqlite3
    import time

    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    web = TestClient(create_app(generated_case), base_url=LOCAL)
    web.get("/api/cases/current")
    writer = sqlite3.connect(generated_case / "case.db", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        t = time.perf_counter()
        r = web.get("/api/events", params={"limit": 5, "source_kind": "radio"})
        assert r.status_code == 200 and len(r.json()["events"]) == 5
        assert time.perf_counter() - t < 2.5  # not waiting out the 5 s busy timeout
    finally:
        writer.execute("ROLLBACK")
        writer.close()

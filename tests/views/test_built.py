"""Once built: aligned times, clock offsets applied, fused reports, findings with evidence."""

from __future__ import annotations

from tests.views.derived import CLAIM_SENTENCE, LOCAL, RADIO_OFFSET_S


def test_events_use_aligned_times_once_built(built_client, client, built_case):
    _, ids = built_case
    built = built_client.get(f"/api/events/{ids['radio_event']}").json()
    raw = client.get(f"/api/events/{ids['radio_event']}").json()
    assert built["clock"] == "aligned" and built["source_clock"] == raw["source_clock"]
    from datetime import datetime
    shift = (datetime.fromisoformat(built["source_clock"]["t_lo"]) - datetime.fromisoformat(built["aligned"]["t_lo"]))
    assert shift.total_seconds() == RADIO_OFFSET_S
    assert "12.5 s ahead ± 1.2 s" in built["clock_estimate"]["applied"]
    page = built_client.get("/api/events", params={"source_kind": "radio", "limit": 3}).json()
    assert page["clock"] == "aligned" and all(e["clock"] == "aligned" for e in page["events"])


def test_event_detail_shows_every_fused_report_with_its_line(built_client, built_case):
    _, ids = built_case
    d = built_client.get(f"/api/events/{ids['cad_event']}").json()
    reports = d["fused"]["reports"]
    assert {r["id"] for r in reports} == {ids["cad_event"], ids["radio_event"]}
    assert {r["source"]["file"] for r in reports} == {"county_cad.csv", "county_radio.csv"}
    assert all(r["record"]["raw"] and len(r["record"]["sha256"]) == 64 and r["record"]["line"] >= 1 for r in reports)
    assert built_client.get("/api/fused/1").json()["report_count"] == 2


def test_metrics_page_shows_values_in_local_time_with_evidence_links(built_client):
    found = built_client.get("/api/findings", params={"kind": "metric"}).json()["findings"]
    first = next(f for f in found if f["name"] == "first_dispatch")
    assert first["value_text"].endswith("EST")
    html = built_client.get("/metrics").text
    assert first["value_text"] in html and "11 min 09 s" in html
    assert f'href="/events/{first["evidence"]["events"][0]}"' in html and "Not built yet" not in html


def test_discrepancies_quote_both_sides(built_client, built_case):
    _, ids = built_case
    body = built_client.get("/api/discrepancies").json()["discrepancies"][0]
    assert body["claims"][0]["sentence"] == CLAIM_SENTENCE
    assert {e["id"] for e in body["events"]} == set(ids["shot_events"])
    html = built_client.get("/discrepancies").text
    assert CLAIM_SENTENCE in html and "campus_sensors.csv:" in html and body["events"][0]["record"]["raw"] in html


def test_subjects_show_flags_and_the_prior_records(built_client, built_case):
    _, ids = built_case
    person = built_client.get("/api/subjects").json()["subjects"][0]
    assert person["subject"] == "Example Subject" and {"self_harm", "weapon_access"} <= set(person["flags"])
    assert [e["id"] for e in person["warnings"][0]["events"]] == ids["contact_events"]
    assert "self harm" in built_client.get("/subjects").text


def test_sources_show_offset_uncertainty_and_the_events_it_rests_on(built_client, built_case):
    _, ids = built_case
    radio = next(s for s in built_client.get("/api/sources").json()["sources"] if s["file_name"] == "county_radio.csv")
    assert radio["clock_estimate"]["offset_s"] == RADIO_OFFSET_S and radio["clock_estimate"]["uncertainty_s"] == 1.2
    assert {e["id"] for e in radio["anchors"][0]["events"]} == {ids["radio_event"], ids["cad_event"]}
    assert "12.5 s ahead ± 1.2 s" in built_client.get("/sources").text


def test_the_pages_word_findings_in_the_cases_display_zone(built_case, tmp_path):
    """The metrics page renders each finding from its data: set the case's zone to Los
    Angeles and the same stored finding reads in Pacific time."""
    import shutil

    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    path = tmp_path / "case"
    shutil.copytree(built_case[0], path)
    settings = path / "onrecord.toml"
    settings.write_text(settings.read_text().replace("[case]\n", '[case]\ntimezone = "America/Los_Angeles"\n', 1))
    pacific = TestClient(create_app(path), base_url=LOCAL)
    f = next(f for f in pacific.get("/api/findings", params={"kind": "metric"}).json()["findings"]
             if f["name"] == "first_dispatch")
    assert f["summary"].startswith("first dispatch: ") and f["summary"].endswith(" PST")
    assert f["summary"] in pacific.get("/metrics").text


def test_the_timeline_shows_the_replayed_alerts_with_their_evidence(built_client, built_case):
    html = built_client.get("/timeline").text
    section = html.split('id="alerts"')[1].split("</section>")[0]
    assert "armed_unit_holding_outside" in section and "would have fired at" in section and "EST" in section
    for e in built_case[1]["shot_events"]:
        assert f'href="/events/{e}"' in section
    found = built_client.get("/api/findings", params={"kind": "alert"}).json()["findings"]
    assert [f["subject"] for f in found] == ["12A4"] and found[0]["summary"].startswith("Armed unit on scene")

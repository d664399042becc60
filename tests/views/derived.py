"""Fills a case's derived tables by hand, the way `onrecord build` will, so the pages that
show findings can be tested before the reconstruction exists. Fictional values only; the
aligned times follow from the clock offsets written here, as the real build's must."""

from __future__ import annotations

import json

from sqlalchemy import insert, select

from onrecord.store.case import Case
from onrecord.store.schema import aligned_events, claims, clock_estimates, events, findings, fused_events, sources

RADIO_OFFSET_S, RADIO_UNCERTAINTY_S = 12.5, 1.2  # the county radio log's clock runs ahead
CLAIM_SENTENCE = "I heard maybe two or three shots."


def _ids(conn, case: Case, file: str, kind: str, n: int) -> list[dict]:
    rows = conn.execute(select(events.c.id, events.c.t_src_lo, events.c.source_id).join(
        sources, sources.c.id == events.c.source_id).where(
        events.c.case_id == case.id, sources.c.file_name == file, events.c.kind == kind,
        events.c.t_src_lo.is_not(None)).order_by(events.c.t_src_lo, events.c.id).limit(n))
    return [dict(r._mapping) for r in rows]


def fill(case: Case) -> dict:
    """Write clocks, aligned times, one fused event, one claim and five findings (one a replayed alert);
    return their ids."""
    with case.engine.begin() as conn:
        radio = _ids(conn, case, "county_radio.csv", "radio_transmission", 1)[0]
        created = _ids(conn, case, "county_cad.csv", "incident_created", 1)[0]
        dispatched = _ids(conn, case, "county_cad.csv", "unit_dispatched", 1)[0]
        shots = _ids(conn, case, "campus_sensors.csv", "shots_detected", 3)
        contacts = _ids(conn, case, "sheriff_call_history.csv", "contact", 3)
        statement = conn.execute(select(sources.c.id).where(sources.c.case_id == case.id,
                                                            sources.c.file_name.like("statement_01%"))).scalar()
        _clocks(conn, case, radio, created)
        _aligned(conn, case, radio["source_id"], fused_with={radio["id"]: 1, created["id"]: 1})
        radio_aligned = radio["t_src_lo"] - int(RADIO_OFFSET_S * 1000)
        conn.execute(insert(fused_events).values(
            id=1, case_id=case.id, kind="incident_created", t_lo=min(created["t_src_lo"], radio_aligned),
            t_hi=max(created["t_src_lo"], radio_aligned), t_best=created["t_src_lo"], reports=2, sources=2,
            agency="BCSO", label="Shots reported at Building 1"))
        conn.execute(insert(claims).values(
            id=1, case_id=case.id, source_id=statement, span_lo=0, span_hi=len(CLAIM_SENTENCE),
            sentence=CLAIM_SENTENCE, speaker="Deputy Example", measure="shots_heard", value_lo=2, value_hi=3,
            unit="count", hedge="maybe"))
        _findings(conn, case, dispatched, shots, contacts)
    return {"radio_event": radio["id"], "cad_event": created["id"], "fused": 1, "claim": 1, "alert": 5,
            "shot_events": [s["id"] for s in shots], "contact_events": [c["id"] for c in contacts]}


def _clocks(conn, case: Case, radio: dict, reference: dict) -> None:
    conn.execute(insert(clock_estimates), [
        {"source_id": reference["source_id"], "case_id": case.id, "status": "reference", "offset_s": 0.0,
         "uncertainty_s": 0.0, "anchors": 0, "evidence": "[]"},
        {"source_id": radio["source_id"], "case_id": case.id, "status": "estimated", "offset_s": RADIO_OFFSET_S,
         "uncertainty_s": RADIO_UNCERTAINTY_S, "anchors": 1,
         # The shape `onrecord build` writes: per other source, the pairs of shared moments.
         "evidence": json.dumps([{"other_source": reference["source_id"], "difference_s": RADIO_OFFSET_S,
                                  "sigma_s": RADIO_UNCERTAINTY_S, "reports_only": True,
                                  "anchors": [{"event": radio["id"], "other_event": reference["id"],
                                               "residual_s": 0.4}]}])}])


def _aligned(conn, case: Case, radio_source: int, fused_with: dict[int, int]) -> None:
    rows = conn.execute(select(events.c.id, events.c.source_id, events.c.t_src_lo, events.c.t_src_hi).where(
        events.c.case_id == case.id, events.c.t_src_lo.is_not(None)))
    shift = int(RADIO_OFFSET_S * 1000)
    conn.execute(insert(aligned_events), [
        {"event_id": r.id, "case_id": case.id, "fused_id": fused_with.get(r.id),
         "t_lo": r.t_src_lo - (shift if r.source_id == radio_source else 0),
         "t_hi": r.t_src_hi - (shift if r.source_id == radio_source else 0)} for r in rows])


def _findings(conn, case: Case, dispatched: dict, shots: list[dict], contacts: list[dict]) -> None:
    ev = lambda ids, **more: json.dumps({"events": ids, **more})
    # One executemany takes its columns from the first row: every row names them all.
    blank = {"subject": None, "payload": None}
    conn.execute(insert(findings), [blank | row for row in [
        {"id": 1, "case_id": case.id, "kind": "metric", "name": "first_dispatch", "status": "established",
         "value_lo": dispatched["t_src_lo"], "value_hi": dispatched["t_src_lo"], "unit": "utc_ms",
         "evidence": ev([dispatched["id"]])},
        {"id": 2, "case_id": case.id, "kind": "metric", "name": "first_shot_to_first_entry_s",
         "status": "established", "value_lo": 668.9, "value_hi": 668.9, "unit": "s",
         "evidence": ev([s["id"] for s in shots])},
        {"id": 3, "case_id": case.id, "kind": "discrepancy", "name": "shots_heard", "subject": "Deputy Example",
         "status": "established", "value_lo": 3, "value_hi": 3, "unit": "count",
         "evidence": ev([s["id"] for s in shots], claims=[1])},
        {"id": 4, "case_id": case.id, "kind": "warning", "name": "threat_reported", "subject": "Example Subject",
         "status": "established", "unit": "count", "value_lo": len(contacts), "value_hi": len(contacts),
         "payload": json.dumps({"flags": ["self_harm", "weapon_access"]}), "evidence": ev([c["id"] for c in contacts])},
        # as the build's replay writes one: fired 60 s after the first shot, cleared 5 min later
        {"id": 5, "case_id": case.id, "kind": "alert", "name": "armed_unit_holding_outside", "subject": "12A4",
         "status": "established", "unit": "utc_ms", "value_lo": shots[0]["t_src_lo"] + 60_000,
         "value_hi": shots[0]["t_src_lo"] + 360_000,
         "payload": json.dumps({"alert": "armed_unit_holding_outside:12A4:1", "replayed": True,
                                "title": "Armed unit on scene outside while shots continue",
                                "held_since": shots[0]["t_src_lo"], "fired_at": shots[0]["t_src_lo"] + 60_000,
                                "cleared_at": shots[0]["t_src_lo"] + 360_000, "clear_reason": "shots_stopped",
                                "values": {"seen_by": ["BCSO", "BCFR"]}}),
         "evidence": ev([dispatched["id"]] + [s["id"] for s in shots])},
    ]])

# The address the test clients reach the app by: a loopback name the Host check accepts
# (Starlette's default, "testserver", is a name the server does not answer to).
LOCAL = "http://127.0.0.1"

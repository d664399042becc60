"""Reading a case's derived tables into CaseResults: unbuilt scores 0, and what the
reconstruction writes is scored against truth by record id, not by line."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import insert, select, text

from onrecord.scenario.results import collect_case_results
from onrecord.scenario.score import score_case
from onrecord.scenario.truth import load_truth

schema = pytest.importorskip("onrecord.store.schema")


def test_imported_but_unbuilt_case_scores_zero(imported, case1):
    case, _ = imported
    results = collect_case_results(case.path)
    assert not results.built
    assert set(score_case(results, load_truth(case1 / "truth.json"))["summary"].values()) == {0.0}


def test_derived_rows_are_read_back_and_scored(imported, case1, truth1):
    case, _ = imported
    with case.engine.begin() as conn:
        sources = dict(conn.execute(select(schema.sources.c.file_name, schema.sources.c.id)).all())
        cam = "campus_cameras.csv"
        conn.execute(insert(schema.clock_estimates).values(
            source_id=sources[cam], case_id=case.id, status="estimated",
            offset_s=truth1["sources"][cam]["clock_offset_s"] + 0.4, anchors=3))
        events = conn.execute(text("select e.id, s.file_name, e.kind, e.attrs from events e "
                                   "join sources s on s.id = e.source_id")).all()
        fused_ids: dict[str, int] = {}
        for eid, file, kind, attrs in events:  # fuse exactly as truth says
            rec = truth1["records"].get(f"{file}#{json.loads(attrs)['rid']}#{kind}")
            if rec:
                fused = fused_ids.setdefault(rec["event"], len(fused_ids) + 1)
                conn.execute(insert(schema.aligned_events).values(event_id=eid, case_id=case.id, fused_id=fused))
        first_entry = truth1["metrics"]["scored"]["first_entry"]
        conn.execute(insert(schema.findings).values(
            id=1, case_id=case.id, kind="metric", name="first_entry", status="established",
            value_lo=first_entry * 1000 - 3000, value_hi=first_entry * 1000 + 1000, unit="utc_ms",
            evidence="{}"))
    report = score_case(collect_case_results(case.path), load_truth(case1 / "truth.json"))
    try:
        assert report["built"]
        assert report["clock_offsets"]["per_source"][cam]["error_s"] == pytest.approx(0.4, abs=1e-6)
        assert report["event_fusion"]["f1"] == 1.0
        assert report["metrics"]["per_metric"]["first_entry"]["error_s"] == pytest.approx(1.0, abs=1e-3)
        assert report["summary"]["linkage_f1"] == 0.0
    finally:
        with case.engine.begin() as conn:
            for t in ("clock_estimates", "aligned_events", "findings"):
                conn.execute(text(f"delete from {t}"))


def test_a_count_is_scored_by_the_figure_its_finding_names_best_else_by_its_middle():
    from onrecord.scenario.results import _metrics

    found = [{"name": "agency_units_entered", "subject": "PD", "value_lo": 5, "value_hi": 9, "unit": "count",
              "payload": {"recorded": 5, "on_scene": 9, "best": 5}},
             {"name": "agency_units_on_scene", "subject": "PD", "value_lo": 3, "value_hi": 5, "unit": "count",
              "payload": {}}]
    assert _metrics(found) == {"units_entered:PD": 5.0, "units_on_scene:PD": 4.0}
    assert _metrics(found, intervals=True)["units_entered:PD"] == (5, 9)  # the range stays stated

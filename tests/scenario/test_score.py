"""Scoring math: perfect answers score 1, empty answers score 0, partial in between."""

from __future__ import annotations

import pytest

from onrecord.scenario.results import CaseResults, collect_case_results
from onrecord.scenario.score import metric_scores, offset_scores, pairwise_prf, range_scores, score_case
from onrecord.scenario.truth import load_truth

TRUE = {"a": "X", "b": "X", "c": "X", "d": "Y", "e": "Y", "f": "Z"}


def test_perfect_clusters_score_one():
    s = pairwise_prf([["a", "b", "c"], ["d", "e"], ["f"]], TRUE)
    assert (s["precision"], s["recall"], s["f1"]) == (1.0, 1.0, 1.0)
    assert s["true_pairs"] == 4


def test_nothing_found_scores_zero_not_na():
    for predicted in ([], [["a"], ["b"], ["c"]]):
        s = pairwise_prf(predicted, TRUE)
        assert (s["precision"], s["recall"], s["f1"]) == (0.0, 0.0, 0.0)


def test_everything_in_one_cluster_has_full_recall_low_precision():
    s = pairwise_prf([list(TRUE)], TRUE)
    assert s["recall"] == 1.0
    assert s["precision"] == pytest.approx(4 / 15, abs=1e-4)


def test_partial_clusters_and_unknown_items():
    s = pairwise_prf([["a", "b", "zzz"], ["c", "d"]], TRUE)  # zzz: not in truth, ignored
    assert (s["correct_pairs"], s["predicted_pairs"]) == (1, 2)
    assert s["precision"] == 0.5 and s["recall"] == 0.25


def test_offsets_error_and_share_within_tolerance():
    s = offset_scores({"cam.csv": -120.5, "cad.csv": 9.0}, {"cam.csv": -121.0, "cad.csv": 1.0, "avl.csv": 0.0})
    assert s["per_source"]["cam.csv"]["error_s"] == 0.5
    assert s["per_source"]["avl.csv"]["error_s"] is None
    assert s["within_tolerance"] == pytest.approx(1 / 3, abs=1e-4)
    assert offset_scores({}, {"a": 1.0})["within_tolerance"] == 0.0
    assert offset_scores({}, {"a": 1.0})["within_tolerance_relative"] == 0.0


def test_offsets_relative_to_a_shared_shift():
    true = {"cam": -200.0, "cad": 1.0, "radio": -3.0, "avl": 0.0}
    est = {k: v + 30.0 for k, v in true.items()}  # every clock read against a reference 30 s off
    est["radio"] += 5.0
    s = offset_scores(est, true)
    assert s["within_tolerance"] == 0.0 and s["common_shift_s"] == 30.0
    assert s["within_tolerance_relative"] == 0.75
    assert s["per_source"]["radio"]["relative_error_s"] == 5.0


def test_metric_errors_in_seconds():
    s = metric_scores({"first_entry": 1005.0, "first_shot": 500.0},
                      {"first_entry": 1000.0, "first_shot": 530.0, "threat_ended": 2000.0}, tolerance=10.0)
    assert s["per_metric"]["first_entry"]["error_s"] == 5.0
    assert s["per_metric"]["first_shot"]["error_s"] == 30.0
    assert s["within_tolerance"] == pytest.approx(1 / 3, abs=1e-4)


def _perfect(truth) -> CaseResults:
    from onrecord.scenario.score import truth_clusters
    return CaseResults(built=True, note="", offsets=dict(truth.offsets),
                       event_groups=truth_clusters(truth.record_event),
                       entity_clusters=truth_clusters(truth.mention_entity),
                       metrics={**truth.metrics, **truth.detail_metrics, **truth.counts},
                       linkage_clusters=truth_clusters(truth.prior_person),
                       discrepancies=[[(t["source"], *t["span"])] for t in
                                      truth.doc["contradictions"] + truth.doc["press_errors"]])


def test_whole_case_perfect_and_unbuilt(case1, tmp_path):
    from onrecord.store.case import init_case
    truth = load_truth(case1 / "truth.json")
    perfect = score_case(_perfect(truth), truth)["summary"]
    assert set(perfect.values()) == {1.0}
    empty = score_case(collect_case_results(init_case(tmp_path / "empty").path), truth)
    assert set(empty["summary"].values()) == {0.0}
    assert "not been built" in empty["note"]


def test_entity_resolution_counts_each_written_form_once():
    from onrecord.scenario.score import by_written_form
    truth = {"avl#1#unit": "U1", "avl#2#unit": "U1", "avl#3#unit": "U1", "cad#9#unit": "U1", "cad#8#unit": "U2"}
    forms = {"avl#1#unit": "3105", "avl#2#unit": "3105", "avl#3#unit": "3105", "cad#9#unit": "14B2",
             "cad#8#unit": "14B3"}
    clusters, by_form = by_written_form([["avl#1#unit", "avl#2#unit", "avl#3#unit", "cad#9#unit"], ["cad#8#unit"]],
                                        truth, forms)
    s = pairwise_prf(clusters, by_form)
    assert (s["true_pairs"], s["f1"]) == (1, 1.0)  # one decision: vehicle 3105 is unit 14B2
    wrong = pairwise_prf(*by_written_form([["avl#1#unit", "cad#8#unit"]], truth, forms))
    assert wrong["f1"] == 0.0


def test_relative_offsets_never_below_absolute():
    true = {"a": 0.0, "b": 10.0, "c": -5.0, "d": 1.0}
    est = {"a": 0.0, "b": 10.0, "c": -2.0, "d": 4.0}  # two right, two 3 s off: no shift helps more
    s = offset_scores(est, true)
    assert s["common_shift_s"] == 0.0
    assert s["within_tolerance_relative"] == s["within_tolerance"] == 0.5


def test_conflicts_found_and_right():
    from onrecord.scenario.score import conflict_scores
    injected = [{"source": "st.txt", "span": [10, 40]}, {"source": "pr.txt", "span": [0, 30]}]
    s = conflict_scores([[("st.txt", 20, 25)], [("st.txt", 50, 60)]], injected)
    assert (s["recall"], s["precision"]) == (0.5, 0.5)
    assert conflict_scores([], injected)["recall"] == 0.0 and conflict_scores([], injected)["precision"] == 0.0


def test_count_ranges_hold_truth_beside_their_width_never_as_right():
    true = {"units_entered:PD": 4, "units_entered:SO": 2}
    r = range_scores(true, {"units_entered:PD": (3, 9), "units_entered:SO": (0, 1)})
    assert r["per_count"]["units_entered:PD"]["holds_truth"] and not r["per_count"]["units_entered:SO"]["holds_truth"]
    assert r["hold_truth"] == 0.5 and r["mean_width"] == 3.5
    # the exact score is the middle's: a wide range holding the truth is not "right"
    assert metric_scores({"units_entered:PD": 6.0}, {"units_entered:PD": 4}, tolerance=0.0)["within_tolerance"] == 0.0


def test_stated_clock_uncertainty_is_checked():
    per = offset_scores({"a.csv": 10.0, "b.csv": 3.0}, {"a.csv": 11.5, "b.csv": 3.2},
                        stated={"a.csv": 0.5, "b.csv": 0.5})["per_source"]
    assert not per["a.csv"]["within_twice_stated"] and per["b.csv"]["within_twice_stated"]


def _truth_file(tmp_path, doc: dict):
    import json

    p = tmp_path / "truth.json"
    p.write_text(json.dumps({"schema": "onrecord-scenario-truth/1", **doc}), encoding="utf-8")
    return p


def test_a_truth_without_prior_records_or_detail_is_read(tmp_path):
    # another generator's incident with no prior-contact records, mentions or per-unit detail
    t = load_truth(_truth_file(tmp_path, {"sources": {"cad.csv": {"clock_offset_s": 4.0}, "roster.csv": {}},
                                          "metrics": {"scored": {"first_shot": 100.0}}}))
    assert t.offsets == {"cad.csv": 4.0} and t.metrics == {"first_shot": 100.0}
    assert t.prior_person == {} and t.detail_metrics == {} and t.record_event == {}


def test_a_truth_missing_what_the_scorer_needs_is_one_error_naming_the_key(tmp_path):
    from onrecord.errors import InputError

    with pytest.raises(InputError) as err:
        load_truth(_truth_file(tmp_path, {"sources": {}}))
    assert "'metrics'" in str(err.value) and "truth.json" in str(err.value)

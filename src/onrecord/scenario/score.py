"""Scoring a built case against truth: pure functions, no store, no I/O.

Every score is a number in [0, 1] (or an error in seconds beside it). Found nothing
means 0, not "n/a": an empty answer is scored as wrong, so a pipeline cannot look good
by staying silent. Definitions: docs/scenario.md.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

OFFSET_TOLERANCE_S = 2.0     # an offset estimate this close counts as right
METRIC_TOLERANCE_S = 2.0     # a response measure this close (or whose interval holds truth) is right


def pairs_of(clusters) -> set[tuple[str, str]]:
    """All unordered pairs of members that share a cluster."""
    out: set[tuple[str, str]] = set()
    for members in clusters:
        out.update(combinations(sorted(set(members)), 2))
    return out


def truth_clusters(assignment: dict[str, str]) -> list[list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for item, owner in assignment.items():
        groups[owner].append(item)
    return list(groups.values())


def pairwise_prf(predicted, assignment: dict[str, str]) -> dict:
    """Pairwise precision/recall/F1 of predicted clusters against a true item -> owner map.

    Items the truth does not know are ignored (background rows, untimed lines). With no
    predicted pairs precision is 0, with no true pairs recall is 0: nothing found is 0.
    """
    known = [[m for m in c if m in assignment] for c in predicted]
    pred, true = pairs_of(known), pairs_of(truth_clusters(assignment))
    hit = len(pred & true)
    p = hit / len(pred) if pred else 0.0
    r = hit / len(true) if true else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4),
            "predicted_pairs": len(pred), "true_pairs": len(true), "correct_pairs": hit}


def form_key(mention: str, forms: dict[str, str]) -> str:
    """"FILE#RID#FIELD" -> "FILE#FIELD#TEXT": one written name in one source, counted once."""
    file, _, what = mention.split("#", 2)
    return f"{file}#{what}#{forms.get(mention, mention)}"


def by_written_form(clusters, mention_entity: dict[str, str], forms: dict[str, str]) -> tuple[list, dict]:
    """Entity resolution over distinct written forms, so 2,000 AVL pings of one vehicle
    number weigh as one decision, not two million pairs. A form that truly names two
    entities (ambiguous) stays split by mention."""
    owners: dict[str, set] = defaultdict(set)
    for m, e in mention_entity.items():
        owners[form_key(m, forms)].add(e)
    key = lambda m: form_key(m, forms) if len(owners[form_key(m, forms)]) == 1 else m
    truth = {key(m): e for m, e in mention_entity.items()}
    return [[key(m) for m in c if m in mention_entity] for c in clusters], truth


def offset_scores(estimated: dict[str, float], true: dict[str, float],
                  tolerance: float = OFFSET_TOLERANCE_S, stated: dict[str, float] | None = None) -> dict:
    """Error per source; the score is the share of sources estimated within tolerance.

    Records alone fix clocks only relative to each other: were every clock shifted by the
    same amount, no record would show it. So beside the absolute error (right only when
    the build anchors on a truly right clock, such as GPS-timed AVL) each source has a
    relative error, after removing the one shift shared by all clocks that puts the most
    estimates within tolerance (no shift at all is a candidate, so relative >= absolute)."""
    shift = _best_shift([estimated[s] - t for s, t in true.items() if estimated.get(s) is not None], tolerance)
    per = {}
    for src, truth in sorted(true.items()):
        est = estimated.get(src)
        per[src] = {"true_s": truth, "estimated_s": est,
                    "error_s": None if est is None else round(abs(est - truth), 3),
                    "relative_error_s": None if est is None else round(abs(est - truth - shift), 3)}
        if stated is not None and est is not None:
            # an honest uncertainty holds the truth within twice itself nearly always
            per[src]["stated_uncertainty_s"] = stated.get(src)
            per[src]["within_twice_stated"] = abs(est - truth) <= 2 * (stated.get(src) or 0.0)
    share = lambda key: sum(1 for v in per.values() if v[key] is not None and v[key] <= tolerance) / len(per)
    errors = [v["error_s"] for v in per.values() if v["error_s"] is not None]
    return {"per_source": per, "within_tolerance": round(share("error_s"), 4) if per else 0.0,
            "within_tolerance_relative": round(share("relative_error_s"), 4) if per else 0.0,
            "common_shift_s": round(shift, 3), "tolerance_s": tolerance, "estimated": len(errors),
            "mean_abs_error_s": round(sum(errors) / len(errors), 3) if errors else None}


def _best_shift(residuals: list[float], tolerance: float) -> float:
    def fits(shift: float) -> int:
        return sum(1 for r in residuals if abs(r - shift) <= tolerance)
    return max([0.0] + residuals, key=lambda shift: (fits(shift), -abs(shift)))


def metric_scores(estimated: dict[str, float], true: dict[str, float],
                  tolerance: float = METRIC_TOLERANCE_S, intervals: dict | None = None) -> dict:
    """Error in seconds per measure (of the interval's middle); a measure is right when
    that error is within tolerance or its stated interval contains the truth."""
    per = {}
    intervals = intervals or {}
    for name, truth in sorted(true.items()):
        est = estimated.get(name)
        lo_hi = intervals.get(name)
        contains = bool(lo_hi) and lo_hi[0] <= truth <= lo_hi[1]
        per[name] = {"true": truth, "estimated": est, "interval": list(lo_hi) if lo_hi else None,
                     "interval_contains_truth": contains,
                     "error_s": None if est is None else round(abs(est - truth), 3)}
    good = sum(1 for v in per.values() if v["interval_contains_truth"] or
               (v["error_s"] is not None and v["error_s"] <= tolerance))
    return {"per_metric": per, "within_tolerance": round(good / len(per), 4) if per else 0.0,
            "tolerance_s": tolerance}


def range_scores(true: dict[str, float], intervals: dict, estimated: dict | None = None) -> dict:
    """Counts the build gives as ranges (units that entered: from those recorded entering
    to every unit on scene): how many ranges hold the truth, and how wide they are. Kept
    apart from the exact score: a wide range holding the truth is honest, not right. A
    count given as one number is a range of width 0."""
    intervals = {**{k: (v, v) for k, v in (estimated or {}).items() if v is not None}, **intervals}
    per = {name: {"true": t, "range": list(intervals[name]) if name in intervals else None,
                  "holds_truth": name in intervals and intervals[name][0] <= t <= intervals[name][1],
                  "width": intervals[name][1] - intervals[name][0] if name in intervals else None}
           for name, t in sorted(true.items())}
    widths = [v["width"] for v in per.values() if v["width"] is not None]
    return {"per_count": per, "hold_truth": round(sum(v["holds_truth"] for v in per.values()) / len(per), 4)
            if per else 0.0, "mean_width": round(sum(widths) / len(widths), 3) if widths else None}


def conflict_scores(found: list[list[tuple[str, int, int]]], injected: list[dict]) -> dict:
    """Discrepancies against the contradictions and press errors truth injected.

    `found`: per discrepancy finding, the claims it quotes as (file, span start, end);
    `injected`: truth's items (`source`, `span`). An injected item is found when a quoted
    claim's span overlaps it in the same document (recall); a finding is right when it
    quotes at least one injected item (precision). Nothing found scores 0."""
    def hits(claim, item) -> bool:
        return claim[0] == item["source"] and claim[1] < item["span"][1] and item["span"][0] < claim[2]

    found_items = sum(1 for item in injected if any(hits(c, item) for f in found for c in f))
    right = sum(1 for f in found if any(hits(c, item) for c in f for item in injected))
    r = found_items / len(injected) if injected else 0.0
    p = right / len(found) if found else 0.0
    return {"recall": round(r, 4), "precision": round(p, 4), "injected": len(injected),
            "found": found_items, "findings": len(found), "right_findings": right}


def score_case(results, truth) -> dict:
    """All the scores for one case. `results` is a CaseResults, `truth` a loaded Truth."""
    report = {
        "built": results.built, "note": results.note, "seed": truth.doc.get("seed"),
        "clock_offsets": offset_scores(results.offsets, truth.offsets, stated=results.offset_uncertainty),
        "event_fusion": pairwise_prf(results.event_groups, truth.record_event),
        "entity_resolution": pairwise_prf(*by_written_form(results.entity_clusters, truth.mention_entity,
                                                           truth.mention_form)),
        "entity_resolution_all_mentions": pairwise_prf(results.entity_clusters, truth.mention_entity),
        "metrics": metric_scores(results.metrics, truth.metrics, intervals=results.intervals),
        "unit_and_call_metrics": metric_scores(results.metrics, truth.detail_metrics, intervals=results.intervals),
        "counts": metric_scores(results.metrics, truth.counts, tolerance=0.0),
        "count_ranges": range_scores(truth.counts, results.intervals, results.metrics),
        "linkage": pairwise_prf(results.linkage_clusters, truth.prior_person),
        "conflicts": conflict_scores(results.discrepancies,
                                     truth.doc.get("contradictions", []) + truth.doc.get("press_errors", [])),
    }
    report["summary"] = {
        "clock_offsets": report["clock_offsets"]["within_tolerance"],
        "clock_offsets_relative": report["clock_offsets"]["within_tolerance_relative"],
        "event_fusion_f1": report["event_fusion"]["f1"],
        "entity_resolution_f1": report["entity_resolution"]["f1"],
        "metrics": report["metrics"]["within_tolerance"],
        "unit_and_call_metrics": report["unit_and_call_metrics"]["within_tolerance"],
        "counts": report["counts"]["within_tolerance"],
        "count_ranges_hold_truth": report["count_ranges"]["hold_truth"],
        "linkage_f1": report["linkage"]["f1"],
        "conflicts_recall": report["conflicts"]["recall"],
        "conflicts_precision": report["conflicts"]["precision"],
    }
    return report

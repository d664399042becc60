"""Reconstruction accuracy over generated incidents with known truth (issue 4 targets):
clock offset median |error| <= 1 s and worst <= 5 s for sources with >= 3 shared events;
event fusion pairwise F1 >= 0.97; unit/officer resolution F1 >= 0.98; every response
metric within +/-2 s of truth or its interval containing truth.

Run: .venv/bin/python benchmarks/reconstruction_accuracy.py [--seeds 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from onrecord.pipeline import build_case
from onrecord.scenario.into_case import generate_and_import
from onrecord.scenario.results import collect_case_results
from onrecord.scenario.score import score_case
from onrecord.scenario.truth import load_truth


def shared_sources(truth_doc: dict) -> dict[str, int]:
    """Per source file: how many true events it shares with at least one other source."""
    files_of = defaultdict(set)
    for key, rec in truth_doc["records"].items():
        files_of[rec["event"]].add(key.split("#", 1)[0])
    count = Counter()
    for files in files_of.values():
        if len(files) > 1:
            for f in files:
                count[f] += 1
    return dict(count)


def one_seed(seed: int, work: Path) -> dict:
    case = generate_and_import(seed, work)
    build_case(case)
    truth = load_truth(work / f"scenario-{seed}" / "truth.json")
    rep = score_case(collect_case_results(work / f"case-{seed}"), truth)
    shared = shared_sources(truth.doc)
    errors, unaligned, per, overstated = [], [], {}, []
    for src, v in rep["clock_offsets"]["per_source"].items():
        if shared.get(src, 0) >= 3:
            (unaligned.append(src) if v["error_s"] is None else errors.append(v["error_s"]))
            if v["error_s"] is not None:
                per[src] = v["error_s"]
                if not v["within_twice_stated"]:
                    overstated.append(src)
    metrics = rep["metrics"]["per_metric"]
    ok = sum(1 for v in metrics.values() if _holds(v))
    detail = rep["unit_and_call_metrics"]["per_metric"]
    dok = sum(1 for v in detail.values() if _holds(v))
    return {"seed": seed, "clock_median": statistics.median(errors) if errors else None, "clock_errors": errors,
            "worst_source": max(per, key=per.get) if per else None, "per_source": per, "unaligned_sources": unaligned,
            "sure_but_wrong": overstated,
            "clock_worst": max(errors) if errors else None, "aligned": len(errors), "unaligned": len(unaligned),
            "fusion_f1": rep["event_fusion"]["f1"], "entity_f1": rep["entity_resolution"]["f1"],
            "metrics_ok": f"{ok}/{len(metrics)}", "detail_ok": f"{dok}/{len(detail)}",
            "counts": rep["summary"]["counts"], "ranges": rep["count_ranges"],
            "bad_metrics": [k for k, v in metrics.items() if not _holds(v)]}


def _holds(v: dict) -> bool:
    """A metric within 2 s of the truth, or whose interval holds it."""
    return v["interval_contains_truth"] or (v["error_s"] is not None and v["error_s"] <= 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            rows.append(one_seed(seed, Path(tmp)))
            r = rows[-1]
            fmt = lambda x: "  -  " if x is None else f"{x:5.2f}"
            print(f"seed {seed:2d}  clock median {fmt(r['clock_median'])} s  worst {fmt(r['clock_worst'])} s "
                  f"({r['worst_source']}; aligned {r['aligned']}, unaligned {r['unaligned']})  "
                  f"fusion F1 {r['fusion_f1']:.3f}  "
                  f"entity F1 {r['entity_f1']:.3f}  metrics {r['metrics_ok']}  unit/call {r['detail_ok']}  "
                  f"counts {r['counts']:.2f} (ranges hold {r['ranges']['hold_truth']:.2f}, width "
                  f"{r['ranges']['mean_width'] or 0:.1f})  missed: {', '.join(r['bad_metrics']) or '-'}", flush=True)
    # The wording: median absolute error and worst error over every source with
    # >= 3 shared events, every seed. A source left unaligned has no error to show: it is
    # a failure, counted as an infinite error (so it can only raise the median and the worst).
    pooled = [e for r in rows for e in r["clock_errors"]] + [float("inf")] * sum(r["unaligned"] for r in rows)
    per_seed = [r["clock_median"] for r in rows if r["clock_median"] is not None]
    worst = max(pooled) if pooled else float("nan")
    print()
    print(f"over {len(rows)} seeds (targets in brackets):")
    print(f"  clock offset, sources with >= 3 shared events (all seeds pooled): median |error| "
          f"{statistics.median(pooled):.2f} s [<= 1], worst {worst:.2f} s [<= 5]; "
          f"unaligned (no link to a trusted clock, counted as failures) {sum(r['unaligned'] for r in rows)} of "
          f"{sum(r['unaligned'] + r['aligned'] for r in rows)}")
    print(f"    per seed: median of the seeds' medians {statistics.median(per_seed):.2f} s, worst seed median "
          f"{max(per_seed):.2f} s; sources over 5 s: "
          + (", ".join(f"{src} x{n}" for src, n in Counter(
              s for r in rows for s, e in r["per_source"].items() if e > 5).most_common()) or "-"))
    wrong = Counter(s for r in rows for s in r["sure_but_wrong"])
    print(f"    stated uncertainty: truth within twice the stated +/- for {len(pooled) - sum(wrong.values())} of "
          f"{len(pooled)} sources; surer than right: "
          + (", ".join(f"{s} x{n}" for s, n in wrong.most_common()) or "-"))
    print(f"  event fusion F1: mean {statistics.mean(r['fusion_f1'] for r in rows):.3f}, "
          f"min {min(r['fusion_f1'] for r in rows):.3f} [>= 0.97]")
    print(f"  entity resolution F1: mean {statistics.mean(r['entity_f1'] for r in rows):.3f}, "
          f"min {min(r['entity_f1'] for r in rows):.3f} [>= 0.98]")
    ok = sum(int(r["metrics_ok"].split("/")[0]) for r in rows)
    tot = sum(int(r["metrics_ok"].split("/")[1]) for r in rows)
    print(f"  headline metrics within 2 s or interval holds truth: {ok}/{tot} [all]")
    print("  units on scene / entered per agency: exact by the middle "
          f"{statistics.mean(r['counts'] for r in rows):.2f}; "
          f"ranges hold the truth {statistics.mean(r['ranges']['hold_truth'] for r in rows):.2f}, mean width "
          f"{statistics.mean(r['ranges']['mean_width'] or 0 for r in rows):.1f} units (no target)")


if __name__ == "__main__":
    main()

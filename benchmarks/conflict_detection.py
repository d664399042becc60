"""Conflict detection in statements and press pieces, against the contradictions and press
errors each generated case injects with known truth (issue 5).

A truth contradiction counts as found when a discrepancy finding quotes a claim whose
span overlaps its span in the same document. Two precisions are printed:
- per claim: the share of claims quoted by discrepancy findings that overlap an injected
  contradiction or press error (a claims-vs-claims finding quotes both sides, so one
  that rightly pits a true account against a false one costs half a point here);
- per finding: the share of discrepancy findings that quote at least one injected claim.
Beside them, the statements' approximate times that truth says are right ("about four
minutes after I arrived"): how many the build checked against the records, and how many
it wrongly called contradicted (should be 0). The baseline, measured in the same run, is
claims compared only with each other (`onrecord claims` on the same files, no records).

Run: .venv/bin/python benchmarks/conflict_detection.py [--seeds 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path

from onrecord.pipeline import build_case
from onrecord.scenario.into_case import generate_and_import
from onrecord.store.reader import open_reader


def one_seed(seed: int, work: Path) -> dict:
    case = generate_and_import(seed, work)
    build_case(case)
    truth = json.loads((work / f"scenario-{seed}" / "truth.json").read_text())
    injected = [(t["source"], t["span"], t["measure"]) for t in truth["contradictions"] + truth["press_errors"]]
    reader = open_reader(case)
    claims = {c["id"]: c for c in reader.claims()}
    found = [f for f in reader.findings(kind="discrepancy") if f["evidence"].get("claims")]

    def overlaps(claim, source, span):
        return claim["file_name"] == source and claim["span_lo"] < span[1] and span[0] < claim["span_hi"]

    def injected_claim(i):
        return any(overlaps(claims[i], src, span) for src, span, _ in injected)

    flagged = {i for f in found for i in f["evidence"]["claims"]}
    hit = [m for src, span, m in injected if any(overlaps(claims[i], src, span) for i in flagged)]
    approx = [(a["source"], a["span"]) for a in truth["approximate_times"]]
    checked = Counter()  # per approximation: contradicted if any claim in it is, else supported if any is
    for src, span in approx:
        verdicts = {((c["payload"] or {}).get("record_check") or {}).get("verdict")
                    for c in claims.values() if overlaps(c, src, span)} - {None}
        if verdicts:
            checked[next(v for v in ("contradicts", "supports", "cannot_tell") if v in verdicts)] += 1
    return {"hit": len(hit), "injected": len(injected), "missed": [m for _, _, m in injected if m not in hit],
            "good_claims": sum(1 for i in flagged if injected_claim(i)), "flagged": len(flagged),
            "good_findings": sum(1 for f in found if any(injected_claim(i) for i in f["evidence"]["claims"])),
            "findings": len(found), "approx_checked": checked, "approx": len(approx),
            "baseline_hit": _baseline_hits(work / f"scenario-{seed}", truth, injected)}


def _baseline_hits(scenario: Path, truth: dict, injected) -> int:
    """The baseline: claims compared only with each other, as `onrecord claims` reads the
    same statement and press files (no records). Spans there count from the file's first
    byte; truth's count from the body after the header's blank line."""
    from onrecord.claims.extract import analyse

    texts, body = {}, {}
    for name, src in truth["sources"].items():
        if src["kind"] in ("statement", "press"):
            text = (scenario / src["path"]).read_text(encoding="utf-8")
            texts[name], body[name] = text, text.index("\n\n") + 2
    a = analyse(texts)
    by_id = {c.id: c for c in a.claims}
    sides = [by_id[s["claim"]] for conflict in a.conflicts for s in conflict.sides]
    return sum(1 for src, span, _ in injected
               if any(c.doc == src and c.start - body[src] < span[1] and span[0] < c.end - body[src] for c in sides))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    t = Counter()
    missed, approx = Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            r = one_seed(seed, Path(tmp))
            for k in ("hit", "injected", "good_claims", "flagged", "good_findings", "findings", "approx",
                      "baseline_hit"):
                t[k] += r[k]
            missed.update(r["missed"])
            approx.update(r["approx_checked"])
            print(f"seed {seed:2d}: found {r['hit']}/{r['injected']} injected contradictions "
                  f"(claims vs claims alone: {r['baseline_hit']}); {r['good_findings']}/{r['findings']} findings and "
                  f"{r['good_claims']}/{r['flagged']} quoted claims are injected ones; missed {r['missed']}",
                  flush=True)
    ratio = lambda a, b: t[a] / t[b] if t[b] else 0.0
    print(f"\nover {args.seeds} seeds: conflict detection recall {ratio('hit', 'injected'):.3f} "
          f"({t['hit']}/{t['injected']}); precision per finding {ratio('good_findings', 'findings'):.3f} "
          f"({t['good_findings']}/{t['findings']}), per quoted claim {ratio('good_claims', 'flagged'):.3f} "
          f"({t['good_claims']}/{t['flagged']})")
    print(f"baseline (claims only against each other, `onrecord claims` on the same files): recall "
          f"{ratio('baseline_hit', 'injected'):.3f} ({t['baseline_hit']}/{t['injected']})")
    print(f"missed by measure: {dict(missed.most_common())}")
    print(f"approximate times truth says are right ({t['approx']}): checked against the records "
          f"{sum(approx.values())} -> supports {approx['supports']}, cannot tell {approx['cannot_tell']}, "
          f"wrongly contradicted {approx['contradicts']}")


if __name__ == "__main__":
    main()

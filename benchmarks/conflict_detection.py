"""Conflict detection in statements and press pieces, against the contradictions and press
errors each generated case injects with known truth (issue 5).

A truth contradiction counts as found when a discrepancy finding quotes a claim whose
span overlaps its span in the same document. Precision: the share of discrepancy claims
that overlap an injected contradiction or press error.

Run: .venv/bin/python benchmarks/conflict_detection.py [--seeds 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from onrecord.reconstruct.build import reconstruct
from onrecord.reconstruct.write import write_reconstruction
from onrecord.scenario.case import generate_and_import
from onrecord.store.read import CaseReader


def one_seed(seed: int, work: Path) -> tuple[int, int, int, int]:
    case = generate_and_import(seed, work)
    write_reconstruction(case, reconstruct(case))
    truth = json.loads((work / f"scenario-{seed}" / "truth.json").read_text())
    injected = [(t["source"], t["span"]) for t in truth["contradictions"] + truth["press_errors"]]
    reader = CaseReader(case)
    claims = {c["id"]: c for c in reader.claims()}
    flagged = {i for f in reader.findings(kind="discrepancy") for i in f["evidence"].get("claims", [])}

    def overlaps(claim, source, span):
        return claim["file_name"] == source and claim["span_lo"] < span[1] and span[0] < claim["span_hi"]

    hit = sum(1 for src, span in injected if any(overlaps(claims[i], src, span) for i in flagged))
    good = sum(1 for i in flagged if any(overlaps(claims[i], src, span) for src, span in injected))
    return hit, len(injected), good, len(flagged)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    totals = [0, 0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            row = one_seed(seed, Path(tmp))
            totals = [a + b for a, b in zip(totals, row)]
            print(f"seed {seed:2d}: found {row[0]}/{row[1]} injected contradictions; "
                  f"{row[2]}/{row[3]} flagged claims are injected ones", flush=True)
    recall = totals[0] / totals[1] if totals[1] else 0.0
    precision = totals[2] / totals[3] if totals[3] else 0.0
    print(f"\nover {args.seeds} seeds: conflict detection precision {precision:.3f} ({totals[2]}/{totals[3]}), "
          f"recall {recall:.3f} ({totals[0]}/{totals[1]})")


if __name__ == "__main__":
    main()

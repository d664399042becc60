"""The attacker's prior contacts on generated cases: pairwise precision, recall and F1 of
`onrecord link` against the generator's truth, per seed and over all seeds.

Usage: .venv/bin/python benchmarks/linkage_cases.py [--seeds 20] [--first 1] [--show-misses]

Each seed is generated and imported as a case (the product's path: CSV exports through
their mappings, each agency's declared date-of-birth format) and linked by `link_contacts`,
the code behind `onrecord link`, with the product's configuration untouched.

Scored pairs:
- attacker: every pair of records that truth or the linkage gives to the attacker (a
  predicted pair counts if either record is his). His records that name nobody (calls
  to the house about "the son") are left out of the truth: the product never links a
  nameless record, by design (docs/warnings.md, "Bad input").
- all people: every named prior-contact record in the case (background people,
  household, namesake).

Beside each seed: how many of the attacker's named records have nothing but a name to
compare with his other records (no date of birth, address or phone that another of his
records also carries; e.g. a tip naming only an account, "jameshendricks"). The
product never links on a name alone (a namesake elsewhere in the county shares it), so
each such record caps recall below 1: a property of the seed's data, not of the model.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

# The pairwise helpers come from the FEBRL benchmark beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from linkage import score  # noqa: E402

TARGET_F1 = 0.98


def pairs_of(groups) -> set[frozenset]:
    out: set[frozenset] = set()
    for group in groups:
        out.update(frozenset(p) for p in itertools.combinations(sorted(set(group)), 2))
    return out


def run_seed(seed: int, work: Path) -> dict:
    from onrecord.scenario.into_case import generate_and_import
    from onrecord.store.reader import open_reader
    from onrecord.warnings.case_linkage import contact_rows, link_contacts

    case = generate_and_import(seed, work)
    truth = json.loads((work / f"scenario-{seed}" / "truth.json").read_text(encoding="utf-8"))
    records = {k: v for k, v in truth["prior_records"].items() if v["named"]}
    attacker = truth["priors"]["attacker"]
    start = time.perf_counter()
    linked = link_contacts(open_reader(case))
    seconds = time.perf_counter() - start
    predicted = pairs_of([[f"{c['file']}#{c['rid']}" for c in p["contacts"]] for p in linked.people])
    people: dict[str, list[str]] = {}
    for key, rec in records.items():
        people.setdefault(rec["person"], []).append(key)
    truth_all = pairs_of(people.values())
    truth_att = pairs_of([people.get(attacker, [])])
    pred_att = {p for p in predicted if any(records.get(k, {}).get("person") == attacker for k in p)}
    pred_named = {p for p in predicted if all(k in records for k in p)}
    table, _ = contact_rows(open_reader(case))
    name_only = _name_only(table, set(people.get(attacker, [])))
    return {"seed": seed, "attacker": score(pred_att, truth_att), "all": score(pred_named, truth_all),
            "attacker_pairs": (pred_att, truth_att), "all_pairs": (pred_named, truth_all),
            "attacker_records": len(people.get(attacker, [])), "name_only": name_only,
            "seconds": seconds, "missed": sorted(tuple(sorted(p)) for p in truth_att - pred_att),
            "wrong": sorted(tuple(sorted(p)) for p in pred_att - truth_att)}


def _name_only(table, keys: set[str]) -> int:
    """Attacker records that share no date of birth, address or phone field with any
    other of his records: against them, he has nothing but a name to compare."""
    fields = ("dob", "address", "phone")
    rows = table.loc[(table["file"] + "#" + table["rid"].astype(str)).isin(keys)]
    has = {f: rows[f].map(lambda v: isinstance(v, str) and bool(v.strip())) if f in rows else
           rows["file"].map(lambda _: False) for f in fields}
    count = 0
    for i in rows.index:
        shared = any(has[f][i] and has[f].drop(i).any() for f in fields)
        count += not shared
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    results = []
    for seed in range(args.first, args.first + args.seeds):
        with tempfile.TemporaryDirectory(prefix="onrecord-linkage-") as tmp:
            r = run_seed(seed, Path(tmp))
        results.append(r)
        (p, rec, f1), (pa, ra, fa) = r["attacker"], r["all"]
        print(f"seed {seed:2}  attacker P {p:.3f} R {rec:.3f} F1 {f1:.3f} "
              f"({len(r['attacker_pairs'][1])} true pairs, {r['attacker_records']} named records, "
              f"{r['name_only']} with only a name to compare)   all people P {pa:.3f} R {ra:.3f} F1 {fa:.3f}   "
              f"link {r['seconds']:.1f} s", flush=True)
        if args.show_misses:
            for a, b in r["missed"][:10]:
                print(f"    missed {a} <-> {b}")
            for a, b in r["wrong"][:10]:
                print(f"    wrong  {a} <-> {b}")
    _summary(results)


def _summary(results: list[dict]) -> None:
    n = len(results)
    print(f"\nover {n} seeds (target: attacker F1 >= {TARGET_F1}):")
    for label, key in (("attacker", "attacker"), ("all people", "all")):
        f1s = [r[key][2] for r in results]
        pred = set().union(*({(r["seed"], p) for p in r[f"{key}_pairs"][0]} for r in results))
        true = set().union(*({(r["seed"], p) for p in r[f"{key}_pairs"][1]} for r in results))
        p, rec, f1 = score(pred, true)
        print(f"  {label:10}  F1 mean {sum(f1s) / n:.4f}  min {min(f1s):.4f}  "
              f"pooled pairs P {p:.4f} R {rec:.4f} F1 {f1:.4f}  "
              f"seeds >= {TARGET_F1}: {sum(f >= TARGET_F1 for f in f1s)}/{n}")
    capped = [r["seed"] for r in results if r["name_only"]]
    print(f"  seeds where some of the attacker's records have only a name to compare: {capped or 'none'}")


if __name__ == "__main__":
    main()

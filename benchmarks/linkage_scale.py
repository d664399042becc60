"""Person linkage at statewide scale: 1,000,000 prior-contact records across the five
agencies of the generated scenario, linked on DuckDB; time, peak memory and F1.

Usage: .venv/bin/python benchmarks/linkage_scale.py [--records 1000000] [--seed 1] [--dir DIR]

1. Generate (not timed): `priors.plan_many_priors` draws the records with known truth
   (background people with one to three contacts each; the attacker, his household and
   his namesake among them), and each agency's writer from the scenario generator
   writes its CSV export in its own dialect (one-field or split names, its own
   date-of-birth format, addresses spelled out or abbreviated, Windows-1252 for the
   schools). Kept in DIR and reused when the same size and seed are asked for again.
2. Link, in a fresh process so its peak memory is its own: read the five CSV files,
   map their columns to person fields as the generated mappings say, `prepare_persons`
   (clean-up, every agency's declared date format), `link_persons` (DuckDB backend,
   the product's configuration). Timed phase by phase; peak RSS of that process.
3. Baseline, measured in the same run on the same files: DuckDB reads the five CSV
   files and links them the naive way (same first name, last name and date of birth
   as written), so the time is read against what this machine does at that moment.

F1 is pairwise over every record against the generator's truth (who each record is).
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

TARGET_SECONDS = 120
TARGET_GB = 8.0
PERSON_KEYS = ("first_name", "middle_name", "last_name", "full_name", "dob", "address", "phone", "id_number")


def generate(folder: Path, n_records: int, seed: int) -> dict:
    """Write the agencies' CSV exports and truth.csv (record -> person); return the manifest."""
    manifest_path = folder / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest["records"] == n_records and manifest["seed"] == seed:
            return manifest
    from onrecord.scenario.generate import tell_story
    from onrecord.scenario.priors import plan_many_priors
    from onrecord.scenario.rng import stream
    from onrecord.scenario.sources.prior_sources import WRITERS

    start = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    story = tell_story(seed)
    world = plan_many_priors(story, stream(seed, "priors-scale"), n_records)
    sources = []
    with (folder / "truth.csv").open("w", newline="", encoding="utf-8") as truth_fh:
        truth = csv.writer(truth_fh, lineterminator="\n")
        truth.writerow(["record", "person"])
        for kind, writer in WRITERS.items():
            contacts = [c for c in world.contacts if c.agency == kind]
            table, rows = writer(story, contacts)
            rid_col = table.header[0]
            with (folder / table.name).open("w", newline="", encoding=table.encoding) as fh:
                out = csv.writer(fh, lineterminator="\n")
                out.writerow(table.header)
                for i, (contact, row) in enumerate(zip(contacts, rows)):
                    row[rid_col] = f"{kind[:2].upper()}{i + 1:07d}"
                    out.writerow([row.get(h, "") for h in table.header])
                    truth.writerow([f"{table.name}#{row[rid_col]}", contact.person])
            attrs = table.mapping["attributes"]
            sources.append({"file": table.name, "agency": table.agency, "encoding": table.encoding,
                            "rid": attrs["rid"], "dob_format": table.mapping["people"]["dob_format"],
                            "columns": {k: v for k, v in attrs.items() if k in PERSON_KEYS},
                            "rows": len(contacts)})
    manifest = {"records": n_records, "seed": seed, "sources": sources,
                "people": len(world.people), "seconds": round(time.perf_counter() - start, 1)}
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def read_sources(folder: Path, manifest: dict):
    """The agencies' rows in the person schema, and each agency's declared dob format."""
    import pandas as pd

    frames, formats = [], {}
    for src in manifest["sources"]:
        raw = pd.read_csv(folder / src["file"], dtype=str, keep_default_na=False, encoding=src["encoding"])
        frame = pd.DataFrame({key: raw[col] for key, col in src["columns"].items()})
        frame.insert(0, "agency", src["agency"])
        frame.insert(0, "record_id", src["file"] + "#" + raw[src["rid"]])
        frames.append(frame)
        formats[src["agency"]] = src["dob_format"]
    return pd.concat(frames, ignore_index=True), formats


def pairwise_f1(clusters, truth) -> tuple[float, float, float]:
    """Pairwise P/R/F1 of (record_id, person_id) clusters against (record, person) truth,
    counted per cluster so no pair list of a million records is ever built."""
    joined = clusters.merge(truth, left_on="record_id", right_on="record")
    pairs = lambda n: n * (n - 1) // 2  # noqa: E731
    predicted = int(pairs(joined.groupby("person_id").size()).sum())
    true = int(pairs(truth.groupby("person").size()).sum())
    correct = int(pairs(joined.groupby(["person_id", "person"]).size()).sum())
    p = correct / predicted if predicted else 0.0
    r = correct / true if true else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def link_phase(folder: Path) -> dict:
    """Run in the child process: read, clean, link, score; phase times and peak RSS."""
    import pandas as pd

    from onrecord.warnings.linkage import link_persons
    from onrecord.warnings.persons import prepare_persons

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    times = {}
    start = time.perf_counter()
    rows, formats = read_sources(folder, manifest)
    times["read"] = time.perf_counter() - start
    mark = time.perf_counter()
    clean, rejects = prepare_persons(rows, date_formats=formats)
    times["prepare"] = time.perf_counter() - mark
    mark = time.perf_counter()
    result = link_persons(clean)
    times["link"] = time.perf_counter() - mark
    times["total"] = time.perf_counter() - start
    truth = pd.read_csv(folder / "truth.csv", dtype=str)
    p, r, f1 = pairwise_f1(result.clusters, truth)
    return {"times": times, "precision": p, "recall": r, "f1": f1, "records": len(rows),
            "linked_records": len(clean), "rejects": len(rejects), "scored_pairs": len(result.pairs),
            "notes": result.training_notes,
            "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}


def naive_baseline(folder: Path, manifest: dict) -> dict:
    """DuckDB reads the same files and links on exact first, last name and dob as written."""
    import duckdb
    import pandas as pd

    start = time.perf_counter()
    con = duckdb.connect()
    rows, _ = read_sources(folder, manifest)  # same reading as the product's run
    con.register("rows", rows)
    clusters = con.execute("""
        select record_id, lower(coalesce(first_name, '') || '|' || coalesce(last_name, '') || '|'
               || coalesce(full_name, '') || '|' || dob) as person_id
        from rows where dob <> ''
        union all select record_id, record_id from rows where dob = ''
    """).df()
    seconds = time.perf_counter() - start
    truth = pd.read_csv(folder / "truth.csv", dtype=str)
    p, r, f1 = pairwise_f1(clusters, truth)
    return {"seconds": seconds, "precision": p, "recall": r, "f1": f1}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/onrecord-linkage-scale"))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.dir / f"{args.records}-{args.seed}"
    if args.child:
        print(json.dumps(link_phase(folder)))
        return
    manifest = generate(folder, args.records, args.seed)
    per_agency = ", ".join(f"{s['file']} {s['rows']:,}" for s in manifest["sources"])
    print(f"{manifest['records']:,} prior-contact records of {manifest['people']:,} people "
          f"(generated in {manifest['seconds']} s): {per_agency}")
    base = naive_baseline(folder, manifest)
    child = subprocess.run([sys.executable, __file__, "--records", str(args.records), "--seed", str(args.seed),
                            "--dir", str(args.dir), "--child"], capture_output=True, text=True, check=True)
    run = json.loads(child.stdout.strip().splitlines()[-1])
    base_after = naive_baseline(folder, manifest)
    t = run["times"]
    print(f"onrecord link (DuckDB): total {t['total']:.1f} s  [read {t['read']:.1f} s, clean-up "
          f"{t['prepare']:.1f} s, Splink train+predict+cluster {t['link']:.1f} s]  "
          f"peak RSS {run['peak_rss_gb']:.2f} GB")
    print(f"  pairwise P {run['precision']:.4f}  R {run['recall']:.4f}  F1 {run['f1']:.4f}  "
          f"({run['linked_records']:,} records linked, {run['rejects']:,} values reported, "
          f"{run['scored_pairs']:,} pairs kept)")
    for note in run["notes"]:
        print(f"  note: {note}")
    print(f"baseline: DuckDB read + exact name/dob link: {base['seconds']:.1f} s before, "
          f"{base_after['seconds']:.1f} s after  (P {base['precision']:.4f}  R {base['recall']:.4f}  "
          f"F1 {base['f1']:.4f})")
    ratio = t["total"] / ((base["seconds"] + base_after["seconds"]) / 2)
    print(f"  onrecord / baseline time: {ratio:.1f}x")
    print(f"targets: time <= {TARGET_SECONDS} s: {'met' if t['total'] <= TARGET_SECONDS else 'NOT met'}; "
          f"memory <= {TARGET_GB} GB: {'met' if run['peak_rss_gb'] <= TARGET_GB else 'NOT met'}")


if __name__ == "__main__":
    main()

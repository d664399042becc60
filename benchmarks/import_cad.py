"""Import speed: `onrecord import` of a 1,000,000-row CAD export into the SQLite store,
beside DuckDB's read_csv of the same file into a table, in the same run.

Target (issue 2): import <= 3x the DuckDB time, raw rows + events + hash chain included.
Run: .venv/bin/python benchmarks/import_cad.py [--rows N] [--repeat K]

Each side runs K times (default 3), alternating, and the medians are compared: DuckDB's
time swings by several times on a shared 2-core machine, the ratio of one run each is noise.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path

MAPPING = """
[mapping]
name = "bench-county-cad"
description = "Benchmark county (fictional) dispatch, one row per unit, three times"
source_kind = "cad"
agency = "BCSO"
timezone = "America/Chicago"
layout = "row-per-unit"
# the generator steps wall-clock times through 9 March 2025, so a few fall in the hour
# the clocks skipped: read them with the new offset (noted) rather than refuse the file
dst_gap = "new_offset"

[file]
required = ["CallNumber", "UnitID"]

[fields]
call = "CallNumber"
unit = "UnitID"
text = "CallType"
place = "Address"

[attributes]
priority = "Priority"

[[events]]
kind = "unit_dispatched"
time = "Dispatched"
format = "%m/%d/%Y %I:%M:%S %p"

[[events]]
kind = "unit_enroute"
time = "Enroute"
format = "%m/%d/%Y %I:%M:%S %p"

[[events]]
kind = "unit_arrived"
time = "Arrived"
format = "%m/%d/%Y %I:%M:%S %p"
optional = true
"""

STREETS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Gum", "Hazel", "Juniper", "Larch"]
TYPES = ["Medical Incident", "Traffic Collision", "Alarm", "Welfare Check", "Structure Fire", "Disturbance"]


def generate(path: Path, rows: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    base = datetime(2025, 1, 1)
    fmt = "%m/%d/%Y %I:%M:%S %p"
    with path.open("w", newline="") as fh:
        fh.write("CallNumber,UnitID,CallType,Address,Priority,Dispatched,Enroute,Arrived\n")
        for i in range(rows):
            d = base + timedelta(seconds=i * 31 + rnd.randint(0, 30))
            e = d + timedelta(seconds=rnd.randint(5, 90))
            a = e + timedelta(seconds=rnd.randint(60, 900))
            arrived = a.strftime(fmt) if rnd.random() > 0.05 else ""
            fh.write(f"{25_000_000 + i // 3},U{rnd.randint(1, 400)},{rnd.choice(TYPES)},"
                     f"{rnd.randint(1, 9999)} {rnd.choice(STREETS)} St,{rnd.randint(1, 5)},"
                     f"{d.strftime(fmt)},{e.strftime(fmt)},{arrived}\n")


def time_duckdb(csv: Path, work: Path) -> float:
    import duckdb

    work.mkdir(parents=True, exist_ok=True)
    db = work / "baseline.duckdb"
    start = time.perf_counter()
    con = duckdb.connect(str(db))
    con.execute(f"CREATE TABLE calls AS SELECT * FROM read_csv('{csv}')")
    con.close()
    took = time.perf_counter() - start
    shutil.rmtree(work)
    return took


def time_import(csv: Path, mapping: Path, work: Path) -> float:
    onrecord = [sys.executable, "-m", "onrecord.cli"]
    case = work / "case"
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run([*onrecord, "init", str(case)], check=True, capture_output=True)
    start = time.perf_counter()
    subprocess.run([*onrecord, "import", str(case), str(csv), "--mapping", str(mapping)], check=True)
    took = time.perf_counter() - start
    shutil.rmtree(work)  # a million-row case is ~0.5 GB
    return took


def time_sqlite_floor(csv: Path, mapping: Path, work: Path) -> float:
    """What SQLite alone needs for the same rows: the import's own raw-record and event
    tables, already parsed, hashed and in Arrow, handed to SQLite's C API (ADBC) inside
    one transaction on a new case, indexes built afterwards. No parsing, hashing or
    Python in the timed part: a floor under any import into this store."""
    from onrecord.sources.mapping import load_mapping
    from onrecord.sources.registry import ADAPTERS
    from onrecord.store.adbc import adbc_cursor, all_rows
    from onrecord.store.bulk import sqlite_indexes_dropped
    from onrecord.store.case import init_case
    from onrecord.store.evidence import record_hashes
    from onrecord.store.writer import Batch, SourceMeta

    m = load_mapping(str(mapping))
    parsed = ADAPTERS[m.format](csv.read_bytes(), m, str(csv), None, None)
    meta = SourceMeta("cad", "BCSO", csv.name, "-", m.name, "", None, 0)
    batch = Batch(meta, parsed.records.raws, parsed.records.ordinals, record_hashes(parsed.records.raws), parsed.events)
    raw, ev, _ = batch.tables(1, 1, (0, bytes(32)), 1, 1)
    case = init_case(work / "case")
    with adbc_cursor(case, autocommit=True) as cur:
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA cache_size=-262144")
        start = time.perf_counter()
        cur.execute("BEGIN IMMEDIATE")
        with sqlite_indexes_dropped(partial(all_rows, cur), cur.execute, ("raw_records", "events")):
            cur.adbc_ingest("raw_records", raw, mode="append")
            cur.adbc_ingest("events", ev, mode="append")
        cur.execute("COMMIT")
        took = time.perf_counter() - start
    shutil.rmtree(work)
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="onrecord-bench-"))
    try:
        csv, mapping = work / "county-cad.csv", work / "bench.toml"
        mapping.write_text(MAPPING)
        generate(csv, args.rows)
        size = csv.stat().st_size / 1e6
        ducks, imports, floors = [], [], []
        for i in range(args.repeat):
            ducks.append(time_duckdb(csv, work / f"duck{i}"))
            imports.append(time_import(csv, mapping, work / f"import{i}"))
            floors.append(time_sqlite_floor(csv, mapping, work / f"floor{i}"))
        duck, ours, floor = statistics.median(ducks), statistics.median(imports), statistics.median(floors)
        print(f"rows: {args.rows:,} ({size:.0f} MB, one row per unit, three time columns)")
        print(f"runs: DuckDB {', '.join(f'{t:.2f}' for t in ducks)} s; "
              f"onrecord {', '.join(f'{t:.2f}' for t in imports)} s")
        print(f"baseline  DuckDB read_csv into a table: {duck:7.2f} s (median)")
        print(f"onrecord import into SQLite (raw rows, events, hash chain): {ours:7.2f} s (median) "
              f"= {args.rows / ours:,.0f} rows/s")
        print(f"ratio import / DuckDB: {ours / duck:.2f}x (target <= 3x)")
        print(f"floor: SQLite writing the same rows from Arrow, nothing else: {floor:.2f} s (median) "
              f"= {floor / duck:.2f}x DuckDB; the import spends {ours - floor:.2f} s on the rest "
              f"(reading, parsing, hashing, process start)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Build speed and timeline window queries on a large case.

A generated incident, made denser with the responding vehicles' location fixes (default
100,000: the issue's 100,000 incident-related events), plus N background calls for service
over the year before (default 1,000,000 calls, about 2.9 million events) is imported, then
built; the build time is printed beside the import time of the same case, measured
in the same run (target: build <= 2x import). Then random 15-minute windows of the
timeline are queried (`onrecord timeline --from/--to`, first 500 rows): p95 target <= 50 ms
on SQLite and, with --postgres URL, on PostgreSQL.

Run: .venv/bin/python benchmarks/build.py [--background N] [--incident N] [--postgres postgresql://postgres@127.0.0.1/postgres]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, func, select, text

from onrecord.findings.compute import compute_findings
from onrecord.reconstruct.build import reconstruct
from onrecord.reconstruct.write import write_reconstruction
from onrecord.scenario.generate import generate_case
from onrecord.scenario.into_case import import_scenario
from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.reader import open_reader
from onrecord.store.schema import aligned_events


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def window_p95(case, windows: int = 200) -> tuple[float, float]:
    reader = open_reader(case)
    with case.engine.connect() as conn:
        lo, hi = conn.execute(select(func.min(aligned_events.c.t_lo), func.max(aligned_events.c.t_lo))
                              .where(aligned_events.c.case_id == case.id)).one()
    rnd = random.Random(5)
    times = []
    for _ in range(windows):
        start = rnd.randint(lo, max(lo, hi - 900_000))
        t0 = time.perf_counter()
        reader.timeline(TimelineQuery(t_from=start, t_to=start + 900_000, limit=500))
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return times[int(0.95 * len(times)) - 1], statistics.median(times)


def _reconstructed(case):
    """The build up to its write: the reconstruction and its findings (pipeline.build_case)."""
    r = reconstruct(open_reader(case))
    r.findings, r.claims = compute_findings(r)
    return r


def run(scenario: Path, case_dir: Path, url: str | None, label: str) -> None:
    case, t_import = timed(lambda: import_scenario(scenario, case_dir, url))
    with case.engine.connect() as conn:
        n = conn.execute(text("select count(*) from events where case_id = :c"), {"c": case.id}).scalar()
        bg = conn.execute(text("select count(*) from events e join sources s on s.id = e.source_id "
                               "where e.case_id = :c and s.file_name = 'county_cfs_year.csv'"), {"c": case.id}).scalar()
    r, t_recon = timed(lambda: _reconstructed(case))
    _, t_write = timed(lambda: write_reconstruction(case, r))
    t_build = t_recon + t_write
    print(f"[{label}] events: {n:,} ({n - bg:,} of the incident, {bg:,} of the background year)")
    print(f"[{label}] baseline  import of the case: {t_import:7.1f} s")
    print(f"[{label}] onrecord build: {t_build:7.1f} s (reconstruct {t_recon:.1f} s, write {t_write:.1f} s) "
          f"= {t_build / t_import:.2f}x import (target <= 2x)")
    p95, p50 = window_p95(case)
    print(f"[{label}] timeline 15-minute window, first 500 rows: p95 {p95:.1f} ms, median {p50:.1f} ms "
          "(target p95 <= 50 ms)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--background", type=int, default=1_000_000)
    ap.add_argument("--incident", type=int, default=100_000, help="the responding vehicles' location fixes")
    ap.add_argument("--postgres", help="server URL; a scratch database is created and dropped")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _, t_gen = timed(lambda: generate_case(1, work / "scenario", args.background, args.incident))
        print(f"generated seed 1 with {args.incident:,} incident location fixes and {args.background:,} "
              f"background calls in {t_gen:.1f} s")
        run(work / "scenario", work / "case-sqlite", None, "SQLite")
        if args.postgres:
            admin = create_engine(args.postgres.replace("postgresql://", "postgresql+psycopg://"),
                                  isolation_level="AUTOCOMMIT")
            name = f"onrecord_bench_{uuid.uuid4().hex[:8]}"
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            try:
                run(work / "scenario", work / "case-pg", args.postgres.rsplit("/", 1)[0] + "/" + name, "PostgreSQL")
            finally:
                with admin.connect() as conn:
                    conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      f"WHERE datname = '{name}'"))
                    conn.execute(text(f'DROP DATABASE "{name}"'))


if __name__ == "__main__":
    main()

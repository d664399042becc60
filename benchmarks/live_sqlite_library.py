"""What writing live batches costs through Python's sqlite3 (store/python_sqlite.py, what
`onrecord live` uses since its board reads accounts and the audit beside the ingest) against
ADBC's SQLite driver (before): the process's CPU time per frame, which does not depend on
how busy the rest of the machine is, and the wall time per batch, which does.

Each run: a new SQLite case, one webhook feed, `--batches` batches of `--frames` frames of
the onrecord event JSON through IngestNode.accept (onto the chain, read, events stored,
the search index refreshed, committed, acknowledged) — the ingest's own path, without the
rules or the stream.

Run: .venv/bin/python benchmarks/live_sqlite_library.py [--frames 20,2000] [--batches 200,10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.store import engine as engines
from onrecord.store.case import init_case


def frames(n: int, start: int) -> list[bytes]:
    now = datetime.now(timezone.utc).isoformat()
    return [json.dumps({"kind": "shots_detected", "time": now, "agency": "NCSO", "text": "shot detected",
                        "attrs": {"seq": start + i}}).encode() for i in range(n)]


def run(library: str, per_batch: int, batches: int) -> tuple[float, float]:
    """(CPU ms a frame, wall ms a batch, median)."""
    engines.one_library = library == "python"
    case = init_case(Path(tempfile.mkdtemp(prefix="onrecord-live-lib-")) / "case")
    ingest = IngestNode(case, UnitDirectory(), LiveClocks({}, {}))
    ingest.linger_s = 0.0  # a batch is exactly the frames handed over together
    feed = ingest.open_feed(FeedSpec(name="sensors", type="webhook"))
    work = [frames(per_batch, k * per_batch) for k in range(batches)]
    ingest.accept(feed, frames(1, -1))  # the writer thread started, the case's pages read once
    walls, cpu = [], time.process_time()
    for batch in work:
        t = time.perf_counter()
        ingest.accept(feed, batch)
        walls.append(time.perf_counter() - t)
    cpu = time.process_time() - cpu
    ingest.close()
    return cpu * 1000 / (per_batch * batches), statistics.median(walls) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", default="20,2000", help="frames a batch, one run each")
    ap.add_argument("--batches", default="200,10", help="batches of each run")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each library, alternating")
    a = ap.parse_args()
    for per_batch, batches in zip((int(x) for x in a.frames.split(",")), (int(x) for x in a.batches.split(","))):
        got: dict[str, list] = {"adbc": [], "python": []}
        for _ in range(a.repeat):
            for library in got:
                got[library].append(run(library, per_batch, batches))
        line = [f"{per_batch} frames a batch, {batches} batches:"]
        for library, runs in got.items():
            cpu = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            line.append(f"{'sqlite3' if library == 'python' else 'ADBC (baseline)'} CPU {cpu:.3f} ms a frame, "
                        f"wall {wall:.1f} ms a batch")
        print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()

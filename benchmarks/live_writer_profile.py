"""CPU of the ingest writer alone, a frame at a fixed batch (issue 18): `--batches` batches of
`--batch` shot frames through IngestNode._commit (the chain, the reading, the events, the
commit), no stream, no rules, no load generator; optionally under cProfile.

Run: PYTHONPATH=src:. .venv/bin/python benchmarks/live_writer_profile.py [--batch 2000] [--batches 20] [--profile]
     [--sqlite-library python|adbc]   (python, the default: as `onrecord live` writes)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path

from benchmarks.live import shot
from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.store.case import init_case


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=2000)
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--sqlite-library", choices=("python", "adbc"), default="python",
                    help="python: the store through sqlite3 only, as `onrecord live` writes (benchmarks/live.py's "
                         "default); adbc: through ADBC")
    a = ap.parse_args()
    if a.sqlite_library == "python":
        from onrecord.store.engine import one_sqlite_library

        one_sqlite_library()
    case = init_case(Path(tempfile.mkdtemp(prefix="onrecord-writer-")) / "case")
    node = IngestNode(case, UnitDirectory(), LiveClocks())
    feed = node.open_feed(FeedSpec("bench", "webhook", max_rate=1e9))
    seq = 0

    def batch():
        nonlocal seq
        out = []
        for _ in range(a.batch):
            out.append((feed, [shot(seq, time.time() * 1000)], Future()))
            seq += 1
        return out

    node._commit(batch())  # warm: statements compiled, the index current
    work = [batch() for _ in range(a.batches)]
    prof = cProfile.Profile() if a.profile else None
    cpu0, t0 = time.process_time(), time.monotonic()
    if prof:
        prof.enable()
    for b in work:
        node._commit(b)
        node._receipts_step([feed])
    if prof:
        prof.disable()
    cpu, wall = time.process_time() - cpu0, time.monotonic() - t0
    n = a.batch * a.batches
    library = "sqlite3" if a.sqlite_library == "python" else "ADBC"
    print(f"writer alone ({library}): {n} frames in {a.batches} batches of {a.batch}: "
          f"CPU {cpu * 1000 / n:.3f} ms a frame, "
          f"wall {wall * 1000 / n:.3f} ms a frame", flush=True)
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()

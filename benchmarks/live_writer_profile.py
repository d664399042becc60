"""CPU of the ingest writer alone, a frame at a fixed batch (issue 18): `--batches` batches of
`--batch` shot frames through IngestNode._commit (the chain, the reading, the events, the
commit), no stream, no load generator; with `--rules`, each batch's events then through the
rule node of `onrecord live` (the holding-outside rule, the board, the alert log), as the
embedded path hands them over; optionally under cProfile. CPU a frame by part, at a batch
size fixed (benchmarks/live.py's batches follow the machine's load: 13-30 frames quiet,
2,000 backlogged), so that a change is measured apart from the load.

Run: PYTHONPATH=src:. .venv/bin/python benchmarks/live_writer_profile.py [--batch 2000] [--batches 20] [--profile]
     [--rules] [--sqlite-library python|adbc]   (python, the default: as `onrecord live` writes)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path

from benchmarks.live import frame, rule_node, shot
from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.store.case import init_case


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=2000)
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--rules", action="store_true", help="each batch's events through the rule node too")
    ap.add_argument("--callers", default=None, help="with --profile: who calls the functions matching this")
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
    apply = rule_node(case.path, True) if a.rules else None
    rules_cpu = 0.0

    def to_rules(results) -> None:
        nonlocal rules_cpu
        t = time.process_time()
        for outs in results:
            for o in outs:
                for ev in o.events:
                    apply(ev, time.time() * 1000)
        rules_cpu += time.process_time() - t

    def batch():
        nonlocal seq
        out = []
        for _ in range(a.batch):
            out.append((feed, [shot(seq, time.time() * 1000)], Future()))
            seq += 1
        return out

    held = node._commit([(feed, [frame("unit_arrived", "12A4", 70), frame("shots_detected", None, 65)], Future())])
    if apply:  # a unit on scene and shots for a minute: every shot measured updates the holding alert
        to_rules(held[0])
    to_rules(node._commit(batch())[0]) if apply else node._commit(batch())  # warm: statements compiled
    work = [batch() for _ in range(a.batches)]
    prof = cProfile.Profile(time.thread_time) if a.profile else None  # CPU, not waits (fsync)
    cpu0, t0 = time.process_time(), time.monotonic()
    if prof:
        prof.enable()
    rules_cpu = 0.0
    for b in work:
        results, _ = node._commit(b)
        if apply:
            to_rules(results)
        node._receipts_step([feed])
    if prof:
        prof.disable()
    cpu, wall = time.process_time() - cpu0, time.monotonic() - t0
    n = a.batch * a.batches
    library = "sqlite3" if a.sqlite_library == "python" else "ADBC"
    who = "writer and rule node" if apply else "writer alone"
    print(f"{who} ({library}): {n} frames in {a.batches} batches of {a.batch}: "
          f"CPU {cpu * 1000 / n:.3f} ms a frame, "
          f"wall {wall * 1000 / n:.3f} ms a frame" + (f"; of the CPU, the rule node {rules_cpu * 1000 / n:.3f} ms, "
                                                       f"the writer {(cpu - rules_cpu) * 1000 / n:.3f} ms"
                                                       if apply else ""), flush=True)
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        if a.callers:
            pstats.Stats(prof).print_callers(a.callers)


if __name__ == "__main__":
    main()

"""The alert log and webhooks' cost a change (live/outbox.py), for the holding alert updated
by every shot: the outbox of `--against` (a file: e.g. main's live/outbox.py) and this one,
back to back on the same changes, each into its own new case folder. Baseline, same run: the
engine making the changes.

Run: .venv/bin/python benchmarks/live_outbox.py [--shots 2000] [--against PATH/TO/outbox.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

from onrecord.live import outbox as this_outbox
from onrecord.live.engine import Change
from tests.live.helpers import engine, ev


def changes(n: int) -> tuple[list[Change], float]:
    """A unit on scene, then `n` shots 50 ms apart: a fire, then an update a shot. And the
    engine's own time a shot."""
    e = engine(["armed_unit_holding_outside"])
    evs = [ev("unit_arrived", 0, "12A4")] + [ev("shots_detected", 1 + i * 0.05, agency="SCHOOL") for i in range(n)]
    out, t = [], time.perf_counter()
    for x in evs:
        out += e.apply(x)
    return out, (time.perf_counter() - t) / n


def per_change(module, cs: list[Change]) -> float:
    box = module.Outbox(Path(tempfile.mkdtemp(prefix="onrecord-outbox-")), "bench", ZoneInfo("UTC"))
    t = time.perf_counter()
    for c in cs:
        box.send(c)
    took = (time.perf_counter() - t) / len(cs)
    if hasattr(box, "close"):
        box.close()
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", type=int, default=2000)
    ap.add_argument("--against", type=Path, help="another outbox.py to measure beside this one")
    a = ap.parse_args()
    cs, engine_s = changes(a.shots)
    print(f"{len(cs)} alert changes ({sum(c.action == 'update' for c in cs)} updates); the engine: "
          f"{engine_s * 1000:.3f} ms a shot (baseline)")
    if a.against:
        spec = importlib.util.spec_from_file_location("outbox_against", a.against)
        other = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(other)
        s = per_change(other, cs)
        print(f"  {str(a.against):>40}: {s * 1000:.3f} ms a change ({s / engine_s:.1f}x the engine's shot)")
    s = per_change(this_outbox, cs)
    print(f"  {'this outbox':>40}: {s * 1000:.3f} ms a change ({s / engine_s:.1f}x the engine's shot)")


if __name__ == "__main__":
    main()

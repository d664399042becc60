"""N location pings from the city police and fire vehicles that answered the incident,
for scale runs: a dense, incident-related feed (fleet telematics report about once a
second), as the build benchmark asks for 100,000 incident-related events beside a year
of other calls. Each vehicle is written by its unit id, as such fleet systems label
them; its position follows its run (start, drive, staging point) like the county AVL.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from onrecord.scenario import mappings
from onrecord.scenario.sources.common import mapping_doc
from onrecord.scenario.sources.devices import _where
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

HEADER = ["FixId", "Unit", "FixTimeUtcMs", "Lat", "Lon", "SpeedMph"]
BEFORE_S, AFTER_S = 300, 2700  # the window the county AVL covers too


def feed_mapping(story: Story) -> dict:
    w = story.world
    return mapping_doc("city-fleet-telematics", "avl", w.police, "UTC",
                       f"{w.agencies[w.police].name} and {w.agencies[w.fire].name} fleet telematics, one row per fix",
                       {"unit": "Unit", "lat": "Lat", "lon": "Lon"}, {"rid": "FixId", "speed": "SpeedMph"},
                       [{"kind": "unit_position", "time": "FixTimeUtcMs", "format": "epoch_ms"}],
                       required=["FixId", "Unit", "FixTimeUtcMs"],
                       clock={"trust": "reference", "uncertainty_s": 0.1})  # GPS-timed, as the vendor states


def write_incident_feed(story: Story, root: Path, seed: int, n: int, book: TruthBook) -> dict:
    began = time.perf_counter()
    w = story.world
    units = [w.unit(uid) for uid in sorted(story.runs) if w.unit(uid).agency in (w.police, w.fire)]
    rng = np.random.default_rng([seed, 11])
    start, end = story.t0 - BEFORE_S, story.t0 + AFTER_S
    who = rng.integers(0, len(units), n)
    at = np.sort(rng.uniform(start, end, n))
    jitter = rng.normal(0, 0.00003, (n, 2))
    folder = root / "incident"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "city_fleet_fixes.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(HEADER) + "\n")
        for i, (k, t) in enumerate(zip(who.tolist(), at.tolist())):
            u = units[k]
            lat, lon, mph = _where(story.runs[u.uid], t)
            fh.write(f"F{i + 1:08d},{u.cad_id},{int(round(t * 1000))},{lat + jitter[i, 0]:.6f},"
                     f"{lon + jitter[i, 1]:.6f},{mph:.0f}\n")
    path.with_suffix(".toml").write_text(mappings.dump(feed_mapping(story)), encoding="utf-8")
    book.source(path.name, kind="avl", agency=w.police, path=f"incident/{path.name}",
                mapping=f"incident/{path.with_suffix('.toml').name}", timezone="UTC",
                clock_offset_s=None, rid_attribute="rid", rows=n,
                dialect="one row per fix; epoch milliseconds UTC; vehicles by unit id; for scale runs")
    info = {"file": f"incident/{path.name}", "mapping": f"incident/{path.with_suffix('.toml').name}", "rows": n,
            "units": len(units), "seconds": round(time.perf_counter() - began, 2)}
    book.sections["incident_feed"] = {k: v for k, v in info.items() if k != "seconds"} | {
        "note": "scale runs only: positions, no truth records"}
    return info

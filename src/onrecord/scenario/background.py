"""N unrelated calls for service across the county's year before the incident, for
scale runs. Streamed to disk in chunks: memory stays flat whether N is 1,000 or
1,000,000, and each chunk draws from its own seeded stream, so the bytes do not depend
on the chunk being written after another.
"""

from __future__ import annotations

import bisect
import time
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

from onrecord.scenario import mappings
from onrecord.scenario.sources.common import mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook
from onrecord.scenario.world import STREET_TYPES, STREETS
from onrecord.scenario.written_times import utc_iso

CHUNK = 50_000
FMT = "%Y%m%d%H%M%S"
HEADER = ["CFS_ID", "RECEIVED", "DISPATCHED", "ONSCENE", "CLEARED", "NATURE", "ADDRESS", "BEAT", "UNIT", "PRIORITY"]
NATURES = ["TRAFFIC STOP", "ALARM BURGLARY", "SUSPICIOUS PERSON", "NOISE COMPLAINT", "TRAFFIC CRASH",
           "WELFARE CHECK", "DOMESTIC DISTURBANCE", "THEFT REPORT", "MEDICAL ASSIST", "TRESPASS",
           "ANIMAL COMPLAINT", "FRAUD REPORT", "VANDALISM", "MISSING PERSON", "SHOPLIFTING"]
NATURE_WEIGHTS = np.array([20, 12, 9, 8, 8, 8, 6, 6, 5, 4, 4, 3, 3, 2, 2], dtype=float)


@lru_cache(maxsize=1)
def _hms() -> list[str]:
    return [f"{s // 3600:02d}{s % 3600 // 60:02d}{s % 60:02d}" for s in range(86400)]


class LocalClock:
    """Epoch seconds -> local 'YYYYMMDDHHMMSS' fast: the zone's offset changes only at
    DST transitions, found once by scanning the year hour by hour."""

    def __init__(self, tz: str, start: float, end: float):
        zone = ZoneInfo(tz)
        self.edges, self.offsets, last = [], [], None
        for t in range(int(start) - 7200, int(end) + 7200, 3600):
            off = datetime.fromtimestamp(t, zone).utcoffset().total_seconds()
            if off != last:
                self.edges.append(t)
                self.offsets.append(int(off))
                last = off
        self.days: dict[int, str] = {}
        self.edges_np, self.offsets_np = np.array(self.edges), np.array(self.offsets)

    def day(self, day: int) -> str:
        if day not in self.days:
            self.days[day] = (datetime(1970, 1, 1) + timedelta(days=day)).strftime("%Y%m%d")
        return self.days[day]

    def texts(self, t: np.ndarray) -> list[str]:
        """The same as `text`, a whole column at once (the background's hot loop)."""
        idx = np.maximum(np.searchsorted(self.edges_np, t, side="right") - 1, 0)
        day, sec = np.divmod(t + self.offsets_np[idx], 86400)
        hms = _hms()
        return [self.day(d) + hms[x] for d, x in zip(day.tolist(), sec.tolist())]

    def text(self, t: int) -> str:
        local = t + self.offsets[max(0, bisect.bisect_right(self.edges, t) - 1)]
        day, sec = divmod(local, 86400)
        if day not in self.days:
            self.days[day] = (datetime(1970, 1, 1) + timedelta(days=day)).strftime("%Y%m%d")
        return f"{self.days[day]}{sec // 3600:02d}{sec % 3600 // 60:02d}{sec % 60:02d}"


def background_mapping(story: Story) -> dict:
    w = story.world
    ev = [{"kind": "call_received", "time": "RECEIVED", "format": FMT, "unit": False},
          {"kind": "unit_dispatched", "time": "DISPATCHED", "format": FMT, "optional": True},
          {"kind": "unit_arrived", "time": "ONSCENE", "format": FMT, "optional": True}]
    return mapping_doc("county-cfs-history", "cad", w.sheriff, w.tz,
                       f"{w.agencies[w.sheriff].name} calls for service, a year, one row per call",
                       {"call": "CFS_ID", "unit": "UNIT", "place": "ADDRESS", "text": "NATURE"},
                       {"rid": "CFS_ID", "beat": "BEAT", "priority": "PRIORITY", "cleared": "CLEARED"}, ev,
                       required=["CFS_ID", "RECEIVED"])


def _chunk_lines(seed: int, c: int, a: int, b: int, start: float, step: float, clock: LocalClock,
                 units: list[str]) -> str:
    rng = np.random.default_rng([seed, 7, c])  # one stream per chunk
    n = b - a
    t = (start + (np.arange(a, b) + rng.random(n)) * step).astype(np.int64)
    disp = t + 20 + rng.exponential(90, n).astype(np.int64)
    onscene = disp + 60 + rng.exponential(420, n).astype(np.int64)
    cleared = onscene + 120 + rng.exponential(1800, n).astype(np.int64)
    arrived = rng.random(n) > 0.08
    nature = rng.choice(len(NATURES), n, p=NATURE_WEIGHTS / NATURE_WEIGHTS.sum())
    number, street, stype = (rng.integers(100, 9900, n), rng.integers(0, len(STREETS), n),
                             rng.integers(0, len(STREET_TYPES), n))
    beat, unit, prio = rng.integers(1, 25, n), rng.integers(0, len(units), n), rng.integers(1, 5, n)
    received, dispatched = clock.texts(t), clock.texts(disp)
    on_scene, cleared = clock.texts(onscene), clock.texts(cleared)
    natures = [NATURES[k] for k in nature.tolist()]
    places = [f"{a} {STREETS[b].upper()} {STREET_TYPES[c].upper()}"
              for a, b, c in zip(number.tolist(), street.tolist(), stype.tolist())]
    lines = [f"BG{a + i + 1:07d},{received[i]},{dispatched[i]},{on_scene[i] if arrived[i] else ''},{cleared[i]},"
             f"{natures[i]},{places[i]},B{beat[i]:02d},{units[unit[i]]},{prio[i]}\n" for i in range(n)]
    return "".join(lines)


def write_background(story: Story, root: Path, seed: int, n: int, book: TruthBook) -> dict:
    began = time.perf_counter()
    folder = root / "background"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "county_cfs_year.csv"
    end = story.t0 - 86400
    start = end - 365 * 86400
    step, clock = (end - start) / n, LocalClock(story.world.tz, start, end)
    units = [f"{d}{beat}{k:02d}" for d in (11, 12, 13, 14) for beat in "ABCD" for k in range(1, 6)]
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(HEADER) + "\n")
        for c, a in enumerate(range(0, n, CHUNK)):
            fh.write(_chunk_lines(seed, c, a, min(n, a + CHUNK), start, step, clock, units))
    m = background_mapping(story)
    path.with_suffix(".toml").write_text(mappings.dump(m), encoding="utf-8")
    seconds = time.perf_counter() - began
    book.source(path.name, kind="cad", agency=story.world.sheriff, path=f"background/{path.name}",
                mapping=f"background/{path.with_suffix('.toml').name}", timezone=story.world.tz,
                clock_offset_s=None, rid_attribute="rid", rows=n,
                dialect="one row per call; local YYYYMMDDHHMMSS, no separators; unrelated to the incident")
    info = {"file": f"background/{path.name}", "mapping": f"background/{path.with_suffix('.toml').name}",
            "rows": n, "from": utc_iso(start, ms=False), "to": utc_iso(end, ms=False), "seconds": round(seconds, 2)}
    book.sections["background"] = {k: v for k, v in info.items() if k != "seconds"} | {
        "note": "unrelated calls: no truth records; none is the same event as an incident record"}
    return info

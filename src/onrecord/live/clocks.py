"""Live events on the common clock with the clocks known so far: a feed's clock is the
one the last build estimated or a user pinned for a source it shares a clock with
(`clock_of`), or its own pinned offset; else unknown (±5 minutes, said so) until shared
moments arrive — the same unit's arrival in a feed of known clock and in this one — and
refine it: the median of those differences, its spread as the uncertainty."""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S

SHARED_WITHIN_MS = 600_000  # two records of one moment are minutes apart at most
SAMPLES_NEEDED = 3


@dataclass
class Clock:
    status: str  # reference / estimated / pinned / unknown
    offset_s: float = 0.0  # how far it runs ahead of true time
    uncertainty_s: float = UNKNOWN_UNCERTAINTY_S
    samples: list[float] = field(default_factory=list)


class LiveClocks:
    def __init__(self, estimates: dict[int, dict] | None = None, names: dict[str, int] | None = None):
        self.clocks: dict[int, Clock] = {}
        for sid, e in (estimates or {}).items():
            if e.get("offset_s") is not None:
                self.clocks[sid] = Clock(e["status"], float(e["offset_s"]), float(e.get("uncertainty_s") or 0.0))
        self.names = names or {}
        self.moments: dict[tuple, int] = {}  # (what, unit) -> its time, from a clock known

    def bind(self, source_id: int, clock_of: str | None = None, offset_s: float | None = None) -> Clock:
        if offset_s is not None:
            c = Clock("pinned", float(offset_s), 0.0)
        elif clock_of and self.names.get(clock_of) in self.clocks:
            known = self.clocks[self.names[clock_of]]
            c = Clock(known.status, known.offset_s, known.uncertainty_s)
        else:
            c = self.clocks.get(source_id) or Clock("unknown")
        self.clocks[source_id] = c
        return c

    def clock(self, source_id: int) -> Clock:
        c = self.clocks.get(source_id)  # asked of every event: no Clock made unless it is new
        if c is None:
            c = self.clocks[source_id] = Clock("unknown")
        return c

    def align(self, source_id: int, lo: int | None, hi: int | None) -> tuple[int | None, int | None, str]:
        c = self.clock(source_id)
        if lo is None:
            return None, None, c.status
        hi = lo if hi is None else hi
        shift, unc = c.offset_s * 1000, c.uncertainty_s * 1000
        return int(round(lo - shift - unc)), int(round(hi - shift + unc)), c.status

    def learn(self, source_id: int, key: tuple, t_src: int, t_aligned: int) -> bool:
        """A moment seen by `source_id`; True when it refined that source's clock."""
        c = self.clock(source_id)
        if c.status != "unknown" and c.status != "estimated-live":
            self.moments.setdefault(key, t_aligned)
            return False
        known = self.moments.get(key)
        if known is None or abs(t_src - known) > SHARED_WITHIN_MS:
            return False
        c.samples.append((t_src - known) / 1000.0)
        if len(c.samples) < SAMPLES_NEEDED:
            return False
        mid = median(c.samples)
        spread = median(abs(s - mid) for s in c.samples)
        c.status, c.offset_s, c.uncertainty_s = "estimated-live", mid, max(1.0, 2 * spread)
        return True

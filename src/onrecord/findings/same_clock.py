"""A duration whose two ends are on one clock: that clock's offset cancels.

Each moment's interval on the common clock carries its clock's whole uncertainty (a clock
known within ±20 s widens every record on it by 40 s). A duration from one moment to another
read off one clock (the same source, or sources declared to share a clock) does not: the
clock is as far off at both ends, so the difference of their written times stands, and the
duration is only as wide as the written times (and the moments' own spans) make it, not the
sum of both ends' clock widths. Ends on two clocks keep the sum: their errors are apart.
"""

from __future__ import annotations

from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S


def clock_width_ms(c) -> float | None:
    """How much (ms) the clock's uncertainty widens each record on it (align.py)."""
    if c is None:
        return 2 * UNKNOWN_UNCERTAINTY_S * 1000
    if c.drift_ppm:
        return None  # a drifting clock is not as far off at both ends
    if c.offset_range:
        return (c.offset_range[1] - c.offset_range[0]) * 1000
    if c.offset_s is None:
        return 2 * UNKNOWN_UNCERTAINTY_S * 1000
    return 2 * (c.uncertainty_s or 0.0) * 1000


def one_clock_span(a, b, source_of: dict, clocks: dict, shared: dict | None = None) -> tuple[float, float, int] | None:
    """Seconds from moment a to moment b as an interval, where every record of both is on
    one clock: (lo, hi, the clock's source); else None. `source_of`: event id -> source id;
    `shared`: source -> the source whose clock it shares (shared_clock.py)."""
    shared = shared or {}
    ids = set(a.evidence) | set(b.evidence)
    sources = {source_of.get(i) for i in ids}
    if None in sources:
        return None
    clocks_of = {shared.get(int(s), int(s)) for s in sources}
    if len(clocks_of) != 1:
        return None
    s = int(next(iter(sources)))
    width = clock_width_ms(clocks.get(s))
    # a moment narrower than its clock's width was narrowed by something on another clock:
    # then its interval is not its clock's alone, and nothing cancels
    if width is None or a.hi - a.lo < width or b.hi - b.lo < width:
        return None
    lo, hi = (b.lo - a.hi + width) / 1000.0, (b.hi - a.lo - width) / 1000.0
    return lo, hi, next(iter(clocks_of))

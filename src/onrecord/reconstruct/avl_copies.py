"""CAD's copies of AVL fixes, found by what they are rather than by how they were mapped.

A CAD that marks a car on scene when an AVL fix puts it inside the incident's geofence
stamps the arrival with that fix's time (received a moment later). Mapped as
`unit_arrived` (docs/mappings.md) such arrivals are still copies of fixes, and the AVL
log shares those moments. What says so is the records themselves, jointly: one clock
difference lines up nearly every arrival of the source with a fix of the same unit,
within the second or so a copy trails its fix, where typed arrivals (minutes of lag,
any second) line up with fixes only by chance, a few at a time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import fix_records

COPY_WINDOW_S = 1.5  # a copy trails its fix by up to about a second; both written to the second
# Where the other moments already say how the two clocks stand, only differences near
# that are weighed: four arrivals lining up there is no chance.
MIN_ARRIVALS, SHARE, SIGMAS = 4, 0.8, 3.0
# Where nothing does, every difference up to half an hour is weighed, and some window
# of them lines up a few arrivals by chance: it takes eight, nearly all of them.
MIN_ARRIVALS_BLIND, SHARE_BLIND = 8, 0.9
MAX_OFFSET_S = 1800.0
MAX_PAIRS = 2_000_000  # arrival-fix pairs of the same units one test may weigh
# Against geofence crossings (one fix a car: geofence.py), three arrivals at one difference
# within the copy window, and half the arrivals near: no chance alignment of typed ones.
MIN_CROSSING_COPIES, SHARE_CROSSING = 3, 0.5


def fix_copies(anchored: pd.DataFrame, clocks: dict | None = None) -> set[int]:
    """Event ids of `unit_arrived` records that are copies of AVL fixes (`unit_position`
    records of another source, same unit), by the joint test above. `clocks`: the clock
    estimates made without them (clocks.py), to say where to look."""
    crossing = anchored["crossing"].eq(True) if "crossing" in anchored else False
    # a spoken "on scene" is a report, never a copy of a GPS fix, however closely it follows one
    spoken = anchored["spoken"].eq(True) if "spoken" in anchored else False
    arrivals = anchored[(anchored["family"] == "unit_arrived") & anchored["who"].notna() & ~crossing & ~spoken]
    fixes = fix_records(anchored)
    if len(arrivals) < MIN_ARRIVALS or fixes.empty:
        return set()
    out: set[int] = set()
    for s, mine in arrivals.groupby("source_id"):
        for a, theirs in fixes[fixes["source_id"] != s].groupby("source_id"):
            out |= _copies(mine, theirs, _expected(clocks or {}, int(s), int(a)))
    return out


def _expected(clocks: dict, s: int, a: int) -> tuple[float, float] | None:
    cs, ca = clocks.get(s), clocks.get(a)
    if cs is None or ca is None or cs.offset_s is None or ca.offset_s is None:
        return None
    return cs.offset_s - ca.offset_s, float(np.hypot(cs.uncertainty_s or 0.0, ca.uncertainty_s or 0.0))


def _copies(arr: pd.DataFrame, fix: pd.DataFrame, expected: tuple[float, float] | None) -> set[int]:
    crossed = fix["crossing"].eq(True) if "crossing" in fix else None
    if crossed is not None and crossed.any():
        fix = fix[crossed]  # where crossings are known, CAD copies those fixes and no other
    pairs = arr["who"].value_counts().mul(fix["who"].value_counts(), fill_value=0).sum()
    if pairs > MAX_PAIRS:
        return set()  # a year of arrivals against a year of fixes: not measured (docs/metrics.md)
    m = arr[["id", "who", "t_mid"]].merge(fix[["who", "t_mid"]], on="who", suffixes=("", "_fix"))
    m = m.assign(d=(m["t_mid"] - m["t_mid_fix"]) / 1000.0)
    if crossed is not None and crossed.any():
        # one fix a car, the one that put it inside the geofence: CAD's copies line up
        # with theirs at one difference, where typed arrivals (seconds to minutes later,
        # any second) do not; a CAD that copies some arrivals and types others is common
        least, share = MIN_CROSSING_COPIES, SHARE_CROSSING
        near = m[m["d"].abs() <= MAX_OFFSET_S]["id"].nunique()
    elif expected is None:
        least, share = MIN_ARRIVALS_BLIND, SHARE_BLIND
        near = m[m["d"].abs() <= MAX_OFFSET_S]["id"].nunique()  # arrivals with fixes of their unit near
    else:
        least, share = MIN_ARRIVALS, SHARE
        near = m[(m["d"] - expected[0]).abs() <= MAX_OFFSET_S / 30]["id"].nunique()
        m = m[(m["d"] - expected[0]).abs() <= SIGMAS * expected[1] + COPY_WINDOW_S]
    m = m[m["d"].abs() <= MAX_OFFSET_S]
    if near < least or m.empty:
        return set()
    order = np.argsort(m["d"].to_numpy())
    d, ids = m["d"].to_numpy()[order], m["id"].to_numpy()[order]
    right = np.searchsorted(d, d + COPY_WINDOW_S, side="right")
    counts = np.array([len(set(ids[i:right[i]])) for i in range(len(d))])
    start = int(np.argmax(counts))
    best = int(counts[start])
    if best < least or best < share * near:
        return set()
    return {int(i) for i in ids[start:right[start]]}

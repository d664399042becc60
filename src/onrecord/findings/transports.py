"""Patients transported: one per unit leaving the scene with a patient, however many
sources record that leaving.

A transport is recorded by several sources at once: CAD's "TRANSPORTING" status, the
ePCR's depart-scene time, the medic's "transporting to Mercy" on the radio. Fusion
(reconstruct/fuse.py) mostly makes them one moment, and a moment is one leaving. Where
it could not (a typed status a few minutes late, an ePCR written to the minute on a clock
tied loosely), the same unit's moments within LEAVING_WINDOW_S of each other are one
leaving too, unless one source records both: a source records each leaving once, so two
of its records are two (an ePCR's two patients carried off together, one row each).

Counted this way, two patients in one ambulance count two where a per-patient record
(an ePCR) says so, and one where only a per-unit record (a CAD status) does: the count is
what the records can support, never the same patient twice.
"""

from __future__ import annotations

from onrecord.reconstruct.moments import MomentRow

# A unit that left the scene with a patient is at the hospital for well over this; the
# records of one leaving lie within it (a dispatcher types a status up to two minutes
# late, a minute-written ePCR is a minute wide, on a clock known to tens of seconds).
LEAVING_WINDOW_S = 300.0


def leavings(moved: list[MomentRow], source_of: dict[int, int]) -> list[list[MomentRow]]:
    """The transport moments grouped into leavings: per unit, in time order, a moment joins
    the nearest leaving of its unit within the window that no source of it has recorded
    already; else it is a leaving of its own. `source_of`: event id -> source id."""
    groups: list[tuple[object, list[MomentRow], set]] = []  # (unit, moments, sources)
    for m in sorted(moved, key=lambda m: m.best):
        sources = {source_of.get(i) for i in m.members}
        fits = [g for g in groups if m.who is not None and g[0] == m.who and not (g[2] & sources)
                and abs(m.best - g[1][-1].best) <= LEAVING_WINDOW_S * 1000]
        if fits:
            unit, ms, seen = min(fits, key=lambda g: abs(m.best - g[1][-1].best))
            ms.append(m)
            seen |= sources
        else:
            groups.append((m.who, [m], sources))
    return [ms for _, ms, _ in groups]

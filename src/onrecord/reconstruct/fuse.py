"""Fusion: the reports of one real moment, from however many sources, become one fused
event that keeps every report and counts its corroboration.

Reports are grouped by moment (moments.py): what happened and to whom. Within a group,
in order of their aligned times, a record made as it happens (rank 0) joins a fused event
whose first record is within a few seconds of it; a report (rank 1, 2) joins the latest
fused event it can be a report of — one that began shortly before it. Shots chain: a
burst is one event as long as detections keep coming within seconds of each other.
The fused event's time is the interval its reports span, never an average.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

SAME_S = {"entry": 5.0}  # records made as it happens agree this closely (default 3 s)
SHOT_BURST_S = 2.0
# Families whose source can hold several records of one moment (a camera system's many
# cameras see one entry); there, a device (a door sensor) still reports a moment once.
# Every other source records a moment once: a second record of it is a second moment.
ONE_PER_DEVICE = ("entry",)
# No record is taken as a report of a moment more than an hour before it (each sensor
# reports a burst once, within this of the first report).
HORIZON_S = 3600.0
# how long after a moment a spoken (1) or typed (2) report of it can come
REPORT_LAG_S = {
    "unit_arrived": {1: 30.0, 2: 60.0},
    "unit_enroute": {1: 30.0, 2: 60.0},
    "unit_dispatched": {1: 30.0, 2: 60.0},
    "unit_available": {1: 30.0, 2: 60.0},
    "entry": {1: 30.0, 2: 180.0},
    "patient_transported": {1: 20.0, 2: 120.0},
    "patient_contact": {1: 20.0, 2: 120.0},
}


@dataclass
class Fused:
    lo: float  # aligned interval of the record that opened it (ms)
    hi: float
    members: list[int] = field(default_factory=list)
    whos: set = field(default_factory=set)
    devices: set = field(default_factory=set)
    sources: set = field(default_factory=set)
    details: set = field(default_factory=set)  # where a transported patient was taken


def fuse(anchored: pd.DataFrame) -> list[list[int]]:
    """`anchored`: events with a moment and their aligned written interval (ms, no clock
    uncertainty added), columns id, source_id, family, who, rank, lo, hi. Returns the groups
    of event ids that are one real moment (size >= 2)."""
    groups: list[list[int]] = []
    for family, part in anchored.groupby("family", sort=False, observed=True):
        if family == "first_arrival":
            continue
        keyed = family not in ("entry", "shots", "channels_patched", "threat_ended")
        if keyed:
            # a unit's (or caller's) moment recorded by one source only has nothing to fuse
            # with: a year of one agency's calls is skipped without a look
            sources = part.groupby("who", sort=False, dropna=True)["source_id"].transform("nunique")
            for _, g in part[sources > 1].groupby("who", sort=False, dropna=True):
                groups += _cluster(family, g)
        else:
            groups += _cluster(family, part)
    _first_arrivals(anchored, groups)
    return [g for g in groups if len(g) > 1]


def _first_arrivals(anchored: pd.DataFrame, groups: list[list[int]]) -> None:
    """A call's "first arrive" time with no unit named joins the earliest arrival of a
    unit of the same agency, if it was typed within the usual lag of it."""
    firsts = anchored[anchored["family"] == "first_arrival"]
    if firsts.empty:
        return
    # looked up for the grouped reports only, not for every record of a year of calls
    grouped = anchored[anchored["id"].isin([i for g in groups for i in g])]
    family = dict(zip(grouped["id"], grouped["family"]))
    agency = dict(zip(grouped["id"], grouped["agency"]))
    lo = dict(zip(grouped["id"], grouped["lo"]))
    lag = REPORT_LAG_S["unit_arrived"][2] * 1000
    arrivals = [(min(lo[i] for i in g), g) for g in groups if family[g[0]] == "unit_arrived"]
    for r in firsts.itertuples(index=False):
        # the first arrival of the agency that this "first arrive" time can be a record of
        mine = [(start, g) for start, g in arrivals if agency[g[0]] == r.agency and start - 3000 <= r.lo]
        if not mine:
            continue
        start, first = min(mine, key=lambda x: x[0])
        if r.lo <= start + lag:
            first.append(int(r.id))


def _cluster(family: str, part: pd.DataFrame) -> list[list[int]]:
    open_: list[Fused] = []
    # stable, file order last: records of one written minute come in the order they were made
    for r in part.sort_values(["lo", "rank", "id"], kind="stable").itertuples(index=False):
        host = _host(family, open_, r)
        if host is None:
            host = Fused(lo=r.lo, hi=r.hi)
            open_.append(host)
        host.members.append(int(r.id))
        host.sources.add(r.source_id)
        detail = getattr(r, "detail", None)
        if detail:
            host.details.add(detail)
        device = getattr(r, "device", None)
        if device:
            host.devices.add(device)
        if r.who is not None and r.who == r.who:  # not None, not NaN
            host.whos.add(r.who)
    return [f.members for f in open_]


def _host(family: str, open_: list[Fused], r) -> Fused | None:
    if family == "shots":
        last = open_[-1] if open_ else None
        device = getattr(r, "device", None)
        if device and last and device in last.devices:
            return None  # the same sensor again: a second burst, however close
        return last if last and r.lo <= last.hi + SHOT_BURST_S * 1000 else None
    same = SAME_S.get(family, 3.0) * 1000
    lag = REPORT_LAG_S.get(family, {}).get(int(r.rank), 0.0) * 1000 if r.rank else 0.0
    fits = []
    device = getattr(r, "device", None)
    # fused events open in time order: only the recent ones can take this record
    for f in reversed(open_):
        if f.lo < r.lo - HORIZON_S * 1000:
            break
        if family in ONE_PER_DEVICE:
            if device and f.devices:
                continue  # a door sensor is one door: two openings, even at one moment
        elif r.source_id in f.sources:
            continue  # a logger logs a transmission once, a patient record is one patient
        if (r.rank == 0 and r.lo <= f.hi + same and r.hi >= f.lo - same) or \
                (r.rank and f.lo - same <= r.lo <= f.hi + max(lag, same)):
            fits.insert(0, f)
    if not fits:
        return None
    detail = getattr(r, "detail", None)
    if detail:
        # two patients one ambulance took off together: the hospital tells them apart
        fits = [f for f in fits if not f.details or detail in f.details] or fits
    if family == "entry" and r.rank > 0:
        # a typed entry belongs with the entry its own unit said on the radio, else with
        # one someone saw or said, not a bare door opening
        own = [f for f in fits if r.who in f.whos]
        named = [f for f in fits if f.whos]
        if own:
            return own[-1]
        # A unit goes in once, and a status typed minutes late can fit a second entry
        # made since: the first entry it fits is the one it went in with (officers on
        # scene go in with the first team they can).
        return (named or fits)[0]
    best = fits[-1]
    # Moments the records cannot tell apart in time (two patients in one written minute):
    # first come, first served, so reports pair with records in the order both were made.
    return next(f for f in fits if (f.lo, f.hi) == (best.lo, best.hi))

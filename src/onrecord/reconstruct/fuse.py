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

import numpy as np
import pandas as pd

SAME_S = {"entry": 5.0}
# A record whose source's clock is this unsure (ms; an unknown clock carries +/- 5 minutes)
# is matched by whom it names, not by its time (_named_entry)
UNSURE_SLACK_MS = 60_000  # records made as it happens agree this closely (default 3 s)
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
    # a unit saying it hears shots keys up within seconds of the burst (lagged_moments.py
    # HEARD_WINDOW_S, which ties clocks through such reports on the same reading)
    "shots_heard": {1: 12.0},
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
    witnessed: bool = False  # holds a record made as it happens or said (rank 0, 1), not only typed ones


@dataclass
class _Context:
    arrived: dict  # unit -> the earliest it can have arrived (ms)
    lags: dict = field(default_factory=dict)  # source -> how late its typed entries came (ms), where clear
    doubts: dict = field(default_factory=dict)  # typed entry -> earliest entry it could be a record of (ms)


def fuse(anchored: pd.DataFrame, doubts: dict | None = None) -> list[list[int]]:
    """`anchored`: events with a moment and their aligned written interval (ms, no clock
    uncertainty added), columns id, source_id, family, who, rank, lo, hi. Returns the groups
    of event ids that are one real moment (size >= 2). `doubts`, if given, is filled with
    the typed entries the records could not tie to one team: event id -> the earliest
    entry (ms) it can be a record of (its unit's entry lies between that and its own time)."""
    groups: list[list[int]] = []
    ctx = _Context(_arrived_by(anchored))
    for family, part in anchored.groupby("family", sort=False, observed=True):
        if family == "first_arrival":
            continue
        keyed = family not in ("entry", "shots", "channels_patched", "threat_ended")
        if keyed:
            # a unit's (or caller's) moment recorded by one source only has nothing to fuse
            # with: a year of one agency's calls is skipped without a look
            sources = part.groupby("who", sort=False, dropna=True)["source_id"].transform("nunique")
            for _, g in part[sources > 1].groupby("who", sort=False, dropna=True):
                groups += _cluster(family, g, ctx)
        else:
            groups += _cluster(family, part, ctx)
    _first_arrivals(anchored, groups)
    if doubts is not None:
        doubts.update(ctx.doubts)
    return [g for g in groups if len(g) > 1]


def _arrived_by(anchored: pd.DataFrame) -> dict:
    """unit -> the earliest its arrival can have been (ms): its earliest arrival record, less
    the longest such a record can trail it. A unit goes in only after it got there."""
    arr = anchored[anchored["family"] == "unit_arrived"].dropna(subset=["who"])
    if arr.empty:
        return {}
    lag = arr["rank"].map(lambda k: REPORT_LAG_S["unit_arrived"].get(int(k), 0.0)).astype(float) * 1000
    return (arr["lo"] - lag).groupby(arr["who"]).min().to_dict()


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


def _cluster(family: str, part: pd.DataFrame, ctx: _Context | None = None) -> list[list[int]]:
    ctx = ctx or _Context({})
    # Records whose clock is known only within minutes come last: their written time says
    # nothing against trusted clocks, so they join a moment on those only by the units
    # their words name (an entry's team), and by time only each other (clocks lined up
    # with each other, none tied to a trusted one); else they stand alone.
    unsure = part["slack"].to_numpy() > UNSURE_SLACK_MS if "slack" in part else np.zeros(len(part), bool)
    sure_open: list[Fused] = []
    unsure_open: list[Fused] = []
    keyed = family not in ("entry", "shots", "channels_patched", "threat_ended")  # one unit's (caller's) records
    # stable, file order last: records of one written minute come in the order they were made
    for sure in (True, False):
        rows = part[~unsure] if sure else part[unsure]
        open_ = sure_open if sure else unsure_open
        for r in rows.sort_values(["lo", "rank", "id"], kind="stable").itertuples(index=False):
            host = None if sure else _named_entry(sure_open, r) if family == "entry" else \
                _same_unit(family, sure_open, r) if keyed else None
            host = host or _host(family, open_, r, ctx)
            if host is None:
                host = Fused(lo=r.lo, hi=r.hi)
                open_.append(host)
            _join(host, r)
    return [f.members for f in sure_open + unsure_open]


def _join(host: Fused, r) -> None:
    host.members.append(int(r.id))
    host.sources.add(r.source_id)
    host.witnessed |= int(r.rank) < 2
    detail = getattr(r, "detail", None)
    if detail:
        host.details.add(detail)
    device = getattr(r, "device", None)
    if device:
        host.devices.add(device)
    if r.who is not None and r.who == r.who:  # not None, not NaN
        host.whos.add(r.who)
    host.whos |= _named(r)  # "going in, 20-37 with me": 20-37 went in with this team


def _named(r) -> set:
    named = getattr(r, "named", None)
    return set(named) if isinstance(named, (set, frozenset, tuple, list)) else set()


def _named_entry(open_: list[Fused], r) -> Fused | None:
    """The entry a record on an unsure clock is of, by the units it names or is by: the one
    team entry (on trusted clocks) that holds one of them, within the record's clock slack
    (a report after it, by up to its usual lag). A unit goes in with its team once; two
    such teams, and the words cannot say which: none."""
    units = _named(r) | ({r.who} if r.who is not None and r.who == r.who else set())
    if not units:
        return None
    lag = REPORT_LAG_S["entry"].get(int(r.rank), 0.0) * 1000 if r.rank else SAME_S["entry"] * 1000
    same = SAME_S["entry"] * 1000
    fits = [f for f in open_ if f.whos & units and f.witnessed
            and f.lo - same - r.slack <= r.lo and r.hi <= f.hi + lag + r.slack]
    return fits[0] if len(fits) == 1 else None


def _same_unit(family: str, open_: list[Fused], r) -> Fused | None:
    """The moment a record on an unsure clock is of, by whom it is about: all of `open_`
    are this unit's (or caller's) moments of this kind on trusted clocks. The one that fits
    within the record's clock slack (a report after it, by up to its usual lag) is it; a
    record of a unit's arrival in a campus log nobody could tie is that unit's arrival,
    not a second one minutes earlier. Two fit, and the record cannot say which: none."""
    lag = REPORT_LAG_S.get(family, {}).get(int(r.rank), 0.0) * 1000
    same = SAME_S.get(family, 3.0) * 1000
    fits = [f for f in open_ if r.source_id not in f.sources
            and f.lo - same - r.slack <= r.lo and r.hi <= f.hi + max(lag, same) + r.slack]
    return fits[0] if len(fits) == 1 else None


def _host(family: str, open_: list[Fused], r, ctx: _Context) -> Fused | None:
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
        return _team_entry(fits, r, ctx)
    best = fits[-1]
    # Moments the records cannot tell apart in time (two patients in one written minute):
    # first come, first served, so reports pair with records in the order both were made.
    return next(f for f in fits if (f.lo, f.hi) == (best.lo, best.hi))


# A typed entry is taken for the team whose entry fits this source's typing delays (known
# from at least LAGS_KNOWN typed entries tied to their teams, give or take LAG_MARGIN_S)
# only when no other team's does: typing delays vary (from under a minute to over two).
LAGS_KNOWN = 3
LAG_MARGIN_S = 15.0


def _team_entry(fits: list[Fused], r, ctx: _Context) -> Fused | None:
    """Which entry a typed entry status records. Its own unit's entry, said on the radio,
    if there is one. Else the team it went in with: never one that went in before the unit
    can have got there, nor another unit's typed status alone. One such team: that one.
    Several: the one, if only one, whose entry fits the typing delays this source's other
    typed entries show (tied to their teams). Otherwise the records cannot say: it
    goes with the first (officers on scene go in with the first team they can), and its
    unit's entry is stated as anywhere from that first entry to its own time (doubts)."""
    own = [f for f in fits if r.who in f.whos]
    if own:
        return _tied(own[-1], r, ctx)
    since = ctx.arrived.get(r.who)
    fits = [f for f in fits if (since is None or f.hi >= since) and (f.witnessed or not f.whos)]
    pool = [f for f in fits if f.whos] or fits
    if len(pool) <= 1:
        return _tied(pool[0], r, ctx) if pool else None
    usual = ctx.lags.get(r.source_id, [])
    if len(usual) >= LAGS_KNOWN:
        # the delays this source's typed entries are known to have, give or take a margin:
        # exactly one team within them is the one
        lo, hi = min(usual) - LAG_MARGIN_S * 1000, max(usual) + LAG_MARGIN_S * 1000
        within = [f for f in pool if lo <= r.lo - f.lo <= hi]
        if len(within) == 1:
            return within[0]
    ctx.doubts[int(r.id)] = min(f.lo for f in pool)
    return pool[0]


def _tied(f: Fused, r, ctx: _Context) -> Fused:
    """A typed entry tied to its team for certain: its delay is this source's usual one."""
    ctx.lags.setdefault(r.source_id, []).append(r.lo - f.lo)
    return f

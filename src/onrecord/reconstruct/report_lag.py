"""How soon this case's spoken arrival reports come, read off the case itself.

"School 11, I'm here at the Freshman Center" comes some seconds after the officer got
there; how many, nobody recorded. Known only from such a report, the arrival is put
anywhere from the longest such lag before it (REPORT_LAG_S: 30 s, fuse.py) to the report.
But the same case often shows how soon its people speak: a car whose GPS fixes put it
inside the geofence between two fixes (avl_arrival.py, geofence.py) and whose crew then
says "on scene" gives one lag, bounded on both sides (from the fix inside to the report,
at least; from the fix before, at most). Many such cars bound the longest lag of the
case's reports, L, the way minute_bounds.py reads a minute clock's: each lag anywhere
from 0 to L alike, every L up to the default alike beforehand, the likelihood of each
car's bounds exact. The window taken is the lag that one arrival's report exceeds with
less than LAG_TAIL chance, over every L the case allows (the tail of one report's lag,
not the middle of L: an arrival known only from its report must hold the truth; not the
tail of L either, which bounds the case's slowest report, a stricter thing than each
arrival's). Fewer than MIN_CARS such cars: the default stands. Never
wider than the default: the case can only say its reports come sooner.

A geofence crossing is not the wheels stopping (a car enters a 250 m fence before it
parks): lags read from it are longer than the crew's speaking lag, never shorter, so the
window errs wide.
"""

from __future__ import annotations

import numpy as np

from onrecord.reconstruct.fuse import REPORT_LAG_S
from onrecord.reconstruct.moment_time import moment_time
from onrecord.reconstruct.moments import MomentRow

MIN_CARS = 5  # arrivals with both a located fix and a spoken report, before the case is read
LAG_TAIL = 0.02  # the chance the case's longest lag exceeds the window taken
GRID = 600


def spoken_lag_window(bounds: list[tuple[float, float]], default_s: float) -> float:
    """`bounds`: per arrival, (least, most) seconds its spoken report can have trailed it.
    Returns the longest lag (s) to allow such a report in this case."""
    if len(bounds) < MIN_CARS:
        return default_s
    a = np.array([max(lo, 0.0) for lo, _ in bounds])
    b = np.array([max(hi, lo_ + 0.5) for (_, hi), lo_ in zip(bounds, a)])
    if a.max() >= default_s:
        return default_s  # some report came as late as the default allows: nothing to narrow
    L = np.linspace(a.max(), default_s, GRID)[1:]
    # per L (rows) and arrival (columns): the share of 0..L its bounds hold
    share = np.clip(np.minimum(b[None, :], L[:, None]) - a[None, :], 0.0, None) / L[:, None]
    with np.errstate(divide="ignore"):
        log_like = np.log(share).sum(axis=1)
    if not np.isfinite(log_like).any():
        return default_s
    p = np.exp(log_like - log_like.max())
    p /= p.sum()
    # The window bounds one arrival's lag, not the case's longest: the chance that this
    # report trailed its arrival by more than w is, over the case's L, the share of 0..L
    # beyond w. The window is the least w with that chance under LAG_TAIL.
    beyond = (p[None, :] * np.clip(1.0 - L[:, None] / L[None, :], 0.0, None)).sum(axis=1)
    return float(min(L[np.argmax(beyond <= LAG_TAIL)], default_s))


def narrow_spoken_arrivals(out: list[MomentRow], used: list[list[dict]], a: dict, e: dict, unsure: set) -> None:
    """Arrivals known only from a spoken report, bounded by how soon this case's spoken
    arrival reports came where a car's fixes say when it got there. `out`: the moments
    (build.py), `used`: the records each was timed from; `a`, `e`: per event id, its
    moment's columns and its event's (aligned t_lo/t_hi, source_id); `unsure`: sources
    whose clocks are known only within minutes (their reports measure nothing)."""
    bounds: dict = {}
    for row in out:
        if row.family != "unit_arrived" or len(row.located) != 2:
            continue
        before, fix = row.located
        said = [i for i in row.members if a["spoken"].get(i) and a["rank"].get(i) == 1
                and e["source_id"].get(i) not in unsure]
        if said:
            first = min(said, key=lambda i: e["t_hi"][i])
            # the car got there after its fix before and by its fix inside
            bounds.setdefault(e["source_id"][first], []).append(
                ((e["t_lo"][first] - e["t_hi"][fix]) / 1000.0, (e["t_hi"][first] - e["t_lo"][before]) / 1000.0))
    default = REPORT_LAG_S["unit_arrived"][1]
    pooled = spoken_lag_window([b for bs in bounds.values() for b in bs], default)
    # how soon people speak is a channel's habit (a fire crew's "in position at the casualty
    # collection point" after it has parked and dismounted, a deputy's "on scene" as the
    # car stops): read per recorder where it has cars enough, else over the case
    windows = {s: spoken_lag_window(bs, default) if len(bs) >= MIN_CARS else pooled for s, bs in bounds.items()}
    if min([pooled, *windows.values()]) >= default:
        return
    for row, recs in zip(out, used):
        if row.family != "unit_arrived" or row.located:
            continue
        first = min((r for r in recs if r["t_lo"] is not None), key=lambda r: r["t_hi"], default=None)
        window = windows.get(first.get("source_id"), pooled) if first else pooled
        if window >= default:
            continue
        mt = moment_time(recs, "unit_arrived", {1: window})
        if mt is not None and mt.pinned_by == "reports" and mt.lo > row.lo:
            row.lo, row.best = mt.lo, min(max(row.best, mt.lo), row.hi)

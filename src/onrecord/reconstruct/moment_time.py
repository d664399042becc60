"""When did the real moment happen, given the records of it?

Records made as it happens (rank 0) pin it: the moment lies within their aligned
intervals, or a few seconds before them. Reports only (rank 1, 2) bound it from above: it happened before the earliest
report, by at most the usual lag of such a report. Disagreeing records widen the
interval; nothing is averaged away.
"""

from __future__ import annotations

from dataclasses import dataclass

from onrecord.reconstruct.fuse import REPORT_LAG_S

DEFAULT_LAG_S = {1: 30.0, 2: 120.0}
# A record made "as it happens" still trails the moment a little: a door opens a second
# after the hand reaches it, a sensor reports a burst once it has heard it.
RECORD_LEAD_S = 3.0
# "We're going in" is said as the team moves: up to a few seconds before the door opens as
# well as after (a spoken entry made as it happens bounds its moment on both sides).
SPOKEN_ENTRY_AHEAD_S = 5.0


@dataclass
class MomentTime:
    lo: float  # UTC ms
    hi: float
    best: float
    pinned_by: str  # "record" (made as it happens) or "reports"


def moment_time(records: list[dict], family: str | None, lags: dict[int, float] | None = None) -> MomentTime | None:
    """`records`: dicts with rank and aligned t_lo/t_hi (clock uncertainty included), and
    optionally `said`: when the record was made on the common clock, without that
    uncertainty. A moment known from reports only is best put at its first report: the
    report's own time, not the earliest its clock allows (an unknown clock's five minutes
    would put every such moment five minutes early, first of all). `lags`: {rank: s}, how
    long a report of that rank can trail its moment in this case, where the case shows it
    (report_lag.py); else the usual lag of such a report."""
    timed = [r for r in records if r["t_lo"] is not None]
    if not timed:
        return None
    direct = [r for r in timed if r["rank"] == 0]
    if direct:
        lo = min(r["t_lo"] for r in direct) - RECORD_LEAD_S * 1000
        ahead = SPOKEN_ENTRY_AHEAD_S * 1000 if family == "entry" else 0.0
        hi = max(r["t_hi"] + (ahead if r.get("spoken") else 0.0) for r in direct)
        best = min((r["t_lo"] + r["t_hi"]) / 2 for r in direct)
        return MomentTime(lo, hi, best, "record")
    first = min(timed, key=lambda r: r["t_hi"])
    said = first.get("said")
    best = first["t_lo"] if said is None or said != said else min(max(said, first["t_lo"]), first["t_hi"])
    # Each report bounds the moment on its own: after its earliest time less the longest it
    # can trail, before its latest. The moment lies in every one of those spans: their
    # intersection (a radio report 30 s at most after the arrival and CAD's typed entry of
    # it 60 s at most after it both hold it). Spans that do not meet (a report whose lag
    # ran over its usual) leave the first report's span, as before.
    lo = max(r["t_lo"] - _lag(r, family, lags) * 1000 for r in timed)
    if lo > first["t_hi"]:
        lo = first["t_lo"] - _lag(first, family, lags) * 1000
    return MomentTime(lo, first["t_hi"], min(max(best, lo), first["t_hi"]), "reports")


def _lag(r: dict, family: str | None, lags: dict[int, float] | None) -> float:
    """How long (s) report `r` can trail its moment."""
    lag = REPORT_LAG_S.get(family or "", {}).get(r["rank"], DEFAULT_LAG_S.get(r["rank"], 60.0))
    if lags and r["rank"] in lags and (r["rank"] != 1 or r.get("spoken")):
        lag = min(lag, lags[r["rank"]])
    return lag

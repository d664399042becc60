"""Order bounds: records that must come after others, whatever the clocks.

A unit goes in only after it got there; it gets there only after it set off; its crew
reaches a patient only after it got there. Where one side of such a pair is on a clock known
to seconds and the other on an unsure one (unknown, or estimated only within minutes), the
pair bounds the unsure clock's offset from one side: a campus log's typed "2B25 inside"
cannot be of a moment before 2B25 was on scene by the AVL, so that log's clock cannot run
so fast that it puts the line earlier. Every such bound is kept; together they leave the
unsure clock a range of offsets (`ClockEstimate.offset_range`), which narrows its
interval (never moves it past what its own records say: the range is the stated interval
cut by the bounds, and a bound that leaves nothing of it is not used) and every event's
interval on it (align.py), even where the clock stays loose.

What is assumed, and why it is safe: a source's earliest record of a unit's arrival
(en-route) is of the unit's first arrival (en-route) — the bound then rests on the earliest
such record any sure clock holds, less the longest its kind of record can trail its moment
(fuse.REPORT_LAG_S); every later record (an entry, an arrival, a patient contact) is of a
moment after that first one, whichever of the unit's moments it is. A unit busy on other
calls the same day has records of them too: a sure record after that comes before the sure
clocks' first record before, and a record after on an unsure clock before that clock's own
first record before, are of another call and bound nothing; where the sure records after
spread over more than ONE_MOMENT_S, which of them follows an unsure record before is not
said, and they bound nothing from that side. A dispatch is not used: a unit
that sent itself arrives before CAD's dispatch is typed.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from onrecord.reconstruct import clocks as clk
from onrecord.reconstruct.fuse import REPORT_LAG_S, UNSURE_SLACK_MS

# (the moment before, the moment after), of one unit
ORDER = (("unit_enroute", "unit_arrived"), ("unit_arrived", "entry"), ("unit_arrived", "patient_contact"))
# A clock this unsure (s) is bounded by the order of records; a surer one bounds them.
UNSURE_S = UNSURE_SLACK_MS / 1000.0
# Every bound is loosened by this much (s): a record made "as it happens" may trail its
# moment by a few seconds (moment_time.RECORD_LEAD_S), an entry said at the door may come
# a few seconds before it (moment_time.SPOKEN_ENTRY_AHEAD_S).
SLACK_S = 5.0
# Sure records of a unit's arrival (entry...) this close together are of one moment; spread
# wider, of several (an earlier call, a second arrival), and which one follows is not said.
ONE_MOMENT_S = 180.0


def order_bounded(anchored: pd.DataFrame, clocks: dict, named_units: dict | None = None,
                  unit_of_event: dict | None = None) -> dict:
    """The clocks, each unsure one narrowed by the order bounds its records and the sure
    clocks' records give (an `offset_range`); an unknown clock bounded on both sides within
    less than an unknown clock's ± is given that range as its offset (status "loose")."""
    return order_bounds(anchored, clocks, named_units, unit_of_event)[0]


def order_bounds(anchored: pd.DataFrame, clocks: dict, named_units: dict | None = None,
                 unit_of_event: dict | None = None) -> tuple[dict, dict[int, tuple]]:
    """order_bounded's clocks, and each bounded record's own bound on the common clock:
    {event id: (earliest ms or None, latest ms or None)} (narrow_events applies them: a
    record written to the minute is bounded to the second, where its clock's range, over
    the whole minute, is not)."""
    if anchored.empty:
        return clocks, {}
    rows = _unit_rows(anchored, named_units or {}, unit_of_event or {})
    if rows.empty:
        return clocks, {}
    sure = {s for s, c in clocks.items() if _sure(c)}
    unsure = {s for s, c in clocks.items() if not _sure(c) and not (c.drift_ppm or 0)}
    if not sure or not unsure:
        return clocks, {}
    bounds, per_event = _bounds(rows, clocks, sure, unsure)
    out = dict(clocks)
    for s, (lo, hi, n) in bounds.items():
        narrowed = _narrowed(clocks[s], lo, hi, n)
        if narrowed is not None:
            out[s] = narrowed
    return out, per_event


def narrow_events(events: pd.DataFrame, per_event: dict[int, tuple]) -> pd.DataFrame:
    """`events` (columns id, t_lo, t_hi on the common clock) with each bounded record's
    interval cut by its own bound; a bound that would leave nothing of it is not used."""
    if not per_event or events.empty:
        return events
    lo, hi = events["t_lo"].to_numpy(dtype="float64").copy(), events["t_hi"].to_numpy(dtype="float64").copy()
    for i, event in enumerate(events["id"].to_numpy()):
        said = per_event.get(int(event))
        if said is None:
            continue
        new_lo = max(lo[i], said[0]) if said[0] is not None else lo[i]
        new_hi = min(hi[i], said[1]) if said[1] is not None else hi[i]
        if new_lo <= new_hi:
            lo[i], hi[i] = new_lo, new_hi
    return events.assign(t_lo=np.round(lo), t_hi=np.round(hi))


def _sure(c) -> bool:
    return c is not None and c.offset_s is not None and (c.uncertainty_s or 0.0) <= UNSURE_S


def _unit_rows(anchored: pd.DataFrame, named_units: dict, unit_of_event: dict) -> pd.DataFrame:
    """One row per (record, unit) for the families ORDER reads: a unit's own statuses by
    their `who`; an entry by every unit it names or belongs to."""
    families = {f for pair in ORDER for f in pair}
    part = anchored[anchored["family"].isin(families)]
    if part.empty:
        return part
    units = []
    for r in part.itertuples(index=False):
        if r.family == "entry":
            found = set(named_units.get(int(r.id), ()))
            if unit_of_event.get(int(r.id)) is not None:
                found.add(unit_of_event[int(r.id)])
            if isinstance(r.who, (int, np.integer)):
                found.add(int(r.who))
        else:
            found = {int(r.who)} if isinstance(r.who, (int, np.integer, float)) and r.who == r.who else set()
        units.append(sorted(found))
    part = part.assign(unit=units).explode("unit").dropna(subset=["unit"])
    return part.assign(w_lo=part["t_mid"] - part["width"] / 2, w_hi=part["t_mid"] + part["width"] / 2)


def _lag_ms(family: str, rank: int) -> float:
    """How long (ms) a record of this family and rank can trail its moment."""
    return REPORT_LAG_S.get(family, {}).get(int(rank), 0.0 if int(rank) == 0 else 120.0) * 1000


def _bounds(rows: pd.DataFrame, clocks: dict, sure: set, unsure: set) -> tuple[dict, dict]:
    """{unsure source: (lowest offset, highest offset, how many bounds)} the order allows (s),
    and {event id: (earliest, latest)} (ms, common clock) for each bounded record."""
    out: dict[int, list] = {}
    per_event: dict[int, list] = {}
    slack = SLACK_S * 1000
    for before, after in ORDER:
        b, a = rows[rows["family"] == before], rows[rows["family"] == after]
        for unit in set(b["unit"]) & set(a["unit"]):
            bu, au = b[b["unit"] == unit], a[a["unit"] == unit]
            # on the common clock, from the sure clocks: the first moment before can have been no
            # earlier than its earliest record, less the record's lag; the moments after, no
            # later than their earliest record
            b_sure, a_sure = bu[bu["source_id"].isin(sure)], au[au["source_id"].isin(sure)]
            first_lo = min((_common_lo(r, clocks[r.source_id]) - _lag_ms(before, r.rank) for r in
                            b_sure.itertuples(index=False)), default=None)
            # (a sure record after from before the sure clocks' first record before is of
            # another of the unit's calls, earlier in the day: not this one's; and where the
            # sure records after are of several moments, which one follows the unsure clock's
            # record before is not said: none bounds it)
            his = [h for h in (_common_hi(r, clocks[r.source_id]) for r in a_sure.itertuples(index=False))
                   if first_lo is None or h >= first_lo]
            after_hi = min(his) if his and max(his) - min(his) <= ONE_MOMENT_S * 1000 else None
            if first_lo is not None:
                # a record after, on an unsure clock: written - offset >= first_lo, so offset <=
                # written - first_lo (one its own clock puts before its own first record before
                # is of an earlier call of the unit's: not used)
                own_first = bu[bu["source_id"].isin(unsure)].groupby("source_id")["w_lo"].min().to_dict()
                for r in au[au["source_id"].isin(unsure)].itertuples(index=False):
                    if r.w_hi < own_first.get(r.source_id, -np.inf):
                        continue
                    out.setdefault(int(r.source_id), []).append((None, (r.w_hi + slack - first_lo) / 1000.0))
                    # the record itself is of a moment after first_lo, and made after its moment
                    per_event.setdefault(int(r.id), []).append((first_lo - slack, None))
            if after_hi is not None:
                # the first record before on an unsure clock (its earliest): its moment, no later
                # than any moment after: written - lag - offset <= after_hi
                for s, g in bu[bu["source_id"].isin(unsure)].groupby("source_id"):
                    r = g.loc[g["w_lo"].idxmin()]
                    lag = _lag_ms(before, r["rank"])
                    out.setdefault(int(s), []).append(((r["w_lo"] - lag - slack - after_hi) / 1000.0, None))
                    # the record itself: made no later than its lag after a moment before after_hi
                    per_event.setdefault(int(r["id"]), []).append((None, after_hi + lag + slack))
    result = {}
    for s, said in out.items():
        los = [lo for lo, _ in said if lo is not None]
        his = [hi for _, hi in said if hi is not None]
        result[s] = (max(los) if los else None, min(his) if his else None, len(said))
    events = {}
    for i, said in per_event.items():
        los = [lo for lo, _ in said if lo is not None]
        his = [hi for _, hi in said if hi is not None]
        events[i] = (max(los) if los else None, min(his) if his else None)
    return result, events


def _common_lo(r, c) -> float:
    """The earliest a record on a sure clock can have been made, on the common clock (ms)."""
    return r.w_lo - (c.offset_at(r.w_lo) + (c.uncertainty_s or 0.0)) * 1000


def _common_hi(r, c) -> float:
    return r.w_hi - (c.offset_at(r.w_hi) - (c.uncertainty_s or 0.0)) * 1000 + SLACK_S * 1000


def _narrowed(c: clk.ClockEstimate, lo: float | None, hi: float | None, n: int) -> clk.ClockEstimate | None:
    """The clock within what its own interval and the bounds both allow, or None where the
    bounds narrow nothing or leave nothing of it (then they are not used)."""
    if c.offset_s is None:
        centre, unc = c.relative_s or 0.0, clk.UNKNOWN_UNCERTAINTY_S
    else:
        centre, unc = c.offset_s, c.uncertainty_s or 0.0
    was_lo, was_hi = (c.offset_range or (centre - unc, centre + unc))
    new_lo = max(was_lo, lo) if lo is not None else was_lo
    new_hi = min(was_hi, hi) if hi is not None else was_hi
    if new_lo > new_hi or (new_lo <= was_lo and new_hi >= was_hi):
        return None
    said = f"narrowed by the order of records ({n} bound{'s' if n != 1 else ''}): {new_lo:+.1f}..{new_hi:+.1f} s"
    note = (c.note + "; " if c.note else "") + said
    if c.offset_s is None:
        if lo is None or hi is None:
            # bounded on one side only: the clock stays unknown, its events narrowed on that side
            return replace(c, offset_range=(round(new_lo, 3), round(new_hi, 3)), note=note)
        # bounded on both sides by the records themselves: that range is its offset, loosely
        mid, half = (lo + hi) / 2, (hi - lo) / 2
        if half >= clk.UNKNOWN_UNCERTAINTY_S or hi - lo < 0:
            return replace(c, offset_range=(round(new_lo, 3), round(new_hi, 3)), note=note)
        return replace(c, status="loose", offset_s=round(mid, 3), uncertainty_s=round(max(half, clk.RECORD_LEAN_S), 3),
                       offset_range=(round(lo, 3), round(hi, 3)), note=note)
    # an estimate keeps the centre its records put it at while the range holds it; its ±
    # is the farther end of the range (a one-sided bound narrows its events, not its ±).
    # A ± says the truth lies within twice it: so the farther end of twice the old ±, as
    # cut by the bounds, halved, is the least it can say (a clock never gets surer than the
    # bounds make it at that reach, too)
    if not new_lo <= centre <= new_hi:
        centre = (new_lo + new_hi) / 2
    far_lo = max(centre - 2 * unc, lo) if lo is not None else centre - 2 * unc
    far_hi = min(centre + 2 * unc, hi) if hi is not None else centre + 2 * unc
    half = max(centre - new_lo, new_hi - centre, (centre - far_lo) / 2, (far_hi - centre) / 2, clk.RECORD_LEAN_S)
    return replace(c, offset_s=round(centre, 3), uncertainty_s=round(half, 3),
                   offset_range=(round(new_lo, 3), round(new_hi, 3)), note=note)

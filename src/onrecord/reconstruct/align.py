"""From clock estimates to every event's time on the common clock, as an interval."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S, ClockEstimate
from onrecord.reconstruct.moments import (
    ATTR_KINDS,
    FAMILY_OF,
    MACHINE_UNIT_KINDS,
    MOMENT_KINDS,
    SEEN_AS_IT_HAPPENS,
    UNIT_KINDS,
    destination,
    moment_of,
)
from onrecord.reconstruct.places import place_key
from onrecord.reconstruct.who_is_who import WhoIsWho


def moments_table(events: pd.DataFrame, who: WhoIsWho, words: dict | None = None,
                  crossings: dict | None = None) -> pd.DataFrame:
    """Events that record a shareable moment, with what/who/rank and their source-clock time.
    `words`: per source id, the lexicons its text is read with (sources/lexicon.py;
    the bundled ones for a source not in it). `crossings`: AVL fixes that put a car inside
    its dispatch system's geofence -> the car's fix before (geofence.py)."""
    out = _moments_table(events, who, words)
    return _crossed(out, events, crossings or {})


def _crossed(table: pd.DataFrame, events: pd.DataFrame, crossings: dict) -> pd.DataFrame:
    """A geofence crossing is the car's arrival, made as it happens: somewhere after its fix
    before and by this fix (t_mid, width span the two). `t_fix` keeps the fix's own time,
    which CAD's copy of it stamps (clocks.py, avl_copies.py); `crossing` marks it."""
    table = table.assign(t_fix=table["t_mid"], w_fix=table["width"], crossing=False)
    if not crossings or table.empty:
        return table
    at = table["id"].isin(list(crossings)).to_numpy()
    if not at.any():
        return table
    lo = dict(zip(events["id"], events["t_src_lo"]))
    hi = dict(zip(events["id"], events["t_src_hi"]))
    ids = table["id"].to_numpy()[at]
    start = np.array([lo[crossings[i]] for i in ids], dtype="float64")
    end = np.array([hi[i] for i in ids], dtype="float64")
    t_mid, width, family, rank = (table[c].to_numpy().copy() for c in ("t_mid", "width", "family", "rank"))
    family = family.astype(object)
    t_mid[at], width[at], family[at], rank[at] = (start + end) / 2, end - start, "unit_arrived", 0
    return table.assign(t_mid=t_mid, width=width, family=family, rank=rank, crossing=at)


def _moments_table(events: pd.DataFrame, who: WhoIsWho, words: dict | None = None) -> pd.DataFrame:
    words = words or {}
    timed = events.loc[events["t_src_lo"].notna().to_numpy() & events["kind"].isin(MOMENT_KINDS).to_numpy(),
                       ["id", "source_id", "kind", "t_src_lo", "t_src_hi", "agency", "text", "attrs", "place",
                        "source_kind", "call"]]
    units = timed["id"].map(who.unit_by_event()).to_numpy()
    # the bulk (every CAD status of every unit, a year of calls) is read column-wise, as
    # plain arrays (millions of rows: no index to line up) ...
    in_bulk = timed["kind"].isin(UNIT_KINDS).to_numpy() & ~np.isnan(units)
    bulk = timed[in_bulk]
    lo, hi = bulk["t_src_lo"].to_numpy(), bulk["t_src_hi"].to_numpy()
    fast = pd.DataFrame({"id": bulk["id"].to_numpy(), "source_id": bulk["source_id"].to_numpy(),
                         "t_mid": (lo + hi) / 2, "width": hi - lo,
                         "family": bulk["kind"].astype(str).replace(FAMILY_OF).to_numpy(),
                         "who": units[in_bulk].astype("int64").astype(object),
                         "rank": _unit_ranks(bulk),
                         "agency": bulk["agency"].to_numpy(), "device": None, "detail": None,
                         "declared_copy": False, "spoken": False, "place": None})
    fast = _as_entered(fast, bulk)
    # ... the rest, whose text or attributes say what moment it is, one by one; a call
    # record is a shareable moment only with the caller's number (a year of a CAD's
    # "call received" rows without one is passed over unread)
    rest = timed[~in_bulk]
    calls = rest["kind"].isin(("call_received", "call_answered", "call_transferred"))
    rest = rest[~calls | rest["attrs"].fillna("").str.contains('"ani"', regex=False)]
    rows = []
    for r in rest.itertuples(index=False):
        attrs = json.loads(r.attrs) if r.attrs and r.kind in ATTR_KINDS else {}
        m = moment_of(r.kind, r.text, who.unit_of_event.get(r.id), attrs, r.source_kind in SEEN_AS_IT_HAPPENS,
                      words.get(r.source_id), None if _blank(r.call) else str(r.call))
        if m is None or (m.what == "shots_heard" and r.id in who.named_first):
            continue  # (shots said on a line whose speaker is not known: maybe a dispatcher relaying a call)
        family = "entry" if m.what == "door" else m.what
        if family == "incident_created" and _blank(r.agency):
            continue  # an incident number means something only within its agency's system
        # the same number answered, or an incident of that number opened, at two agencies
        # is two acts
        key = (r.agency, m.who) if family == "call_answered" else \
            f"{r.agency}|{m.who}" if family == "incident_created" else m.who
        # which sensor heard it: one sensor reports one burst (or one door opening) once
        device = attrs.get("device") if r.kind in ("shots_detected", "door_event") else None
        detail = destination(r.kind, r.text, r.place) if family == "patient_transported" else None
        # spoken: the words of a transmission; two recorders logging one transmission
        # stamp one moment, where two other reports of a moment each trail it their own way
        # where a door opened or a camera saw someone go in: the door it names (places.py)
        place = place_key(r.place) if family == "entry" and m.who is None else None
        rows.append((r.id, r.source_id, (r.t_src_lo + r.t_src_hi) / 2, r.t_src_hi - r.t_src_lo,
                     family, key, m.rank, r.agency, device, detail, False, r.kind == "radio_transmission", place))
    slow = pd.DataFrame(_answers_keyed(rows), columns=list(fast.columns))
    return pd.concat([fast, slow], ignore_index=True) if len(slow) else fast.reset_index(drop=True)


# How a status was entered (attribute entered_by, docs/attributes.md) says how soon after
# its moment it was made: a crew's terminal a few seconds on, like a spoken report; a
# dispatcher's typing from that report later. CAD's copy of an AVL fix keeps its kind's
# rank (an arrival so stamped only bounds the arrival: the car got there by that fix) and
# shares the fix's own moment instead (declared_copy; avl_arrival.py bounds it).
ENTERED_RANK = {"terminal": 1, "dispatcher": 2}


def _as_entered(fast: pd.DataFrame, bulk: pd.DataFrame) -> pd.DataFrame:
    """Where the mapping says how each status was entered, its rank is that; a status that
    is CAD's copy of an AVL fix shares the fix's moment (declared_copy)."""
    said = bulk["attrs"].fillna("").str.contains('"entered_by"', regex=False).to_numpy()
    if not said.any():
        return fast
    how = [json.loads(a).get("entered_by") for a in bulk["attrs"].to_numpy()[said]]
    rank = fast["rank"].to_numpy().copy()
    copy = np.zeros(len(fast), dtype=bool)
    at = np.flatnonzero(said)
    rank[at] = [ENTERED_RANK.get(h, r) for h, r in zip(how, rank[at])]
    copy[at] = [h == "avl" for h in how]
    return fast.assign(rank=rank, declared_copy=copy)


def _unit_ranks(bulk: pd.DataFrame) -> np.ndarray:
    """0 for a record made as it happens (a CAD dispatch, a fix, what a camera sees), 2 typed."""
    made = bulk["kind"].isin(MACHINE_UNIT_KINDS) | bulk["source_kind"].isin(SEEN_AS_IT_HAPPENS)
    return (~made).to_numpy().astype(int) * 2


def _answers_keyed(rows: list[tuple]) -> list[tuple]:
    """A call answered is keyed by the answering agency and the caller's number: the same
    number answered at two agencies is two acts. A record with no agency (a phone log
    mapped without one) takes the one agency that answered that number elsewhere; with
    none, it is keyed by the number alone; with several, it cannot say whose answer it is
    and stays apart (never matched by guess)."""
    agencies: dict[str, set] = {}
    for row in rows:
        if row[4] == "call_answered" and not _blank(row[7]):
            agencies.setdefault(row[5][1], set()).add(row[7])
    out = []
    for row in rows:
        if row[4] == "call_answered":
            agency, number = row[5]
            if _blank(agency):
                known = agencies.get(number, set())
                agency = next(iter(known)) if len(known) == 1 else (f"?{row[0]}" if known else None)
            row = (*row[:5], f"{agency}|{number}", *row[6:])
        out.append(row)
    return out


def _blank(value) -> bool:
    return value is None or value != value or value == ""


def aligned_times(events: pd.DataFrame, clocks: dict[int, ClockEstimate]) -> pd.DataFrame:
    """t_lo/t_hi on the common clock: written interval, shifted by the offset, widened by
    its uncertainty (an unknown clock: by UNKNOWN_UNCERTAINTY_S)."""
    offset, drift_unc = _offsets(events, clocks)
    unc = events["source_id"].map({s: _uncertainty(c) for s, c in clocks.items()}) \
        .fillna(UNKNOWN_UNCERTAINTY_S).to_numpy(dtype="float64") + drift_unc
    lo = events["t_src_lo"].to_numpy(dtype="float64")
    hi = events["t_src_hi"].to_numpy(dtype="float64")
    off_hi, off_lo = offset + unc, offset - unc
    # an unsure clock the order of records narrowed (order_bounds.py): its range, one side
    # or both narrower than offset ± uncertainty
    ranged = {s: c.offset_range for s, c in clocks.items() if c is not None and c.offset_range}
    if ranged:
        ids = events["source_id"]
        r_lo = ids.map({s: r[0] for s, r in ranged.items()}).to_numpy(dtype="float64")
        r_hi = ids.map({s: r[1] for s, r in ranged.items()}).to_numpy(dtype="float64")
        at = ~np.isnan(r_lo)
        off_lo, off_hi = np.where(at, r_lo, off_lo), np.where(at, r_hi, off_hi)
    return pd.DataFrame({
        "event_id": events["id"].to_numpy(),
        "t_lo": np.round(lo - off_hi * 1000),
        "t_hi": np.round(hi - off_lo * 1000),
    })


def _offset(c: ClockEstimate | None) -> float:
    if c is None:
        return 0.0
    if c.offset_s is None:
        return c.relative_s or 0.0
    return c.offset_s


def _offsets(events: pd.DataFrame, clocks: dict[int, ClockEstimate]) -> tuple[np.ndarray, np.ndarray]:
    """Each event's clock offset (s) and what its source's drift adds to the uncertainty:
    a drifting clock's offset carried to the event's own time (drift.py)."""
    ids = events["source_id"]
    offset = ids.map({s: _offset(c) for s, c in clocks.items()}).fillna(0.0).to_numpy(dtype="float64")
    extra = np.zeros(len(events))
    drifting = {s: c for s, c in clocks.items() if c is not None and c.drift_ppm and c.offset_s is not None}
    if drifting:
        rate = ids.map({s: c.drift_ppm * 1e-6 for s, c in drifting.items()}).fillna(0.0).to_numpy(dtype="float64")
        sd = ids.map({s: (c.drift_sd_ppm or 0.0) * 1e-6 for s, c in drifting.items()}).fillna(0.0) \
            .to_numpy(dtype="float64")
        ref = ids.map({s: c.drift_ref_ms for s, c in drifting.items()}).fillna(0.0).to_numpy(dtype="float64")
        since = np.where(rate != 0, np.nan_to_num(events["t_src_lo"].to_numpy(dtype="float64")) - ref, 0.0) / 1000.0
        offset, extra = offset + rate * since, sd * np.abs(since)
    return offset, extra


def written_interval(events: pd.DataFrame, clocks: dict[int, ClockEstimate]) -> pd.DataFrame:
    """The written interval moved onto the common clock, without the clock's uncertainty:
    what fusion compares (records of one moment from one clock family line up exactly)."""
    shift = _offsets(events, clocks)[0] * 1000
    return pd.DataFrame({"id": events["id"].to_numpy(),
                         "lo": events["t_src_lo"].to_numpy(dtype="float64") - shift,
                         "hi": events["t_src_hi"].to_numpy(dtype="float64") - shift})


def _uncertainty(c: ClockEstimate | None) -> float:
    if c is None or c.offset_s is None:
        return UNKNOWN_UNCERTAINTY_S
    return c.uncertainty_s or 0.0

"""From clock estimates to every event's time on the common clock, as an interval."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S, ClockEstimate
from onrecord.reconstruct.entities import WhoIsWho
from onrecord.reconstruct.moments import moment_of


def moments_table(events: pd.DataFrame, who: WhoIsWho) -> pd.DataFrame:
    """Events that record a shareable moment, with what/who/lag and their source-clock time."""
    rows = []
    timed = events[events["t_src_lo"].notna()]
    for r in timed.itertuples(index=False):
        attrs = json.loads(r.attrs) if r.attrs else {}
        m = moment_of(r.kind, r.text, who.unit_of_event.get(r.id), attrs)
        if m is None:
            continue
        family = "entry" if m.what == "door" else m.what
        rows.append((r.id, r.source_id, (r.t_src_lo + r.t_src_hi) / 2, r.t_src_hi - r.t_src_lo,
                     family, m.who, m.rank, r.agency))
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def aligned_times(events: pd.DataFrame, clocks: dict[int, ClockEstimate]) -> pd.DataFrame:
    """t_lo/t_hi on the common clock: written interval, shifted by the offset, widened by
    its uncertainty (an unknown clock: by UNKNOWN_UNCERTAINTY_S)."""
    src = events["source_id"].to_numpy()
    offset = np.array([_offset(clocks.get(int(s))) for s in src])
    unc = np.array([_uncertainty(clocks.get(int(s))) for s in src])
    lo = events["t_src_lo"].to_numpy(dtype="float64")
    hi = events["t_src_hi"].to_numpy(dtype="float64")
    return pd.DataFrame({
        "event_id": events["id"].to_numpy(),
        "t_lo": np.round(lo - (offset + unc) * 1000),
        "t_hi": np.round(hi - (offset - unc) * 1000),
    })


def _offset(c: ClockEstimate | None) -> float:
    if c is None:
        return 0.0
    if c.offset_s is None:
        return c.relative_s or 0.0
    return c.offset_s


def written_interval(events: pd.DataFrame, clocks: dict[int, ClockEstimate]) -> pd.DataFrame:
    """The written interval moved onto the common clock, without the clock's uncertainty:
    what fusion compares (records of one moment from one clock family line up exactly)."""
    shift = np.array([_offset(clocks.get(int(s))) for s in events["source_id"].to_numpy()]) * 1000
    return pd.DataFrame({"id": events["id"].to_numpy(),
                         "lo": events["t_src_lo"].to_numpy(dtype="float64") - shift,
                         "hi": events["t_src_hi"].to_numpy(dtype="float64") - shift})


def _uncertainty(c: ClockEstimate | None) -> float:
    if c is None or c.offset_s is None:
        return UNKNOWN_UNCERTAINTY_S
    return c.uncertainty_s or 0.0

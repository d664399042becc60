"""Loading a case's events for reconstruction, as one table, through the case's reader."""

from __future__ import annotations

import numpy as np
import pandas as pd


def load_events(reader) -> pd.DataFrame:
    """Every event of the case, with its source's kind and file name. Millions of rows:
    read as Arrow columns by the case's reader, and the two source columns filled in
    from the few sources, not joined into every row."""
    df = reader.event_frame()
    for name in ("t_src_lo", "t_src_hi"):
        df[name] = pd.to_numeric(df[name], errors="coerce").astype("float64")
    for name in ("id", "source_id"):
        df[name] = df[name].astype("int64")
    src = reader.sources()
    df["source_kind"] = df["source_id"].map({s["id"]: s["kind"] for s in src})
    df["file_name"] = df["source_id"].map({s["id"]: s["file_name"] for s in src})
    # A few dozen distinct values over millions of rows, compared over and over
    # (kind == "shots_detected"): categories compare their codes, not every string.
    for name in ("kind", "source_kind", "file_name"):
        df[name] = df[name].astype("category")
    return df


def whole_seconds(events: pd.DataFrame, whole: set[int]) -> pd.DataFrame:
    """A time written to the second stands for that whole second: 14:11:19 is any instant
    from 14:11:19.000 to 14:11:19.999, and on average half a second later than written.
    The zero-width times of the sources in `whole` (whole_second_sources) become the
    second they name (a millisecond log keeps its own)."""
    if not whole:
        return events
    widen = events["source_id"].isin(whole) & (events["t_src_hi"] == events["t_src_lo"])
    if not widen.any():
        return events
    return events.assign(t_src_hi=events["t_src_hi"].where(~widen, events["t_src_lo"] + WHOLE_SECOND_MS))


WHOLE_SECOND_MS = 999


def whole_second_sources(events: pd.DataFrame) -> set[int]:
    """Sources that write whole seconds: none of their times has a fraction of a second."""
    lo = events["t_src_lo"].to_numpy()
    timed = ~np.isnan(lo)
    # the sources with a time that has a fraction of a second, from two columns only
    fractional = set(np.unique(events["source_id"].to_numpy()[timed & (lo % 1000 != 0)]).tolist())
    return {int(s) for s in np.unique(events["source_id"].to_numpy()[timed]).tolist()} - fractional


def load_sources(reader) -> pd.DataFrame:
    return reader.source_frame()

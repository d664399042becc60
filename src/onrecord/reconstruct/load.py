"""Loading a case's events for reconstruction, as one table."""

from __future__ import annotations


import numpy as np
import pandas as pd
from sqlalchemy import select, text

from onrecord.store.arrow_read import arrow_frame
from onrecord.store.engine import is_sqlite
from onrecord.store.schema import events, sources

# Event kinds the reconstruction reasons about; others (prior contacts, background
# calls) are still aligned and kept, but not read for anchors or entities.
ROSTER = "roster_entry"


def load_events(reader) -> pd.DataFrame:
    """Every event of the case, with its source's kind and file name. Millions of rows:
    read as Arrow columns (store/arrow_read.py), and the two source columns filled in
    from the few sources, not joined into every row."""
    case = reader.case
    c = events.c
    cols = (c.id, c.source_id, c.kind, c.t_src_lo, c.t_src_hi, c.agency, c.unit, c.call, c.actor,
            c.channel, c.place, c.text, c.attrs)
    with case.engine.connect() as conn:
        src = conn.execute(select(sources.c.id, sources.c.kind, sources.c.file_name)
                           .where(sources.c.case_id == case.id)).all()
    if is_sqlite(case.engine):
        # `+case_id` keeps SQLite off the case-and-time index: a case file holds one case,
        # and the plain scan of the table comes back in id order with no sort to do
        # (at three million events, 3.3 s where the index and a sort took 6.8 s).
        one_case = text("+events.case_id = :case").bindparams(case=case.id)
    else:
        one_case = c.case_id == case.id
    df = arrow_frame(case, select(*cols).where(one_case).order_by(c.id), categories=("kind",))
    for name in ("t_src_lo", "t_src_hi"):
        df[name] = pd.to_numeric(df[name], errors="coerce").astype("float64")
    for name in ("id", "source_id"):
        df[name] = df[name].astype("int64")
    kinds = {i: k for i, k, _ in src}
    files = {i: f for i, _, f in src}
    df["source_kind"] = df["source_id"].map(kinds)
    df["file_name"] = df["source_id"].map(files)
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
    case = reader.case
    with case.engine.connect() as conn:
        return pd.read_sql(select(sources).where(sources.c.case_id == case.id), conn)

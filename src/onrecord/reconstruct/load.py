"""Loading a case's events for reconstruction, as one table."""

from __future__ import annotations

import json

import pandas as pd
from sqlalchemy import select

from onrecord.store.case import Case
from onrecord.store.schema import events, sources

# Event kinds the reconstruction reasons about; others (prior contacts, background
# calls) are still aligned and kept, but not read for anchors or entities.
ROSTER = "roster_entry"


def load_events(case: Case) -> pd.DataFrame:
    c = events.c
    stmt = (
        select(c.id, c.source_id, c.kind, c.t_src_lo, c.t_src_hi, c.agency, c.unit, c.call, c.actor,
               c.channel, c.place, c.text, c.attrs, sources.c.kind.label("source_kind"),
               sources.c.file_name)
        .join(sources, sources.c.id == c.source_id)
        .where(c.case_id == case.id)
        .order_by(c.id)
    )
    with case.engine.connect() as conn:
        df = pd.read_sql(stmt, conn)
    return df


def whole_seconds(events: pd.DataFrame) -> pd.DataFrame:
    """A time written to the second stands for that whole second: 14:11:19 is any instant
    from 14:11:19.000 to 14:11:19.999, and on average half a second later than written.
    A source none of whose times has a fraction of a second writes whole seconds; its
    zero-width times become the second they name (a millisecond log keeps its own)."""
    timed = events["t_src_lo"].notna()
    if not timed.any():
        return events
    whole = (events["t_src_lo"] % 1000 == 0) | ~timed
    by_source = whole.groupby(events["source_id"]).transform("all")
    widen = by_source & timed & (events["t_src_hi"] == events["t_src_lo"])
    if not widen.any():
        return events
    return events.assign(t_src_hi=events["t_src_hi"].where(~widen, events["t_src_lo"] + 999))


def attrs_of(df: pd.DataFrame) -> list[dict]:
    return [json.loads(a) if a else {} for a in df["attrs"]]


def load_sources(case: Case) -> pd.DataFrame:
    with case.engine.connect() as conn:
        return pd.read_sql(select(sources).where(sources.c.case_id == case.id), conn)

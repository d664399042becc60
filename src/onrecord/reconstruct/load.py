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


def attrs_of(df: pd.DataFrame) -> list[dict]:
    return [json.loads(a) if a else {} for a in df["attrs"]]


def load_sources(case: Case) -> pd.DataFrame:
    with case.engine.connect() as conn:
        return pd.read_sql(select(sources).where(sources.c.case_id == case.id), conn)

"""Every read of case data goes through here, so an access check and an audit of reads
can later land in one place (issue: sign-in, per-agency access, audit of every read)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from onrecord.store.case import Case
from onrecord.store.schema import events, raw_records, sources


@dataclass
class TimelineQuery:
    t_from: int | None = None  # UTC ms
    t_to: int | None = None
    agency: str | None = None
    unit: str | None = None
    kind: str | None = None
    limit: int | None = None
    offset: int = 0


class CaseReader:
    def __init__(self, case: Case):
        self.case = case

    def display_zone(self) -> ZoneInfo:
        """The case's local zone: set in onrecord.toml, else the zone most sources were written in."""
        zone = self.case.settings.get("case", {}).get("timezone")
        if not zone:
            with self.case.engine.connect() as conn:
                zone = conn.execute(
                    select(sources.c.timezone).where(sources.c.case_id == self.case.id,
                                                     sources.c.timezone.is_not(None))
                    .group_by(sources.c.timezone).order_by(func.count().desc()).limit(1)
                ).scalar()
        return ZoneInfo(zone or "UTC")

    def sources(self) -> list[dict]:
        with self.case.engine.connect() as conn:
            rows = conn.execute(select(sources).where(sources.c.case_id == self.case.id).order_by(sources.c.id))
            return [dict(r._mapping) for r in rows]

    def _timeline_select(self, q: TimelineQuery):
        c = events.c
        stmt = (
            select(c.id, c.kind, c.time_text, c.t_src_lo, c.t_src_hi, c.agency, c.unit, c.call, c.actor,
                   c.channel, c.place, c.lat, c.lon, c.text, c.attrs, c.source_id,
                   sources.c.file_name, sources.c.kind.label("source_kind"),
                   raw_records.c.id.label("record_id"), raw_records.c.ordinal, raw_records.c.sha256)
            .join(sources, sources.c.id == c.source_id)
            .join(raw_records, raw_records.c.id == c.raw_record_id)
            .where(c.case_id == self.case.id)
        )
        if q.t_from is not None:
            stmt = stmt.where(c.t_src_lo >= q.t_from)
        if q.t_to is not None:
            stmt = stmt.where(c.t_src_lo <= q.t_to)
        for col, value in ((c.agency, q.agency), (c.unit, q.unit), (c.kind, q.kind)):
            if value:
                stmt = stmt.where(col == value)
        return stmt

    def timeline(self, q: TimelineQuery) -> tuple[list[dict], int]:
        """Events in time order (untimed ones last), with their source line; and the total."""
        stmt = self._timeline_select(q)
        count = select(func.count()).select_from(stmt.subquery())
        stmt = stmt.order_by(events.c.t_src_lo.is_(None), events.c.t_src_lo, events.c.id).offset(q.offset)
        if q.limit:
            stmt = stmt.limit(q.limit)
        with self.case.engine.connect() as conn:
            total = conn.execute(count).scalar()
            rows = [dict(r._mapping) for r in conn.execute(stmt)]
        for r in rows:
            r["attrs"] = json.loads(r["attrs"]) if r["attrs"] else {}
            r["sha256"] = bytes(r["sha256"]).hex()
        return rows, total

    def raw_record(self, record_id: int) -> dict | None:
        with self.case.engine.connect() as conn:
            row = conn.execute(select(raw_records).where(raw_records.c.id == record_id,
                                                         raw_records.c.case_id == self.case.id)).first()
        return dict(row._mapping) if row else None


def to_local(ms: int | None, zone: ZoneInfo) -> datetime | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone)


def to_utc_iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")

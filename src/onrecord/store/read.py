"""Every read of case data goes through here, so an access check and an audit of reads
can later land in one place (issue: sign-in, per-agency access, audit of every read)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from sqlalchemy import func, literal_column, select

from onrecord.store.case import Case
from onrecord.store.schema import (aligned_events, cases, claims as claims_t, clock_estimates, entities as entities_t,
                                   events, findings as findings_t, fused_events, raw_records, sources)


@dataclass
class TimelineQuery:
    t_from: int | None = None  # UTC ms
    t_to: int | None = None
    agency: str | None = None
    unit: str | None = None
    kind: str | None = None
    limit: int | None = None
    offset: int = 0



# ---- Reads for the web pages, the API and the report (views/web, views/report).
# Kept here so the coming access check and read audit wrap every one of them.


@dataclass
class WindowQuery:
    """A window of the timeline, one page at a time (keyset paging: stable under inserts)."""
    t_from: int | None = None  # UTC ms, inclusive
    t_to: int | None = None  # UTC ms, inclusive
    agency: str | None = None
    unit: str | None = None
    kind: str | None = None  # event kind
    source_kind: str | None = None
    kinds: tuple[str, ...] = ()  # any of these event kinds
    limit: int = 500
    after: tuple[int, int] | None = None  # (time, event id) of the last row of the previous page


def _loads(text: str | None, empty):
    return json.loads(text) if text else empty


def _raw_text(raw) -> str:
    return bytes(raw).decode("utf-8", errors="replace").rstrip("\r\n")


class CaseViews:
    """Mixin of CaseReader: the reads behind the web pages, the API and the report."""

    case: Case

    def _count(self, table) -> int:
        with self.case.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(table).where(table.c.case_id == self.case.id)).scalar()

    def _exists(self, table) -> bool:
        with self.case.engine.connect() as conn:
            return conn.execute(select(table.c.case_id).where(table.c.case_id == self.case.id).limit(1)).first() \
                is not None

    def is_built(self) -> bool:
        """`onrecord build` has run: the case has aligned times (else times are each source's own clock)."""
        return self._exists(aligned_events)

    def version(self) -> tuple:
        """Changes when an import adds records or a build first fills the derived tables: cheap to
        ask on every request, so slow summaries (filter values, the busiest window) can be cached."""
        with self.case.engine.connect() as conn:
            count = conn.execute(select(cases.c.record_count).where(cases.c.id == self.case.id)).scalar()
        return count, self.is_built()

    def derived_counts(self) -> dict[str, int]:
        return {t.name: self._count(t) for t in (clock_estimates, aligned_events, fused_events, entities_t,
                                                  claims_t, findings_t)}

    def facets(self, window: tuple[int, int] | None = None, unit_limit: int = 2000) -> dict:
        """The values the filters offer, without a scan of every event (a case may hold millions):
        agencies and kinds of the sources, plus those seen in `window`; units seen in `window`."""
        from onrecord.vocab import EVENT_KINDS

        e, s = events.c, sources.c
        with self.case.engine.connect() as conn:
            srcs = conn.execute(select(s.agency, s.kind, s.event_count).where(s.case_id == self.case.id)).all()
            first = conn.execute(select(func.min(e.t_src_lo)).where(e.case_id == self.case.id)).scalar()
            last = conn.execute(select(func.max(e.t_src_lo)).where(e.case_id == self.case.id)).scalar()
            agencies, kinds, units = {a for a, _, _ in srcs if a}, set(), set()
            if window:
                near = select(e.agency, e.kind, e.unit).where(e.case_id == self.case.id, e.t_src_lo >= window[0],
                                                              e.t_src_lo <= window[1]).distinct()
                for agency, kind, unit in conn.execute(near):
                    agencies.add(agency) if agency else None
                    kinds.add(kind)
                    units.add(unit) if unit else None
        return {"agencies": sorted(agencies), "kinds": sorted(kinds | EVENT_KINDS),
                "units": sorted(units)[:unit_limit], "source_kinds": sorted({k for _, k, _ in srcs}),
                "events": sum(n for _, _, n in srcs), "t_min": first, "t_max": last}

    def busiest_window(self, bucket_ms: int = 600_000, max_gap: int = 2,
                       max_buckets: int = 36) -> tuple[int, int] | None:
        """The incident's stretch of time: the busiest 10-minute bucket, widened while neighbours
        (up to `max_gap` empty buckets apart) have events. Prior contacts years earlier stay out.
        A big case finds the peak on a sample of 10,000 events, then counts exactly around it."""
        built = self.is_built()
        t = self._time_cols(built)[0]
        bucket = t // literal_column(str(int(bucket_ms)))
        peak = self._sampled_peak(bucket_ms, built)
        # The bucket size is a literal: as a bind parameter PostgreSQL cannot match SELECT to GROUP BY.
        stmt = self._window_from(select(bucket, func.count()), built).where(t.is_not(None)).group_by(bucket)
        if peak is not None:
            reach = (max_buckets + max_gap + 2) * bucket_ms
            stmt = stmt.where(t >= peak - reach, t <= peak + reach)
        with self.case.engine.connect() as conn:
            counts = {int(b): n for b, n in conn.execute(stmt)}
        if not counts:
            return None
        lo = hi = max(counts, key=counts.get)
        near = lambda b, step: [b + step * k for k in range(1, max_gap + 2) if b + step * k in counts]
        # A year of busy background calls would chain on for ever: stop at max_buckets.
        while hi - lo < max_buckets and (near(lo, -1) or near(hi, 1)):
            lo, hi = (near(lo, -1) or [lo])[0], (near(hi, 1) or [hi])[0]
        return lo * bucket_ms, (hi + 1) * bucket_ms

    def _sampled_peak(self, bucket_ms: int, built: bool, sample: int = 10_000) -> int | None:
        """Time of the busiest bucket among a fixed random sample of event ids; None for small cases."""
        import random

        with self.case.engine.connect() as conn:
            lo, hi = conn.execute(select(func.min(events.c.id), func.max(events.c.id))).one()
            if lo is None or hi - lo < 5 * sample:
                return None
            ids = random.Random(hi).sample(range(lo, hi + 1), sample)  # same case, same sample
            t = self._time_cols(built)[0]
            stmt = self._window_from(select(t), built).where(events.c.id.in_(ids), t.is_not(None))
            times = [v for (v,) in conn.execute(stmt)]
        if not times:
            return None
        counts: dict[int, int] = {}
        for v in times:
            counts[v // bucket_ms] = counts.get(v // bucket_ms, 0) + 1
        return max(counts, key=counts.get) * bucket_ms

    # -- the timeline window: aligned times once built, each source's own clock before

    @staticmethod
    def _time_cols(built: bool):
        return (aligned_events.c.t_lo, aligned_events.c.t_hi) if built else (events.c.t_src_lo, events.c.t_src_hi)

    def _window_from(self, stmt, built: bool, with_sources: bool = True):
        """FROM and case filter: driven by the aligned table's time index when built. Counting
        a million rows is quicker without the join to sources, so it is left out when unneeded."""
        base = aligned_events.join(events, events.c.id == aligned_events.c.event_id) if built else events
        if with_sources:
            base = base.join(sources, sources.c.id == events.c.source_id)
        return stmt.select_from(base).where((aligned_events if built else events).c.case_id == self.case.id)

    def _window_where(self, stmt, q: WindowQuery, built: bool):
        t, _ = self._time_cols(built)
        e = events.c
        stmt = stmt.where(t.is_not(None))
        if q.t_from is not None:
            stmt = stmt.where(t >= q.t_from)
        if q.t_to is not None:
            stmt = stmt.where(t <= q.t_to)
        for col, value in ((e.agency, q.agency), (e.unit, q.unit), (e.kind, q.kind), (sources.c.kind, q.source_kind)):
            if value:
                stmt = stmt.where(col == value)
        if q.kinds:
            stmt = stmt.where(e.kind.in_(q.kinds))
        return stmt

    def window(self, q: WindowQuery) -> dict:
        """One page of events in [t_from, t_to], time order; `next` resumes after its last row."""
        built = self.is_built()
        t, t_hi = self._time_cols(built)
        e = events.c
        stmt = self._window_from(select(
            e.id, e.kind, e.time_text, t.label("t_lo"), t_hi.label("t_hi"), e.t_src_lo, e.agency, e.unit, e.call,
            e.actor, e.channel, e.place, e.text, e.source_id, sources.c.file_name,
            sources.c.kind.label("source_kind"), raw_records.c.ordinal), built) \
            .join(raw_records, raw_records.c.id == e.raw_record_id)
        stmt = self._window_where(stmt, q, built)
        if q.after is not None:
            stmt = stmt.where((t > q.after[0]) | ((t == q.after[0]) & (e.id > q.after[1])))
        stmt = stmt.order_by(t, e.id).limit(q.limit + 1)
        with self.case.engine.connect() as conn:
            result = conn.execute(stmt)
            keys = list(result.keys())  # once, not per row: 20,000 rows are drawn at a time
            rows = [dict(zip(keys, r)) for r in result.fetchall()]
        more = len(rows) > q.limit
        rows = rows[:q.limit]
        return {"clock": "aligned" if built else "source", "events": rows,
                "next": (rows[-1]["t_lo"], rows[-1]["id"]) if more else None}

    def window_points(self, q: WindowQuery) -> list[tuple]:
        """The chart's few columns for up to q.limit events, as plain tuples (tens of thousands at once):
        (id, time, agency, unit, source kind, kind, text, file, line)."""
        built = self.is_built()
        t, _ = self._time_cols(built)
        e = events.c
        stmt = self._window_from(select(e.id, t, e.agency, e.unit, sources.c.kind, e.kind, e.text,
                                        sources.c.file_name, raw_records.c.ordinal), built) \
            .join(raw_records, raw_records.c.id == e.raw_record_id)
        stmt = self._window_where(stmt, q, built).order_by(t, e.id).limit(q.limit)
        with self.case.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(stmt).fetchall()]

    def window_count(self, q: WindowQuery, cap: int) -> int:
        """Events in the window, counted up to `cap` only: enough to choose points or bins, cheap at 1M."""
        built = self.is_built()
        inner = self._window_where(self._window_from(select(events.c.id), built, bool(q.source_kind)), q, built) \
            .limit(cap)
        with self.case.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(inner.subquery())).scalar()

    def window_bins(self, q: WindowQuery, bucket_ms: int, lane: str) -> list[dict]:
        """Events counted per agency, lane value and time bucket: the chart when points are too many."""
        built = self.is_built()
        t, _ = self._time_cols(built)
        # Source kind is looked up per source afterwards: no join per event.
        lane_col = {"agency": events.c.agency, "unit": events.c.unit, "source": events.c.source_id}[lane]
        bucket = (t // literal_column(str(int(bucket_ms)))).label("bucket")
        stmt = self._window_from(select(events.c.agency, lane_col.label("lane"), bucket, func.count().label("n")),
                                 built, bool(q.source_kind))
        stmt = self._window_where(stmt, q, built).group_by(events.c.agency, lane_col, bucket)
        kinds = {s["id"]: s["kind"] for s in self.sources()} if lane == "source" else {}
        out: dict[tuple, int] = {}
        with self.case.engine.connect() as conn:
            for a, ln, b, n in conn.execute(stmt):
                key = (a, kinds.get(ln) if lane == "source" else ln, int(b))
                out[key] = out.get(key, 0) + n
        return [{"agency": a, "lane": ln, "t": b * bucket_ms, "n": n} for (a, ln, b), n in out.items()]

    # -- one event with everything it rests on

    def _detail_select(self):
        e, a, r, s = events.c, aligned_events.c, raw_records.c, sources.c
        return (select(e.id, e.kind, e.time_text, e.t_src_lo, e.t_src_hi, e.agency, e.unit, e.call, e.actor,
                       e.channel, e.place, e.lat, e.lon, e.text, e.attrs, e.source_id,
                       a.t_lo.label("t_aligned_lo"), a.t_hi.label("t_aligned_hi"), a.fused_id,
                       r.id.label("record_id"), r.ordinal, r.raw, r.sha256, r.seq,
                       s.file_name, s.kind.label("source_kind"), s.agency.label("source_agency"),
                       s.timezone, s.file_sha256)
                .select_from(events.join(raw_records, r.id == e.raw_record_id).join(sources, s.id == e.source_id)
                             .outerjoin(aligned_events, a.event_id == e.id))
                .where(e.case_id == self.case.id))

    def _details(self, where) -> list[dict]:
        with self.case.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(self._detail_select().where(where)
                                                           .order_by(events.c.t_src_lo, events.c.id))]
        clocks = self.clock_estimates() if rows else {}
        for r in rows:
            r["attrs"] = _loads(r["attrs"], {})
            r["raw"] = _raw_text(r["raw"])
            r["sha256"] = bytes(r["sha256"]).hex()
            r["clock"] = clocks.get(r["source_id"])
        return rows

    def event_detail(self, event_id: int) -> dict | None:
        """The event, its raw record (line, exact text, SHA-256), its source and the clock estimate applied."""
        rows = self._details(events.c.id == event_id)
        return rows[0] if rows else None

    def events_detail(self, ids) -> list[dict]:
        ids = sorted({int(i) for i in ids})
        return self._details(events.c.id.in_(ids)) if ids else []

    def fused_event(self, fused_id: int) -> dict | None:
        """A fused event and every report it was fused from, each with its source line."""
        with self.case.engine.connect() as conn:
            row = conn.execute(select(fused_events).where(fused_events.c.id == fused_id,
                                                          fused_events.c.case_id == self.case.id)).first()
        if row is None:
            return None
        # "reports" is the table's count column; the reports themselves go under "events".
        return dict(row._mapping) | {"events": self._details(aligned_events.c.fused_id == fused_id)}

    def clock_estimates(self) -> dict[int, dict]:
        """source id -> its clock estimate (offset_s: how far the clock runs ahead of true time)."""
        with self.case.engine.connect() as conn:
            rows = conn.execute(select(clock_estimates).where(clock_estimates.c.case_id == self.case.id))
            out = {r.source_id: dict(r._mapping) for r in rows}
        for r in out.values():
            r["evidence"] = _loads(r["evidence"], [])
        return out

    # -- findings and what they rest on

    def findings(self, kind: str | None = None) -> list[dict]:
        stmt = select(findings_t).where(findings_t.c.case_id == self.case.id)
        if kind:
            stmt = stmt.where(findings_t.c.kind == kind)
        with self.case.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(stmt.order_by(findings_t.c.id))]
        for r in rows:
            r["payload"] = _loads(r["payload"], {})
            r["evidence"] = _loads(r["evidence"], {})
        return rows

    def claims(self, ids=None) -> list[dict]:
        c = claims_t.c
        stmt = select(claims_t, sources.c.file_name, sources.c.kind.label("source_kind"),
                      sources.c.agency.label("source_agency")) \
            .join(sources, sources.c.id == c.source_id).where(c.case_id == self.case.id)
        if ids is not None:
            stmt = stmt.where(c.id.in_(sorted({int(i) for i in ids})))
        with self.case.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(stmt.order_by(c.source_id, c.span_lo, c.id))]
        for r in rows:
            r["payload"] = _loads(r["payload"], {})
        return rows

    def entities(self, kind: str | None = None) -> list[dict]:
        stmt = select(entities_t).where(entities_t.c.case_id == self.case.id)
        if kind:
            stmt = stmt.where(entities_t.c.kind == kind)
        with self.case.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(stmt.order_by(entities_t.c.kind, entities_t.c.name))]
        for r in rows:
            r["aliases"], r["attrs"], r["evidence"] = (_loads(r["aliases"], []), _loads(r["attrs"], {}),
                                                       _loads(r["evidence"], {}))
        return rows


class CaseReader(CaseViews):
    """Opened by store/reader.py: open_reader(case, actor), never directly."""

    def __init__(self, case: Case, actor):
        self.case, self.actor = case, actor

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

    def _timeline_select(self, q: TimelineQuery, built: bool):
        """Aligned times once the case is built; each source's own clock before."""
        c, a = events.c, aligned_events.c
        t_lo, t_hi = (a.t_lo, a.t_hi) if built else (c.t_src_lo, c.t_src_hi)
        stmt = (
            select(c.id, c.kind, c.time_text, c.t_src_lo, c.t_src_hi, t_lo.label("t_lo"), t_hi.label("t_hi"),
                   c.agency, c.unit, c.call, c.actor, c.channel, c.place, c.lat, c.lon, c.text, c.attrs,
                   c.source_id, sources.c.file_name, sources.c.kind.label("source_kind"),
                   raw_records.c.id.label("record_id"), raw_records.c.ordinal, raw_records.c.sha256)
            .join(sources, sources.c.id == c.source_id)
            .join(raw_records, raw_records.c.id == c.raw_record_id)
        )
        windowed = built and (q.t_from is not None or q.t_to is not None)
        if not windowed:
            stmt = stmt.where(c.case_id == self.case.id)
        if built:
            stmt = stmt.join(aligned_events, a.event_id == c.id)
            if windowed:
                # the window is found on the aligned-time index first, then its events
                # are looked up by id: a window costs its own size, not the case's
                window = select(a.event_id).where(a.case_id == self.case.id)
                if q.t_from is not None:
                    window = window.where(a.t_lo >= q.t_from)
                if q.t_to is not None:
                    window = window.where(a.t_lo <= q.t_to)
                stmt = stmt.where(c.id.in_(window))
        else:
            if q.t_from is not None:
                stmt = stmt.where(t_lo >= q.t_from)
            if q.t_to is not None:
                stmt = stmt.where(t_lo <= q.t_to)
        for col, value in ((c.agency, q.agency), (c.unit, q.unit), (c.kind, q.kind)):
            if value:
                stmt = stmt.where(col == value)
        return stmt, t_lo, t_hi

    def timeline(self, q: TimelineQuery) -> tuple[list[dict], int]:
        """Events in time order (untimed ones last), with their source line; and the total."""
        built = self.is_built()
        stmt, t_lo, t_hi = self._timeline_select(q, built)
        count = select(func.count()).select_from(stmt.subquery())
        # in order of each interval's middle: a roughly known time sits where it most likely was
        stmt = stmt.order_by(t_lo.is_(None), t_lo + t_hi, events.c.id).offset(q.offset)
        if q.limit:
            stmt = stmt.limit(q.limit)
        with self.case.engine.connect() as conn:
            total = conn.execute(count).scalar()
            rows = [dict(r._mapping) for r in conn.execute(stmt)]
        for r in rows:
            r["attrs"] = json.loads(r["attrs"]) if r["attrs"] else {}
            r["sha256"] = bytes(r["sha256"]).hex()
            r["clock"] = "aligned" if built else "source"
        return rows, total

    def raw_record(self, record_id: int) -> dict | None:
        with self.case.engine.connect() as conn:
            row = conn.execute(select(raw_records).where(raw_records.c.id == record_id,
                                                         raw_records.c.case_id == self.case.id)).first()
        return dict(row._mapping) if row else None

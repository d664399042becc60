"""The timeline reads of a CaseReader (store/reader.py): one query for events in time order
— the CLI's table, the web's pages of events, the report's rows — and, over the same
filters, the chart's points, counts and bins, the filter values and the incident's window.

Aligned times once the case is built, each source's own clock before. Statements only:
the reader runs them.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import bindparam, func, literal_column, select

from onrecord.store.schema import aligned_events, clock_estimates, event_listings, events, raw_records, sources


@dataclass
class TimelineQuery:
    """Which events, in which order, one page at a time."""

    t_from: int | None = None  # UTC ms, inclusive
    t_to: int | None = None  # UTC ms, inclusive
    agency: str | None = None
    unit: str | None = None
    kind: str | None = None  # event kind
    source_kind: str | None = None
    kinds: tuple[str, ...] = ()  # any of these event kinds
    limit: int | None = 500  # None: all
    # "start": by the start of each interval, paged by `after` (stable under inserts; on the
    # time index, a page costs its own size). "middle": by each interval's middle, where a
    # roughly known time most likely was (the CLI's table), untimed events last, by `offset`.
    order: Literal["start", "middle"] = "start"
    after: tuple[int, int] | None = None  # (time, event id) of the last row of the previous page
    offset: int = 0
    count: bool = False  # also count every event the filters match
    # "full": every column (the report, the CLI); "listing": without the attributes and the
    # record's hash, which a page of the web's list does not show (parsing each row's
    # attributes was a good part of its cost)
    columns: Literal["full", "listing"] = "full"
    # whether the case is built, when the caller has just read it with the case's version
    # (reader.version(): the web asks once per request); None: asked here
    built: bool | None = None


@dataclass
class TimelinePage:
    events: list[dict]
    clock: str  # "aligned" once built, else "source" (a row's own: "unknown" where its source's clock is)
    next: tuple[int, int] | None = None  # `after` for the next page, if there is one
    total: int | None = None  # every match, when the query asked to count
    ids: list[int] | None = None  # the events' ids, when `events` are their rows' texts (timeline_listing)


PAGE_STATEMENTS_KEPT = 64  # shapes of page query kept per reader (filters set, clock, page size)


def _window_values(q: TimelineQuery) -> dict:
    """The window's values by parameter name: those the query sets, each one condition."""
    given = (("t_from", q.t_from), ("t_to", q.t_to), ("agency", q.agency or None), ("unit", q.unit or None),
             ("kind", q.kind or None), ("source_kind", q.source_kind or None))
    return {name: value for name, value in given if value is not None}


# a listing row's keys whose values the renderer wrote, read from no case data (times, clock
# status, ids and line numbers): not redacted, as `_rows` never saw them
RENDERED = frozenset({"id", "clock", "t_lo", "t_hi", "local_lo", "local_hi", "local_text", "line"})


def _loads(text: str | None, empty):
    return json.loads(text) if text else empty


class TimelineReads:
    """Mixin of CaseReader."""

    @staticmethod
    def _time_cols(built: bool):
        return (aligned_events.c.t_lo, aligned_events.c.t_hi) if built else (events.c.t_src_lo, events.c.t_src_hi)

    def _window_from(self, stmt, built: bool, with_sources: bool = True):
        """FROM and case filter: driven by the aligned table's time index when built. Counting
        a million rows is quicker without the join to sources, so it is left out when unneeded."""
        base = aligned_events.join(events, events.c.id == aligned_events.c.event_id) if built else events
        if with_sources:
            base = base.join(sources, sources.c.id == events.c.source_id)
        stmt = stmt.select_from(base).where((aligned_events if built else events).c.case_id == self.case.id)
        if withheld := self.withheld_sources():  # sources restricted to another agency's users
            stmt = stmt.where(events.c.source_id.not_in(sorted(withheld)))
        return stmt

    def _window_where(self, stmt, q: TimelineQuery, built: bool, untimed: bool = False):
        """The window's conditions, one per value the query sets, each value a named
        parameter (_window_values): a statement kept for its shape is run again with the
        values of the next query of that shape (timeline)."""
        t, _ = self._time_cols(built)
        e = events.c
        if not untimed:
            stmt = stmt.where(t.is_not(None))
        condition = {"t_from": lambda v: t >= v, "t_to": lambda v: t <= v, "agency": lambda v: e.agency == v,
                     "unit": lambda v: e.unit == v, "kind": lambda v: e.kind == v,
                     "source_kind": lambda v: sources.c.kind == v}
        for name, value in _window_values(q).items():
            stmt = stmt.where(condition[name](bindparam(name, value)))
        if q.kinds:
            stmt = stmt.where(e.kind.in_(q.kinds))
        return stmt

    def timeline(self, q: TimelineQuery, without=None) -> TimelinePage:
        """Events in time order, each with its source line and the raw record's hash.
        `without`: a condition on the events left out (store/listing.py: those rendered already)."""
        built = self.is_built() if q.built is None else q.built
        middle, full = q.order == "middle", q.columns == "full"
        values = _window_values(q)
        if q.after is not None and not middle:
            values |= {"after_t": q.after[0], "after_id": q.after[1]}
        if middle or q.count or without is not None:  # the CLI's table, the report: a statement each time
            stmt, total = self._timeline_stmt(q, built), None
            if without is not None:
                stmt = stmt.where(~without)
            if q.count:
                total = self._scalar(select(func.count()).select_from(self._timeline_stmt(q, built, False)
                                                                      .subquery()))
        else:
            # The web's pages: one statement per shape of query (which filters are set, the
            # clock, what is withheld, the page size), built once and run with each page's
            # values: building it and working out its cache key cost SQLAlchemy as much as
            # SQLite took to run it.
            kept = self.__dict__.setdefault("_page_statements", {})
            key = (built, self.withheld_sources(), q.columns, tuple(values), q.kinds, q.limit)
            stmt = kept.get(key)
            if stmt is None:
                if len(kept) >= PAGE_STATEMENTS_KEPT:
                    kept.clear()
                stmt = kept[key] = self._timeline_stmt(q, built)
            total = None
        rows = self._rows(stmt, values)
        more = not middle and q.limit is not None and len(rows) > q.limit
        rows = rows[:q.limit] if q.limit is not None else rows
        clock = "aligned" if built else "source"
        # a source whose clock the build could not estimate is on the common clock only as
        # written, widened by its ± 300 s: "aligned" would say more than is known; one it
        # could only bound (status loose, wider than that or bounded by order alone) says so
        said = self.clocks_not_aligned() if built else {}
        for row in rows:
            if full:
                row["attrs"] = _loads(row["attrs"], {})
                row["sha256"] = bytes(row["sha256"]).hex()
            row["clock"] = said.get(row["source_id"], clock)
        return TimelinePage(rows, clock, (rows[-1]["t_lo"], rows[-1]["id"]) if more else None, total)

    def timeline_listing(self, q: TimelineQuery, stamp: str, zone) -> TimelinePage:
        """A page of the web's list as each event's row of JSON text (store/listing.py): the
        rows stored for `stamp` (the case's current one), joined on the page's events, which
        the same window, order and access conditions as `timeline` pick. Should any event of
        the page have no stored row for this stamp (imported, appended or built since its
        rows were rendered), the page is rendered from its events instead, as `timeline`
        reads them. Rows pass this actor's redactor, value by value, as every read does."""
        from onrecord.store.listing import row_text

        built = q.built if q.built is not None else self.is_built()
        values = _window_values(q) | {"stamp": stamp}
        if q.after is not None:
            values |= {"after_t": q.after[0], "after_id": q.after[1]}
        kept = self.__dict__.setdefault("_page_statements", {})
        key = ("listing", built, self.withheld_sources(), tuple(values), q.kinds, q.limit)
        stmt = kept.get(key)
        if stmt is None:
            if len(kept) >= PAGE_STATEMENTS_KEPT:
                kept.clear()
            stmt = kept[key] = self._listing_stmt(q, built)
        rows = self._json_rows(stmt, values, RENDERED)
        if rows is None:  # some event of the page has no row for this stamp: rendered from its events
            page = self.timeline(dataclasses.replace(q, columns="listing", built=built))
            return TimelinePage([row_text(r, zone) for r in page.events], page.clock, page.next,
                                ids=[r["id"] for r in page.events])
        more = q.limit is not None and len(rows) > q.limit
        rows = rows[:q.limit] if q.limit is not None else rows
        after = (rows[-1][1], rows[-1][0]) if more else None
        return TimelinePage([r[2] for r in rows], "aligned" if built else "source", after, ids=[r[0] for r in rows])

    def listing_texts(self, ids: list[int], stamp: str) -> dict[int, str]:
        """Event id -> its stored row of the web's list for `stamp`, as this actor sees it
        (verify compares them with the rows the events render: listing.altered)."""
        li = event_listings.c
        stmt = select(li.event_id, li.stamp, li.body).where(
            li.case_id == self.case.id, li.stamp == bindparam("stamp"),
            li.event_id.in_(bindparam("ids", expanding=True)))
        return {r[0]: r[2] for r in self._json_rows(stmt, {"stamp": stamp, "ids": list(ids)}, RENDERED)}

    def _listing_stmt(self, q: TimelineQuery, built: bool):
        t, _ = self._time_cols(built)
        e, li = events.c, event_listings.c
        stmt = self._window_from(select(e.id, t.label("t_lo"), li.body), built, bool(q.source_kind)) \
            .outerjoin(event_listings, (li.event_id == e.id) & (li.stamp == bindparam("stamp")))
        stmt = self._window_where(stmt, q, built)
        if q.after is not None:
            after_t = bindparam("after_t", q.after[0])
            stmt = stmt.where((t > after_t) | ((t == after_t) & (e.id > bindparam("after_id", q.after[1]))))
        stmt = stmt.order_by(t, e.id)
        return stmt.limit(q.limit + 1) if q.limit is not None else stmt

    def clocks_not_aligned(self) -> dict[int, str]:
        """Source id -> "unknown" or "loose", for the sources whose clock the last build could
        not estimate or could only bound; one query for both, remembered as a fact of the case."""
        def ask() -> dict[int, str]:
            c = clock_estimates.c
            return dict(self._tuples(select(c.source_id, c.status).where(
                c.case_id == self.case.id, c.status.in_(("unknown", "loose")))))

        return self.remember_fact(("clocks_not_aligned",), ask)

    def _timeline_stmt(self, q: TimelineQuery, built: bool, ordered: bool = True):
        """The statement of `timeline`, its values named as in _window_values (and after_t,
        after_id: the last row of the previous page)."""
        t, t_hi = self._time_cols(built)
        e, r = events.c, raw_records.c
        full = q.columns == "full"
        stmt = self._window_from(select(
            e.id, e.kind, e.time_text, e.t_src_lo, e.t_src_hi, t.label("t_lo"), t_hi.label("t_hi"), e.agency, e.unit,
            e.call, e.actor, e.channel, e.place, e.lat, e.lon, e.text, *([e.attrs] if full else []), e.source_id,
            sources.c.file_name, sources.c.kind.label("source_kind"), r.id.label("record_id"), r.ordinal,
            *([r.sha256] if full else []), func.coalesce(e.path, r.path).label("path")), built) \
            .join(raw_records, r.id == e.raw_record_id)
        # an unbounded window of the CLI's table keeps untimed events (they come last)
        middle = q.order == "middle"
        stmt = self._window_where(stmt, q, built, untimed=middle and q.t_from is None and q.t_to is None)
        if not ordered:
            return stmt
        if middle:
            stmt = stmt.order_by(t.is_(None), t + t_hi, e.id).offset(q.offset)
        else:
            if q.after is not None:
                after_t = bindparam("after_t", q.after[0])
                stmt = stmt.where((t > after_t) | ((t == after_t) & (e.id > bindparam("after_id", q.after[1]))))
            stmt = stmt.order_by(t, e.id)
        if q.limit is not None:
            stmt = stmt.limit(q.limit + (0 if middle else 1))
        return stmt

    def export_events(self) -> list[dict]:
        """Every event of the case with what an export cites: its time on the source's clock
        and (once built) on the common one with its fused event, its source, and its raw
        record's line, path and SHA-256. In time order (aligned when built), untimed last."""
        built = self.is_built()
        e, r, s = events.c, raw_records.c, sources.c
        cols = [e.id, e.kind, e.time_text, e.t_src_lo, e.t_src_hi, e.agency, e.unit, e.call, e.actor, e.channel,
                e.place, e.lat, e.lon, e.text, e.attrs, e.source_id, s.file_name, s.kind.label("source_kind"),
                s.agency.label("source_agency"), s.timezone, r.id.label("record_id"), r.ordinal,
                func.coalesce(e.path, r.path).label("path"), r.sha256]
        base = events.join(sources, s.id == e.source_id).join(raw_records, r.id == e.raw_record_id)
        if built:
            a = aligned_events.c
            cols += [a.t_lo.label("t_aligned_lo"), a.t_hi.label("t_aligned_hi"), a.fused_id]
            base = base.outerjoin(aligned_events, a.event_id == e.id)
            t = func.coalesce(a.t_lo, e.t_src_lo)
        else:
            cols += [literal_column("NULL").label("t_aligned_lo"), literal_column("NULL").label("t_aligned_hi"),
                     literal_column("NULL").label("fused_id")]
            t = e.t_src_lo
        stmt = select(*cols).select_from(base).where(e.case_id == self.case.id)
        if withheld := self.withheld_sources():  # an export is a read: restricted sources stay out
            stmt = stmt.where(e.source_id.not_in(sorted(withheld)))
        rows = self._rows(stmt.order_by(t.is_(None), t, e.id))
        for row in rows:
            row["attrs"] = _loads(row["attrs"], {})
            row["sha256"] = bytes(row["sha256"]).hex()
        return rows

    def timeline_points(self, q: TimelineQuery) -> list[tuple]:
        """The chart's few columns for up to q.limit events, as plain tuples (tens of thousands at once):
        (id, time, agency, unit, source kind, kind, text, file, line)."""
        built = self.is_built()
        t, _ = self._time_cols(built)
        e = events.c
        stmt = self._window_from(select(e.id, t, e.agency, e.unit, sources.c.kind, e.kind, e.text,
                                        sources.c.file_name, raw_records.c.ordinal), built) \
            .join(raw_records, raw_records.c.id == e.raw_record_id)
        return self._tuples(self._window_where(stmt, q, built).order_by(t, e.id).limit(q.limit))

    def timeline_count(self, q: TimelineQuery, cap: int) -> int:
        """Events in the window, counted up to `cap` only: enough to choose points or bins, cheap at 1M."""
        built = self.is_built()
        inner = self._window_where(self._window_from(select(events.c.id), built, bool(q.source_kind)), q, built) \
            .limit(cap)
        return self._scalar(select(func.count()).select_from(inner.subquery()))

    def timeline_bins(self, q: TimelineQuery, bucket_ms: int, lane: str) -> list[dict]:
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
        for a, ln, b, n in self._tuples(stmt):
            key = (a, kinds.get(ln) if lane == "source" else ln, int(b))
            out[key] = out.get(key, 0) + n
        return [{"agency": a, "lane": ln, "t": b * bucket_ms, "n": n} for (a, ln, b), n in out.items()]

    # ---- what the filters offer, and where the incident is

    def facets(self, window: tuple[int, int] | None = None, unit_limit: int = 2000) -> dict:
        """The values the filters offer, without a scan of every event (a case may hold millions):
        agencies and kinds of the sources, plus those seen in `window`; units seen in `window`."""
        from onrecord.vocab import EVENT_KINDS

        e, s = events.c, sources.c
        withheld = sorted(self.withheld_sources())
        mine = (e.source_id.not_in(withheld),) if withheld else ()
        shown = (s.id.not_in(withheld),) if withheld else ()
        srcs = self._tuples(select(s.agency, s.kind, s.event_count).where(s.case_id == self.case.id, *shown))
        first = self._scalar(select(func.min(e.t_src_lo)).where(e.case_id == self.case.id, *mine))
        last = self._scalar(select(func.max(e.t_src_lo)).where(e.case_id == self.case.id, *mine))
        agencies, kinds, units = {a for a, _, _ in srcs if a}, set(), set()
        if window:
            near = select(e.agency, e.kind, e.unit).where(e.case_id == self.case.id, e.t_src_lo >= window[0],
                                                          e.t_src_lo <= window[1], *mine).distinct()
            for agency, kind, unit in self._tuples(near):
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
        counts = {int(b): n for b, n in self._tuples(stmt)}
        if not counts:
            return None
        lo = hi = max(counts, key=counts.get)

        def near(b: int, step: int) -> list[int]:
            return [b + step * k for k in range(1, max_gap + 2) if b + step * k in counts]

        # A year of busy background calls would chain on for ever: stop at max_buckets.
        while hi - lo < max_buckets and (near(lo, -1) or near(hi, 1)):
            lo, hi = (near(lo, -1) or [lo])[0], (near(hi, 1) or [hi])[0]
        return lo * bucket_ms, (hi + 1) * bucket_ms

    def _sampled_peak(self, bucket_ms: int, built: bool, sample: int = 10_000) -> int | None:
        """Time of the busiest bucket among a fixed random sample of event ids; None for small cases."""
        lo, hi = self._tuples(select(func.min(events.c.id), func.max(events.c.id)))[0]
        if lo is None or hi - lo < 5 * sample:
            return None
        ids = random.Random(hi).sample(range(lo, hi + 1), sample)  # same case, same sample
        t = self._time_cols(built)[0]
        times = [v for (v,) in self._tuples(self._window_from(select(t), built).where(events.c.id.in_(ids),
                                                                                       t.is_not(None)))]
        if not times:
            return None
        counts: dict[int, int] = {}
        for v in times:
            counts[v // bucket_ms] = counts.get(v // bucket_ms, 0) + 1
        return max(counts, key=counts.get) * bucket_ms

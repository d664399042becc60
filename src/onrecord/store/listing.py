"""Each event's row of the timeline's list (`/api/events`), rendered once and kept as JSON
text in `event_listings`, so a page of 500 events is its rows' texts joined, not 500 rows
of twenty columns read, shaped and encoded on every request (docs/store.md).

A row is rendered for one state of the case, its `stamp`: on the sources' own clocks
(not built) or on the common clock of one build (`cases.derived_generation`: a rebuild or
a linkage moves it, and with it each row's times and clock status), in one display zone.
A reader uses a stored row only when its stamp is the case's current one (read_timeline.py:
else the row is rendered from the events as before), so a stale or missing row costs speed,
never correctness. `refresh` brings the rows to the current stamp after an import, a build,
a linkage; the live writer renders the rows of the events it appends (`render_appended`).

The stored texts hold what the events hold, unredacted: a reader that redacts for its
actor passes every row through its redactor (reader._json_rows), and access per agency or
case is the page query's, as it always was. A row goes with its event (ON DELETE CASCADE);
`verify` re-renders every stored row of the current stamp and names the events whose row
differs (`altered`), since the web shows the rows in place of the events.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pyarrow as pa
from pydantic_core import to_json
from sqlalchemy import delete, exists, func, select

from onrecord.store.schema import aligned_events, cases, event_listings, events, raw_records, sources
from onrecord.timetext import PageTimes

BATCH = 20_000  # events rendered and written at a time: bounded memory over millions

_PAGE_TIMES: dict[ZoneInfo, PageTimes] = {}


def times_json(lo: int | None, hi: int | None, zone: ZoneInfo) -> dict:
    # every event of every page passes here: the zone's hours are looked up once (timetext.PageTimes)
    page = _PAGE_TIMES.get(zone) or _PAGE_TIMES.setdefault(zone, PageTimes(zone))
    if lo is not None and hi == lo:  # most events are a moment: one time, written once
        utc, local, text = page.moment(int(lo))
        return {"t_lo": utc, "t_hi": utc, "local_lo": local, "local_hi": local, "local_text": text}
    utc, local = page.utc_iso(lo), page.local_iso(lo)
    if hi != lo:
        return {"t_lo": utc, "t_hi": page.utc_iso(hi), "local_lo": local, "local_hi": page.local_iso(hi),
                "local_text": page.interval(lo, hi)}
    return {"t_lo": utc, "t_hi": utc, "local_lo": local, "local_hi": local, "local_text": page.interval(lo, hi)}


def event_row(r: dict, zone: ZoneInfo, clock: str) -> dict:
    """One event of the list, from a row of the timeline's listing query (read_timeline.py)."""
    return {"id": r["id"], "kind": r["kind"], "clock": clock, **times_json(r["t_lo"], r["t_hi"], zone),
            "time_text": r["time_text"], "agency": r["agency"], "unit": r["unit"], "call": r["call"],
            "actor": r["actor"], "channel": r["channel"], "place": r["place"], "text": r["text"],
            "source": {"id": r["source_id"], "file": r["file_name"], "kind": r["source_kind"]},
            "record": {"line": r["ordinal"], "path": r.get("path")}}


def row_text(r: dict, zone: ZoneInfo) -> str:
    return to_json(event_row(r, zone, r["clock"])).decode()


def stamp(built: bool, derived_generation: int, zone: ZoneInfo) -> str:
    """The state a row is rendered for: the clock its times are on, and the zone."""
    return f"{f'build {derived_generation}' if built else 'source'} {zone.key}"[:80]


def current_stamp(reader) -> str:
    _, _, derived, built = reader.version()
    return stamp(built, int(derived), reader.display_zone())


def refresh(case) -> int:
    """Render the rows of every event the timeline shows that has none for the case's
    current stamp; drop the rows of other stamps. The number rendered."""
    from onrecord.store.read_timeline import TimelineQuery
    from onrecord.store.reader import open_reader
    from onrecord.store.session import write_session

    reader = open_reader(case)
    now = current_stamp(reader)
    built, zone = reader.is_built(), reader.display_zone()
    fresh = exists().where(event_listings.c.event_id == events.c.id, event_listings.c.stamp == now)
    with write_session(case) as db:
        db.run(delete(event_listings).where(event_listings.c.case_id == case.id, event_listings.c.stamp != now))
    # a batch read, then written in a transaction of its own: the store's reads and ADBC's
    # writes never hold a SQLite file at once (store/engine.py); a refresh cut short leaves
    # rows of the current stamp, and the next one renders the rest
    q, done = TimelineQuery(limit=BATCH, columns="listing", built=built), 0
    while True:
        page = reader.timeline(q, without=fresh)
        if page.events:
            with write_session(case) as db:
                _write(db, case.id, now, page.events, zone)
            done += len(page.events)
        if page.next is None:
            return done
        q.after = page.next


CHECKED = 5_000  # events whose stored rows `altered` reads at a time (bound values a statement)


def altered(reader) -> tuple[int, list[int]]:
    """(rows checked, ids of the events whose stored row of the current stamp is not the row
    the event renders now): what `verify` reports. The rows are a rendering, not evidence,
    but the web shows them in place of the events, so a row changed outside onrecord would
    show what the store does not hold; a row missing is no problem (its page is rendered)."""
    from onrecord.store.read_timeline import TimelineQuery

    now, zone = current_stamp(reader), reader.display_zone()
    q, checked, wrong = TimelineQuery(limit=BATCH, columns="listing"), 0, []
    while True:
        page = reader.timeline(q)
        for i in range(0, len(page.events), CHECKED):
            part = page.events[i:i + CHECKED]
            stored = reader.listing_texts([r["id"] for r in part], now)
            for r in part:
                body = stored.get(r["id"])
                if body is not None:
                    checked += 1
                    if body != row_text(r, zone):
                        wrong.append(int(r["id"]))
        if page.next is None:
            return checked, wrong
        q.after = page.next


def render_appended(db, case, lo: int, hi: int) -> None:
    """In a live batch's own transaction (`db`, before its commit), the rows of the events it
    appended (ids `lo`..`hi`), when the case is not built: a built case shows a live event
    on the common clock only after the next build, whose refresh renders it then. Read on
    the batch's own connection (its rows are not committed yet), as `timeline` reads them."""
    e, s, r, c = events.c, sources.c, raw_records.c, cases.c
    built = db.first_row(select(aligned_events.c.event_id).where(aligned_events.c.case_id == case.id).limit(1))
    if built is not None:
        return
    zone = case.settings.get("case", {}).get("timezone") or next(iter(db.run(
        select(s.timezone).where(s.case_id == case.id, s.timezone.is_not(None)).group_by(s.timezone)
        .order_by(func.count().desc()).limit(1))), (None,))[0]
    zone = ZoneInfo(zone or "UTC")
    derived = db.first_row(select(c.derived_generation).where(c.id == case.id))[0]
    names = ("id", "kind", "time_text", "t_lo", "t_hi", "agency", "unit", "call", "actor", "channel", "place",
             "text", "source_id", "file_name", "source_kind", "ordinal", "path")
    rows = [dict(zip(names, row)) | {"clock": "source"} for row in db.run(
        select(e.id, e.kind, e.time_text, e.t_src_lo, e.t_src_hi, e.agency, e.unit, e.call, e.actor, e.channel,
               e.place, e.text, e.source_id, s.file_name, s.kind, r.ordinal, func.coalesce(e.path, r.path))
        .select_from(events.join(sources, s.id == e.source_id).join(raw_records, r.id == e.raw_record_id))
        .where(e.case_id == case.id, e.id.between(lo, hi), e.t_src_lo.is_not(None)))]
    if rows:
        _write(db, case.id, stamp(False, int(derived), zone), rows, zone)


def _write(db, case_id: int, now: str, rows: list[dict], zone: ZoneInfo) -> None:
    ids = [int(r["id"]) for r in rows]
    # rows of these events another writer rendered meanwhile (or of another stamp): replaced,
    # in this transaction (the ids are integers, written into the statement: no bound list)
    db.cur.execute(f"DELETE FROM event_listings WHERE event_id IN ({','.join(map(str, ids))})")
    db.ingest(event_listings, pa.table({
        "event_id": pa.array(ids, pa.int64()), "case_id": pa.array([case_id] * len(rows), pa.int32()),
        "stamp": pa.array([now] * len(rows), pa.string()),
        "body": pa.array([row_text(r, zone) for r in rows], pa.string())}))


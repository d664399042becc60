"""Writing a reconstruction into the derived tables, replacing the last build's, at once."""

from __future__ import annotations

import json

from sqlalchemy import bindparam, delete, select, text, update

from onrecord.reconstruct.align import clock_shift
from onrecord.reconstruct.build import Reconstruction
from onrecord.reconstruct.load import WHOLE_SECOND_MS
from onrecord.store.case import Case
from onrecord.store.bulk import bulk_insert, indexes_rebuilt, next_id
from onrecord.store.schema import (aligned_events, claims, clock_estimates, entities, entity_mentions, findings,
                                   fused_events)

DERIVED = (aligned_events, fused_events, clock_estimates, entity_mentions, entities, findings, claims)


def write_reconstruction(case: Case, r: Reconstruction) -> None:
    with case.engine.begin() as conn:
        # `onrecord link` owns the linked people and their warnings: a rebuild keeps them
        subjects = select(entity_mentions.c.entity_id).where(entity_mentions.c.case_id == case.id,
                                                             entity_mentions.c.role == "subject")
        for table in DERIVED:
            where = [table.c.case_id == case.id]
            if table is findings:
                where.append(findings.c.kind != "warning")
            elif table is entity_mentions:
                where.append(entity_mentions.c.role != "subject")
            elif table is entities:
                where.append(~entities.c.id.in_(subjects))
            conn.execute(delete(table).where(*where))
        _clocks(conn, case, r)
        ent_base = next_id(conn, entities)
        with indexes_rebuilt(conn, ("entity_mentions", "aligned_events")):  # a row for every event
            _entities(conn, case, r, ent_base)
            fused_of = _fused(conn, case, r, ent_base)
            _aligned(conn, case, r, fused_of)
        claim_base = next_id(conn, claims)
        if r.claims:
            conn.execute(claims.insert(), [{"id": claim_base + i, "case_id": case.id, **row}
                                           for i, row in enumerate(r.claims)])
        _findings(conn, case, r, claim_base)


def _clocks(conn, case, r: Reconstruction) -> None:
    rows = [{"source_id": s, "case_id": case.id, "status": c.status, "offset_s": c.offset_s,
             "uncertainty_s": c.uncertainty_s, "drift_ppm": None, "anchors": c.anchors,
             "evidence": json.dumps(c.evidence), "note": c.note} for s, c in r.clocks.items()]
    if rows:
        conn.execute(clock_estimates.insert(), rows)


def _entities(conn, case, r: Reconstruction, base: int) -> None:
    rows = [{"id": base + e.id - 1, "case_id": case.id, "kind": e.kind, "name": e.name, "agency": e.agency,
             "aliases": json.dumps(sorted(e.aliases)), "attrs": json.dumps(e.attrs, default=str),
             "evidence": json.dumps(e.evidence)} for e in r.who.entities.values()]
    if rows:
        conn.execute(entities.insert(), rows)
    first = next_id(conn, entity_mentions)
    mentions = [(first + i, case.id, base + m.entity_id - 1, m.event_id, None, m.role, m.text[:300], m.score)
                for i, m in enumerate(r.who.mentions)]
    bulk_insert(conn, "entity_mentions", ("id", "case_id", "entity_id", "event_id", "claim_id", "role", "text", "score"),
          mentions)


def _fused(conn, case, r: Reconstruction, ent_base: int) -> dict[int, int]:
    fused_of: dict[int, int] = {}
    sources = dict(zip(r.events["id"], r.events["source_id"]))
    rows = []
    names = {e.id: e.name for e in r.who.entities.values()}
    for m in r.moments:
        if len(m.members) < 2:
            continue
        for i in m.members:
            fused_of[i] = m.fused_id
        unit = m.who if isinstance(m.who, (int,)) and m.who in names else None
        rows.append({"id": m.fused_id, "case_id": case.id, "kind": m.family, "t_lo": int(m.lo), "t_hi": int(m.hi),
                     "t_best": int(m.best), "reports": len(m.members),
                     "sources": len({sources[i] for i in m.members}), "agency": m.agency,
                     "unit_entity_id": ent_base + unit - 1 if unit else None, "place": None,
                     "label": m.family.replace("_", " ") + (f": {names[unit]}" if unit else "")})
    if rows:
        conn.execute(fused_events.insert(), rows)
    return fused_of


def _aligned(conn, case, r: Reconstruction, fused_of: dict[int, int]) -> None:
    """Every event's time on the common clock. A clock shifts every event of its source
    alike, so the millions of rows are computed by the database from the events table and
    one shift per source (the same arithmetic as align.aligned_times), not sent row by row;
    the few fused events' ids follow."""
    whole = r.whole_second_sources
    shifts = []
    for s in r.sources["id"]:
        off, unc = clock_shift(r.clocks.get(int(s)))
        widen = WHOLE_SECOND_MS if int(s) in whole else 0
        shifts.append(f"({int(s)}, {float((off + unc) * 1000)!r}, {float((off - unc) * 1000)!r}, {widen})")
    if shifts:
        conn.execute(text(
            f"WITH shift (source_id, lo_ms, hi_ms, widen) AS (VALUES {', '.join(shifts)}) "
            "INSERT INTO aligned_events (event_id, case_id, t_lo, t_hi, fused_id) "
            "SELECT e.id, e.case_id, CAST(ROUND(e.t_src_lo - s.lo_ms) AS BIGINT), "
            "CAST(ROUND(e.t_src_hi + CASE WHEN e.t_src_hi = e.t_src_lo THEN s.widen ELSE 0 END - s.hi_ms) AS BIGINT), "
            # CROSS JOIN: SQLite keeps events as the outer loop (one pass; the other way round
            # it walks the case's events once per source); PostgreSQL plans it as any join.
            "NULL FROM events e CROSS JOIN shift s WHERE s.source_id = e.source_id AND e.case_id = :c"),
            {"c": case.id})
    if fused_of:
        conn.execute(update(aligned_events).where(aligned_events.c.event_id == bindparam("e"))
                     .values(fused_id=bindparam("f")), [{"e": int(e), "f": int(f)} for e, f in fused_of.items()])


def _findings(conn, case, r: Reconstruction, claim_base: int) -> None:
    first = next_id(conn, findings)
    rows = [{"id": first + i, "case_id": case.id, "kind": f.kind, "name": f.name, "subject": f.subject,
             "status": f.status, "value_lo": f.value_lo, "value_hi": f.value_hi, "unit": f.unit,
             "summary": f.summary, "payload": json.dumps(f.payload, default=str),
             "evidence": json.dumps({"events": [int(e) for e in f.evidence],
                                     "claims": [claim_base + i for i in _claim_positions(f)]})}
            for i, f in enumerate(r.findings)]
    if rows:
        conn.execute(findings.insert(), rows)


def _claim_positions(f) -> list[int]:
    """Claims a discrepancy quotes, by their position in this build's claims."""
    found = f.payload.get("claims") or ([f.payload["claim"]] if f.payload.get("claim") is not None else [])
    return [int(i) for i in found if i is not None]

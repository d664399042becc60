"""Writing a reconstruction into the derived tables, replacing the last build's, at once."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from sqlalchemy import delete, select, update

from onrecord.reconstruct.build import Reconstruction
from onrecord.store import search_index
from onrecord.store.case import Case
from onrecord.store.schema import (
    aligned_events,
    cases,
    claims,
    clock_estimates,
    entities,
    entity_mentions,
    findings,
    fused_events,
)
from onrecord.store.session import arrow_rows, write_session

DERIVED = (aligned_events, fused_events, clock_estimates, entity_mentions, entities, findings, claims)


def write_reconstruction(case: Case, r: Reconstruction, generation: int | None = None) -> None:
    """`generation`: the case's event generation the build read (its events may have changed since)."""
    with write_session(case) as db:
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
            db.run(delete(table).where(*where))
        _insert(db, clock_estimates, _clocks(case, r))
        ent_base = db.next_id(entities)
        with db.indexes_rebuilt(("entity_mentions", "aligned_events")):  # a row for every event
            _entities(db, case, r, ent_base)
            fused, fused_of = _fused(case, r, ent_base)
            _insert(db, fused_events, fused)
            db.ingest(aligned_events, _aligned(case, r, fused_of))
        claim_base = db.next_id(claims)
        _insert(db, claims, [{"id": claim_base + i, "case_id": case.id, **row} for i, row in enumerate(r.claims)])
        _insert(db, findings, _findings(case, r, db.next_id(findings), claim_base))
        db.run(update(cases).where(cases.c.id == case.id).values(
            built_generation=generation, derived_generation=cases.c.derived_generation + 1))
        search_index.refresh(search_index.session_sink(db), case.id)  # the new claims' words


def _insert(db, table, rows: list[dict]) -> None:
    if rows:
        db.ingest(table, arrow_rows(table, rows))


def _clocks(case, r: Reconstruction) -> list[dict]:
    return [{"source_id": s, "case_id": case.id, "status": c.status, "offset_s": c.offset_s,
             "uncertainty_s": c.uncertainty_s, "drift_ppm": c.drift_ppm,
             "drift_ref_ms": None if c.drift_ref_ms is None else int(c.drift_ref_ms), "anchors": c.anchors,
             "evidence": json.dumps(c.evidence), "note": c.note + (f": {c.needs}" if c.needs else "")}
            for s, c in r.clocks.items()]


def _entities(db, case, r: Reconstruction, base: int) -> None:
    """Entities get ids from `base` on (ids are unique across the cases sharing a
    PostgreSQL database, and a rebuild keeps the people `onrecord link` found); their
    mentions point at those ids."""
    _insert(db, entities, [{"id": base + e.id - 1, "case_id": case.id, "kind": e.kind, "name": e.name,
                            "agency": e.agency, "aliases": json.dumps(sorted(e.aliases)),
                            "attrs": json.dumps(e.attrs, default=str), "evidence": json.dumps(e.evidence)}
                           for e in r.who.entities.values()])
    first = db.next_id(entity_mentions)
    for part in _mention_tables(r, base):
        n = part.num_rows
        db.ingest(entity_mentions, part.add_column(0, "id", pa.array(np.arange(first, first + n, dtype=np.int64)))
                  .add_column(1, "case_id", pa.array(np.full(n, case.id, dtype=np.int64))))
        first += n


def _mention_tables(r: Reconstruction, base: int) -> list[pa.Table]:
    """The mentions resolved one by one (roster lines, names in statements), then the
    millions of units written in events, already columns; the text as stored (300 chars)."""
    listed = [{"entity_id": base + m.entity_id - 1, "event_id": m.event_id, "role": m.role, "text": m.text,
               "score": m.score} for m in r.who.mentions]
    units = r.who.unit_mentions
    tables = [arrow_rows(entity_mentions, listed)] if listed else []
    tables.append(pa.table({
        "entity_id": pa.array(units["entity_id"].to_numpy(dtype=np.int64) + (base - 1)),
        "event_id": pa.array(units["event_id"].to_numpy(dtype=np.int64)),
        "role": pa.repeat(pa.scalar("unit"), len(units)),
        "text": pa.array(units["text"], pa.dictionary(pa.int32(), pa.string())).cast(pa.string()),
        "score": pa.array(units["score"].to_numpy(dtype=np.float64))}))
    return [t.set_column(t.schema.get_field_index("text"), "text", pc.utf8_slice_codeunits(t.column("text"), 0, 300))
            for t in tables if t.num_rows]


def _fused(case, r: Reconstruction, ent_base: int) -> tuple[list[dict], dict[int, int]]:
    """The fused events' rows, and which fused event each of their reports belongs to."""
    fused_of: dict[int, int] = {}
    fusing = [m for m in r.moments if len(m.members) >= 2]
    reports = r.events[r.events["id"].isin([i for m in fusing for i in m.members])]
    sources = dict(zip(reports["id"], reports["source_id"]))
    rows = []
    names = {e.id: e.name for e in r.who.entities.values()}
    for m in fusing:
        for i in m.members:
            fused_of[i] = m.fused_id
        unit = m.who if isinstance(m.who, (int,)) and m.who in names else None
        rows.append({"id": m.fused_id, "case_id": case.id, "kind": m.family, "t_lo": int(m.lo), "t_hi": int(m.hi),
                     "t_best": int(m.best), "reports": len(m.members),
                     "sources": len({sources[i] for i in m.members}), "agency": m.agency,
                     "unit_entity_id": ent_base + unit - 1 if unit else None, "place": None,
                     "label": m.family.replace("_", " ") + (f": {names[unit]}" if unit else "")})
    return rows, fused_of


def _aligned(case, r: Reconstruction, fused_of: dict[int, int]) -> pa.Table:
    """Every event's time on the common clock, as the build computed it (align.aligned_times),
    and the fused event it belongs to, if any."""
    ids = r.events["id"].to_numpy(dtype=np.int64)
    return pa.table({"event_id": pa.array(ids), "case_id": pa.array(np.full(len(ids), case.id, dtype=np.int64)),
                     "t_lo": _as_ints(r.events["t_lo"]), "t_hi": _as_ints(r.events["t_hi"]),
                     "fused_id": _as_ints(pd.Series(fused_of, dtype="Int64").reindex(ids))})


def _findings(case, r: Reconstruction, first: int, claim_base: int) -> list[dict]:
    return [{"id": first + i, "case_id": case.id, "kind": f.kind, "name": f.name, "subject": f.subject,
             "status": f.status, "value_lo": f.value_lo, "value_hi": f.value_hi, "unit": f.unit,
             "payload": json.dumps(f.payload, default=str),
             "evidence": json.dumps({"events": [int(e) for e in f.evidence],
                                     "claims": [claim_base + i for i in _claim_positions(f)]})}
            for i, f in enumerate(r.findings)]


def _as_ints(values) -> pa.Array:
    """Whole numbers, missing ones (an event with no time) as NULL."""
    return pa.array(pd.array(values, dtype="Int64"), pa.int64())


def _claim_positions(f) -> list[int]:
    """Claims a discrepancy quotes, by their position in this build's claims."""
    found = f.payload.get("claims") or ([f.payload["claim"]] if f.payload.get("claim") is not None else [])
    return [int(i) for i in found if i is not None]

"""`onrecord remove-source`: withdrawing a source imported by mistake, as a recorded act.

Nothing on the chain is deleted: the source's raw records stay (they are the evidence
that it was handed over), and a tombstone — a one-record source of kind "removal" saying
which source was withdrawn, when and why — is chained on after the last record. The
source's events are withdrawn from the store (with the aligned times and mentions of
them), so no view shows them; findings resting on them stand until `onrecord build`
runs again, and every view says the build is older than the events until it does. The
removal's signed receipt (store/receipts.py) lets `verify` tell it from tampering.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

from sqlalchemy import delete, select, update

from onrecord.errors import UsageError
from onrecord.model import EVENT_SCHEMA
from onrecord.store import search_index
from onrecord.store.case import Case
from onrecord.store.schema import aligned_events, entity_mentions, event_listings, events, raw_records, sources
from onrecord.store.writer import Batch, SourceMeta, add_source, events_changed, lock_for_writing, read_head

REMOVAL_KIND = "removal"


def _find(db, case: Case, which: str) -> tuple:
    s = sources.c
    rows = db.run(select(s.id, s.file_name, s.file_sha256, s.kind, s.withdrawn_at)
                  .where(s.case_id == case.id, s.kind != REMOVAL_KIND).order_by(s.id))
    found = [r for r in rows if r[1] == which or (which.isdigit() and r[0] == int(which))]
    if len(found) > 1 and not which.isdigit():
        # a file withdrawn and imported again: its name means the import in force
        found = [r for r in found if r[4] is None] or found[-1:]
    if not found:
        names = ", ".join(f"{r[0]}: {r[1]}" for r in rows if r[4] is None) or "none"
        raise UsageError(f"{case.path}: no source {which!r} in the case (its sources: {names})")
    if len(found) > 1:
        raise UsageError(f"{case.path}: {len(found)} sources are named {which!r}: give the source's id "
                         f"({', '.join(str(r[0]) for r in found)})")
    if found[0][4] is not None:
        raise UsageError(f"{case.path}: source {found[0][0]} ({found[0][1]}) was already removed, at {found[0][4]}")
    return found[0]


def remove_source(case: Case, which: str, reason: str) -> dict:
    """Withdraw the source named `which` (its file name, or its id) for `reason`; returns
    what was withdrawn and the removal's receipt."""
    from onrecord.store.reader import open_reader
    from onrecord.store.receipts import derived_section, issue, signing_key, source_section
    from onrecord.store.session import write_session

    reason = (reason or "").strip()
    if not reason:
        raise UsageError("--reason is required: a removal is evidence, and says why")
    key = signing_key(case)
    at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with write_session(case) as db:
        lock_for_writing(db, case)
        sid, file_name, file_sha256, kind, _ = _find(db, case, which)
        withdrawn = {"source": int(sid), "file_name": file_name, "file_sha256": file_sha256, "kind": kind,
                     "reason": reason, "at": at}
        tombstone = json.dumps({"onrecord_removal": withdrawn}, sort_keys=True).encode() + b"\n"
        meta = SourceMeta(kind=REMOVAL_KIND, agency=None, file_name=f"removal of {file_name}"[:500],
                          file_sha256=hashlib.sha256(tombstone).hexdigest(), mapping_name="onrecord-removal",
                          mapping_text="", timezone=None, rejected_count=0)
        batch = Batch(meta, [tombstone], [1], [hashlib.sha256(tombstone).digest()], EVENT_SCHEMA.empty_table())
        stone_id = db.first_row(add_source(case.id, batch))[0]
        head = db.first_row(read_head(case.id))
        raw, _, new_head = batch.tables(case.id, stone_id, tuple(head), db.next_id(raw_records), 1)
        db.ingest(raw_records, raw)
        db.run(new_head)
        gone = select(events.c.id).where(events.c.source_id == sid)
        db.run(delete(aligned_events).where(aligned_events.c.event_id.in_(gone)))
        db.run(delete(event_listings).where(event_listings.c.event_id.in_(gone)))
        db.run(delete(entity_mentions).where(entity_mentions.c.case_id == case.id,
                                             entity_mentions.c.event_id.in_(gone)))
        n = db.first_row(select(sources.c.event_count).where(sources.c.id == sid))[0]
        search_index.forget_source(search_index.session_sink(db), case.id, sid)
        db.run(delete(events).where(events.c.source_id == sid))
        db.run(update(sources).where(sources.c.id == sid).values(withdrawn_at=at, withdrawn_reason=reason,
                                                                  event_count=0))
        db.run(events_changed(case.id))
        search_index.refresh(search_index.session_sink(db), case.id)
    reader = open_reader(case)
    receipt = issue(case, "removal", {"removal": withdrawn, "source": source_section(reader, int(stone_id)),
                                      "derived": derived_section(reader), "generation": reader.generation()}, key)
    return {"source": int(sid), "file_name": file_name, "events": int(n), "tombstone": int(stone_id),
            "receipt": receipt}

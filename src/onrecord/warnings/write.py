"""Writing a linkage: the case's linked people, their mentions and their warnings replace
the last linkage's, in one transaction (the build's write session, store/session.py)."""

from __future__ import annotations

import json

from sqlalchemy import delete, select, update

from onrecord.store import search_index
from onrecord.store.case import Case
from onrecord.store.schema import cases, entities, entity_mentions, findings
from onrecord.store.session import arrow_rows, write_session
from onrecord.warnings.case_linkage import Subjects, warning_of


def write_subjects(case: Case, result: Subjects) -> None:
    """Replace the case's linked people and warnings with this linkage's."""
    with write_session(case) as db:
        old = select(entity_mentions.c.entity_id).where(entity_mentions.c.case_id == case.id,
                                                       entity_mentions.c.role == "subject")
        db.run(delete(entities).where(entities.c.case_id == case.id, entities.c.id.in_(old)))
        db.run(delete(entity_mentions).where(entity_mentions.c.case_id == case.id,
                                             entity_mentions.c.role == "subject"))
        db.run(delete(findings).where(findings.c.case_id == case.id, findings.c.kind == "warning"))
        ent_id, men_id, fin_id = db.next_id(entities), db.next_id(entity_mentions), db.next_id(findings)
        people, mentions, warnings = [], [], []
        for p in result.people:
            people.append({"id": ent_id, "case_id": case.id, "kind": "person", "name": p["name"][:200],
                           "agency": None, "aliases": json.dumps(p["aliases"]),
                           "attrs": json.dumps({"subject": True, "agencies": p["agencies"]}),
                           "evidence": json.dumps({"linked_records": [c["event"] for c in p["contacts"]]})})
            mentions += [{"id": men_id + i, "case_id": case.id, "entity_id": ent_id, "event_id": c["event"],
                          "claim_id": None, "role": "subject", "text": (c["name"] or "")[:300], "score": None}
                         for i, c in enumerate(p["contacts"])]
            men_id += len(p["contacts"])
            found = warning_of(p, ent_id)
            if found:
                warnings.append({"id": fin_id, "case_id": case.id, "kind": found.kind, "name": found.name,
                                 "subject": found.subject, "status": found.status, "value_lo": found.value_lo,
                                 "value_hi": found.value_hi, "unit": found.unit, "payload": json.dumps(found.payload),
                                 "evidence": json.dumps({"events": found.evidence})})
                fin_id += 1
            ent_id += 1
        for table, rows in ((entities, people), (entity_mentions, mentions), (findings, warnings)):
            if rows:
                db.ingest(table, arrow_rows(table, rows))
        db.run(update(cases).where(cases.c.id == case.id).values(derived_generation=cases.c.derived_generation + 1))
        search_index.refresh(search_index.session_sink(db), case.id)  # the index says what it is of

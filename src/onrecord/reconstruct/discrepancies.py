"""Where accounts disagree: claims in statements and press pieces against each other, and
against what the records establish.

Claims come from onrecord.claims (rule-based reading of the text). Two claims about the
same subject and measure whose intervals do not overlap are a discrepancy; so is a claim
that a record-derived metric contradicts. Each is a Finding quoting both sides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from onrecord.reconstruct.metrics import Finding
from onrecord.reconstruct.names import parse_person

TEXT_KINDS = ("statement", "report_filed")
TEXT_SOURCES = ("statement", "press")

# A claim's measure -> the metric of the records it can be checked against.
BY_UNIT = {"duration_outside": "unit_outside_while_shots"}
BY_CASE = {"count_transported": "patients_transported"}


@dataclass
class ClaimsRead:
    rows: list[dict] = field(default_factory=list)  # `claims` table rows, without ids
    claim_index: dict[str, int] = field(default_factory=dict)  # claim id -> position in rows
    findings: list[Finding] = field(default_factory=list)


def read_claims(events: pd.DataFrame, findings: list[Finding], who) -> ClaimsRead:
    from onrecord.claims.extract import analyse
    from onrecord.claims.rows import claim_row

    docs = events[events["kind"].isin(TEXT_KINDS) & events["source_kind"].isin(TEXT_SOURCES) & events["text"].notna()]
    out = ClaimsRead()
    if docs.empty:
        return out
    # a document is known by its file name (made unique with its event id only if needed)
    dup = docs["file_name"].duplicated(keep=False)
    names_of = [f"{r.file_name}#{r.id}" if d else r.file_name for r, d in zip(docs.itertuples(index=False), dup)]
    texts = {n: str(r.text) for n, r in zip(names_of, docs.itertuples(index=False))}
    where = {n: (int(r.source_id), int(r.id)) for n, r in zip(names_of, docs.itertuples(index=False))}
    result = analyse(texts)
    names = {e.id: e.name for e in result.entities}
    for c in result.claims:
        source_id, event_id = where[c.doc]
        out.claim_index[c.id] = len(out.rows)
        out.rows.append({**claim_row(c, names), "source_id": source_id, "event_id": event_id})
    for conflict in result.conflicts:
        out.findings.append(_claims_disagree(conflict, out, where))
    out.findings += _against_records(result.claims, names, findings, who, out, where)
    return out


def _side_text(side: dict) -> str:
    who = side.get("speaker_name") or side.get("speaker") or "someone"
    return f"{who}: “{side.get('text')}” ({side.get('doc', '').split('#')[0]})"


def _claims_disagree(conflict, out: ClaimsRead, where) -> Finding:
    c = conflict.__dict__
    sides = c["sides"]
    subject = sides[0].get("subject_name") or c.get("subject")
    summary = (f"accounts disagree on {c['measure'].replace('_', ' ')}"
               f"{' of ' + str(subject) if subject else ''}: " + " vs ".join(_side_text(s) for s in sides))
    claim_ids = [s["claim"] for s in sides]
    return Finding("claims_disagree", "established", summary, kind="discrepancy", subject=subject,
                   payload={"measure": c["measure"], "sides": sides, "reason": c.get("reason"),
                            "claims": [out.claim_index.get(i) for i in claim_ids]},
                   evidence=[where[s["doc"]][1] for s in sides if s.get("doc") in where])


def _against_records(claims, names, findings: list[Finding], who, out: ClaimsRead, where) -> list[Finding]:
    from onrecord.claims.conflicts import compare_with_record

    by_name = {(f.name, f.subject): f for f in findings if f.kind == "metric" and f.status == "established"}
    units_of_person = _units_of_people(who)
    result = []
    for c in claims:
        metric = None
        if c.measure in BY_UNIT:
            unit = units_of_person.get(_surname(names.get(c.subject or "", c.subject_text or "")))
            metric = by_name.get((BY_UNIT[c.measure], unit)) if unit else None
        elif c.measure in BY_CASE:
            metric = by_name.get((BY_CASE[c.measure], None))
        if metric is None or metric.value_lo is None:
            continue
        verdict = compare_with_record(c, metric.value_lo, metric.value_hi, metric.unit).__dict__
        if verdict["verdict"] != "contradicts":
            continue
        speaker = names.get(c.speaker or "", c.speaker_text or c.speaker)
        result.append(Finding(
            "claim_contradicts_record", "established",
            f"{speaker} says “{c.text}” ({c.doc.split('#')[0]}); the records say {metric.summary}",
            kind="discrepancy", subject=metric.subject,
            payload={"measure": c.measure, "claim": out.claim_index.get(c.id), "metric": metric.name,
                     "record_interval": [metric.value_lo, metric.value_hi], "verdict": verdict},
            evidence=[where[c.doc][1]] + list(metric.evidence)))
    return result


def _surname(name: str) -> str | None:
    p = parse_person(name or "")
    return p.last if p else None


def _units_of_people(who) -> dict[str, str]:
    """Surname -> the unit an officer of that name crews (only when the surname is unique)."""
    seen: dict[str, set[str]] = {}
    for u in who.units():
        for pid in u.attrs.get("crew", []):
            person = who.entities.get(pid)
            p = parse_person(person.name) if person else None
            if p:
                seen.setdefault(p.last, set()).add(u.name)
    return {last: next(iter(units)) for last, units in seen.items() if len(units) == 1}

"""Where accounts disagree: claims in statements and press pieces against each other, and
against what the records establish.

Claims come from onrecord.claims (rule-based reading of the text). Two claims about the
same subject and measure whose intervals do not overlap are a discrepancy; so is a claim
that a record-derived metric contradicts. Each is a Finding quoting both sides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pandas as pd

from onrecord.model import Finding

TEXT_KINDS = ("statement", "report_filed")
TEXT_SOURCES = ("statement", "press")


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
    # The import keeps a document's body as its text and its Author/Agency header lines as
    # the event's actor and agency; put them back in front so "I" is the author, as when
    # `onrecord claims` reads the file, and take their length off every span after.
    heads = {n: _header(r) for n, r in zip(names_of, docs.itertuples(index=False))}
    texts = {n: heads[n] + str(r.text) for n, r in zip(names_of, docs.itertuples(index=False))}
    where = {n: (int(r.source_id), int(r.id)) for n, r in zip(names_of, docs.itertuples(index=False))}
    result = analyse(texts, one_incident=True)  # a case is one incident
    for c in result.claims:
        shift = len(heads[c.doc])
        c.start, c.end, c.sentence_start = c.start - shift, c.end - shift, c.sentence_start - shift
    names = {e.id: e.name for e in result.entities}
    # A text imported into a case is its body alone; its author is the event's actor.
    for n, r in zip(names_of, docs.itertuples(index=False)):
        if isinstance(r.actor, str) and r.actor.strip():
            names[f"author:{n}"] = r.actor.strip()
    for c in result.claims:
        source_id, event_id = where[c.doc]
        out.claim_index[c.id] = len(out.rows)
        out.rows.append({**claim_row(c, names), "source_id": source_id, "event_id": event_id})
    against = _against_records(result.claims, names, findings, who, out, where, events)
    wrong = {f.payload["verdict"]["claim"]: f for f in against}
    for conflict in result.conflicts:
        for side in conflict.sides:
            side["speaker_name"] = names.get(side.get("speaker") or "", side.get("speaker_name"))
            side["record_verdict"] = _verdict_of(out, side["claim"])
        settled = [s for s in conflict.sides if s["claim"] in wrong]
        if settled:
            _cite_other_accounts(conflict.sides, settled, wrong, out)
        else:
            out.findings.append(_claims_disagree(conflict, out, where))
    out.findings += against
    return out


def _cite_other_accounts(sides: list[dict], settled: list[dict], wrong: dict, out: ClaimsRead) -> None:
    """Two accounts disagree and the records already contradict one: one finding per
    wrong claim, citing the other account beside the records (and saying whether the
    records bear it out), not a second finding for the same disagreement."""
    for bad in settled:
        f = wrong[bad["claim"]]
        for other in sides:
            if other is bad:
                continue
            cited = f.payload.setdefault("other_accounts", [])
            if any(o["claim"] == other["claim"] for o in cited):
                continue
            cited.append({**other, "row": out.claim_index.get(other["claim"])})


def _header(r) -> str:
    """'Author: Deputy Thomas R. Okafor' (and its agency) for a statement; nothing for a
    press piece, whose byline is an outlet's staff, not a person who says 'I'."""
    if r.source_kind != "statement" or not isinstance(r.actor, str) or not r.actor.strip():
        return ""
    agency = f"Agency: {r.agency}\n" if isinstance(r.agency, str) and r.agency.strip() else ""
    return f"Author: {r.actor.strip()}\n{agency}\n"


def _verdict_of(out: ClaimsRead, claim_id: str) -> str | None:
    """What the records said of this claim, if they could say anything."""
    row = out.rows[out.claim_index[claim_id]]
    return (json.loads(row["payload"]).get("record_check") or {}).get("verdict")


def _claims_disagree(conflict, out: ClaimsRead, where) -> Finding:
    c = conflict.__dict__
    sides = c["sides"]
    subject = sides[0].get("subject_name") or c.get("subject")
    claim_ids = [s["claim"] for s in sides]
    return Finding("claims_disagree", "established", kind="discrepancy", subject=subject,
                   payload={"measure": c["measure"], "sides": sides, "reason": c.get("reason"),
                            "claims": [out.claim_index.get(i) for i in claim_ids]},
                   evidence=[where[s["doc"]][1] for s in sides if s.get("doc") in where])


def _against_records(claims, names, findings: list[Finding], who, out: ClaimsRead, where, events) -> list[Finding]:
    """Every claim the records can speak to is checked (claim_checks.py); the verdict goes
    into the claim's row either way, and a contradiction becomes a discrepancy quoting
    the claim's sentence and the record events it rests on."""
    from onrecord.findings.claim_checks import check
    from onrecord.findings.record_facts import RecordFacts

    facts = RecordFacts(events, findings, who)
    result = []
    previous: dict[str, object] = {}  # document -> its last time claim, for "... later"
    for c in claims:
        doc_event = where[c.doc][1]
        found = check(c, facts, names, doc_event, previous.get(c.doc))
        if c.measure == "time_of_action":
            previous[c.doc] = c
        if found is None:
            continue
        row = out.rows[out.claim_index[c.id]]
        payload = json.loads(row["payload"])
        payload["record_check"] = {"verdict": found.verdict, "metric": found.metric, "says": found.says,
                                   "claim_interval": list(found.claim), "record_interval": list(found.record),
                                   "evidence": found.evidence}
        row["payload"] = json.dumps(payload, ensure_ascii=False)
        if found.verdict != "contradicts":
            continue
        speaker = names.get(c.speaker or "", c.speaker_text or c.speaker)
        subject = names.get(c.subject or "", c.subject_text)
        result.append(Finding(
            "claim_contradicts_record", "established", kind="discrepancy", subject=subject,
            payload={"measure": c.measure, "claim": out.claim_index.get(c.id), "metric": found.metric,
                     "speaker": speaker, "doc": c.doc, "claim_text": c.text, "sentence": c.sentence,
                     "span": [c.start, c.end], "claim_interval": list(found.claim),
                     "record_interval": list(found.record), "says": found.says,
                     "verdict": {"claim": c.id, "verdict": found.verdict}},
            evidence=[doc_event] + [e for e in found.evidence if e != doc_event]))
    return result

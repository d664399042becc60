"""Prior warnings in a case: link the people named in prior-contact records (tips, calls
for service, school reports, referrals) across agencies, and flag what nobody put together.

Reads the case's events through its reader; write.py writes the linked people (entities
of kind person, mentions with role `subject`) and `warning` findings. `onrecord build`
leaves them in place.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass, field

import pandas as pd

from onrecord.model import Finding

CONTACT_SOURCES = ("tip", "contact")
PERSON_KEYS = ("first_name", "middle_name", "last_name", "full_name", "dob", "address", "phone", "id_number")


@dataclass
class Subjects:
    records: int = 0
    people: list[dict] = field(default_factory=list)  # linked people with >= 2 contacts
    rejects: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pairs: pd.DataFrame | None = None
    receipt: dict | None = None  # the signed receipt of the linkage, once written (store/receipts.py)


def contact_rows(reader) -> tuple[pd.DataFrame, dict[str, str]]:
    """One person row per prior contact, and each agency's declared date-of-birth format."""
    formats, out = {}, []
    for r in reader.contact_events(CONTACT_SOURCES):
        attrs = json.loads(r["attrs"]) if r["attrs"] else {}
        agency = r["agency"] or r["src_agency"] or r["file_name"]
        people = tomllib.loads(r["mapping_text"]).get("people", {})
        if people.get("dob_format"):
            formats[agency] = people["dob_format"]
        out.append({"record_id": str(r["id"]), "agency": agency, "event_kind": r["kind"], "t": r["t_src_lo"],
                    "text": r["text"], "file": r["file_name"], "rid": attrs.get("rid"),
                    **{k: attrs.get(k) for k in PERSON_KEYS if attrs.get(k) not in (None, "")}})
    return pd.DataFrame(out), formats


def link_contacts(reader, backend: str = "duckdb") -> Subjects:
    """The people named in the case's prior-contact records, linked across agencies
    (`reader`: store/reader.py's open_reader); pipeline.link_case writes them."""
    from onrecord.warnings.linkage import link_persons
    from onrecord.warnings.persons import prepare_persons

    table, formats = contact_rows(reader)
    result = Subjects(records=len(table))
    if table.empty:
        result.notes.append("no prior-contact records (sources of kind tip or contact) in the case")
        return result
    clean, rejects = prepare_persons(table[[c for c in table.columns if c in ("record_id", "agency", *PERSON_KEYS)]],
                                     date_formats=formats)
    result.rejects = [r.as_dict() for r in rejects]
    linked = link_persons(clean, backend=backend)
    result.notes += linked.training_notes
    result.pairs = linked.linked_pairs()
    by_record = table.set_index("record_id")
    for person_id, members in linked.clusters.groupby("person_id"):
        ids = list(members["record_id"])
        if len(ids) < 2:
            continue
        result.people.append(_person(ids, by_record))
    result.people.sort(key=lambda p: (-len(p["agencies"]), -len(p["contacts"])))
    return result


def _person(ids: list[str], by_record: pd.DataFrame) -> dict:
    from onrecord.warnings.indicators import find_indicators

    rows = by_record.loc[ids].sort_values("t", na_position="last")
    names = Counter(_name(r) for _, r in rows.iterrows())
    contacts = []
    for rid, r in rows.iterrows():
        hits = find_indicators(r["text"])
        contacts.append({"event": int(rid), "agency": r["agency"], "kind": r["event_kind"], "t": r["t"],
                         "file": r["file"], "rid": r["rid"], "text": r["text"], "name": _name(r),
                         "indicators": sorted({h.rule for h in hits if not getattr(h, "negated", False)})})
    per_agency = Counter(c["agency"] for c in contacts)
    return {"name": names.most_common(1)[0][0], "aliases": sorted(names), "contacts": contacts,
            "agencies": sorted(per_agency), "most_seen_by_one_agency": max(per_agency.values()),
            "with_indicators": sum(1 for c in contacts if c["indicators"])}


def _name(r) -> str:
    if isinstance(r.get("full_name"), str) and r["full_name"]:
        return r["full_name"]
    return " ".join(str(r[k]) for k in ("first_name", "last_name") if isinstance(r.get(k), str) and r[k])


def warning_of(person: dict, entity_id: int | None = None) -> Finding | None:
    """The warning a commission would want read out, or None for an unremarkable history:
    contacts held by two agencies or more, some with threat indicators."""
    n, threat = len(person["contacts"]), person["with_indicators"]
    if len(person["agencies"]) < 2 or threat == 0:
        return None
    return Finding("prior_warnings_not_joined", "established", kind="warning", subject=person["name"][:200],
                   value_lo=n, value_hi=n, unit="count",
                   payload={"person_entity": entity_id, "agencies": person["agencies"], "with_indicators": threat,
                            "most_seen_by_one_agency": person["most_seen_by_one_agency"]},
                   evidence=[c["event"] for c in person["contacts"]])


def flag(person: dict) -> str | None:
    """The warning about this person in words, or None."""
    from onrecord.findings.render import sentence

    found = warning_of(person)
    return sentence(found) if found else None

"""The reconstructed incident as NENA EIDOs (docs/export.md): a JSON array of successive
snapshots, one at each moment the incident's state changed on the common clock, each a
complete EIDO that validates against the NENA schema — the incident, its agencies (with
the roles the records show), its calls, its units with their status as it then stood,
dispatches and notes. The last snapshot is the incident's last known state.

Where the records of several agencies put the same unit status (or call) at different
times, the EIDO carries the one on the unit's own component and every agency's value in
an `AlternateValuesType` entry (the 021.1.1 draft's carrier for conflicting values: each
constituent, its timestamp, its value), referenced from the component by
`AlternateValueReferences`. The draft defines the type but no container for it in the
EIDO; onrecord writes the entries in `alternateValuesComponent` (docs/export.md).
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from onrecord.sources.eido import registry
from onrecord.views.export.result import ExportResult, event_time

UNIT_KINDS = {"unit_dispatched": "Dispatched", "unit_enroute": "EnRoute", "unit_arrived": "OnScene",
              "patient_contact": "PatientContact", "patient_transported": "Transporting",
              "unit_available": "Cleared"}
CALL_KINDS = ("call_received", "call_answered", "call_transferred")
INCIDENT_KINDS = ("incident_created", "incident_status", "incident_closed")
EXPORTED = set(UNIT_KINDS) | set(CALL_KINDS) | set(INCIDENT_KINDS) | {"unit_status", "note"}
EXPORTER = "onrecord"


def rfc3339(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


def _token(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-._@" else "-" for c in str(text))


class Incident:
    """The state the events build up, one event at a time."""

    def __init__(self, case_uid: str):
        self.id = f"urn:emergency:uid:incidentid:{_token(case_uid)}:{EXPORTER}"
        self.agencies: dict[str, dict] = {}
        self.incident: dict | None = None
        self.calls: dict[str, dict] = {}
        self.units: dict[str, dict] = {}
        self.dispatches: dict[str, dict] = {}
        self.notes: dict[str, dict] = {}
        self.alternates: dict[str, dict] = {}
        self.answers: dict[str, list] = {}

    def agency(self, name: str | None, role: str | None = None, at: str | None = None) -> str:
        aid = name or EXPORTER
        a = self.agencies.get(aid)
        if a is None:
            a = self.agencies[aid] = {"$id": aid, "lastUpdateTimeStamp": at, "updatedByAgencyReference": {"$ref": aid},
                                      "agencyRoleDescriptionRegistryText": [], "agencyType": ["other"]}
        if role and role not in a["agencyRoleDescriptionRegistryText"]:
            a["agencyRoleDescriptionRegistryText"].append(role)
            a["lastUpdateTimeStamp"] = at or a["lastUpdateTimeStamp"]
        if not a["agencyRoleDescriptionRegistryText"]:
            a["agencyRoleDescriptionRegistryText"].append("Responding")
        return aid

    def agent(self, agency: str) -> str:
        return f"{EXPORTER}-agent@{agency}"

    def apply(self, row: dict, at: str) -> bool:
        """Fold one event into the state; False when it is not something an EIDO holds."""
        kind, attrs = row["kind"], row["attrs"] or {}
        agency = self.agency(row.get("agency"), at=at)
        prologue = {"lastUpdateTimeStamp": at, "updatedByAgencyReference": {"$ref": agency}}
        if kind in INCIDENT_KINDS:
            inc = self.incident or {"$id": self.id, "incidentTypeCommonRegistryText": attrs.get("incident_type")
                                    or "Unknown", "incidentStatusCommonRegistryText": []}
            inc.update(prologue)
            if kind == "incident_created" and row.get("text"):
                inc["incidentTypeInternalText"] = row["text"]
            status = "Closed" if kind == "incident_closed" else attrs.get("status") or row.get("text")
            if kind != "incident_created" and status and status not in inc["incidentStatusCommonRegistryText"]:
                inc["incidentStatusCommonRegistryText"].append(status)
            self.incident = inc
            return True
        if kind in CALL_KINDS:
            cid = attrs.get("call_id") or f"call:{_token(row.get('call') or row['id'])}"
            if kind == "call_transferred":
                to = attrs.get("to")
                self.agency(row.get("agency"), "CallReceiving", at)
                if to:
                    self.agency(to, registry.TRANSFERRED_TO, at)
                return True
            call = self.calls.get(cid)
            if call is None:
                call = self.calls[cid] = {"$id": cid, **prologue, "standardPrimaryCallType":
                                          attrs.get("call_type") or "emergency", "direction":
                                          attrs.get("direction") or "incoming", "callStartTimestamp": at,
                                          "callStateRegistryText": "callOffered"}
                self.agency(row.get("agency"), "CallReceiving", at)
            if kind == "call_answered":
                if call.get("answerDate") and call["answerDate"] != at:  # another record's answer of the call
                    self.answers[cid].append((agency, at, at))
                    self.alternate(cid, "answerDate", self.answers[cid])
                    return True
                call.update(prologue)
                call["answerDate"] = at
                call["callStateRegistryText"] = "callAnswered"
                self.answers[cid] = [(agency, at, at)]
            return True
        if kind in UNIT_KINDS or kind == "unit_status":
            if not row.get("unit"):
                return False
            status = UNIT_KINDS.get(kind) or (row.get("text") or "Unknown").strip()[:40]
            uid = attrs.get("eido_id") or f"unit:{_token(agency)}:{_token(row['unit'])}"
            unit = self.units.get(uid)
            if unit is None:
                unit = self.units[uid] = {"$id": uid, "emergencyResourceName": row["unit"],
                                          "emergencyResourceTypeCommonRegistryText": attrs.get("resource_type")
                                          or "Unknown", "resourceAttributeRegistryText": [],
                                          "agentReference": [{"$ref": self.agent(agency)}]}
            unit.update(prologue)
            unit["primaryUnitStatusRegistryText"] = "Available" if kind == "unit_available" else "Busy"
            unit["secondaryUnitStatusRegistryText"] = [status]
            if kind == "unit_dispatched":
                self.agency(agency, "Dispatching", at)
                did = f"dispatch:{_token(uid)}"
                self.dispatches[did] = {"$id": did, **prologue, "agencyReference": {"$ref": agency},
                                        "emergencyResourceReference": [{"$ref": uid}]}
            return True
        if kind == "note" and row.get("text"):
            nid = attrs.get("eido_id") or f"note:{row['id']}"
            self.notes[nid] = {"$id": nid, **prologue, "notesActionComments": str(row["text"])}
            return True
        return False

    def alternate(self, uid: str, element: str, reports: list[tuple[str, str, str]]) -> None:
        """Every agency's value for one element of one component: (constituent, timestamp, value)."""
        aid = f"alternates:{_token(uid)}:{element}"
        self.alternates[aid] = {"$id": aid, "DataComponentReference": {"$ref": uid}, "Element": element,
                                "Alternate": [{"Constituent": c, "Timestamp": t, "OtherValue": v}
                                              for c, t, v in reports]}
        holder = self.units.get(uid) or self.calls.get(uid)
        if holder is not None:
            refs = holder.setdefault("AlternateValueReferences", [])
            if {"$ref": aid} not in refs:
                refs.append({"$ref": aid})

    def snapshot(self, at: str) -> dict:
        agencies = list(self.agencies.values())
        agents = [{"$id": self.agent(a["$id"]), "lastUpdateTimeStamp": a["lastUpdateTimeStamp"],
                   "updatedByAgencyReference": {"$ref": a["$id"]}, "agentRoleRegistryText": ["Dispatch"],
                   "agencyReference": {"$ref": a["$id"]}} for a in agencies]
        doc = {"$id": self.id, "lastUpdateTimeStamp": at, "updatedByAgencyReference": {"$ref": EXPORTER},
               "eidoVersion": "1.0", "issuingElementIdentification": f"{EXPORTER}.export"}
        if EXPORTER not in self.agencies:
            agencies = agencies + [{"$id": EXPORTER, "lastUpdateTimeStamp": at,
                                    "updatedByAgencyReference": {"$ref": EXPORTER},
                                    "agencyRoleDescriptionRegistryText": ["Other"], "agencyType": ["other"]}]
        if self.incident:
            doc["incidentComponent"] = dict(self.incident)
        for key, values in (("callComponent", self.calls), ("emergencyResourceComponent", self.units),
                            ("dispatchComponent", self.dispatches), ("notesComponent", self.notes)):
            if values:
                doc[key] = [dict(v) for v in values.values()]
        doc["agencyComponent"] = [dict(a) for a in agencies]
        doc["agentComponent"] = agents
        if self.alternates:
            doc["alternateValuesComponent"] = list(self.alternates.values())
        return json.loads(json.dumps(doc))  # a copy: later events must not change an earlier snapshot


def build_snapshots(reader) -> tuple[list[dict], ExportResult]:
    result = ExportResult("eido", [], 0)
    rows = reader.export_events()
    case_uid = reader.case.uid if hasattr(reader.case, "uid") else str(reader.case.id)
    inc = Incident(case_uid)
    # one event per fused moment: the other reports of it become alternate values
    by_fused: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        if row.get("fused_id") is not None and row["kind"] in UNIT_KINDS:
            by_fused[row["fused_id"]].append(row)
    snaps: list[dict] = []
    pending = snapped = None
    for row in rows:
        lo, _, _ = event_time(row)
        if row["kind"] not in EXPORTED:
            result.left_out[f"kind {row['kind']} has no place in an EIDO"] += 1
            continue
        if lo is None:
            result.left_out["no time"] += 1
            continue
        # a unit's status reported by several records is written once (the others: alternate values);
        # calls are each agency's own call leg, each written
        fused = row.get("fused_id") if row["kind"] in UNIT_KINDS else None
        group = by_fused.get(fused, [row]) if fused is not None else [row]
        if group[0] is not row:
            result.left_out["another agency's report of a moment already written (kept as an alternate value)"] += 1
            continue
        at = rfc3339(lo)
        if pending is not None and pending != at and pending != snapped:  # the state as it stood until now
            snaps.append(inc.snapshot(pending))
            snapped = pending
        if not inc.apply(row, at):
            result.left_out[f"{row['kind']} without the unit or text an EIDO needs"] += 1
            continue
        if len(group) > 1 and row["kind"] in UNIT_KINDS and row.get("unit"):
            uid = next(iter(u for u, c in inc.units.items() if c["emergencyResourceName"] == row["unit"]), None)
            if uid:
                inc.alternate(uid, "secondaryUnitStatusRegistryText",
                              [(g.get("agency") or g["source_kind"], rfc3339(event_time(g)[0]),
                                UNIT_KINDS[row["kind"]]) for g in group if event_time(g)[0] is not None])
        result.written += 1
        pending = at
    if pending is not None and pending != snapped:
        snaps.append(inc.snapshot(pending))
    return snaps, result


def write_eido(reader, out: Path) -> ExportResult:
    snaps, result = build_snapshots(reader)
    out.write_text(json.dumps(snaps, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    result.files = [out]
    result.notes.append(f"{len(snaps)} EIDO snapshots, the last one the incident's last known state")
    return result

"""A fictional active-shooter incident as successive EIDO snapshots (Riverbend County, all
names invented): the PSAP takes the 911 call and transfers it to the sheriff's dispatch,
units go Dispatched -> EnRoute -> Staging / OnScene, notes are added, the incident closes.

Each snapshot is the whole state as known when sent (NENA-STA-021), so a unit's status
history exists only across snapshots. TRUTH is what an importer must find in them.
"""

from __future__ import annotations

import copy

INCIDENT = "urn:emergency:uid:incidentid:rb0001:psap.riverbend.example"
CALL = "urn:emergency:uid:callid:rb0001-1:psap.riverbend.example"
PSAP, SO, FIRE = "psap.riverbend.example", "so.riverbend.example", "fire.riverbend.example"
AGENT_CT, AGENT_DISP = "calltaker3@psap.riverbend.example", "disp7@so.riverbend.example"
UNITS = {"unit-adam12": ("ADAM12", SO, "Law"), "unit-adam14": ("ADAM14", SO, "Law"),
         "unit-medic5": ("MEDIC5", FIRE, "EMS")}

T = {  # local times, Central (UTC-05:00 in June)
    "call": "2026-06-12T09:14:03.2-05:00", "answer": "2026-06-12T09:14:09-05:00",
    "created": "2026-06-12T09:14:40.000-05:00", "transfer": "2026-06-12T09:14:55-05:00",
    "dispatch": "2026-06-12T09:15:20-05:00", "enroute12": "2026-06-12T09:15:41-05:00",
    "enroute14": "2026-06-12T09:16:02-05:00", "enroute_m5": "2026-06-12T09:16:30-05:00",
    "note1": "2026-06-12T09:16:10-05:00", "onscene12": "2026-06-12T09:19:57-05:00",
    "staging_m5": "2026-06-12T09:21:15-05:00", "onscene14": "2026-06-12T09:22:31.75-05:00",
    "note2": "2026-06-12T09:23:05-05:00", "closed": "2026-06-12T11:02:00-05:00",
}


def _prologue(cid: str, when: str, agency: str, agent: str | None = None) -> dict:
    p = {"$id": cid, "lastUpdateTimeStamp": when, "updatedByAgencyReference": {"$ref": agency}}
    if agent:
        p["updatedByAgentReference"] = {"$ref": agent}
    return p


def _agency(aid: str, roles: list[str], kind: str, when: str) -> dict:
    return {**_prologue(aid, when, aid), "agencyRoleDescriptionRegistryText": roles, "agencyType": [kind]}


def _unit(uid: str, status: str, when: str) -> dict:
    name, agency, kind = UNITS[uid]
    return {**_prologue(uid, when, agency, AGENT_DISP), "emergencyResourceName": name,
            "emergencyResourceTypeCommonRegistryText": kind, "resourceAttributeRegistryText": ["Patrol"]
            if kind == "Law" else ["ALS"], "primaryUnitStatusRegistryText": "Busy",
            "secondaryUnitStatusRegistryText": [status], "agentReference": [{"$ref": AGENT_DISP}]}


def snapshots() -> list[dict]:
    """Four snapshots, in the order they were sent."""
    base = {
        **_prologue(INCIDENT, T["answer"], PSAP, AGENT_CT), "eidoVersion": "1.0",
        "issuingElementIdentification": "cad.psap.riverbend.example",
        "callComponent": [{**_prologue(CALL, T["answer"], PSAP, AGENT_CT), "standardPrimaryCallType": "emergency",
                           "direction": "incoming", "callStartTimestamp": T["call"], "answerDate": T["answer"],
                           "callStateRegistryText": "callAnswered", "agentReference": [{"$ref": AGENT_CT}]}],
        "agencyComponent": [_agency(PSAP, ["CallReceiving"], "psap", T["call"])],
        "agentComponent": [{**_prologue(AGENT_CT, T["call"], PSAP), "agentRoleRegistryText": ["Call Taking"],
                            "agencyReference": {"$ref": PSAP}}],
    }
    one = copy.deepcopy(base)
    one["incidentComponent"] = {**_prologue(INCIDENT, T["created"], PSAP, AGENT_CT),
                                "incidentTypeCommonRegistryText": "ACTSHOOT",
                                "incidentTypeInternalText": "Active shooter, Riverbend Middle School",
                                "incidentStatusCommonRegistryText": ["Active"]}

    two = copy.deepcopy(one)  # the call transferred to the sheriff; units dispatched
    two["lastUpdateTimeStamp"] = T["dispatch"]
    two["agencyComponent"] += [_agency(SO, ["TransferredTo", "Dispatching"], "law", T["transfer"]),
                               _agency(FIRE, ["Dispatching"], "fire", T["dispatch"])]
    two["agentComponent"].append({**_prologue(AGENT_DISP, T["transfer"], SO), "agentRoleRegistryText": ["Dispatch"],
                                  "agencyReference": {"$ref": SO}})
    two["emergencyResourceComponent"] = [_unit(u, "Dispatched", T["dispatch"]) for u in UNITS]
    two["dispatchComponent"] = [{**_prologue("dispatch-1", T["dispatch"], SO, AGENT_DISP),
                                 "agencyReference": {"$ref": SO}, "agentReference": {"$ref": AGENT_DISP},
                                 "emergencyResourceReference": [{"$ref": u} for u in UNITS]}]

    three = copy.deepcopy(two)  # en route; the first note
    three["lastUpdateTimeStamp"] = T["enroute_m5"]
    three["emergencyResourceComponent"] = [_unit("unit-adam12", "EnRoute", T["enroute12"]),
                                           _unit("unit-adam14", "EnRoute", T["enroute14"]),
                                           _unit("unit-medic5", "EnRoute", T["enroute_m5"])]
    three["notesComponent"] = [{**_prologue("note-1", T["note1"], SO, AGENT_DISP),
                                "notesActionComments": "Caller reports shots fired in the east wing",
                                "agentReference": {"$ref": AGENT_DISP}}]
    three["callComponent"][0]["agencyReference"] = [{"$ref": SO}]

    four = copy.deepcopy(three)  # on scene, staging, a second note, closed
    four["lastUpdateTimeStamp"] = T["closed"]
    four["emergencyResourceComponent"] = [_unit("unit-adam12", "OnScene", T["onscene12"]),
                                          _unit("unit-adam14", "OnScene", T["onscene14"]),
                                          _unit("unit-medic5", "Staging", T["staging_m5"])]
    four["notesComponent"].append({**_prologue("note-2", T["note2"], SO, AGENT_DISP),
                                   "notesActionComments": "Suspect in custody, east stairwell",
                                   "agentReference": {"$ref": AGENT_DISP}})
    four["incidentComponent"] = {**four["incidentComponent"], "lastUpdateTimeStamp": T["closed"],
                                 "incidentStatusCommonRegistryText": ["Closed"]}
    return [one, two, three, four]


# (kind, unit, time) an importer must read from the four snapshots, in time order
TRUTH = sorted([
    ("call_received", None, T["call"]), ("call_answered", None, T["answer"]),
    ("incident_created", None, T["created"]), ("incident_status", None, T["created"]),
    ("call_transferred", None, T["transfer"]),
    ("unit_dispatched", "ADAM12", T["dispatch"]), ("unit_dispatched", "ADAM14", T["dispatch"]),
    ("unit_dispatched", "MEDIC5", T["dispatch"]),
    ("unit_enroute", "ADAM12", T["enroute12"]), ("unit_enroute", "ADAM14", T["enroute14"]),
    ("unit_enroute", "MEDIC5", T["enroute_m5"]), ("note", None, T["note1"]),
    ("unit_arrived", "ADAM12", T["onscene12"]), ("unit_status", "MEDIC5", T["staging_m5"]),
    ("unit_arrived", "ADAM14", T["onscene14"]), ("note", None, T["note2"]),
    ("incident_closed", None, T["closed"]),
], key=lambda t: (t[2], t[0], t[1] or ""))

"""What a dispatch system comes to hold about an incident, and when each entry is made.

Dispatchers click a dispatch as it happens; an arrival is pressed on a car's terminal
a little after the car stops, taken from an AVL fix entering the incident's geofence,
or typed by a dispatcher after hearing "on scene" on the radio; an entry is typed a
minute or more after "we're going in". These true moments of recording are what the
CAD's clock stamps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..timeline import CadIncident, Incident, Response


@dataclass
class Status:
    t: float  # the true moment the CAD stamped it
    unit: str
    incident: CadIncident
    what: str  # dispatched, enroute, staged, arrived, entered, transporting, available, reassigned
    kind: str | None  # the event kind it records
    event: str | None
    how: str  # CAD (dispatcher action), MDT, AVL, RADIO (typed from a radio call), PHONE


@dataclass
class Note:
    t: float
    incident: CadIncident
    unit: str | None
    text: str
    kind: str | None
    event: str | None


WHAT_KIND = {
    "dispatched": "unit_dispatched",
    "enroute": "unit_enroute",
    "staged": "staging",
    "arrived": "unit_arrived",
    "entered": "entry",
    "transporting": "patient_transported",
    "available": "unit_available",
    "reassigned": None,
}


def tx_index(inc: Incident) -> dict:
    idx: dict = {}
    for tx in inc.txs:
        idx.setdefault((tx.speaker, tx.kind, tx.event), []).append(tx)
    return idx


def cad_log(inc: Incident, codes: list[str], rng: random.Random, practice: dict):
    world = inc.world
    idx = tx_index(inc)
    responses: list[Response] = list(inc.responses.values()) + inc.notes.get("background_responses", [])
    incidents = [c for c in inc.incidents if c.agency in codes]
    by_no = {c.number: c for c in incidents}
    statuses: list[Status] = []
    notes: list[Note] = []
    u = rng.uniform

    def heard(uid, kind, event):
        txs = idx.get((uid, kind, event))
        return txs[0] if txs else None

    for r in responses:
        cad = by_no.get(r.incident)
        if cad is None:
            continue
        unit = world.units[r.unit]
        mdt = rng.random() < practice["mdt"] and unit.role not in ("sro", "security")

        def put(t, what, event, how):
            statuses.append(Status(t, r.unit, cad, what, WHAT_KIND[what], event, how))

        if r.dispatched is not None:
            put(r.dispatched, "dispatched", r.dispatched_ev, "CAD")
        for what, t, ev, kind in (
            ("enroute", r.enroute, r.enroute_ev, "unit_enroute"),
            ("staged", r.staged, r.staged_ev, "staging"),
        ):
            if t is None:
                continue
            tx = heard(r.unit, kind, ev)
            if mdt:
                put(t + u(0.2, 2.0), what, ev, "MDT")
            elif tx:
                put(tx.t + u(3, 20), what, ev, "RADIO")
            elif rng.random() < 0.5:
                put(t + u(10, 60), what, ev, "CAD")
        if r.arrived is not None:
            tx = heard(r.unit, "unit_arrived", r.arrived_ev)
            gi = inc.geofence_fix.get(r.unit)
            if practice["avl_arrival"] and gi is not None:
                fix = inc.fixes[r.unit][gi]
                put(fix.t + u(0.3, 1.8), "arrived", r.arrived_ev, "AVL")
            elif mdt:
                put(r.arrived + u(3, 40), "arrived", r.arrived_ev, "MDT")
            elif tx:
                put(max(tx.t, r.arrived) + u(3, 25), "arrived", r.arrived_ev, "RADIO")
            else:
                put(r.arrived + u(20, 180), "arrived", r.arrived_ev, "CAD")
        if r.available is not None:
            put(r.available + u(0, 20), "available", r.available_ev, "MDT" if mdt else "CAD")
    # entries: typed once the dispatcher catches up with "we're going in"
    for team in inc.teams:
        lead_tx = heard(team.units[0], "entry", team.event)
        for uid in team.units:
            r = inc.responses.get(uid)
            cad = by_no.get(r.incident) if r else None
            if cad is None or (uid != team.units[0] and rng.random() < 0.15):
                continue
            if any(s.what == "entered" and s.unit == uid for s in statuses):
                continue
            base = lead_tx.t if lead_tx else team.t + u(30, 90)
            statuses.append(Status(base + u(20, 200), uid, cad, "entered", "entry", team.event, "RADIO"))
    # medics leaving for hospital
    seen = set()
    for p in inc.patients:
        r = inc.responses[p.medic]
        cad = by_no.get(r.incident)
        if cad is None or p.transport_ev in seen:
            continue
        seen.add(p.transport_ev)
        tx = heard(p.medic, "patient_transported", p.transport_ev)
        t = tx.t + u(3, 30) if tx and rng.random() < 0.5 else p.transport + u(0.5, 15)
        statuses.append(
            Status(t, p.medic, cad, "transporting", "patient_transported", p.transport_ev, "RADIO" if tx else "MDT")
        )
    alarm = inc.alarm
    if alarm and alarm.get("incident") in incidents and alarm.get("engine"):
        cad = alarm["incident"]
        statuses.append(
            Status(
                alarm["engine_dispatched"],
                alarm["engine"],
                cad,
                "dispatched",
                "unit_dispatched",
                alarm["engine_dispatched_ev"],
                "CAD",
            )
        )
        main = inc.responses[alarm["engine"]]
        if main.dispatched:
            statuses.append(Status(main.dispatched + u(1, 8), alarm["engine"], cad, "reassigned", None, None, "CAD"))
    _notes(inc, incidents, notes, idx, rng)
    statuses.sort(key=lambda s: s.t)
    notes.sort(key=lambda n: n.t)
    return incidents, statuses, notes


def _notes(inc: Incident, incidents, notes, idx, rng) -> None:
    world = inc.world
    u = rng.uniform
    tgt = world.target["name"].upper()
    for cad in incidents:
        if not cad.related:
            notes.append(
                Note(
                    cad.created + u(5, 40),
                    cad,
                    None,
                    rng.choice(["RP ADV " + cad.nature, "CALLER STATES " + cad.nature, cad.nature + " - SEE CALLER"]),
                    None,
                    None,
                )
            )
            continue
        ag = world.agencies[cad.agency]
        notes.append(
            Note(
                cad.created + u(3, 30),
                cad,
                None,
                rng.choice(
                    [
                        f"MULT CALLERS ADV SHOTS FIRED IN {tgt}",
                        f"RP ADV HEARD GUNSHOTS {tgt}",
                        f"CALLERS REPORT ACTIVE SHOOTER {world.school.upper()}",
                    ]
                )
                if ag.kind != "fire"
                else f"STAGE AT {world.fire_staging['name'].upper()} UNTIL PD ADVISES SCENE SECURE",
                None,
                None,
            )
        )
        if ag.kind == "fire":
            for t_, txt in (
                (inc.threat_end + u(200, 500), f"PD ADV SCENE SECURE - MOVE UP TO {world.ccp['name'].upper()}"),
                (inc.threat_end + u(400, 900), f"CCP ESTABLISHED {world.ccp['name'].upper()}"),
            ):
                notes.append(Note(t_, cad, None, txt, None, None))
            if inc.patients:
                notes.append(
                    Note(
                        max(p.contact for p in inc.patients) + u(30, 200),
                        cad,
                        None,
                        f"TOTAL PT COUNT {len(inc.patients)}",
                        None,
                        None,
                    )
                )
            continue
        for tx in inc.txs:
            if tx.agency != cad.agency:
                continue
            if tx.kind == "shots_reported" and rng.random() < 0.4:
                cs = world.units[tx.speaker].call_sign.upper() if tx.speaker in world.units else "UNIT"
                notes.append(Note(tx.t + u(5, 30), cad, tx.speaker, f"{cs} ADV ADDTL SHOTS", None, None))
        for team in inc.teams:
            if world.units[team.units[0]].agency != cad.agency or rng.random() < 0.3:
                continue
            txs = idx.get((team.units[0], "entry", team.event))
            base = txs[0].t if txs else team.t + u(30, 90)
            names = "/".join(world.units[x].cad_id for x in team.units)
            notes.append(
                Note(
                    base + u(10, 90),
                    cad,
                    team.units[0],
                    f"ENTRY TEAM IN VIA {team.door['name'].upper()} - {names}",
                    "entry",
                    team.event,
                )
            )
        if inc.fate == "stopped":
            lead = inc.teams[0].units[0]
            txs = idx.get((lead, "threat_ended", inc.threat_end_ev))
            if txs and world.units[lead].agency == cad.agency:
                notes.append(
                    Note(
                        txs[0].t + u(10, 60),
                        cad,
                        lead,
                        f"SUSPECT IN CUSTODY PER {world.units[lead].call_sign.upper()}",
                        "threat_ended",
                        inc.threat_end_ev,
                    )
                )
        else:
            notes.append(
                Note(
                    inc.threat_end + u(1200, 2400),
                    cad,
                    None,
                    "SUSPECT NOT LOCATED IN BLDG - POSS LEFT W/ STUDENTS",
                    None,
                    None,
                )
            )
        if inc.patch_t and cad.agency in inc.patched:
            notes.append(
                Note(
                    inc.patch_t + u(10, 120),
                    cad,
                    None,
                    "RADIO PATCH UP W/ " + "/".join(c for c in inc.patched if c != cad.agency),
                    None,
                    None,
                )
            )
        if inc.live_views:
            notes.append(
                Note(inc.live_views[0].shown + u(-120, 60), cad, None, "SCHOOL CAMERA FEED UP AT CP", None, None)
            )
        notes.append(
            Note(
                inc.threat_end + u(900, 1800),
                cad,
                None,
                rng.choice(
                    [
                        "REUNIFICATION AT CHURCH ON " + world.streets[3].upper(),
                        "PARENT REUNIFICATION SITE " + world.streets[4].upper(),
                    ]
                ),
                None,
                None,
            )
        )

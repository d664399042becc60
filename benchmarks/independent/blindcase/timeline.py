"""Simulate what really happened: shots, calls, dispatches, arrivals, entries, the end
of the threat, casualties, radio traffic, cameras, doors, vehicle tracks.

Everything here is true time (UTC epoch seconds). Agencies' records are derived from
it later, each with its own recording habits and clock.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from . import vocab
from .truth_events import Register
from .world import World, offset_point

GEOFENCE_M = 250.0


@dataclass
class Burst:
    event: str
    start: float
    end: float
    shots: list[float]
    floor: int


@dataclass
class Leg:
    psap: str
    ring: float
    ring_ev: str  # the call reaching this point (for a transferred leg: the transfer)
    position: str
    answer: float | None = None
    answer_ev: str | None = None
    transfer: float | None = None
    transfer_ev: str | None = None
    to: str | None = None
    release: float | None = None
    from_psap: str | None = None


@dataclass
class Call:
    id: str
    ani: str
    cos: str  # wireless, landline, voip
    related: bool
    legs: list[Leg]
    nature: str


@dataclass
class CadIncident:
    agency: str
    number: str
    created: float
    created_ev: str
    nature: str
    related: bool
    from_call: str | None = None  # call id whose answer opened it
    closed: float | None = None
    closed_ev: str | None = None
    place: str = ""
    units: list[str] = field(default_factory=list)


@dataclass
class Response:
    unit: str
    incident: str  # CAD incident number
    dispatched: float | None = None
    dispatched_ev: str | None = None
    enroute: float | None = None
    enroute_ev: str | None = None
    staged: float | None = None
    staged_ev: str | None = None
    arrived: float | None = None
    arrived_ev: str | None = None
    arrival_place: str = ""
    available: float | None = None
    available_ev: str | None = None
    self_dispatched: bool = False
    bearing: float = 0.0
    approach_m: float = 0.0


@dataclass
class Team:
    id: str
    kind: str  # first, second, rescue
    units: list[str]
    t: float
    event: str
    door: dict


@dataclass
class Patient:
    id: str
    burst: int
    medic: str
    contact: float
    contact_ev: str
    transport: float
    transport_ev: str
    hospital: str
    triage: str


@dataclass
class Tx:
    t: float
    dur: float
    tg: str
    speaker: str  # unit id, or "DISPATCH"
    kind: str  # event kind the transmission describes (or radio_transmission)
    event: str
    text: str
    agency: str  # whose channel
    mentions: list[str] = field(default_factory=list)


@dataclass
class Sighting:
    camera: str
    t: float
    event: str
    what: str
    kind: str


@dataclass
class LiveView:
    camera: str
    shown: float
    footage: float
    event: str
    what: str


@dataclass
class DoorEvent:
    t: float
    door: dict
    action: str  # forced, held, opened, granted, fire_input, relock
    event: str
    badge: str = ""
    holder: str = ""


@dataclass
class Fix:
    unit: str
    t: float
    lat: float
    lon: float
    speed: float
    heading: float


@dataclass
class Incident:
    world: World
    reg: Register
    bursts: list[Burst]
    fate: str
    threat_end: float
    threat_end_ev: str
    attacker_entry: float
    attacker_entry_ev: str
    calls: list[Call]
    incidents: list[CadIncident]
    responses: dict[str, Response]
    teams: list[Team]
    patients: list[Patient]
    txs: list[Tx]
    talkgroups: dict[str, str]
    patch_t: float | None
    patched: list[str]
    sightings: list[Sighting]
    live_views: list[LiveView]
    live_lag: float | None
    cameras: list[dict]
    doors: list[DoorEvent]
    alarm: dict | None
    detections: list[dict]
    sensors: list[dict]
    panic: dict | None
    fixes: dict[str, list[Fix]]
    geofence_fix: dict[str, int]  # unit -> index of the fix that put it inside the geofence
    area_codes: list[str]
    notes: dict = field(default_factory=dict)

    @property
    def t0(self) -> float:
        return self.bursts[0].start

    @property
    def last_shot(self) -> float:
        return self.bursts[-1].end


class _Sim:
    def __init__(self, world: World, rng: random.Random):
        self.w = world
        self.rng = rng
        self.reg = Register()
        self.t0 = world.t0

    # --- helpers -------------------------------------------------------------
    def T(self, rel: float) -> float:
        return self.t0 + rel

    def u(self, a: float, b: float) -> float:
        return self.rng.uniform(a, b)


def simulate(world: World) -> Incident:
    rng = random.Random(f"independent/{world.seed}/timeline")
    for _ in range(200):
        inc = _attempt(world, rng)
        if inc is not None:
            return inc
    raise RuntimeError(f"seed {world.seed}: no timeline met the case's requirements")


def _attempt(world: World, rng: random.Random) -> Incident | None:
    s = _Sim(world, rng)
    reg = s.reg
    tgt = world.target
    floors = tgt["floors"]

    # --- the attacker ----------------------------------------------------------
    entry_door = rng.choice(world.doors)
    att_entry_t = s.T(-s.u(25, 200))
    att_entry_ev = reg.add(
        "entry", att_entry_t, people=["P900"], place=entry_door["name"], note="attacker enters the building"
    )
    bursts: list[Burst] = []
    duration = s.u(200, 480)
    rel = 0.0
    while True:
        n = rng.randint(2, 14)
        gap = s.u(0.25, 1.1)
        shots = [rel]
        for _ in range(n - 1):
            shots.append(shots[-1] + gap * s.u(0.7, 1.3))
        bursts.append(Burst("", s.T(shots[0]), s.T(shots[-1]), [s.T(x) for x in shots], 1))
        rel = shots[-1] + s.u(5, 75)
        if rel > duration:
            break
    if len(bursts) < 4:
        return None

    # --- campus people ---------------------------------------------------------
    responses: dict[str, Response] = {}
    sro = next((u for u in world.units.values() if u.role == "sro"), None)
    security = [u for u in world.units.values() if u.role == "security"]
    campus_arrivals: dict[str, float] = {}
    if sro:
        campus_arrivals[sro.id] = s.T(s.u(35, 140))
    for unit in security:
        if rng.random() < 0.7:
            campus_arrivals[unit.id] = s.T(s.u(20, 260))

    # --- agencies' incidents, dispatches and travel -----------------------------
    primary = world.primary
    law_codes = [c for c, a in world.agencies.items() if a.kind in ("sheriff", "police", "state")]
    fire_code = world.code_of("fire")

    # The SRO's first radio call is the first word anyone has.
    sro_shots_t = s.T(s.u(4, 22)) if sro else None

    # 911 calls
    area_codes = [str(rng.randint(210, 989)) for _ in range(2)]
    calls = _make_calls(s, world, bursts, area_codes)
    if not any(len(c.legs) > 1 and c.related for c in calls):
        return None
    answered_at = {}
    for call in calls:
        if not call.related:
            continue
        for leg in call.legs:
            if leg.answer is not None:
                answered_at.setdefault(leg.psap, (leg.answer, call.id))
                if leg.answer < answered_at[leg.psap][0]:
                    answered_at[leg.psap] = (leg.answer, call.id)

    incidents: list[CadIncident] = []
    created: dict[str, CadIncident] = {}

    def open_incident(
        code: str, t: float, nature: str, from_call: str | None, related: bool = True, place: str = ""
    ) -> CadIncident:
        ev = reg.add("incident_created", t, note=f"{code} CAD incident opened: {nature}", related=related)
        inc = CadIncident(
            code, f"{code}#{len(incidents)}", t, ev, nature, related, from_call, place=place or world.address
        )
        incidents.append(inc)
        return inc

    first_answer = answered_at.get(primary)
    options = []
    if first_answer:
        options.append((first_answer[0] + s.u(20, 70), first_answer[1]))
    if sro_shots_t and world.agencies[sro.agency].kind in ("sheriff", "police") and sro.agency == primary:
        options.append((sro_shots_t + s.u(10, 30), None))
    if not options:
        return None
    c_t, c_call = min(options)
    created[primary] = open_incident(primary, c_t, "SHOOTING", c_call)
    for code in law_codes:
        if code == primary:
            continue
        if code in answered_at:
            t = min(answered_at[code][0] + s.u(30, 120), c_t + s.u(60, 240))
            frm = answered_at[code][1] if answered_at[code][0] + 30 < t else None
        else:
            t, frm = c_t + s.u(120, 480), None
        created[code] = open_incident(code, t, "ASSIST OTHER AGENCY - SHOOTING", frm)
    if fire_code in answered_at and answered_at[fire_code][0] < c_t:
        f_t, f_call = answered_at[fire_code][0] + s.u(25, 80), answered_at[fire_code][1]
    else:
        f_t, f_call = c_t + s.u(20, 120), None
    created[fire_code] = open_incident(fire_code, f_t, "MCI - ACTIVE SHOOTER STAGING", f_call)

    # fire alarm
    alarm = None
    if rng.random() < 0.8:
        a_t = s.T(s.u(15, 100))
        a_ev = reg.add(
            "alarm",
            a_t,
            place=f"{tgt['name']} floor {min(floors, 2)}",
            note="smoke from gunfire sets off the fire alarm",
        )
        alarm = {
            "t": a_t,
            "event": a_ev,
            "zone": rng.randint(3, 12),
            "device": f"SD-{rng.randint(100, 399)}",
            "floor": min(floors, 2),
        }
        if rng.random() < 0.6:
            alarm["incident"] = open_incident(
                fire_code, a_t + s.u(45, 140), "FIRE ALARM COMMERCIAL", None, place=world.address
            )

    for inc in list(created.values()):
        _dispatch_agency(s, world, inc, responses, sro_shots_t or c_t, alarm)
    # campus units' own arrivals (no dispatch)
    sd = world.code_of("schools")
    if sro:
        inc = created.get(sro.agency)
        r = Response(sro.id, inc.number if inc else "")
        r.arrived = campus_arrivals[sro.id]
        r.arrival_place = tgt["name"]
        r.arrived_ev = reg.add(
            "unit_arrived",
            r.arrived,
            unit=sro.id,
            place=tgt["name"],
            note="school resource officer reaches the building on foot",
        )
        responses[sro.id] = r
    for unit in security:
        if unit.id in campus_arrivals:
            r = Response(unit.id, "")
            r.arrived = campus_arrivals[unit.id]
            r.arrival_place = tgt["name"]
            r.arrived_ev = reg.add(
                "unit_arrived", r.arrived, unit=unit.id, place=tgt["name"], note="campus officer reaches the building"
            )
            responses[unit.id] = r
    district_inc = None
    if any(u.agency == sd for u in world.units.values()) and rng.random() < 0.8:
        district_inc = open_incident(sd, s.T(s.u(15, 90)), "ACTIVE THREAT", None)
        for unit in world.units_of(sd):
            if unit.id in responses:
                responses[unit.id].incident = district_inc.number

    # --- entries and the end of the threat ---------------------------------------
    law_arrived = sorted(
        (r.arrived, uid)
        for uid, r in responses.items()
        if r.arrived and world.units[uid].armed and world.agencies[world.units[uid].agency].kind != "fire"
    )
    if len(law_arrived) < 4:
        return None
    first_armed_t = law_arrived[0][0]
    if first_armed_t > bursts[-1].end - 40:
        return None
    e1 = first_armed_t + rng.triangular(70, 900, 200)
    eligible = [
        uid for t, uid in law_arrived if t <= e1 - 10 and not (world.units[uid].role == "sro" and rng.random() < 0.7)
    ]
    if len(eligible) < 2:
        later = [t for t, uid in law_arrived if world.units[uid].role != "sro"]
        if len(later) < 2:
            return None
        e1 = later[1] + s.u(20, 90)
        eligible = [uid for t, uid in law_arrived if t <= e1 - 10 and world.units[uid].role != "sro"]
    team1 = rng.sample(eligible, min(len(eligible), rng.randint(2, 4)))
    fate = "stopped" if rng.random() < 0.5 else "left"
    if fate == "stopped":
        threat_t = e1 + s.u(25, 200)
        bursts = [b for b in bursts if b.start < threat_t - 3]
        if len(bursts) < 3:
            return None
    else:
        threat_t = bursts[-1].end + s.u(15, 150)
    if first_armed_t > bursts[-1].end - 30:
        return None
    # floors climb as the bursts go on
    for i, b in enumerate(bursts):
        b.floor = min(floors, 1 + (i * floors) // len(bursts))
        b.event = reg.add(
            "shots_fired",
            b.start,
            people=["P900"],
            place=f"{tgt['name']} floor {b.floor}",
            note=f"burst of {len(b.shots)} shots",
            attrs={"shots": len(b.shots), "burst_end_epoch": round(b.end, 3)},
        )
    door1 = rng.choice(world.doors)
    teams: list[Team] = []
    ev = reg.add("entry", e1, unit=team1[0], units=list(team1), place=door1["name"], note="first entry team goes in")
    teams.append(Team("TEAM1", "first", team1, e1, ev, door1))
    if fate == "stopped":
        threat_ev = reg.add(
            "threat_ended",
            threat_t,
            unit=team1[0],
            units=list(team1),
            people=["P900"],
            place=f"{tgt['name']} floor {bursts[-1].floor}",
            note="attacker stopped and detained by the first entry team",
        )
        exit_door = None
    else:
        exit_door = rng.choice(world.doors)
        threat_ev = reg.add(
            "threat_ended",
            threat_t,
            people=["P900"],
            place=exit_door["name"],
            note="attacker leaves the building among fleeing students",
        )
    e2 = e1 + s.u(60, 420)
    pool = [uid for t, uid in law_arrived if t <= e2 - 10 and uid not in team1]
    if len(pool) >= 2:
        team2 = rng.sample(pool, min(len(pool), rng.randint(2, 3)))
        door2 = rng.choice(world.doors)
        ev = reg.add(
            "entry", e2, unit=team2[0], units=list(team2), place=door2["name"], note="second entry team goes in"
        )
        teams.append(Team("TEAM2", "second", team2, e2, ev, door2))

    # --- fire moves up from staging once the threat has ended ------------------------
    _fire_move_up(s, world, responses, threat_t)
    fire_on_scene = [uid for uid, r in responses.items() if world.units[uid].agency == fire_code and r.arrived]
    if not any(world.units[u].role == "medic" for u in fire_on_scene):
        return None
    rtf_units = [u for u in fire_on_scene if world.units[u].role in ("engine", "rescue", "ladder")]
    if rtf_units and rng.random() < 0.55:
        fire_part = rng.sample(rtf_units, min(len(rtf_units), rng.randint(1, 2)))
        t_rtf = max(max(responses[u].arrived for u in fire_part) + s.u(30, 120), threat_t + s.u(180, 700))
        escorts = [uid for t, uid in law_arrived if t < t_rtf - 30]
        escort = rng.sample(escorts, min(len(escorts), rng.randint(1, 2)))
        door3 = rng.choice(world.doors)
        ev = reg.add(
            "entry",
            t_rtf,
            unit=escort[0],
            units=escort + fire_part,
            place=door3["name"],
            note="rescue task force (fire crew with police escort) goes in",
        )
        teams.append(Team("RTF", "rescue", escort + fire_part, t_rtf, ev, door3))

    # a unit that held outside while shots were fired is the point of the case
    if not any(
        _outside(responses[uid].arrived, _first_entry(uid, teams), threat_t, bursts[0].start, bursts[-1].end) >= 20
        for _, uid in law_arrived
    ):
        return None

    # --- casualties --------------------------------------------------------------
    patients = _casualties(s, world, responses, bursts, threat_t, teams)

    # --- units clear, incidents close ----------------------------------------------
    end = max(threat_t, max(p.transport for p in patients) if patients else threat_t) + s.u(600, 1500)
    for uid, r in responses.items():
        u = world.units[uid]
        if r.arrived and u.role not in ("medic",) and rng.random() < 0.35 and r.incident:
            r.available = end + s.u(-300, 600)
            r.available_ev = reg.add("unit_available", r.available, unit=uid, note="clears the incident")
    for inc in incidents:
        if inc.related and rng.random() < 0.5:
            inc.closed = end + s.u(600, 2400)
            inc.closed_ev = reg.add("incident_closed", inc.closed, note=f"{inc.agency} incident {inc.number} closed")
    for inc in incidents:
        inc.units = [uid for uid, r in responses.items() if r.incident == inc.number] or inc.units

    # --- sensors, doors, cameras -------------------------------------------------------
    doors = _doors(
        s, world, att_entry_t, att_entry_ev, entry_door, teams, alarm, exit_door, threat_t, threat_ev, bursts
    )
    sensors, detections = _gunshot_sensors(s, world, bursts)
    panic = None
    if rng.random() < 0.45:
        p_t = s.T(s.u(8, 70))
        panic = {
            "t": p_t,
            "event": reg.add(
                "alarm",
                p_t,
                place=f"{tgt['name']} room {rng.randint(100, 330)}",
                note="teacher activates the staff panic alert app",
            ),
            "room": f"{rng.randint(1, floors)}{rng.randint(0, 3)}{rng.randint(0, 9)}",
        }
    cameras, sightings = _cameras(
        s, world, bursts, teams, fate, threat_t, threat_ev, att_entry_t, att_entry_ev, responses, doors
    )
    live_lag = None
    live_views: list[LiveView] = []
    if rng.random() < 0.85:
        live_lag = rng.choice([s.u(360, 1440), s.u(360, 1440), s.u(90, 300)])
        live_views = _live_views(s, sightings, live_lag, c_t)

    # --- vehicle tracks ----------------------------------------------------------------
    fixes, geofix = _tracks(s, world, responses)

    inc = Incident(
        world,
        reg,
        bursts,
        fate,
        threat_t,
        threat_ev,
        att_entry_t,
        att_entry_ev,
        calls,
        incidents,
        responses,
        teams,
        patients,
        [],
        {},
        None,
        [],
        sightings,
        live_views,
        live_lag,
        cameras,
        doors,
        alarm,
        detections,
        sensors,
        panic,
        fixes,
        geofix,
        area_codes,
    )
    inc.notes["district_incident"] = district_inc.number if district_inc else None
    inc.notes["primary_incident"] = created[primary].number
    inc.notes["created"] = {c: i.number for c, i in created.items()}
    _background(s, world, inc)

    # --- radio ---------------------------------------------------------------------------
    inc.talkgroups, inc.txs, inc.patch_t, inc.patched = _radio(
        s,
        world,
        responses,
        teams,
        bursts,
        fate,
        threat_t,
        threat_ev,
        sro,
        sro_shots_t,
        patients,
        live_views,
        created,
        calls,
        inc.notes.get("background_responses", []),
    )
    _renumber(inc, rng)
    return inc


def _first_entry(uid: str, teams: list[Team]) -> float | None:
    times = [t.t for t in teams if uid in t.units]
    return min(times) if times else None


def _outside(arrived: float | None, entered: float | None, threat_end: float, first: float, last: float) -> float:
    """Seconds a unit was on scene, not inside, while shots were still being fired."""
    if arrived is None:
        return 0.0
    end = entered if entered is not None else threat_end
    lo, hi = max(arrived, first), min(end, last)
    return max(0.0, hi - lo)


outside_while_shots = _outside


def _make_calls(s: _Sim, world: World, bursts: list[Burst], area_codes: list[str]) -> list[Call]:
    rng, reg = s.rng, s.reg
    primary, wireless = world.primary, world.wireless_psap
    calls: list[Call] = []
    positions = {code: [f"{n:02d}" for n in rng.sample(range(1, 16), 5)] for code in (primary, wireless)}
    busy: dict[str, list[float]] = {primary: [], wireless: []}
    used_ani: set[str] = set()

    def ani() -> str:
        while True:
            a = f"{rng.choice(area_codes)}{rng.randint(200, 989)}{rng.randint(0, 9999):04d}"
            if a not in used_ani:
                used_ani.add(a)
                return a

    def answer_after(psap: str, ring: float) -> float:
        load = sum(1 for t in busy[psap] if ring - 60 < t <= ring)
        busy[psap].append(ring)
        return ring + min(75.0, s.u(2, 9) + load * s.u(2, 6))

    n_related = rng.randint(6, 16)
    ring_rel = sorted([s.u(8, 35)] + [rng.triangular(10, 900, 120) for _ in range(n_related - 1)])
    for i, rel in enumerate(ring_rel):
        cos = rng.choices(["wireless", "landline", "voip"], [0.7, 0.2, 0.1])[0]
        first_psap = wireless if (cos == "wireless" and rng.random() < 0.8) else primary
        cid = f"C{len(calls) + 1:03d}"
        number = ani()
        tag = {"call": cid, "caller": number}
        ring = s.T(rel)
        leg = Leg(
            first_psap,
            ring,
            reg.add(
                "call_received",
                ring,
                place=first_psap,
                note=f"911 call {cid} rings at {first_psap}",
                attrs=dict(tag, leg=1),
            ),
            rng.choice(positions[first_psap]),
        )
        legs = [leg]
        if cos == "wireless" and first_psap != primary and rng.random() < 0.08:
            leg.release = ring + s.u(4, 20)  # caller gives up before anyone answers
        else:
            leg.answer = answer_after(first_psap, ring)
            leg.answer_ev = reg.add(
                "call_answered",
                leg.answer,
                place=first_psap,
                note=f"{cid} answered at {first_psap}",
                attrs=dict(tag, leg=1),
            )
            if first_psap != primary:
                leg.transfer = leg.answer + s.u(12, 95)
                leg.to = primary
                leg.transfer_ev = reg.add(
                    "call_transferred",
                    leg.transfer,
                    place=first_psap,
                    note=f"{cid} transferred from {first_psap} to {primary}",
                    attrs=dict(tag, leg=1),
                )
                leg.release = leg.transfer + s.u(1, 15)
                ring2 = leg.transfer + s.u(0.5, 2.5)
                leg2 = Leg(primary, ring2, leg.transfer_ev, rng.choice(positions[primary]), from_psap=first_psap)
                leg2.answer = answer_after(primary, ring2)
                leg2.answer_ev = reg.add(
                    "call_answered",
                    leg2.answer,
                    place=primary,
                    note=f"{cid} transferred call answered at {primary}",
                    attrs=dict(tag, leg=2),
                )
                leg2.release = leg2.answer + s.u(40, 420)
                legs.append(leg2)
            else:
                leg.release = leg.answer + s.u(40, 420)
        calls.append(Call(cid, number, cos, True, legs, "SHOOTING"))
    # the same afternoon's ordinary calls
    for psap in (primary, wireless):
        for _ in range(rng.randint(3, 7)):
            rel = s.u(-2700, 2700)
            cid = f"C{len(calls) + 1:03d}"
            number = ani()
            tag = {"call": cid, "caller": number, "leg": 1}
            ring = s.T(rel)
            nature = rng.choice(
                [
                    "TRAFFIC ACCIDENT",
                    "MEDICAL",
                    "ALARM BURGLARY",
                    "SUSPICIOUS PERSON",
                    "NOISE COMPLAINT",
                    "THEFT REPORT",
                    "WELFARE CHECK",
                ]
            )
            leg = Leg(
                psap,
                ring,
                reg.add("call_received", ring, place=psap, note=f"{cid} ordinary call", related=False, attrs=tag),
                rng.choice(positions[psap]),
            )
            leg.answer = answer_after(psap, ring)
            leg.answer_ev = reg.add(
                "call_answered", leg.answer, place=psap, note=f"{cid} answered", related=False, attrs=tag
            )
            leg.release = leg.answer + s.u(30, 300)
            calls.append(Call(cid, number, rng.choice(["wireless", "landline"]), False, [leg], nature))
    calls.sort(key=lambda c: c.legs[0].ring)
    return calls


def _travel(s: _Sim, unit, world: World, primary: bool) -> float:
    u = s.u
    if unit.role == "trooper":
        return u(420, 1500)
    if unit.near:
        return u(70, 220)
    if unit.role == "command":
        return u(420, 1100)
    if unit.role == "cso":
        return u(90, 400)
    return u(200, 720) if primary else u(260, 950)


def _dispatch_agency(s: _Sim, world: World, inc: CadIncident, responses: dict, first_word: float, alarm) -> None:
    rng, reg = s.rng, s.reg
    agency = world.agencies[inc.agency]
    units = [u for u in world.units_of(inc.agency) if u.responds and u.role not in ("sro", "security")]
    if agency.kind == "schools":
        return
    order = sorted(
        units, key=lambda u: (not u.near, {"cso": 3, "sergeant": 1, "command": 2}.get(u.role, 0), rng.random())
    )
    if agency.kind != "fire" and inc.agency != world.primary:
        order = order[: max(2, len(order) - rng.randint(0, 2))]
    t = inc.created + s.u(5, 25)
    for unit in order:
        r = Response(unit.id, inc.number, bearing=s.u(0, 360))
        if agency.kind == "fire":
            r.dispatched = t
            r.dispatched_ev = reg.add("unit_dispatched", t, unit=unit.id, note=f"{unit.cad_id} toned out")
            r.enroute = t + s.u(30, 100)
            r.enroute_ev = reg.add("unit_enroute", r.enroute, unit=unit.id)
            travel = s.u(180, 700)
            if unit.role == "chief":
                r.arrived = r.enroute + travel
                r.arrived_ev = reg.add("unit_arrived", r.arrived, unit=unit.id, place="command post")
                r.arrival_place = "command post"
            else:
                r.staged = r.enroute + travel
                r.staged_ev = reg.add("staging", r.staged, unit=unit.id, place=world.fire_staging["name"])
            t += s.u(3, 12)
        else:
            if unit.near and rng.random() < 0.35 and inc.agency == world.primary:
                r.self_dispatched = True
                r.enroute = first_word + s.u(3, 25)
                r.enroute_ev = reg.add(
                    "unit_enroute", r.enroute, unit=unit.id, note="self-dispatched on hearing the radio"
                )
                if rng.random() < 0.6:
                    r.dispatched = max(t, r.enroute + s.u(10, 60))
                    r.dispatched_ev = reg.add(
                        "unit_dispatched", r.dispatched, unit=unit.id, note="attached after going en route"
                    )
            else:
                r.dispatched = t
                r.dispatched_ev = reg.add("unit_dispatched", t, unit=unit.id)
                r.enroute = t + s.u(3, 45)
                r.enroute_ev = reg.add("unit_enroute", r.enroute, unit=unit.id)
                t += s.u(2, 35)
            r.arrived = r.enroute + _travel(s, unit, world, inc.agency == world.primary)
            r.arrival_place = rng.choice([world.police_staging["name"], world.target["name"], world.target["name"]])
            r.arrived_ev = reg.add("unit_arrived", r.arrived, unit=unit.id, place=r.arrival_place)
        responses[unit.id] = r
    if agency.kind == "fire" and alarm and alarm.get("incident"):
        # the engine first sent to the alarm call is moved to the shooting incident
        engine = next((u for u in order if u.role == "engine"), None)
        if engine:
            r = responses[engine.id]
            alarm_inc = alarm["incident"]
            alarm["engine"] = engine.id
            alarm["engine_dispatched"] = alarm_inc.created + s.u(8, 30)
            alarm["engine_dispatched_ev"] = reg.add(
                "unit_dispatched",
                alarm["engine_dispatched"],
                unit=engine.id,
                note="sent to the fire alarm call",
                attrs={"call": "fire alarm"},
            )
            alarm_inc.units = [engine.id]


def _fire_move_up(s: _Sim, world: World, responses: dict, threat_t: float) -> None:
    rng, reg = s.rng, s.reg
    fire = world.code_of("fire")
    for uid, r in responses.items():
        unit = world.units[uid]
        if unit.agency != fire or r.staged is None:
            continue
        if unit.role != "medic" and rng.random() < 0.3:
            continue  # stays at staging all afternoon
        t = max(r.staged + s.u(60, 240), threat_t + s.u(60, 480)) + s.u(40, 100)
        r.arrived = t
        r.arrival_place = world.ccp["name"]
        r.arrived_ev = reg.add("unit_arrived", t, unit=uid, place=world.ccp["name"], note="moves up from staging")


def _casualties(s: _Sim, world: World, responses: dict, bursts: list[Burst], threat_t: float, teams) -> list[Patient]:
    """Victims are carried out to the casualty collection point once the threat has ended
    (or the rescue task force has gone in); each ambulance takes one or two, then leaves."""
    rng, reg = s.rng, s.reg
    fire = world.code_of("fire")
    medics = sorted(
        (
            (r.arrived, uid)
            for uid, r in responses.items()
            if world.units[uid].agency == fire and world.units[uid].role == "medic" and r.arrived
        )
    )
    rtf = next((t for t in teams if t.kind == "rescue"), None)
    out_from = (rtf.t if rtf else threat_t) + s.u(60, 300)
    patients: list[Patient] = []
    n_total = rng.randint(2, 9)
    for arrived, uid in medics:
        load = rng.choice([1, 1, 2])
        contacts = []
        t = max(arrived + s.u(20, 90), out_from + s.u(0, 600))
        for _ in range(load):
            if len(patients) + len(contacts) >= n_total:
                break
            contacts.append(t)
            t += s.u(30, 150)
        if not contacts:
            break
        transport = contacts[-1] + s.u(240, 780)
        hospital = rng.choice(world.hospitals)
        t_ev = reg.add(
            "patient_transported",
            transport,
            unit=uid,
            place=hospital,
            note=f"{world.units[uid].cad_id} leaves for {hospital} with {len(contacts)}",
        )
        for c in contacts:
            pid = f"PT{len(patients) + 1:02d}"
            c_ev = reg.add("patient_contact", c, unit=uid, place=world.ccp["name"], note=f"patient {pid}")
            patients.append(
                Patient(
                    pid,
                    rng.randrange(len(bursts)),
                    uid,
                    c,
                    c_ev,
                    transport,
                    t_ev,
                    hospital,
                    rng.choice(["RED", "RED", "YELLOW", "GREEN"]),
                )
            )
    return patients


def _doors(s: _Sim, world: World, att_t, att_ev, att_door, teams, alarm, exit_door, threat_t, threat_ev, bursts):
    rng, reg = s.rng, s.reg
    out = [DoorEvent(att_t, att_door, rng.choice(["held", "opened"]), att_ev)]
    for _ in range(rng.randint(3, 8)):
        t = bursts[0].start + s.u(5, 420)
        door = rng.choice(world.doors)
        ev = reg.add("door_event", t, place=door["name"], note="students flee through an exit door")
        out.append(DoorEvent(t, door, rng.choice(["forced", "held", "opened"]), ev))
    for team in teams:
        if rng.random() < 0.85:
            out.append(DoorEvent(team.t, team.door, rng.choice(["forced", "opened", "held"]), team.event))
    if alarm:
        out.append(DoorEvent(alarm["t"] + s.u(0.3, 1.0), world.doors[0], "fire_input", alarm["event"]))
    if exit_door is not None:
        out.append(DoorEvent(threat_t, exit_door, "opened", threat_ev))
    out.sort(key=lambda d: d.t)
    return out


def _gunshot_sensors(s: _Sim, world: World, bursts: list[Burst]):
    rng = s.rng
    floors = world.target["floors"]
    sensors = []
    for f in range(1, floors + 1):
        for wing in rng.sample(["East Hall", "West Hall", "Stairwell A", "Stairwell B", "Commons"], 2):
            sensors.append({"id": f"GS-{f}{len(sensors):02d}", "floor": f, "where": f"Floor {f} {wing}"})
    detections = []
    for i, b in enumerate(bursts):
        heard = [x for x in sensors if x["floor"] == b.floor]
        heard += [x for x in sensors if abs(x["floor"] - b.floor) == 1 and rng.random() < 0.3]
        if rng.random() < 0.1 and len(heard) > 1:
            heard = heard[1:]
        for x in heard:
            rounds = len(b.shots) - (rng.randint(0, 2) if x["floor"] != b.floor else 0)
            detections.append(
                {"burst": i, "sensor": x, "t": b.start + s.u(0.02, 0.3), "rounds": max(1, rounds), "event": b.event}
            )
    detections.sort(key=lambda d: d["t"])
    return sensors, detections


def _cameras(s, world, bursts, teams, fate, threat_t, threat_ev, att_t, att_ev, responses, doors):
    rng = s.rng
    tgt = world.target
    cams = []
    for i in range(rng.randint(6, 12)):
        if i < len(world.doors):
            where = f"{world.doors[i]['name']} (exterior)"
        else:
            where = f"{tgt['name']} floor {1 + i % tgt['floors']} hall"
        cams.append(
            {
                "id": f"CAM{rng.randint(10, 99)}{i:02d}",
                "where": where,
                "door": world.doors[i]["id"] if i < len(world.doors) else None,
                "floor": None if i < len(world.doors) else 1 + i % tgt["floors"],
            }
        )
    cam_by_door = {c["door"]: c for c in cams if c["door"]}
    hall = [c for c in cams if c["floor"]]
    sights = []
    att_door = doors[0].door
    sights.append(Sighting(cam_by_door[att_door["id"]]["id"], att_t, att_ev, "male with long gun enters", "entry"))
    for b in bursts:
        cs = [c for c in hall if c["floor"] == b.floor]
        if cs and rng.random() < 0.7:
            sights.append(Sighting(rng.choice(cs)["id"], b.start, b.event, "subject firing in hallway", "shots_fired"))
    for team in teams:
        if rng.random() < 0.8:
            sights.append(
                Sighting(
                    cam_by_door[team.door["id"]]["id"],
                    team.t,
                    team.event,
                    "officers enter" if team.kind != "rescue" else "officers and fire crew enter",
                    "entry",
                )
            )
    if fate == "left":
        exit_d = next(d for d in doors if d.event == threat_ev).door
        sights.append(
            Sighting(
                cam_by_door[exit_d["id"]]["id"], threat_t, threat_ev, "subject exits with students", "threat_ended"
            )
        )
    elif rng.random() < 0.5:
        cs = [c for c in hall if c["floor"] == bursts[-1].floor] or hall
        sights.append(
            Sighting(rng.choice(cs)["id"], threat_t, threat_ev, "officers take subject to the floor", "threat_ended")
        )
    for d in doors:
        if d.action != "fire_input" and d.event not in [x.event for x in sights] and rng.random() < 0.3:
            sights.append(Sighting(cam_by_door[d.door["id"]]["id"], d.t, d.event, "students run out", "door_event"))
    sights.sort(key=lambda x: x.t)
    return cams, sights


def _live_views(s, sightings, lag, created_t):
    rng = s.rng
    start = created_t + s.u(300, 900)
    views = []
    for sight in sightings:
        shown = sight.t + lag
        if shown >= start and rng.random() < 0.8:
            views.append(LiveView(sight.camera, shown, sight.t, sight.event, sight.what))
    return views


def _radio(
    s,
    world,
    responses,
    teams,
    bursts,
    fate,
    threat_t,
    threat_ev,
    sro,
    sro_shots_t,
    patients,
    live_views,
    created,
    calls,
    background,
):
    rng, reg = s.rng, s.reg
    tgs = {}
    for code, ag in world.agencies.items():
        short = code
        if ag.kind == "fire":
            tgs[code] = rng.choice([f"{short} TAC 3", f"{short} OPS 2", "FIRE GROUND 4"])
            tgs[code + ":dispatch"] = rng.choice([f"{short} DISPATCH", "FIRE DISP 1", f"{short} ALERT"])
        elif ag.kind == "schools":
            tgs[code] = rng.choice(["CAMPUS OPS", f"{short} SAFETY", "SECURITY 1"])
        else:
            tgs[code] = rng.choice([f"{short} MAIN", f"{short} DISP 1", f"{short} NORTH", f"{short} A1"])
    txs: list[Tx] = []
    units = world.units
    tgt = world.target

    def fam(uid):
        return world.agencies[units[uid].agency].vocab if uid in units else "plain"

    def add(t, speaker, kind, event, text, agency, tg=None, mentions=None, dur=None):
        txs.append(
            Tx(
                t,
                dur if dur is not None else round(s.u(1.5, 9.0), 1),
                tg or tgs[agency],
                speaker,
                kind,
                event,
                text,
                agency,
                mentions or ([speaker] if speaker in units else []),
            )
        )

    def generic(t, speaker, text, agency, note="", mentions=None):
        ev = reg.add("radio_transmission", t, unit=speaker if speaker in units else None, note=note or text)
        add(t, speaker, "radio_transmission", ev, text, agency, mentions=mentions)

    def burst_at(t):
        for i, b in enumerate(bursts):
            if b.start <= t <= b.end + 8:
                return b
        return None

    params = dict(
        school=world.school,
        address=world.address,
        staging=world.fire_staging["name"],
        bldg=tgt["name"],
        street=rng.choice(world.streets),
    )
    if sro and sro_shots_t:
        b = burst_at(sro_shots_t) or bursts[0]
        add(
            sro_shots_t,
            sro.id,
            "shots_reported",
            b.event,
            vocab.phrase(rng, fam(sro.id), "shots_reported", cs=sro.call_sign, **params),
            sro.agency,
        )
    for code, inc in created.items():
        ag = world.agencies[code]
        if ag.kind in ("sheriff", "police", "state"):
            generic(
                inc.created + s.u(2, 15),
                "DISPATCH",
                vocab.chatter(rng, "broadcast", **params),
                code,
                note=f"{code} dispatcher broadcast",
            )
    for uid, r in sorted(responses.items(), key=lambda kv: kv[1].dispatched or kv[1].arrived or 0):
        unit = units[uid]
        code = unit.agency
        ag = world.agencies[code]
        f = fam(uid)
        p = dict(params, cs=unit.call_sign, place=r.arrival_place or tgt["name"])
        if r.dispatched is not None and rng.random() < 0.8:
            if ag.kind == "fire":
                add(
                    r.dispatched + s.u(0.0, 1.5),
                    "DISPATCH",
                    "unit_dispatched",
                    r.dispatched_ev,
                    vocab.phrase(rng, f, "tone_out", **p),
                    code,
                    tg=tgs[code + ":dispatch"],
                    mentions=[uid],
                    dur=round(s.u(8, 16), 1),
                )
            else:
                add(
                    r.dispatched + s.u(1, 12),
                    "DISPATCH",
                    "unit_dispatched",
                    r.dispatched_ev,
                    vocab.phrase(rng, f, "dispatch", **p),
                    code,
                    mentions=[uid],
                )
        if r.enroute is not None and rng.random() < 0.7:
            tg = tgs[code + ":dispatch"] if ag.kind == "fire" else tgs[code]
            add(
                r.enroute + s.u(0.5, 6),
                uid,
                "unit_enroute",
                r.enroute_ev,
                vocab.phrase(rng, f, "unit_enroute", **p),
                code,
                tg=tg,
            )
        if r.staged is not None and rng.random() < 0.8:
            add(r.staged + s.u(2, 20), uid, "staging", r.staged_ev, vocab.phrase(rng, f, "staging", **p), code)
        if r.arrived is not None and rng.random() < 0.85:
            kind = "unit_arrived_fire" if ag.kind == "fire" else "unit_arrived"
            text = vocab.phrase(rng, f, kind, **p)
            while "staging" in text and r.arrival_place != world.police_staging["name"]:
                text = vocab.phrase(rng, f, kind, **p)  # "at staging" only from the staging lot
            lag = s.u(-3, 4) if ("arriving" in text or "pulling up" in text) else s.u(1, 20)
            add(r.arrived + lag, uid, "unit_arrived", r.arrived_ev, text, code)
        if r.arrived and ag.kind != "fire":
            for b in bursts:
                if b.start > r.arrived and rng.random() < 0.3:
                    add(
                        b.start + s.u(1, 7),
                        uid,
                        "shots_reported",
                        b.event,
                        vocab.phrase(rng, f, "shots_reported", **p),
                        code,
                    )
            if r.arrived < bursts[-1].end and rng.random() < 0.5:
                side = rng.choice(["north", "south", "east", "west"])
                generic(r.arrived + s.u(20, 90), uid, vocab.chatter(rng, "location", side=side, **p), code)
    # supervisors order the perimeter held
    for uid, r in responses.items():
        unit = units[uid]
        if unit.role == "sergeant" and r.arrived and r.arrived < threat_t:
            generic(
                r.arrived + s.u(15, 60),
                uid,
                vocab.chatter(rng, "hold", cs=unit.call_sign, street=params["street"]),
                unit.agency,
                note="sergeant orders the perimeter held",
            )
    for team in teams:
        lead = team.units[0]
        others = [units[u].call_sign for u in team.units[1:]]
        p = dict(
            params,
            cs=units[lead].call_sign,
            door=team.door["name"].replace(tgt["name"] + " ", "").lower(),
            team=" and ".join(others) or "two others",
        )
        add(
            team.t + s.u(-4, 3),
            lead,
            "entry",
            team.event,
            vocab.phrase(rng, fam(lead), "entry_start", **p),
            units[lead].agency,
            mentions=list(team.units),
        )
        if rng.random() < 0.4:
            add(
                team.t + s.u(6, 25),
                lead,
                "entry",
                team.event,
                vocab.phrase(rng, fam(lead), "entry_inside", **p),
                units[lead].agency,
            )
    if fate == "stopped":
        lead = teams[0].units[0]
        add(
            threat_t + s.u(2, 15),
            lead,
            "threat_ended",
            threat_ev,
            vocab.phrase(
                rng, fam(lead), "threat_stopped", cs=units[lead].call_sign, floor=vocab.FLOOR_WORDS[bursts[-1].floor]
            ),
            units[lead].agency,
        )
    said: set[str] = set()
    for p_ in patients:
        unit = units[p_.medic]
        p = dict(params, cs=unit.call_sign, hospital=p_.hospital)
        if rng.random() < 0.8:
            add(
                p_.contact + s.u(0, 12),
                unit.id,
                "patient_contact",
                p_.contact_ev,
                vocab.phrase(rng, fam(unit.id), "patient_contact", **p),
                unit.agency,
            )
        if p_.transport_ev not in said and rng.random() < 0.85:
            said.add(p_.transport_ev)
            add(
                p_.transport + s.u(0, 12),
                unit.id,
                "patient_transported",
                p_.transport_ev,
                vocab.phrase(rng, fam(unit.id), "patient_transported", **p),
                unit.agency,
            )
    # a commander relays the cameras' "live" view as if current
    commanders = [uid for uid, r in responses.items() if units[uid].role == "command" and r.arrived]
    if live_views and commanders:
        uid = commanders[0]
        for v in live_views[: rng.randint(1, 3)]:
            generic(
                v.shown + s.u(5, 25),
                uid,
                vocab.chatter(
                    rng, "camera", cs=units[uid].call_sign, floor=vocab.FLOOR_WORDS[1 + rng.randrange(tgt["floors"])]
                ),
                units[uid].agency,
                note="relays what the camera monitor shows as live",
            )
    # the rest of the traffic: acknowledgements, positions, requests, and the dispatcher
    law_on_scene = [
        uid for uid, r in responses.items() if r.arrived and world.agencies[units[uid].agency].kind != "fire"
    ]
    for uid, r in responses.items():
        unit = units[uid]
        if r.arrived and rng.random() < 0.3:
            generic(r.arrived + s.u(60, 900), uid, vocab.chatter(rng, "copy", cs=unit.call_sign), unit.agency)
        if uid in law_on_scene:
            for _ in range(rng.randint(1, 4)):
                other = units[rng.choice(law_on_scene)].call_sign
                generic(
                    r.arrived + s.u(30, 2400),
                    uid,
                    vocab.chatter(
                        rng,
                        "scene",
                        cs=unit.call_sign,
                        cs2=other,
                        side=rng.choice(["north", "south", "east", "west"]),
                        bldg=tgt["name"],
                        street=rng.choice(world.streets),
                    ),
                    unit.agency,
                )
        if r.available is not None and rng.random() < 0.7:
            add(
                r.available + s.u(0, 8),
                uid,
                "unit_available",
                r.available_ev,
                vocab.phrase(rng, fam(uid), "unit_available", cs=unit.call_sign),
                unit.agency,
            )
    for code, inc in created.items():
        if world.agencies[code].kind not in ("sheriff", "police", "state"):
            continue
        mine = [u for u in law_on_scene if units[u].agency == code] or law_on_scene
        for _ in range(rng.randint(5, 14)):
            generic(
                inc.created + s.u(60, 2700),
                "DISPATCH",
                vocab.chatter(
                    rng,
                    "dispatch_scene",
                    cs=units[rng.choice(mine)].call_sign,
                    floor=vocab.FLOOR_WORDS[1 + rng.randrange(tgt["floors"])],
                    staging=params["staging"],
                    lot=world.police_staging["name"],
                    side=rng.choice(["north", "south", "east", "west"]),
                ),
                code,
            )
    # the afternoon's other calls go on over the same channels
    for r in background:
        unit = units[r.unit]
        p = dict(
            cs=unit.call_sign,
            place=r.arrival_place,
            nature=rng.choice(
                ["traffic accident", "theft report", "noise complaint", "welfare check", "suspicious person", "medical"]
            ),
        )
        f = fam(r.unit)
        for t, kind, ev, key, speaker, lag in (
            (r.dispatched, "unit_dispatched", r.dispatched_ev, "dispatch_routine", "DISPATCH", (1, 12)),
            (r.enroute, "unit_enroute", r.enroute_ev, "unit_enroute", r.unit, (0.5, 6)),
            (r.arrived, "unit_arrived", r.arrived_ev, "unit_arrived_routine", r.unit, (1, 20)),
            (r.available, "unit_available", r.available_ev, "unit_available", r.unit, (0, 8)),
        ):
            if t is None or rng.random() < 0.25:
                continue
            text = vocab.phrase(rng, f, key, **dict(params, **p))
            add(t + s.u(*lag), speaker, kind, ev, text, unit.agency, mentions=[r.unit])
    # the sheriff's and city channels are patched late
    law = [c for c, a in world.agencies.items() if a.kind in ("sheriff", "police")]
    patch_t, patched = None, []
    if len(law) >= 2:
        patch_t = s.T(s.u(900, 2400))
        patched = law[:2]
        ev = reg.add("radio_transmission", patch_t, note="radio patch between the sheriff's and city channels goes up")
        add(
            patch_t,
            "DISPATCH",
            "radio_transmission",
            ev,
            vocab.chatter(rng, "patch", a=tgs[patched[0]], b=tgs[patched[1]]),
            patched[0],
            mentions=[],
        )
    txs.sort(key=lambda x: x.t)
    # a speaker cannot key up twice at once: nudge overlaps of one speaker apart
    last: dict[str, float] = {}
    for tx in txs:
        key = tx.speaker + tx.tg
        if key in last and tx.t < last[key] + 2.0:
            tx.t = last[key] + s.u(2.0, 4.0)
        last[key] = tx.t + tx.dur
    txs.sort(key=lambda x: x.t)
    return tgs, txs, patch_t, patched


def _tracks(s, world, responses):
    """GPS fixes of every vehicle with an AVL box, from 5 minutes before the first shots
    to about 50 minutes after: parked or patrolling, then driving in, then parked on
    scene (fire: at staging first)."""
    rng = s.rng
    fixes: dict[str, list[Fix]] = {}
    geofix: dict[str, int] = {}
    interval = {code: rng.choice([5, 10, 10, 15, 30]) for code in world.agencies}
    world.avl_interval = interval  # type: ignore[attr-defined]
    start, stop = s.T(-300), s.T(3000)
    clat, clon = world.lat, world.lon
    for unit in world.units.values():
        if not unit.avl:
            continue
        r = responses.get(unit.id)
        step = interval[unit.agency]
        phase = rng.randint(0, step - 1)
        home_bearing = r.bearing if r else s.u(0, 360)
        legs = []  # (t_start, t_end, (lat, lon) from, (lat, lon) to)
        speed = s.u(14, 24)
        if r and r.enroute:
            if r.staged is not None:
                dest_in = (world.fire_staging["lat"], world.fire_staging["lon"])
                t_in = r.staged
            else:
                dest_in = offset_point(clat, clon, GEOFENCE_M, home_bearing)
                t_in = r.arrived
            if t_in is None:
                continue
            dist = speed * (t_in - r.enroute)
            origin = offset_point(dest_in[0], dest_in[1], dist, home_bearing)
            legs.append((start, r.enroute, origin, origin))
            legs.append((r.enroute, t_in, origin, dest_in))
            if r.staged is not None and r.arrived:
                gate = offset_point(clat, clon, GEOFENCE_M, home_bearing)
                drive = r.arrived - s.u(40, 90)
                legs.append((t_in, drive, dest_in, dest_in))
                legs.append((drive, r.arrived, dest_in, gate))
                dest_in, t_in = gate, r.arrived
            if r.arrived:
                park = offset_point(clat, clon, s.u(40, 140), home_bearing + s.u(-30, 30))
                legs.append((t_in, t_in + s.u(10, 25), dest_in, park))
                dest_in = park
                t_in = legs[-1][1]
            legs.append((t_in, stop, dest_in, dest_in))
        else:
            origin = offset_point(clat, clon, s.u(3000, 15000), home_bearing)
            legs.append((start, stop, origin, offset_point(origin[0], origin[1], s.u(500, 4000), s.u(0, 360))))
        out = []
        t = start + phase
        while t <= stop:
            for a, b, p, q in legs:
                if a <= t <= b:
                    f = 0.0 if b == a else (t - a) / (b - a)
                    lat = p[0] + (q[0] - p[0]) * f
                    lon = p[1] + (q[1] - p[1]) * f
                    moving = p != q
                    spd = _dist(p, q) / (b - a) if moving and b > a else 0.0
                    hdg = _bearing(p, q) if moving else 0.0
                    jitter = 0.00002 if not moving else 0.0
                    out.append(
                        Fix(
                            unit.id,
                            float(int(t)),
                            round(lat + rng.uniform(-jitter, jitter), 6),
                            round(lon + rng.uniform(-jitter, jitter), 6),
                            round(spd, 1),
                            round(hdg),
                        )
                    )
                    break
            t += step
        fixes[unit.id] = out
        if r and r.arrived and r.enroute:
            for i, fx in enumerate(out):
                if fx.t >= r.arrived and _dist((fx.lat, fx.lon), (clat, clon)) <= GEOFENCE_M + 1:
                    geofix[unit.id] = i
                    break
    return fixes, geofix


def _dist(p, q) -> float:
    dlat = (q[0] - p[0]) * 111_320.0
    dlon = (q[1] - p[1]) * 111_320.0 * math.cos(math.radians(p[0]))
    return math.hypot(dlat, dlon)


def _bearing(p, q) -> float:
    dlat = q[0] - p[0]
    dlon = (q[1] - p[1]) * math.cos(math.radians(p[0]))
    return (math.degrees(math.atan2(dlon, dlat)) + 360) % 360


def _background(s, world, inc: Incident) -> None:
    """The same afternoon's other business: calls answered become CAD incidents worked by
    the units that were not sent to the school."""
    rng, reg = s.rng, s.reg
    busy = [u for u in world.units.values() if not u.responds]
    unrelated = [c for c in inc.calls if not c.related and c.legs[0].answer]
    for call in unrelated:
        leg = call.legs[0]
        code = leg.psap
        t = leg.answer + s.u(30, 150)
        ev = reg.add("incident_created", t, note=f"{code} ordinary incident", related=False)
        cad = CadIncident(code, f"{code}#bg{len(inc.incidents)}", t, ev, call.nature, False, call.id)
        pool = [u for u in busy if u.agency == code]
        if pool:
            unit = rng.choice(pool)
            r = Response(unit.id, cad.number)
            r.dispatched = t + s.u(20, 240)
            r.dispatched_ev = reg.add("unit_dispatched", r.dispatched, unit=unit.id, related=False)
            r.enroute = r.dispatched + s.u(5, 60)
            r.enroute_ev = reg.add("unit_enroute", r.enroute, unit=unit.id, related=False)
            r.arrived = r.enroute + s.u(180, 700)
            r.arrived_ev = reg.add("unit_arrived", r.arrived, unit=unit.id, related=False, place="elsewhere")
            r.arrival_place = f"{rng.randint(100, 9999)} {rng.choice(world.streets)}"
            r.available = r.arrived + s.u(600, 2400)
            r.available_ev = reg.add("unit_available", r.available, unit=unit.id, related=False)
            cad.units = [unit.id]
            cad.place = r.arrival_place
            inc.notes.setdefault("background_responses", []).append(r)
        inc.incidents.append(cad)


def _number_incidents(inc: Incident, rng: random.Random) -> None:
    """CAD numbers run in the order incidents were opened, in each agency's own format,
    with the agency's other calls of the day taking the numbers in between."""
    yy = inc.world.local_date[2:4]
    for code in inc.world.agencies:
        style = rng.choice(["{yy}-{n:06d}", code[:3] + "{yy}{n:07d}", "{n:08d}", "I{yy}{n:05d}"]).replace("{yy}", yy)
        n = rng.randint(10_000, 90_000)
        for cad in sorted((c for c in inc.incidents if c.agency == code), key=lambda c: c.created):
            n += rng.randint(1, 6)
            cad.number = style.format(n=n)


def _renumber(inc: Incident, rng: random.Random) -> None:
    old = {c.number: c for c in inc.incidents}
    _number_incidents(inc, rng)
    new = {k: c.number for k, c in old.items()}
    for r in list(inc.responses.values()) + inc.notes.get("background_responses", []):
        r.incident = new.get(r.incident, r.incident)
    inc.notes["primary_incident"] = new[inc.notes["primary_incident"]]
    inc.notes["created"] = {c: new[n] for c, n in inc.notes["created"].items()}
    if inc.notes["district_incident"]:
        inc.notes["district_incident"] = new[inc.notes["district_incident"]]

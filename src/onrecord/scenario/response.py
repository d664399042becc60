"""The response: incidents opened, units dispatched, arriving over time; who held
outside while shots were still being fired and who went in; the casualties carried out.

The school resource officer is on campus and reaches the building first, then holds
outside; the first deputies to arrive join him. City officers, arriving later, form the
first entry team. That is the pattern the measures must reveal.
"""

from __future__ import annotations

import math
import random

from onrecord.scenario.story import Casualty, Run, Story

STAGES = ["east parking lot", "north driveway", "faculty lot", "football field gate",
          "bus loop", "corner of the {b} east stairwell"]


def _near(story: Story, rng: random.Random, meters: float) -> tuple[float, float]:
    b = story.world.target
    ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 1.0) * meters
    return (round(b.lat + dist * math.sin(ang) / 111_000, 6),
            round(b.lon + dist * math.cos(ang) / 98_000, 6))


def _run(story: Story, rng: random.Random, uid: str, dispatched: float, travel: float) -> Run:
    enroute = dispatched + rng.uniform(4, 25)
    run = Run(uid, dispatched, enroute, enroute + travel)
    run.start_lat, run.start_lon = _near(story, rng, 1500 + travel * 9)
    run.stage_lat, run.stage_lon = _near(story, rng, 150)
    run.stage = rng.choice(STAGES).format(b=story.world.target.name)
    story.runs[uid] = run
    return run


def plan_response(story: Story, rng: random.Random) -> None:
    w = story.world
    _open_incidents(story, rng)
    _sheriff(story, rng)
    _police(story, rng)
    _entries(story, rng)
    _fire(story, rng)
    for run in story.runs.values():
        u = w.unit(run.uid)
        story.add(f"dispatch-{u.uid}", "unit_dispatched", run.dispatched, unit=u.uid)
        if run.enroute is not None:
            story.add(f"enroute-{u.uid}", "unit_enroute", run.enroute, unit=u.uid)
        story.add(f"arrive-{u.uid}", "unit_arrived", run.arrived, unit=u.uid, place=run.stage)


def _open_incidents(story: Story, rng: random.Random) -> None:
    sro = story.world.units_of(story.world.sheriff, "sro")[0]
    arrive = story.t0 + rng.uniform(55, 110)
    story.runs[sro.uid] = Run(sro.uid, 0.0, None, arrive)  # dispatched once CAD opens
    story.runs[sro.uid].stage = f"{story.world.target.name} east stairwell corner"
    first_county = min(c.county_answered for c in story.calls if c.related)
    created = min(arrive + rng.uniform(15, 35), first_county + rng.uniform(10, 30))
    story.add("county-incident", "incident_created", created, note="county CAD incident opened")
    story.county_incident = "county-incident"
    first_city = min(c.city_answered for c in story.calls if c.mobile and c.related)
    story.add("city-incident", "incident_created", first_city + rng.uniform(15, 40),
              note="city CAD call opened")
    story.city_incident = "city-incident"
    story.runs[sro.uid].dispatched = created + rng.uniform(2, 8)
    lat, lon = story.world.target.lat, story.world.target.lon
    story.runs[sro.uid].stage_lat, story.runs[sro.uid].stage_lon = lat + 0.0002, lon + 0.0003


def _sheriff(story: Story, rng: random.Random) -> None:
    w = story.world
    first = story.at("county-incident") + rng.uniform(12, 35)
    deputies = w.units_of(w.sheriff, "deputy")
    near = rng.randint(2, 3)  # deputies already close by: they arrive while shots go on
    for i, u in enumerate(deputies):
        wave = 0.0 if i < near + 2 else rng.uniform(20, 240)
        dispatched = first + wave + (i * 1.5 if wave == 0 else 0)
        travel = rng.uniform(60, 150) if i < near else rng.uniform(240, 900)
        if i < near:  # close by: in the lot while shots are still being fired
            latest = story.last_shot - rng.uniform(20, 60) - (dispatched + 25)
            travel = max(30.0, min(travel, latest))
        _run(story, rng, u.uid, dispatched, travel)
    for u in w.units_of(w.sheriff, "sergeant"):
        _run(story, rng, u.uid, first + rng.uniform(30, 120), rng.uniform(250, 650))
    cap = w.units_of(w.sheriff, "captain")[0]
    _run(story, rng, cap.uid, first + rng.uniform(200, 400), rng.uniform(700, 1200))
    story.first_dispatch = f"dispatch-{deputies[0].uid}"


def _police(story: Story, rng: random.Random) -> None:
    w = story.world
    first = story.at("city-incident") + rng.uniform(8, 30)
    for i, u in enumerate(w.units_of(w.police, "patrol")):
        _run(story, rng, u.uid, first + (i * 2.0 if i < 4 else rng.uniform(20, 200)),
             rng.uniform(280, 520) if i < 4 else rng.uniform(450, 1000))
    sgt = w.units_of(w.police, "sergeant")[0]
    _run(story, rng, sgt.uid, first + rng.uniform(10, 60), rng.uniform(400, 800))


def _entries(story: Story, rng: random.Random) -> None:
    """Two entry teams: first the early city officers, then city officers with deputies
    who arrived after the shooting stopped. Everyone else holds outside."""
    w = story.world
    city = sorted(w.units_of(w.police, "patrol"), key=lambda u: story.runs[u.uid].arrived)
    late_deputies = [u for u in w.units_of(w.sheriff, "deputy")
                     if story.runs[u.uid].arrived > story.last_shot]
    late_deputies.sort(key=lambda u: story.runs[u.uid].arrived)
    team1 = city[:3] + late_deputies[:1]
    team2 = city[3:5] + late_deputies[1:3]
    t1 = max(story.runs[u.uid].arrived for u in team1) + rng.uniform(30, 100)
    t2 = max([t1 + rng.uniform(60, 150)] +
             [story.runs[u.uid].arrived + rng.uniform(20, 60) for u in team2])
    for k, (team, t) in enumerate([(team1, t1), (team2, t2)], start=1):
        eid = f"entry-{k}"
        story.add(eid, "entry", t, unit=team[0].uid, place=f"{w.target.name} east stair door",
                  note="entry team: " + ", ".join(u.cad_id for u in team))
        story.entries.append(eid)
        for u in team:
            story.runs[u.uid].entered, story.runs[u.uid].entry_eid = round(t, 3), eid
    if story.fate == "stopped":
        story.add("attacker-stopped", "attacker_stopped", t1 + rng.uniform(40, 200),
                  unit=team1[0].uid, people=["P900"],
                  place=f"{w.target.name} floor {story.bursts[-1].floor}",
                  note="attacker surrenders to the first entry team")
        story.threat_ended = "attacker-stopped"
    else:
        story.add("attacker-detained", "attacker_detained", story.t0 + rng.uniform(2400, 4800),
                  unit=city[-1].uid, people=["P900"], place="a residential street off campus",
                  note="attacker detained walking away from the area")


def _fire(story: Story, rng: random.Random) -> None:
    w = story.world
    first = story.at("county-incident") + rng.uniform(25, 80)
    story.add("fire-incident", "incident_created", first - rng.uniform(5, 15),
              note="fire CAD incident opened on the county's request")
    rescues = w.units_of(w.fire, "rescue")
    for i, u in enumerate(w.units_of(w.fire)):
        _run(story, rng, u.uid, first + (0 if i < 5 else rng.uniform(60, 600)),
             rng.uniform(240, 600))
        story.runs[u.uid].stage = "staging at " + rng.choice(["the bus loop", "east parking lot"])
    entry = story.at(story.entries[0])
    n = rng.randint(6, 14)
    handoffs = sorted(entry + rng.uniform(60, 1500) for _ in range(n))
    for i, h in enumerate(handoffs):
        rescue = rescues[i % len(rescues)]
        h = max(h, story.runs[rescue.uid].arrived + 30)
        triage = rng.choice(["red", "red", "yellow", "yellow", "green"])
        cas = Casualty(i + 1, round(h, 3), rescue.uid, round(h + rng.uniform(180, 720), 3),
                       rng.choice(w.hospitals), triage)
        story.casualties.append(cas)
        story.add(f"casualty-{cas.n:02d}-handoff", "casualty_handoff", cas.handoff,
                  unit=rescue.uid, place="casualty collection point",
                  note=f"patient {cas.n} carried out and handed to {rescue.cad_id}")
        story.add(f"casualty-{cas.n:02d}-transport", "patient_transported", cas.transported,
                  unit=rescue.uid, place=cas.hospital)

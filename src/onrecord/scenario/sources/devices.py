"""Machine logs: campus sensors (UTC ISO 8601), vehicle locations (epoch milliseconds),
and the camera system (day-first local time on a clock that is off by minutes)."""

from __future__ import annotations

import random

from onrecord.scenario import written_times
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

SENSOR_KINDS = {"GUNSHOT": "shots_detected", "DOOR": "door_event", "ALARM": "alarm",
                "default": "alarm"}
CAMERA_FMT = "%d/%m/%Y %H:%M:%S"


def sensors(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, off, b = story.world, round(rng.uniform(-1.5, 1.5), 3), story.world.target
    name = "campus_sensors.csv"
    head = ["EventId", "DeviceId", "DeviceType", "Building", "Zone", "TimestampUTC", "Detail"]
    ev = [{"kind_from": "DeviceType", "kinds": SENSOR_KINDS, "time": "TimestampUTC", "format": "iso"}]
    m = mapping_doc("campus-sensors", "sensor", w.schools, "UTC", f"{w.school} gunshot, door and alarm sensors",
                    {"place": {"template": "{Building} {Zone}"}, "text": "Detail"},
                    {"rid": "EventId", "device": "DeviceId", "device_type": "DeviceType"}, ev,
                    required=["EventId", "DeviceType", "TimestampUTC"],
                    # an NTP-timed sensor network, as its vendor states it: within 1.5 s
                    clock={"trust": "reference", "uncertainty_s": 1.5})
    t = Table(name, "sensor", w.schools, head, m, off, "one row per device event; UTC ISO 8601 with Z")
    hits = []
    for burst in story.bursts:
        for floor in range(1, b.floors + 1):
            for det in "AB":
                p = 0.9 if floor == burst.floor else (0.4 if abs(floor - burst.floor) == 1 else 0)
                if rng.random() < p or (floor == burst.floor and det == "A"):
                    hits.append((burst.t + rng.uniform(0.05, 0.6), f"GS-{b.number}-{floor}{det}", "GUNSHOT",
                                 f"Floor {floor}", f"impulse {burst.shots} rounds est.", burst.eid))
    doors = [("attacker-entered", "east stair door", "door opened"),
             ("attacker-left", "west stair door", "door opened"),
             *[(e, "east stair door", "door opened") for e in story.entries]]
    for eid, zone, detail in doors:
        if eid in story.events:
            hits.append((story.at(eid) + rng.uniform(0, 2), f"DR-{b.number}-{zone[:1].upper()}S", "DOOR", zone,
                         detail, eid))
    for k in range(rng.randint(4, 9)):  # students fleeing after the alarm
        eid = f"door-evacuation-{k + 1:02d}"
        tt = story.at("fire-alarm") + rng.uniform(5, 240)
        story.add(eid, "door_opened", tt, place=f"{b.name} exit door", note="students evacuating")
        hits.append((tt, f"DR-{b.number}-X{k % 3}", "DOOR", "exit door", "door opened", eid))
    hits.append((story.at("fire-alarm") + 0.2, f"FA-{b.number}-1", "ALARM", "Floor 1", "fire alarm smoke detector",
                 "fire-alarm"))
    hits.sort()
    for i, (tt, dev, typ, zone, detail, eid) in enumerate(hits):
        rid, written = f"EV{rng.randint(10, 99)}{i:05d}", written_times.utc_iso(tt + off)
        t.add({"EventId": rid, "DeviceId": dev, "DeviceType": typ, "Building": b.name, "Zone": zone,
               "TimestampUTC": written, "Detail": detail})
        book.record(name, rid, SENSOR_KINDS[typ], eid, tt, written)
    return t


def avl(story: Story, book: TruthBook, rng: random.Random) -> Table:
    """GPS-timed, so its clock is right: the reference the other clocks can be held to."""
    w = story.world
    name = "county_avl.csv"
    head = ["PingId", "VehicleId", "EpochMs", "Lat", "Lon", "SpeedMph"]
    ev = [{"kind": "unit_position", "time": "EpochMs", "format": "epoch_ms"}]
    m = mapping_doc("county-avl", "avl", w.sheriff, "UTC", f"{w.agencies[w.sheriff].name} vehicle locations",
                    {"unit": "VehicleId", "lat": "Lat", "lon": "Lon"}, {"rid": "PingId", "speed": "SpeedMph"},
                    ev, required=["PingId", "VehicleId", "EpochMs"],
                    clock={"trust": "reference", "uncertainty_s": 0.1})  # GPS-timed
    t = Table(name, "avl", w.sheriff, head, m, 0.0,
              "one row per location ping; epoch milliseconds UTC; vehicle numbers, not unit ids")
    pings = []
    for u in (u for u in w.units_of(w.sheriff) if u.vehicle):
        r, step = story.runs[u.uid], rng.uniform(10, 30)
        tt = story.t0 - 300 + rng.uniform(0, step)
        while tt < story.t0 + 2700:
            lat, lon, mph = _where(r, tt)
            pings.append((tt, u, lat + rng.gauss(0, 0.00003), lon + rng.gauss(0, 0.00003), mph))
            tt += step + rng.uniform(-2, 2)
    pings.sort(key=lambda p: p[0])
    for i, (tt, u, lat, lon, mph) in enumerate(pings):
        rid = f"{i + 1:07d}"
        eid = f"avl-{rid}"
        story.add(eid, "unit_position", tt, unit=u.uid)
        t.add({"PingId": rid, "VehicleId": u.vehicle, "EpochMs": written_times.epoch_ms(tt),
               "Lat": f"{lat:.6f}", "Lon": f"{lon:.6f}", "SpeedMph": f"{mph:.0f}"})
        book.record(name, rid, "unit_position", eid, tt, written_times.epoch_ms(tt))
        book.mention(name, rid, "unit", u.uid)
        if u.uid not in story.avl_on_scene and tt >= story.runs[u.uid].arrived:
            story.avl_on_scene[u.uid] = (tt, eid)  # the ping CAD's geofence marks on scene
    return t


def _where(r, tt: float) -> tuple[float, float, float]:
    start = r.enroute or r.dispatched
    if tt <= start:
        return r.start_lat, r.start_lon, 0.0
    if tt >= r.arrived:
        return r.stage_lat, r.stage_lon, 0.0
    f = (tt - start) / (r.arrived - start)
    return (r.start_lat + f * (r.stage_lat - r.start_lat), r.start_lon + f * (r.stage_lon - r.start_lon), 45.0)


def camera(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, tz, off, b = story.world, story.world.tz, story.camera_offset, story.world.target
    name = "campus_cameras.csv"
    head = ["LogNo", "Camera", "Location", "SysTime", "Type", "Description", "ShownTime"]
    ev = [{"kind": "camera_observation", "time": "SysTime", "format": CAMERA_FMT}]
    m = mapping_doc("campus-cameras", "camera", w.schools, tz, f"{w.school} video management system log",
                    {"place": "Location", "text": "Description"},
                    {"rid": "LogNo", "camera": "Camera", "view_type": "Type", "shown_time": "ShownTime"}, ev,
                    required=["LogNo", "SysTime"])
    t = Table(name, "camera", w.schools, head, m, off,
              "one row per camera event or operator view; day-first DD/MM/YYYY local; clock off by minutes")
    cam = lambda f: f"B{b.number}-F{f}-HALL"
    rows = [(story.at("attacker-on-campus"), "GATE-1", "Main gate", "MOTION", "person with bag leaves a car at gate",
             "", "attacker-on-campus"),
            (story.at("attacker-entered"), f"B{b.number}-STAIR-E", f"{b.name} east stair", "MOTION",
             "person enters east stairwell carrying a case", "", "attacker-entered")]
    rows += [(x.t + rng.uniform(0, 1), cam(x.floor), f"{b.name} floor {x.floor} hall", "ANALYTIC",
              "muzzle flash / person with rifle", "", x.eid) for x in story.bursts]
    end = story.events[story.threat_ended]
    rows.append((end.t, f"B{b.number}-STAIR-W" if story.fate == "left" else cam(story.bursts[-1].floor),
                 end.place, "MOTION", "subject leaves with students" if story.fate == "left"
                 else "subject on the ground, officers present", "", end.eid))
    rows += [(story.at(e) + rng.uniform(0, 3), f"B{b.number}-STAIR-E", f"{b.name} east stair", "MOTION",
              "officers enter east stairwell", "", e) for e in story.entries]
    for k in range(rng.randint(4, 8)):
        eid = f"camera-motion-{k + 1:02d}"
        tt = story.t0 - rng.uniform(600, 5400)
        story.add(eid, "camera_motion", tt, place=f"{rng.choice(w.buildings).name} hall", note="routine motion")
        rows.append((tt, cam(1), "hallway", "MOTION", "motion detected", "", eid))
    rows += [(v.t, v.camera, "Camera room", "LIVE", f"live view to command: {v.shows}",
              written_times.local(v.footage + off, tz, CAMERA_FMT), v.eid) for v in story.views]
    rows.sort(key=lambda r: r[0])
    for i, (tt, camid, loc, typ, desc, shown, eid) in enumerate(rows):
        rid, written = f"{rng.randint(1, 9)}{i:04d}", written_times.local(tt + off, tz, CAMERA_FMT)
        t.add({"LogNo": rid, "Camera": camid, "Location": loc, "SysTime": written, "Type": typ,
               "Description": desc, "ShownTime": shown})
        book.record(name, rid, "camera_observation", eid, tt, written)
    return t

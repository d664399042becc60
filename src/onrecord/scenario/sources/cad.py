"""Dispatch (CAD) exports in three dialects.

County (sheriff): one row per unit, 24-hour local time, "MM/DD/YYYY HH:MM:SS".
City police: one row per call with the first unit's times, 12-hour clock with AM/PM,
plus a unit status log (one row per status change, date and time in separate columns).
Fire: one row per apparatus, ISO 8601 with the local offset.
The dispatcher types an arrival after hearing it on the radio, so a CAD arrival is a few
seconds later than the unit's "on scene" call: same true event, later record.
"""

from __future__ import annotations

import random

from onrecord.scenario import written_times
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

COUNTY_FMT = "%m/%d/%Y %H:%M:%S"
CITY_FMT = "%m/%d/%Y %I:%M:%S %p"


def _radio_time(story: Story, eid: str) -> float | None:
    return next((x.t for x in story.radio if x.eid == eid), None)


def county_cad(story: Story, book: TruthBook, rng: random.Random, feeds: random.Random) -> Table:
    """`feeds` draws what CAD's interfaces add (the 911 caller's number and when it reached
    CAD; the AVL position that put a car on scene), apart from `rng`, so the rest of this
    file keeps its numbers."""
    w, tz, off = story.world, story.world.tz, round(rng.uniform(-3, 3), 3)
    name = "county_cad.csv"
    head = ["RecordId", "IncidentNo", "Unit", "Received", "Dispatched", "Enroute", "OnScene",
            "Cleared", "Nature", "Location", "Disposition", "ANI", "AliReceived", "AvlOnScene"]
    ev = [{"kind": "incident_created", "time": "Received", "format": COUNTY_FMT, "once_per_call": True,
           "unit": False},
          # the 911 call the incident was opened from: its number and location (ANI/ALI)
          # reach CAD from the phone system the moment the call-taker answers it
          {"kind": "call_answered", "time": "AliReceived", "format": COUNTY_FMT, "once_per_call": True,
           "unit": False, "optional": True},
          # the AVL ping that put the car inside the incident's geofence, as CAD received it
          {"kind": "unit_position", "time": "AvlOnScene", "format": COUNTY_FMT, "optional": True},
          {"kind": "unit_dispatched", "time": "Dispatched", "format": COUNTY_FMT},
          {"kind": "unit_enroute", "time": "Enroute", "format": COUNTY_FMT, "optional": True},
          {"kind": "unit_arrived", "time": "OnScene", "format": COUNTY_FMT, "optional": True}]
    m = mapping_doc("county-cad", "cad", w.sheriff, tz, f"{w.agencies[w.sheriff].name} CAD, one row per unit",
                    {"call": "IncidentNo", "unit": "Unit", "place": "Location", "text": "Nature"},
                    {"rid": "RecordId", "disposition": "Disposition", "cleared": "Cleared", "ani": "ANI"}, ev,
                    layout="row-per-unit", required=["RecordId", "IncidentNo", "Unit"])
    t = Table(name, "cad", w.sheriff, head, m, off, "one row per unit; 24-hour local time MM/DD/YYYY HH:MM:SS; no zone")
    fmt = lambda x: written_times.local(x + off, tz, COUNTY_FMT)
    base = rng.randint(30000, 89000)
    answered = sorted((c for c in story.calls if c.related), key=lambda c: c.county_answered)[:1]
    calls = [(story.at("county-incident"), "county-incident", _incident_units(story, rng), "SHOOTING IN PROGRESS",
              f"{w.campus_address} ({w.school})", answered[0] if answered else None)]
    calls += _other_county_calls(story, rng, feeds)
    calls.sort(key=lambda c: c[0])
    for received, created_eid, units, nature, place, call in calls:
        base += rng.randint(1, 4)  # other dispatchers' calls take the numbers between
        inc = f"{written_times.local(story.t0, tz, '%y')}-{base:06d}"
        for i, (cad, uid, disp, enr, typed, ids) in enumerate(units):
            rid = f"{rng.randint(1, 9)}{700000 + len(t.rows) * 7 + rng.randint(0, 6)}"
            row = {"RecordId": rid, "IncidentNo": inc, "Unit": cad, "Received": fmt(received),
                   "Dispatched": fmt(disp), "Enroute": fmt(enr) if enr else "", "OnScene": fmt(typed),
                   "Cleared": fmt(typed + rng.uniform(900, 20000)), "Nature": nature, "Location": place,
                   "Disposition": "RPT", "ANI": "", "AliReceived": "", "AvlOnScene": ""}
            if uid in story.avl_on_scene and created_eid == "county-incident":
                ping_t, ping = story.avl_on_scene[uid]
                at = ping_t + feeds.uniform(0.2, 1.0)  # over the cellular modem to the CAD server
                row["AvlOnScene"] = fmt(at)
                book.record(name, rid, "unit_position", ping, at, row["AvlOnScene"])
            if i == 0 and call is not None:
                at = call.county_answered + feeds.uniform(0.1, 0.8)  # the interface's own delay
                row["ANI"], row["AliReceived"] = call.phone, fmt(at)
                book.record(name, rid, "call_answered", f"{call.cid}-answered-county", at, row["AliReceived"])
            t.add(row)
            if i == 0:
                book.record(name, rid, "incident_created", created_eid, received, row["Received"])
            book.record(name, rid, "unit_dispatched", ids[0], disp, row["Dispatched"])
            if enr:
                book.record(name, rid, "unit_enroute", ids[1], enr, row["Enroute"])
            book.record(name, rid, "unit_arrived", ids[2], typed, row["OnScene"])
            if uid:
                book.mention(name, rid, "unit", uid)
    return t


def _incident_units(story: Story, rng: random.Random) -> list[tuple]:
    """(cad id, unit entity, dispatched, enroute, arrival as typed, true event ids) per sheriff unit."""
    w, received = story.world, story.at("county-incident")
    out = []
    for r in sorted((r for r in story.runs.values() if w.unit(r.uid).agency == w.sheriff), key=lambda r: r.dispatched):
        u = w.unit(r.uid)
        typed = (_radio_time(story, f"arrive-{u.uid}") or received) + rng.uniform(2, 10)
        if u.role == "sro":
            # logged after the fact, from his radio call: never before he made it, and
            # not before the incident it belongs to was opened
            typed = max(received, _radio_time(story, "radio-sro-shots")) + rng.uniform(5, 20)
        ids = (f"dispatch-{u.uid}", f"enroute-{u.uid}", f"arrive-{u.uid}")
        out.append((u.cad_id, u.uid, r.dispatched, r.enroute, typed, ids))
    return out


OTHER_NATURES = [("TRAFFIC CRASH", "SR 7 at {s} Rd"), ("ALARM BURGLARY", "{n} {s} Way"),
                 ("DOMESTIC DISTURBANCE", "{n} {s} Ct"), ("SUSPICIOUS VEHICLE", "{s} Park lot")]


def _other_county_calls(story: Story, rng: random.Random, feeds: random.Random) -> list[tuple]:
    """Ordinary sheriff calls the same afternoon, worked by deputies not at the school.
    Each of the afternoon's other 911 calls answered at the county opens one of them (so
    the 911 log and CAD share its answer); the rest came in otherwise (an officer's
    own stop, a business line)."""
    from onrecord.scenario.world import STREETS
    out = []
    others = sorted((c for c in story.calls if not c.related), key=lambda c: c.county_answered)
    for k in range(rng.randint(3, 6)):
        created = story.t0 + rng.uniform(-5400, 2400)
        call = others[k] if k < len(others) else None
        if call is not None:
            created = call.county_answered + feeds.uniform(20, 90)  # typed once the caller said what happened
        eid = f"county-other-{k + 1:02d}"
        nature, where = rng.choice(OTHER_NATURES)
        story.add(f"{eid}-created", "incident_created", created, note=f"unrelated sheriff call: {nature}")
        units = []
        for j in range(rng.randint(1, 2)):
            cad = f"{rng.randint(20, 29)}C{rng.randint(10, 99)}"
            disp = created + rng.uniform(30, 400)
            enr = disp + rng.uniform(5, 40)
            arr = enr + rng.uniform(120, 900)
            ids = tuple(f"{eid}-{step}-{j + 1}" for step in ("dispatch", "enroute", "arrive"))
            for kind, tt, te in zip(("unit_dispatched", "unit_enroute", "unit_arrived"), (disp, enr, arr), ids):
                story.add(te, kind, tt, note=f"unrelated call, unit {cad}")
            units.append((cad, None, disp, enr, arr, ids))
        out.append((created, f"{eid}-created", units, nature,
                    where.format(n=rng.randint(100, 9999), s=rng.choice(STREETS)), call))
    return out


def city_cad(story: Story, book: TruthBook, rng: random.Random, off: float, feeds: random.Random) -> Table:
    """`feeds` draws when the 911 interface's caller number reached CAD, apart from `rng`."""
    w, tz = story.world, story.world.tz
    name = "city_cad_calls.csv"
    head = ["Call Number", "Call Type", "Call Date/Time", "Priority", "Address", "First Unit",
            "First Dispatch", "First Arrive", "Units Assigned", "Caller ANI", "ANI/ALI Time"]
    ev = [{"kind": "incident_created", "time": "Call Date/Time", "format": CITY_FMT, "unit": False},
          # the 911 call the call was opened from, as the phone system handed it to CAD on answer
          {"kind": "call_answered", "time": "ANI/ALI Time", "format": CITY_FMT, "optional": True, "unit": False},
          {"kind": "unit_dispatched", "time": "First Dispatch", "format": CITY_FMT, "optional": True},
          # the first arriving unit is not always the first dispatched: the row does not say
          {"kind": "unit_arrived", "time": "First Arrive", "format": CITY_FMT, "optional": True,
           "unit": False}]
    m = mapping_doc("city-cad-calls", "cad", w.police, tz,
                    f"{w.agencies[w.police].name} calls for service, one row per call",
                    {"call": "Call Number", "unit": "First Unit", "place": "Address", "text": "Call Type"},
                    {"rid": "Call Number", "priority": "Priority", "units_assigned": "Units Assigned",
                     "ani": "Caller ANI"}, ev, required=["Call Number"])
    t = Table(name, "cad", w.police, head, m, off,
              "one row per call; 12-hour clock MM/DD/YYYY hh:mm:ss AM/PM; no zone; first unit only")
    fmt = lambda x: written_times.local(x + off, tz, CITY_FMT)
    runs = [r for r in story.runs.values() if w.unit(r.uid).agency == w.police]
    first_d = min(runs, key=lambda r: r.dispatched)
    first_a = min(runs, key=lambda r: r.arrived)
    base = rng.randint(1000, 8000)
    rid = f"BF{written_times.local(story.t0, tz, '%y')}-{base:05d}"
    typed_a = _radio_time(story, f"arrive-{first_a.uid}") + rng.uniform(2, 12)
    row = {"Call Number": rid, "Call Type": "SHOTS FIRED / ACTIVE SHOOTER", "Call Date/Time":
           fmt(story.at("city-incident")), "Priority": "1", "Address": w.school.upper(),
           "First Unit": w.unit(first_d.uid).cad_id, "First Dispatch": fmt(first_d.dispatched),
           "First Arrive": fmt(typed_a),
           "Units Assigned": ";".join(w.unit(r.uid).cad_id for r in sorted(runs, key=lambda r: r.dispatched)),
           "Caller ANI": "", "ANI/ALI Time": ""}
    opened_from = min((c for c in story.calls if c.mobile and c.related), key=lambda c: c.city_answered)
    at = opened_from.city_answered + feeds.uniform(0.1, 0.8)  # the interface's own delay
    row["Caller ANI"], row["ANI/ALI Time"] = opened_from.phone, fmt(at)
    t.add(row)
    book.record(name, rid, "call_answered", f"{opened_from.cid}-answered-city", at, row["ANI/ALI Time"])
    book.record(name, rid, "incident_created", "city-incident", story.at("city-incident"), row["Call Date/Time"])
    book.record(name, rid, "unit_dispatched", f"dispatch-{first_d.uid}", first_d.dispatched, row["First Dispatch"])
    book.record(name, rid, "unit_arrived", f"arrive-{first_a.uid}", typed_a, row["First Arrive"])
    book.mention(name, rid, "unit", first_d.uid)
    if story.fate == "left":
        det = story.events["attacker-detained"]
        rid2 = f"BF{written_times.local(story.t0, tz, '%y')}-{base + rng.randint(3, 9):05d}"
        row = {"Call Number": rid2, "Call Type": "SUSPICIOUS PERSON / BOLO MATCH", "Call Date/Time":
               fmt(det.t + rng.uniform(10, 60)), "Priority": "1", "Address": "RESIDENTIAL AREA",
               "First Unit": w.unit(det.unit).cad_id, "First Dispatch": "", "First Arrive": "",
               "Units Assigned": w.unit(det.unit).cad_id, "Caller ANI": "", "ANI/ALI Time": ""}
        t.add(row)
        created = det.t + 0.0
        book.record(name, rid2, "incident_created", "attacker-detained", created, row["Call Date/Time"])
        book.mention(name, rid2, "unit", det.unit)
    return t


UNIT_STATUS = {"DISP": "unit_dispatched", "ENRT": "unit_enroute", "ONSC": "unit_arrived",
               "INBLD": "entry", "default": "unit_status"}


def city_unit_log(story: Story, book: TruthBook, rng: random.Random, off: float) -> Table:
    w, tz = story.world, story.world.tz
    name = "city_unit_status.csv"
    head = ["LogKey", "Unit", "Officer", "Status", "Date", "Time", "Remarks"]
    ev = [{"kind_from": "Status", "kinds": UNIT_STATUS, "time": ["Date", "Time"],
           "format": "%m/%d/%y %I:%M:%S %p"}]
    m = mapping_doc("city-unit-status", "cad", w.police, tz,
                    f"{w.agencies[w.police].name} unit status history, one row per status change",
                    {"unit": "Unit", "actor": "Officer", "text": "Remarks"},
                    {"rid": "LogKey", "status": "Status"}, ev, layout="row-per-unit",
                    required=["LogKey", "Unit", "Status"])
    t = Table(name, "cad", w.police, head, m, off,
              "one row per unit status change; date MM/DD/YY and 12-hour time in separate columns")
    items = []
    for r in (r for r in story.runs.values() if w.unit(r.uid).agency == w.police):
        u = w.unit(r.uid)
        items.append((r.dispatched, u, "DISP", f"dispatch-{u.uid}", r.dispatched))
        items.append((r.enroute, u, "ENRT", f"enroute-{u.uid}", r.enroute))
        typed = _radio_time(story, f"arrive-{u.uid}") + rng.uniform(2, 12)
        items.append((typed, u, "ONSC", f"arrive-{u.uid}", typed))
        if r.entered:
            late = r.entered + rng.uniform(20, 150)  # typed once the team said it was inside
            items.append((late, u, "INBLD", r.entry_eid, late))
    items.sort(key=lambda x: x[0])
    for i, (_, u, status, eid, true_t) in enumerate(items):
        rid = f"{rng.randint(10, 99)}{i:05d}"
        officer = w.people[u.crew[0]]
        row = {"LogKey": rid, "Unit": u.cad_id, "Officer": f"{officer.last.upper()} {officer.first[0]}",
               "Status": status, "Date": written_times.local(true_t + off, tz, "%m/%d/%y"),
               "Time": written_times.local(true_t + off, tz, "%I:%M:%S %p"),
               "Remarks": "entered building" if status == "INBLD" else ""}
        t.add(row)
        book.record(name, rid, UNIT_STATUS[status], eid, true_t, f"{row['Date']} {row['Time']}")
        book.mention(name, rid, "unit", u.uid)
        book.mention(name, rid, "actor", officer.pid)
    return t


def fire_cad(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, tz, off = story.world, story.world.tz, round(rng.uniform(-10, 10), 3)
    name = "fire_cad.csv"
    head = ["INC_NUM", "SEQ", "APPARATUS", "ALARM_DT", "DISP_DT", "ENRT_DT", "ONSCN_DT", "INC_TYPE", "ADDR"]
    ev = [{"kind": "incident_created", "time": "ALARM_DT", "format": "iso", "once_per_call": True, "unit": False},
          {"kind": "unit_dispatched", "time": "DISP_DT", "format": "iso"},
          {"kind": "unit_enroute", "time": "ENRT_DT", "format": "iso", "optional": True},
          {"kind": "unit_arrived", "time": "ONSCN_DT", "format": "iso", "optional": True}]
    m = mapping_doc("fire-cad", "cad", w.fire, tz, f"{w.agencies[w.fire].name} incident apparatus, one row per unit",
                    {"call": "INC_NUM", "unit": "APPARATUS", "place": "ADDR", "text": "INC_TYPE"},
                    {"rid": "SEQ"}, ev, layout="row-per-unit", required=["INC_NUM", "SEQ", "APPARATUS"])
    t = Table(name, "cad", w.fire, head, m, off,
              "one row per apparatus; ISO 8601 local time with its UTC offset")
    fmt = lambda x: written_times.local_iso(x + off, tz)
    inc = f"F{written_times.local(story.t0, tz, '%y')}{rng.randint(10000, 99999)}"
    runs = sorted((r for r in story.runs.values() if w.unit(r.uid).agency == w.fire),
                  key=lambda r: r.dispatched)
    for i, r in enumerate(runs):
        u, rid = w.unit(r.uid), f"{inc}-{i + 1:02d}"
        typed = next(x.t for x in story.radio if x.eid == f"arrive-{u.uid}") + rng.uniform(1, 8)
        row = {"INC_NUM": inc, "SEQ": rid, "APPARATUS": u.cad_id, "ALARM_DT": fmt(story.at("fire-incident")),
               "DISP_DT": fmt(r.dispatched), "ENRT_DT": fmt(r.enroute), "ONSCN_DT": fmt(typed),
               "INC_TYPE": "MCI - SHOOTING", "ADDR": w.campus_address.upper()}
        t.add(row)
        if i == 0:
            book.record(name, rid, "incident_created", "fire-incident", story.at("fire-incident"), row["ALARM_DT"])
        book.record(name, rid, "unit_dispatched", f"dispatch-{u.uid}", r.dispatched, row["DISP_DT"])
        book.record(name, rid, "unit_enroute", f"enroute-{u.uid}", r.enroute, row["ENRT_DT"])
        book.record(name, rid, "unit_arrived", f"arrive-{u.uid}", typed, row["ONSCN_DT"])
        book.mention(name, rid, "unit", u.uid)
    return t


def fire_patients(story: Story, book: TruthBook, rng: random.Random, off: float) -> Table:
    """Patient care records: minute precision, date and time apart, as crews write them."""
    w, tz = story.world, story.world.tz
    name = "fire_patients.csv"
    head = ["PCR_NO", "UNIT", "PT_CONTACT_DATE", "PT_CONTACT", "TRANSPORT_BEGIN", "DEST", "TRIAGE"]
    # two timed moments a row: when the crew took the patient over, and when it left
    ev = [{"kind": "patient_contact", "time": ["PT_CONTACT_DATE", "PT_CONTACT"],
           "format": "%Y%m%d %H%M", "precision": "minute"},
          {"kind": "patient_transported", "time": ["PT_CONTACT_DATE", "TRANSPORT_BEGIN"],
           "format": "%Y%m%d %H%M", "precision": "minute"}]
    m = mapping_doc("fire-patients", "cad", w.fire, tz, "Patient care records, one row per patient",
                    {"unit": "UNIT", "place": "DEST", "text": "TRIAGE"},
                    {"rid": "PCR_NO", "patient_contact": "PT_CONTACT", "triage": "TRIAGE"}, ev,
                    required=["PCR_NO", "UNIT"])
    t = Table(name, "cad", w.fire, head, m, off,
              "one row per patient; date YYYYMMDD and 24-hour HHMM in separate columns (minute precision)")
    for c in story.casualties:
        u, rid = w.unit(c.rescue), f"PCR{rng.randint(100000, 999999)}{c.n:02d}"
        row = {"PCR_NO": rid, "UNIT": u.cad_id, "PT_CONTACT_DATE": written_times.local(c.handoff + off, tz, "%Y%m%d"),
               "PT_CONTACT": written_times.local(c.handoff + off, tz, "%H%M"),
               "TRANSPORT_BEGIN": written_times.local(c.transported + off, tz, "%H%M"),
               "DEST": c.hospital, "TRIAGE": c.triage.upper()}
        t.add(row)
        book.record(name, rid, "patient_contact", f"casualty-{c.n:02d}-handoff", c.handoff,
                    f"{row['PT_CONTACT_DATE']} {row['PT_CONTACT']}")
        book.record(name, rid, "patient_transported", f"casualty-{c.n:02d}-transport", c.transported,
                    f"{row['PT_CONTACT_DATE']} {row['TRANSPORT_BEGIN']}")
        book.mention(name, rid, "unit", u.uid)
    return t

"""Campus systems: gunshot detection, door access control, the fire alarm panel, the
staff panic-alert app."""

from __future__ import annotations

from datetime import datetime

from .. import names
from ..timeline import Incident
from . import common


def gunshot(world, inc: Incident, agency, rng, clock, name, folder, title):
    variant = rng.choice(["utc", "local"])
    if variant == "utc":
        st = common.stamp(rng, world, clock, ["iso_z_ms", "epoch_ms", "iso_z"])
        cols = ["AlertID", "DetectedUTC", "Sensor", "Location", "Rounds", "Confidence"]
        tcols = ["DetectedUTC"]
    else:
        st = common.stamp(rng, world, clock, ["split_iso", "split_us12", "local_frac"])
        tcols = ["Date", "Time"] if st.style.columns == 2 else ["Timestamp"]
        cols = ["Event Number"] + tcols + ["Device", "Zone", "Shots", "Classification"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="sensor",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=cols[0],
        dialect=f"sensor/gunshot_{variant}",
        title=title,
    )
    rid = rng.randint(1000, 9000)
    # a couple of false alerts (a slammed door, a dropped tray) earlier in the week
    extra = []
    for _ in range(rng.randint(1, 3)):
        t = inc.t0 - rng.uniform(86400, 4 * 86400)
        ev = inc.reg.add("shots_detected", t, place="campus", note="false alert (impulse noise)", related=False)
        extra.append({"t": t, "sensor": rng.choice(inc.sensors), "rounds": 1, "event": ev, "false": True})
    for d in sorted(inc.detections + extra, key=lambda d: d["t"]):
        rid += rng.randint(1, 3)
        r = str(rid)
        p = st.parts(d["t"])
        conf = "LOW" if d.get("false") else rng.choice(["HIGH", "HIGH", "MED"])
        if variant == "utc":
            row = dict(zip(cols, [r, p[0], d["sensor"]["id"], d["sensor"]["where"], str(d["rounds"]), conf]))
        else:
            row = dict(
                zip(
                    cols,
                    [r]
                    + p
                    + [
                        d["sensor"]["id"],
                        d["sensor"]["where"],
                        str(d["rounds"]),
                        "Impulse" if d.get("false") else "Gunshot",
                    ],
                )
            )
        exp.add(row)
        exp.record(r, "shots_detected", d["event"], d["t"], " ".join(p))
    docs = {
        "AlertID": "alert number",
        "DetectedUTC": "time of the first impulse the sensor classified",
        "Sensor": "sensor id",
        "Location": "where the sensor is mounted",
        "Rounds": "impulses counted in the alert",
        "Confidence": "classifier confidence (HIGH/MED/LOW)",
        "Event Number": "event number",
        "Date": "date of the first impulse",
        "Time": "time of the first impulse",
        "Timestamp": "time of the first impulse",
        "Device": "sensor id",
        "Zone": "where the sensor is mounted",
        "Shots": "impulses counted",
        "Classification": "`Gunshot` or `Impulse` (not a gunshot)",
    }
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Indoor gunshot detection system at {world.school} ({world.target['name']}): one row per alert per "
        "sensor; several sensors may alert on the same shots. Exported from the vendor portal for the week.",
        [(c, docs[c]) for c in cols],
        [("Times", common.time_columns_doc(st, zone_stated))],
        clock_note=f"sensor network controller; {clock.statement}.",
    )
    return exp


def doors(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["us12", "us12_nopad", "dayfirst", "local_plain", "monname"])
    cols = rng.choice(
        [
            ["EventNo", "Timestamp", "DoorID", "Door", "Event", "Credential", "Cardholder"],
            ["Log #", "Date/Time", "Reader", "Reader Name", "Transaction", "Card #", "Name"],
        ]
    )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="sensor",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=cols[0],
        dialect="sensor/doors",
        title=title,
    )
    words = rng.choice(
        [
            {
                "granted": "Access Granted",
                "forced": "Door Forced Open",
                "held": "Door Held Open",
                "opened": "Door Opened (REX)",
                "fire_input": "Fire Alarm Input Active - Doors Released",
                "relock": "Door Secured",
            },
            {
                "granted": "ACCESS GRANTED",
                "forced": "FORCED OPEN",
                "held": "HELD OPEN ALARM",
                "opened": "EXIT REQUEST",
                "fire_input": "FIRE INPUT - UNLOCK ALL",
                "relock": "DOOR CLOSED",
            },
        ]
    )
    staff = [
        (f"{rng.randint(10000, 99999)}", f"{rng.choice(names.LAST_NAMES).upper()}, {rng.choice(names.FIRST_NAMES)[0]}")
        for _ in range(12)
    ]
    rows = []
    # routine badge use during school hours of the days before, and the morning of, the incident
    local = datetime.fromtimestamp(inc.t0, world.tz)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
    for day in range(rng.randint(1, 3), -1, -1):
        for _ in range(rng.randint(25, 60)):
            t = midnight - day * 86400 + rng.uniform(6.5 * 3600, 16.5 * 3600)
            if t > inc.t0 - 120:
                continue
            door = rng.choice(world.doors)
            cred, holder = rng.choice(staff)
            ev = inc.reg.add("door_event", t, place=door["name"], note="routine badge access", related=False)
            rows.append((t, door, "granted", ev, cred, holder))
    for d in inc.doors:
        rows.append((d.t, d.door, d.action, d.event, "", ""))
        if d.action in ("forced", "held"):
            t = d.t + rng.uniform(20, 90)
            ev = inc.reg.add("door_event", t, place=d.door["name"], note="door closes again")
            rows.append((t, d.door, "relock", ev, "", ""))
    rows.sort(key=lambda x: x[0])
    rid = rng.randint(200_000, 700_000)
    for t, door, action, ev, cred, holder in rows:
        rid += rng.randint(1, 3)
        r = str(rid)
        p = st.parts(t)
        row = dict(zip(cols, [r, p[0], door["id"], door["name"], words[action], cred, holder]))
        exp.add(row)
        exp.record(r, "alarm" if action == "fire_input" else "door_event", ev, t, p[0])
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Access control transaction log for {world.target['name']}, {world.school}: badge use, door alarms "
        "and fire-alarm door release, for the days before the incident through the afternoon.",
        list(
            zip(
                cols,
                [
                    "transaction number",
                    "time of the transaction",
                    "door controller id",
                    "door",
                    "transaction type (table below)",
                    "badge number (badge transactions only)",
                    "badge holder",
                ],
            )
        ),
        [
            (
                "Transactions",
                common.code_table(
                    [
                        (v, k_)
                        for k_, v in {
                            "badge accepted, door unlocked": words["granted"],
                            "door opened without a badge or exit request": words["forced"],
                            "door left open past its alarm time": words["held"],
                            "door opened from inside (request-to-exit)": words["opened"],
                            "fire alarm input from the fire panel; every door released": words["fire_input"],
                            "door closed and locked": words["relock"],
                        }.items()
                    ],
                    ("transaction", "meaning"),
                ),
            ),
            ("Times", common.time_columns_doc(st, zone_stated)),
        ],
        clock_note=f"access control server; {clock.statement}.",
    )
    return exp


def alarm_panel(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["split_us", "split_us12", "minute_us", "us24", "split_iso"])
    tcols = ["Date", "Time"] if st.style.columns == 2 else ["Date Time"]
    cols = ["Event #"] + tcols + ["Type", "Point", "Description"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="sensor",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="Event #",
        dialect="sensor/fire_panel",
        title=title,
    )
    a = inc.alarm
    rows = []
    for _ in range(rng.randint(2, 5)):
        t = inc.t0 - rng.uniform(2 * 86400, 20 * 86400)
        ev = inc.reg.add("alarm", t, place="fire panel", note="panel trouble signal", related=False)
        rows.append(
            (
                t,
                "TROUBLE",
                f"{rng.randint(1, 4)}-{rng.randint(1, 99):02d}",
                rng.choice(["GROUND FAULT", "AC POWER LOSS", "NAC 2 OPEN"]),
                ev,
            )
        )
    rows.append(
        (
            a["t"],
            "ALARM",
            f"1-{a['device'][3:]}",
            f"SMOKE DET {world.target['name'].upper()} FL{a['floor']} ZN{a['zone']}",
            a["event"],
        )
    )
    for k in range(rng.randint(0, 2)):
        t = a["t"] + rng.uniform(15, 200)
        ev = inc.reg.add("alarm", t, place=world.target["name"], note="another smoke detector goes into alarm")
        rows.append(
            (
                t,
                "ALARM",
                f"1-{rng.randint(100, 399)}",
                f"SMOKE DET {world.target['name'].upper()} FL{rng.randint(1, world.target['floors'])}",
                ev,
            )
        )
    t = inc.threat_end + rng.uniform(600, 1800)
    ev = inc.reg.add("alarm", t, place="fire panel", note="fire crew silences the panel")
    rows.append((t, "SILENCE", "PANEL", "ALARM SILENCED AT PANEL", ev))
    rows.sort(key=lambda x: x[0])
    for i, (t, typ, point, desc, ev) in enumerate(rows, 1 + rng.randint(100, 900)):
        r = str(i)
        p = st.parts(t)
        row = dict(zip(cols, [r] + p + [typ, point, desc]))
        exp.add(row)
        exp.record(r, "alarm", ev, t, " ".join(p))
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Fire alarm control panel history for {world.school}, printed to file by the service contractor.",
        [("Event #", "panel history number")]
        + [(c, "when the panel logged the event") for c in tcols]
        + [
            ("Type", "ALARM, TROUBLE, SUPERVISORY, SILENCE, RESET"),
            ("Point", "loop-device address"),
            ("Description", "device label"),
        ],
        [
            (
                "Times",
                common.time_columns_doc(st, zone_stated)
                + (" Minute precision only." if st.style.precision >= 60 else ""),
            )
        ],
        clock_note=f"panel clock; {clock.statement}.",
    )
    return exp


def panic_app(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["iso_z_ms", "iso_offset_ms"])
    cols = ["alert_id", "created_at", "alert_type", "initiated_by", "location", "status"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="sensor",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="alert_id",
        dialect="sensor/panic_app",
        title=title,
    )
    p_ = inc.panic
    rows = [(p_["t"], "ACTIVE_ASSAILANT", f"Room {p_['room']}", p_["event"])]
    for _ in range(rng.randint(1, 3)):
        t = inc.t0 - rng.uniform(3 * 86400, 30 * 86400)
        ev = inc.reg.add("alarm", t, place="campus", note="panic app drill / test alert", related=False)
        rows.append((t, rng.choice(["DRILL", "TEST"]), "Main Office", ev))
    for t, typ, loc, ev in sorted(rows):
        r = f"a{rng.randint(10**7, 10**8 - 1):x}"
        p = st.parts(t)
        exp.add(dict(zip(cols, [r, p[0], typ, f"staff:{rng.randint(1000, 9999)}", loc, "RESOLVED"])))
        exp.record(r, "alarm", ev, t, p[0])
    exp.dictionary = common.dictionary(
        exp,
        world,
        "Staff panic-alert application: alerts raised by staff phones, exported from the vendor's console.",
        list(
            zip(
                cols,
                [
                    "alert id",
                    "when the alert reached the vendor's server",
                    "ACTIVE_ASSAILANT, MEDICAL, DRILL, TEST",
                    "staff account that raised it",
                    "location chosen by the staff member",
                    "current status",
                ],
            )
        ),
        [("Times", common.time_columns_doc(st, zone_stated))],
        clock_note=f"vendor cloud service; {clock.statement}.",
    )
    return exp

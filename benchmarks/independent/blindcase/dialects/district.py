"""The school district's campus safety dispatch log: typed by the district dispatcher
from the campus radio and the phone, on her PC's clock, usually to the minute."""

from __future__ import annotations

from datetime import datetime

from ..timeline import Incident
from . import common


def activity_log(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["minute_split", "minute_us", "minute_12", "split_us12"])
    split = st.style.columns == 2
    cols = ["Entry #"] + (["Date", "Time"] if split else ["Date/Time"]) + ["Officer", "Activity", "Location", "Notes"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="cad",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="Entry #",
        dialect="cad/district_log",
        title=title,
    )
    u = rng.uniform
    entries = []
    local = datetime.fromtimestamp(inc.t0, world.tz)
    opening = local.replace(hour=6, minute=45, second=0, microsecond=0).timestamp()
    for _ in range(rng.randint(4, 9)):  # the ordinary school day before it
        t = u(opening, inc.t0 - 600)
        entries.append(
            (
                t,
                None,
                rng.choice(["Unlock", "Escort", "Parking", "Visitor check-in", "Student escort to office"]),
                rng.choice(world.buildings)["name"],
                "",
                None,
                None,
                [],
            )
        )
    mine = [tx for tx in inc.txs if tx.agency == agency]
    for tx in mine:
        if tx.kind in ("shots_reported", "unit_arrived", "entry"):
            entries.append(
                (
                    tx.t + u(5, 60),
                    tx.speaker,
                    {
                        "shots_reported": "Shots fired reported",
                        "unit_arrived": "On scene",
                        "entry": "Entering building",
                    }[tx.kind],
                    world.target["name"],
                    tx.text,
                    tx.kind,
                    tx.event,
                    tx.mentions,
                )
            )
    lock_t = inc.t0 + u(30, 120)
    inc.reg.add("radio_transmission", lock_t, note="district announces campus lockdown")
    entries.append((lock_t + u(5, 40), None, "LOCKDOWN initiated all buildings", "Campus", "", None, None, []))
    for r_uid, r in inc.responses.items():
        unit = world.units[r_uid]
        if unit.agency == agency and r.arrived and not any(e[1] == r_uid and e[5] == "unit_arrived" for e in entries):
            entries.append(
                (r.arrived + u(30, 240), r_uid, "On scene", world.target["name"], "", "unit_arrived", r.arrived_ev, [])
            )
    entries.append(
        (
            inc.threat_end + u(300, 1200),
            None,
            "PD advises suspect " + ("in custody" if inc.fate == "stopped" else "not located"),
            world.target["name"],
            "",
            None,
            None,
            [],
        )
    )
    entries.sort(key=lambda e: e[0])
    for i, (t, uid, act, loc, note, kind, event, named) in enumerate(entries, 1):
        r = str(i)
        p = st.parts(t)
        officer = ""
        if uid and uid in world.units:
            officer = world.people[world.units[uid].crew[0]].last.upper()
        row = {"Entry #": r, "Officer": officer, "Activity": act, "Location": loc, "Notes": note}
        if split:
            row.update({"Date": p[0], "Time": p[1]})
        else:
            row["Date/Time"] = p[0]
        exp.add(row)
        if officer:
            exp.mention(r, "actor", world.units[uid].crew[0], officer)
        if kind:
            exp.record(r, kind, event, t, " ".join(p), text_mentions=[m for m in named if m != uid])
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"{world.agencies[agency].name} campus safety dispatch: daily activity log for {world.school}, typed by "
        "the district dispatcher as radio calls and phone calls came in.",
        [("Entry #", "entry number of the day")]
        + ([("Date", "date"), ("Time", "time typed")] if split else [("Date/Time", "time typed")])
        + [
            ("Officer", "campus officer concerned (surname)"),
            ("Activity", "what happened"),
            ("Location", "where"),
            ("Notes", "what the officer said, when noted"),
        ],
        [
            (
                "Times",
                common.time_columns_doc(st, zone_stated)
                + ". The time is when the dispatcher typed the entry, from the PC clock.",
            )
        ],
        clock_note=f"dispatcher's PC; {clock.statement}.",
    )
    return exp

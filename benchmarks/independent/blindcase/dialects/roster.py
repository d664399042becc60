"""Who works which unit that shift, and who carries a firearm."""

from __future__ import annotations

from ..timeline import Incident
from . import common

ARMED_WORDS = [("Y", "N"), ("yes", "no"), ("true", "false"), ("1", "0"), ("Armed", "Unarmed"), ("X", "")]


def _name(p, style):
    return {
        "last_first": f"{p.last.upper()}, {p.first}",
        "first_last": f"{p.first} {p.last}",
        "last_initial": f"{p.last.upper()} {p.first[0]}",
        "rank_last": f"{p.rank[:3]}. {p.last}",
    }[style]


def roster(world, inc: Incident, agency, rng, clock, name, folder, title):
    variant = rng.choice(["per_person", "per_person", "per_unit"])
    yes, no = rng.choice(ARMED_WORDS)
    style = rng.choice(["last_first", "first_last", "last_initial"])
    units = [u for u in world.units_of(agency)]
    has_vehicle = any(u.vehicle for u in units)
    with_radio = rng.random() < 0.5
    ag = world.agencies[agency]
    if variant == "per_person":
        cols = ["RosterID", "Unit", "CallSign", "Vehicle", "RadioID", "Name", "Rank", "Badge", "Armed", "Assignment"]
        if not with_radio:
            cols.remove("RadioID")
        if not has_vehicle:
            cols.remove("Vehicle")
    else:
        crew_max = max(len(u.crew) for u in units)
        cols = ["Line", "Unit", "Call Sign", "Vehicle"] + [
            c for i in range(1, crew_max + 1) for c in (f"Member{i}", f"Badge{i}", f"Armed{i}")
        ]
        if not has_vehicle:
            cols.remove("Vehicle")
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="roster",
        agency=agency,
        clock=None,
        st=None,
        zone_stated="(untimed)",
        columns=cols,
        rid_col=cols[0],
        dialect=f"roster/{variant}",
        title=title,
    )
    rid = rng.randint(1, 200)
    for unit in units:
        if variant == "per_person":
            for pid in unit.crew:
                p = world.people[pid]
                rid += 1
                r = str(rid)
                row = {
                    "RosterID": r,
                    "Unit": unit.cad_id,
                    "CallSign": unit.call_sign,
                    "Vehicle": unit.vehicle or "",
                    "RadioID": unit.radio_id,
                    "Name": _name(p, style),
                    "Rank": p.rank,
                    "Badge": p.badge,
                    "Armed": yes if p.armed else no,
                    "Assignment": unit.role.upper() if unit.role != "patrol" else "PATROL",
                }
                exp.add({c: row[c] for c in cols})
                exp.mention(r, "unit", unit.id, unit.cad_id)
                exp.mention(r, "call_sign", unit.id, unit.call_sign)
                if unit.vehicle and "Vehicle" in cols:
                    exp.mention(r, "vehicle", unit.id, unit.vehicle)
                if with_radio:
                    exp.mention(r, "radio_id", unit.id, unit.radio_id)
                exp.mention(r, "actor", p.id, row["Name"])
        else:
            rid += 1
            r = str(rid)
            row = {"Line": r, "Unit": unit.cad_id, "Call Sign": unit.call_sign, "Vehicle": unit.vehicle or ""}
            for i, pid in enumerate(unit.crew, 1):
                p = world.people[pid]
                row[f"Member{i}"] = _name(p, style)
                row[f"Badge{i}"] = p.badge
                row[f"Armed{i}"] = yes if p.armed else no
                exp.mention(r, "actor", p.id, row[f"Member{i}"], multi=True)
            exp.add({c: row.get(c, "") for c in cols})
            exp.mention(r, "unit", unit.id, unit.cad_id)
            exp.mention(r, "call_sign", unit.id, unit.call_sign)
            if unit.vehicle and "Vehicle" in cols:
                exp.mention(r, "vehicle", unit.id, unit.vehicle)
    armed_doc = f"`{yes}` = carries a firearm on duty, " + (f"`{no}`" if no else "blank") + " = does not"
    docs = {
        "RosterID": "roster line",
        "Line": "roster line",
        "Unit": "unit designator used in CAD",
        "CallSign": "radio call sign",
        "Call Sign": "radio call sign",
        "Vehicle": "fleet vehicle number assigned for the shift (blank: on foot / no vehicle)",
        "RadioID": "radio subscriber ID of the unit's radio",
        "Name": "member's name",
        "Rank": "rank or title",
        "Badge": "badge or employee number",
        "Armed": armed_doc,
        "Assignment": "assignment for the shift",
    }
    for c in cols:
        if c.startswith("Member"):
            docs[c] = f"crew member {c[6:]} name"
        elif c.startswith("Badge") and c != "Badge":
            docs[c] = f"crew member {c[5:]} badge number"
        elif c.startswith("Armed") and c != "Armed":
            docs[c] = f"crew member {c[5:]}: {armed_doc}"
    name_doc = {
        "last_first": "SURNAME, First",
        "first_last": "First Surname",
        "last_initial": "SURNAME F (first initial)",
    }[style]
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Shift roster of the {ag.name} for the day of the incident: "
        + ("one row per member." if variant == "per_person" else "one row per unit with its crew side by side."),
        [(c, docs[c]) for c in cols],
        [("Names", f"Names are written {name_doc}.")],
    )
    return exp

"""Rosters: which officer staffs which unit, per agency, each in its own style.

They are the only bridge between a CAD unit id, a radio call sign, a vehicle number and
a person. Each agency also lists a few liaison officers from the other agency, spelled
its own way: the same person, written differently by two agencies.
"""

from __future__ import annotations

import random

from onrecord.scenario import invented_names
from onrecord.scenario.sources.common import Table, mapping_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook

UNTIMED = [{"kind": "roster_entry"}]


def _roster(name, agency, world, head, fields, attrs, required, dialect) -> Table:
    m = mapping_doc(name[:-4].replace("_", "-"), "roster", agency, world.tz,
                    f"{world.agencies[agency].name} duty roster", fields, attrs, UNTIMED, required=required)
    return Table(name, "roster", agency, head, m, None, dialect)


def sheriff_roster(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, so = story.world, story.world.sheriff
    name = "roster_sheriff.csv"
    head = ["RosterId", "CADUnit", "CallSign", "VehicleNo", "Rank", "LastName", "FirstName", "MI", "Badge",
            "Assignment"]
    t = _roster(name, so, w, head, {"unit": "CADUnit", "actor": {"template": "{FirstName} {MI} {LastName}"}},
                {"rid": "RosterId", "call_sign": "CallSign", "vehicle": "VehicleNo", "rank": "Rank", "badge": "Badge"},
                ["RosterId"], "one row per unit; names split LAST / FIRST / MI, upper case")
    rows = [(u, w.people[u.crew[0]], u.cad_id, u.call_sign, u.vehicle or "", u.role.upper()) for u in w.units_of(so)]
    for u in w.units_of(w.police, "patrol")[:2]:  # city liaisons, spelled by the county clerk
        rows.append((u, w.people[u.crew[0]], "", "", "", f"LIAISON {w.police}"))
    for i, (u, p, cad, cs, veh, assign) in enumerate(rows):
        rid = f"S{i + 1:03d}"
        last = p.last if u.agency == so else invented_names.misspell(p.last, rng)
        t.add({"RosterId": rid, "CADUnit": cad, "CallSign": cs, "VehicleNo": veh, "Rank": p.rank.upper(),
               "LastName": last.upper(), "FirstName": p.first.upper(), "MI": p.middle, "Badge": p.badge,
               "Assignment": assign})
        # a blank cell (the SRO has no car) names nothing: it is not a mention
        extra = tuple(k for k, v in (("call_sign", cs), ("vehicle", veh)) if v)
        _mention_row(book, name, rid, u.uid, p.pid, has_unit=bool(cad), extra=extra)
    return t


def _mention_row(book, name, rid, uid, pid, has_unit=True, extra=()) -> None:
    if has_unit:
        book.mention(name, rid, "unit", uid)
    for what in extra:
        book.mention(name, rid, what, uid)
    book.mention(name, rid, "actor", pid)


def city_roster(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, pd = story.world, story.world.police
    name = "roster_city.csv"
    head = ["Roster No", "Unit ID", "Officer", "Rank", "Badge #"]
    t = _roster(name, pd, w, head, {"unit": "Unit ID", "actor": "Officer"},
                {"rid": "Roster No", "rank": "Rank", "badge": "Badge #"}, ["Roster No"],
                "one row per officer; 'First Last' names; sheriff liaisons listed by radio call sign")
    rows = [(u, w.people[u.crew[0]], u.cad_id, False) for u in w.units_of(pd)]
    deputy, sergeant = w.lookalikes
    liaisons = [u for u in w.units_of(w.sheriff) if u.crew[0] in (deputy,)] + w.units_of(w.sheriff, "sro")
    rows += [(u, w.people[u.crew[0]], u.call_sign, True) for u in liaisons]
    for i, (u, p, unit_id, foreign) in enumerate(rows):
        rid = f"{4100 + i * 3}"
        first = invented_names.nickname(p.first) if foreign else p.first
        last = invented_names.misspell(p.last, rng) if foreign else p.last
        t.add({"Roster No": rid, "Unit ID": unit_id, "Officer": f"{first} {last}",
               "Rank": ("Dep." if p.rank == "Deputy" else p.rank) if foreign else p.rank, "Badge #": p.badge})
        _mention_row(book, name, rid, u.uid, p.pid)
    return t


def fire_roster(story: Story, book: TruthBook, rng: random.Random) -> Table:
    w, fr = story.world, story.world.fire
    name = "roster_fire.csv"
    head = ["ROSTER_KEY", "APPARATUS", "POSITION", "NAME"]
    t = _roster(name, fr, w, head, {"unit": "APPARATUS", "actor": "NAME"},
                {"rid": "ROSTER_KEY", "position": "POSITION"}, ["ROSTER_KEY"],
                "one row per crew member; 'LAST, F.' names")
    i = 0
    for u in w.units_of(fr):
        for j, pid in enumerate(u.crew):
            i += 1
            p, rid = w.people[pid], f"FR{i:04d}"
            t.add({"ROSTER_KEY": rid, "APPARATUS": u.cad_id, "POSITION": "OFFICER" if j == 0 else "FF",
                   "NAME": f"{p.last.upper()}, {p.first[0]}."})
            _mention_row(book, name, rid, u.uid, pid)
    return t

"""Who works the incident: officers and the units they staff, per agency.

Two officers of the sheriff's office share a first name and surnames one letter apart
(a deputy and a sergeant); entity resolution has to keep them apart.
"""

from __future__ import annotations

import random
from datetime import date

from onrecord.scenario import invented_names
from onrecord.scenario.world import Person, Unit, World

PHONETIC = ["Adam", "Baker", "Charlie", "David", "Edward", "Frank", "George", "Henry"]


class _Ids:
    def __init__(self) -> None:
        self.person = 0
        self.unit = 0

    def next_person(self) -> str:
        self.person += 1
        return f"P{self.person:03d}"

    def next_unit(self) -> str:
        self.unit += 1
        return f"U{self.unit:02d}"


def _officer(world: World, ids: _Ids, rng: random.Random, agency: str, rank: str,
             name: tuple[str, str, str, str] | None = None) -> Person:
    first, middle, last, sex = name or invented_names.pick_person_name(rng)
    born = date(rng.randint(1968, 1999), rng.randint(1, 12), rng.randint(1, 28))
    p = Person(ids.next_person(), first, middle, last, sex, born, agency, rank,
               str(rng.randint(1000, 9899)))
    world.people[p.pid] = p
    return p


def _unique_names(rng: random.Random, count: int, taken: set[str]) -> list[tuple]:
    out = []
    while len(out) < count:
        n = invented_names.pick_person_name(rng)
        if n[2] not in taken:  # distinct surnames, except the deliberate look-alikes
            taken.add(n[2])
            out.append(n)
    return out


def staff_agencies(world: World, rng: random.Random) -> None:
    ids, taken = _Ids(), set()
    look_first = rng.choice(invented_names.LOOKALIKE_FIRST)
    look_a, look_b = rng.choice(invented_names.LOOKALIKE_SURNAMES)
    taken.update({look_a, look_b})
    _staff_sheriff(world, ids, rng, taken, (look_first, look_a, look_b))
    _staff_police(world, ids, rng, taken)
    _staff_fire(world, ids, rng, taken)


def _staff_sheriff(world, ids, rng, taken, lookalike) -> None:
    so, district = world.sheriff, rng.randint(11, 19)
    letter = rng.choice(PHONETIC)
    first, surname_a, surname_b = lookalike
    n_deputies = rng.randint(8, 11)
    plan = [("sro", "Deputy", None)]
    plan += [("deputy", "Deputy", None) for _ in range(n_deputies - 1)]
    plan.insert(2, ("deputy", "Deputy", (first, rng.choice("ABCDEFGH"), surname_a, "M")))
    plan += [("sergeant", "Sergeant", (first, rng.choice("JKLMNPRS"), surname_b, "M")),
             ("sergeant", "Sergeant", None), ("captain", "Captain", None)]
    fresh = iter(_unique_names(rng, len(plan), taken))
    numbers = rng.sample(range(2, 60), len(plan))
    vehicles = iter(rng.sample(range(3000, 4000), len(plan)))  # one car, one number
    for (role, rank, name), num in zip(plan, numbers):
        person = _officer(world, ids, rng, so, rank, name or next(fresh))
        cad = f"SRO{num}" if role == "sro" else f"{district}{letter[0]}{num:02d}"
        vehicle = None if role == "sro" else str(next(vehicles))
        world.units.append(Unit(ids.next_unit(), so, role, cad, f"{letter}-{num}", vehicle,
                                [person.pid], True))
        if name and name[2] in (surname_a, surname_b):
            world.lookalikes = (*world.lookalikes[1:], person.pid)


def _staff_police(world, ids, rng, taken) -> None:
    pd = world.police
    plan = [("patrol", "Officer")] * rng.randint(8, 12) + [("sergeant", "Sergeant")]
    fresh = iter(_unique_names(rng, len(plan), taken))
    numbers = rng.sample(range(211, 289), len(plan))
    for (role, rank), num in zip(plan, numbers):
        person = _officer(world, ids, rng, pd, rank, next(fresh))
        cad = f"P{num}" if role == "patrol" else f"S{num}"
        call = f"{str(num)[0]}-{str(num)[1:]}" if role == "patrol" else f"Sam-{num}"
        world.units.append(Unit(ids.next_unit(), pd, role, cad, call, None, [person.pid], True))


def _staff_fire(world, ids, rng, taken) -> None:
    fr = world.fire
    stations = rng.sample(range(20, 99), 8)
    plan = [("engine", "E", "Engine")] * 3 + [("rescue", "R", "Rescue")] * rng.randint(5, 7)
    plan.append(("chief", "BC", "Battalion"))
    fresh = iter(_unique_names(rng, len(plan) * 2, taken))
    for i, (role, prefix, word) in enumerate(plan):
        station = stations[i % len(stations)] + (100 if i >= len(stations) else 0)
        crew = [_officer(world, ids, rng, fr, "Lieutenant" if j == 0 else "Firefighter",
                         next(fresh)).pid for j in range(1 if role == "chief" else 2)]
        world.units.append(Unit(ids.next_unit(), fr, role, f"{prefix}{station}",
                                f"{word} {station}", None, crew, False))

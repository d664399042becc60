"""Prior warnings: the attacker's earlier contacts with agencies that never compared notes
(a federal tip line, the sheriff's calls at his home, school threat reports, a family
services referral, a city field contact), mixed into the records of many other people.

Each agency writes him its own way: a nickname, a misspelled surname, a day/month-swapped
birth date, the address spelled out or abbreviated. His brother lives at the same address
and a namesake elsewhere in the county: linkage must keep them apart.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import date

from onrecord.scenario import invented_names
from onrecord.scenario.story import Story
from onrecord.scenario.world import Person, street_address

AGENCY_KINDS = ["tips", "sheriff", "schools", "family", "police"]
NARRATIVES = {
    "weapons": ["subject posted photos of himself with rifles", "caller says he bought an AR-15 style rifle",
                "subject shows knives and guns to neighbors"],
    "threat_school": ["comment online: 'I'm going to be a professional school shooter'",
                      "told classmates he would shoot up the school", "drew pictures of shooting at school"],
    "violence": ["kicked in a door during argument with mother", "fight with brother, threw objects",
                 "shot chickens with a pellet gun"],
    "self_harm": ["cut his arms after a breakup, said he wants to die", "expressed wish to harm himself"],
}
HOUSE_CALLS = [("mother reports her son has a rifle and threatened to use it", ["weapons", "violence"]),
               ("mother reports son punched holes in the wall, guns in the house", ["violence", "weapons"]),
               ("caller says her son is out of control and threatening to shoot", ["violence", "weapons"]),
               ("mother requests check, son posting about guns and killing", ["weapons", "violence"])]
MUNDANE = ["noise complaint, music", "neighbor dispute over parking", "found property turned in",
           "welfare check, all fine", "truancy, counselor notified", "shoplifting, juvenile released to parent",
           "lost phone report", "tenant/landlord dispute", "referral closed, services not needed",
           "suspicious vehicle, gone on arrival"]


@dataclass
class Contact:
    agency: str                     # one of AGENCY_KINDS
    t: float                        # epoch seconds
    person: str                     # true person id
    first: str
    middle: str
    last: str
    dob: date | None
    dob_swapped: bool
    address: str
    phone: str
    narrative: str
    indicators: list[str] = field(default_factory=list)
    named: bool = True              # False: a call at his address that names nobody


@dataclass
class PriorWorld:
    people: dict[str, Person]
    contacts: list[Contact]
    attacker: str = "P900"
    roles: dict[str, str] = field(default_factory=dict)


def _person(pid: str, rng: random.Random, last: str | None = None, address: str | None = None,
            born: tuple[int, int] = (1950, 2008), sex: str | None = None) -> Person:
    first, middle, surname, s = invented_names.pick_person_name(rng, sex)
    dob = date(rng.randint(*born), rng.randint(1, 12), rng.randint(1, 28))
    return Person(pid, first, middle, last or surname, s, dob, address=address or street_address(rng),
                  phone=f"({rng.randint(200, 989)}) 555-{rng.randint(1000, 9999)}")


def household(story: Story, rng: random.Random) -> dict[str, Person]:
    a = story.attacker
    brother = _person("P901", rng, a.last, a.address, (a.dob.year - 1, a.dob.year + 1), "M")
    while _same_given_name(brother.first, a.first):  # parents do not name two sons alike
        brother = _person("P901", rng, a.last, a.address, (a.dob.year - 1, a.dob.year + 1), "M")
    mother = _person("P902", rng, a.last, a.address, (1955, 1965), "F")
    namesake = replace(_person("P903", rng, a.last, None, (a.dob.year - 30, a.dob.year + 2), "M"),
                       first=a.first)
    return {p.pid: p for p in (a, brother, mother, namesake)}


def _same_given_name(one: str, other: str) -> bool:
    return one == other or invented_names.NICKNAMES.get(one) == other or invented_names.NICKNAMES.get(other) == one


def plan_priors(story: Story, rng: random.Random, n_background: int = 400) -> PriorWorld:
    people = household(story, rng)
    roles = {"P900": "attacker", "P901": "attacker's brother, same address",
             "P902": "attacker's mother, same address", "P903": "namesake of the attacker elsewhere"}
    for i in range(n_background):
        p = _person(f"B{i + 1:04d}", rng)
        people[p.pid] = p
        roles[p.pid] = "background"
    # One student with an accented surname, so the school district's Windows-1252 export
    # always holds a byte that is not UTF-8.
    people["B0001"].last, people["B0001"].dob = "Nuñez", people["B0001"].dob.replace(year=story.attacker.dob.year)
    world = PriorWorld(people, [], roles=roles)
    _attacker_contacts(world, story, rng)
    _household_contacts(world, story, rng)
    _background_contacts(world, story, rng)
    world.contacts.sort(key=lambda c: c.t)
    return world


def _variant(p: Person, rng: random.Random, t: float, agency: str, narrative: str,
             indicators: list[str], strength: float = 0.5) -> Contact:
    """How one agency wrote this person down; `strength` is how much it garbles."""
    first = invented_names.nickname(p.first) if rng.random() < strength * 0.6 else p.first
    last = invented_names.misspell(p.last, rng) if rng.random() < strength * 0.5 else p.last
    dob, swapped = p.dob, False
    roll = rng.random()
    if roll < strength * 0.25:
        dob = None
    elif roll < strength * 0.5 and p.dob.day <= 12 and p.dob.day != p.dob.month:
        dob, swapped = date(p.dob.year, p.dob.day, p.dob.month), True
    address = _address_variant(p.address or "", rng, strength)
    phone = p.phone if rng.random() > strength * 0.5 else ""
    return Contact(agency, t, p.pid, first, p.middle if rng.random() > strength else "", last, dob, swapped,
                   address, phone or "", narrative, indicators)


SPELLED = {"St": "Street", "Ave": "Avenue", "Dr": "Drive", "Ln": "Lane", "Ct": "Court", "Way": "Way",
           "Blvd": "Boulevard", "Ter": "Terrace", "Pl": "Place"}


def _address_variant(address: str, rng: random.Random, strength: float) -> str:
    if not address or rng.random() < strength * 0.15:
        return ""
    parts = address.split()
    if rng.random() < strength:
        parts[-1] = SPELLED.get(parts[-1], parts[-1])
    text = " ".join(parts)
    if rng.random() < strength * 0.4:
        text = text.upper()
    if rng.random() < strength * 0.3:
        text += rng.choice([", Apt 2", " #B", ", Unit 1"])
    return text


def _fit(p: Person, agency: str) -> str:
    """School threat reports are about students: adults go to the sheriff instead."""
    return "sheriff" if agency == "schools" and p.dob.year < 1998 else agency


def _when(story: Story, rng: random.Random, days_before: tuple[int, int]) -> float:
    return story.t0 - 86400 * rng.uniform(*days_before) + rng.uniform(-6, 6) * 3600


def _pick(kind: str, rng: random.Random) -> str:
    return rng.choice(NARRATIVES[kind])


def _attacker_contacts(world: PriorWorld, story: Story, rng: random.Random) -> None:
    a = world.people["P900"]
    plan = [("tips", (120, 160), ["threat_school"]), ("tips", (480, 560), ["weapons", "self_harm"]),
            ("schools", (700, 760), ["threat_school"]), ("schools", (400, 450), ["violence"]),
            ("family", (500, 540), ["self_harm", "weapons"])]
    plan += [("sheriff", (60, 1300), [rng.choice(list(NARRATIVES))]) for _ in range(rng.randint(5, 10))]
    if rng.random() < 0.7:
        plan.append(("police", (30, 200), ["weapons"]))
    for agency, days, inds in plan:
        text = "; ".join(_pick(k, rng) for k in inds)
        world.contacts.append(_variant(a, rng, _when(story, rng, days), agency, text, inds, strength=0.7))
    # The tip about the online comment names only the account it came from.
    tip = next(c for c in world.contacts if c.agency == "tips" and "threat_school" in c.indicators)
    tip.first, tip.middle, tip.last = f"{a.first.lower()}{a.last.lower()}{a.dob.year % 100:02d}", "", ""
    tip.dob, tip.narrative = None, "comment posted under this username: 'I'm going to be a professional school shooter'"
    for _ in range(rng.randint(2, 4)):  # calls to the house about "the son": only the address ties them to him
        text, inds = rng.choice(HOUSE_CALLS)
        c = _variant(a, rng, _when(story, rng, (60, 1300)), "sheriff", text, inds, strength=0.3)
        c.first = c.middle = c.last = c.phone = ""
        c.dob, c.named = None, False
        world.contacts.append(c)


def _household_contacts(world: PriorWorld, story: Story, rng: random.Random) -> None:
    """Brother and mother at the same address; the namesake elsewhere, with a record too."""
    for pid, n, inds in (("P901", 3, ["violence"]), ("P902", 2, []), ("P903", 2, [])):
        p = world.people[pid]
        for _ in range(n):
            agency = _fit(p, rng.choice(["sheriff", "sheriff", "schools", "police"]))
            text = "; ".join(_pick(k, rng) for k in inds) or rng.choice(MUNDANE)
            world.contacts.append(_variant(p, rng, _when(story, rng, (30, 1400)), agency, text, inds, 0.5))


def _background_contacts(world: PriorWorld, story: Story, rng: random.Random) -> None:
    for pid, p in world.people.items():
        if pid.startswith("B"):
            _contacts_of(world, story, rng, p)


def _contacts_of(world: PriorWorld, story: Story, rng: random.Random, p: Person) -> None:
    """One background person's one to three contacts, each agency writing him its way."""
    for n in range(rng.choice([1, 1, 1, 2, 2, 3])):
        inds = [rng.choice(list(NARRATIVES))] if rng.random() < 0.05 else []
        text = "; ".join(_pick(k, rng) for k in inds) or rng.choice(MUNDANE)
        agency = _fit(p, rng.choice(AGENCY_KINDS + ["sheriff", "police"]))
        if p.pid == "B0001" and n == 0:
            agency = "schools"
        world.contacts.append(_variant(p, rng, _when(story, rng, (10, 1460)), agency, text, inds, 0.4))


def plan_many_priors(story: Story, rng: random.Random, n_records: int) -> PriorWorld:
    """A statewide-sized index for scale runs: `n_records` prior contacts across the five
    agencies, the attacker's, his household's and his namesake's among them, the rest of
    background people (one to three contacts each, as in `plan_priors`)."""
    people = household(story, rng)
    roles = {"P900": "attacker", "P901": "attacker's brother, same address",
             "P902": "attacker's mother, same address", "P903": "namesake of the attacker elsewhere"}
    world = PriorWorld(people, [], roles=roles)
    _attacker_contacts(world, story, rng)
    _household_contacts(world, story, rng)
    i = 0
    while len(world.contacts) < n_records:
        i += 1
        p = _person(f"B{i:07d}", rng)
        people[p.pid], roles[p.pid] = p, "background"
        _contacts_of(world, story, rng, p)
    del world.contacts[n_records:]  # the last person may lose a contact: truth is per record
    world.contacts.sort(key=lambda c: c.t)
    return world

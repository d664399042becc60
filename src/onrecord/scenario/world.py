"""The invented place: a county, a city, a school campus, three responding agencies and
their officers and units.

Unit ids differ by system on purpose, as they do in real records: the CAD knows a unit
as "14B12", the radio as "Baker-12", the AVL vendor by its vehicle number. Rosters are
the only bridge, and they spell the same officer differently from agency to agency.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

COUNTIES = ["Tessaly", "Quarrow", "Vellmont", "Brackwater", "Ilderwood", "Corvane"]
CITIES = ["Brennan Falls", "Larkspur Hollow", "Wexmoor", "Sallow Creek", "Fennick Park",
          "Orrin Springs"]
SCHOOLS = ["Harrow Creek", "Stonefield Ridge", "Pinecastle", "Merriweather Oaks",
           "Alder Bluff", "Thistlewood"]
STREETS = ["Juniper", "Heron", "Calloway", "Sawgrass", "Marlin", "Tamarind", "Osprey",
           "Cypress Bend", "Old Quarry", "Lantana", "Palmetto Glen", "Kestrel", "Briarwood",
           "Mockingbird", "Saddle Ridge", "Coral Vine", "Egret", "Bluestem"]
STREET_TYPES = ["St", "Ave", "Dr", "Ln", "Ct", "Way", "Blvd", "Ter", "Pl"]
HOSPITALS = ["{county} General Hospital", "St. Aldric Medical Center",
             "{city} Regional Medical Center"]
TIMEZONE = "America/New_York"


@dataclass
class Agency:
    code: str
    name: str
    kind: str  # sheriff, police, fire, psap, tips, schools, social-services


@dataclass
class Person:
    pid: str
    first: str
    middle: str
    last: str
    sex: str
    dob: date
    agency: str | None = None
    rank: str | None = None
    badge: str | None = None
    address: str | None = None
    phone: str | None = None

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass
class Unit:
    uid: str            # truth's entity id
    agency: str
    role: str           # sro, deputy, sergeant, captain, patrol, engine, rescue, chief
    cad_id: str
    call_sign: str
    vehicle: str | None
    crew: list[str]     # person ids; the first is in charge
    armed: bool


@dataclass
class Building:
    number: int
    floors: int
    lat: float
    lon: float

    @property
    def name(self) -> str:
        return f"Building {self.number}"


@dataclass
class World:
    county: str
    city: str
    school: str
    campus_address: str
    lat: float
    lon: float
    buildings: list[Building]
    target: Building
    agencies: dict[str, Agency]
    people: dict[str, Person] = field(default_factory=dict)
    units: list[Unit] = field(default_factory=list)
    hospitals: list[str] = field(default_factory=list)
    tz: str = TIMEZONE
    lookalikes: tuple[str, str] = ("", "")  # the two officers with near-identical names

    def unit(self, uid: str) -> Unit:
        return next(u for u in self.units if u.uid == uid)

    def units_of(self, agency: str, *roles: str) -> list[Unit]:
        return [u for u in self.units if u.agency == agency and (not roles or u.role in roles)]

    @property
    def sheriff(self) -> str:
        return next(a.code for a in self.agencies.values() if a.kind == "sheriff")

    @property
    def police(self) -> str:
        return next(a.code for a in self.agencies.values() if a.kind == "police")

    @property
    def schools(self) -> str:
        return next(a.code for a in self.agencies.values() if a.kind == "schools")

    @property
    def fire(self) -> str:
        return next(a.code for a in self.agencies.values() if a.kind == "fire")


def street_address(rng: random.Random) -> str:
    return f"{rng.randint(100, 9899)} {rng.choice(STREETS)} {rng.choice(STREET_TYPES)}"


def initials(words: str) -> str:
    return "".join(w[0] for w in words.split()).upper()


def build_world(rng: random.Random) -> World:
    county, city = rng.choice(COUNTIES), rng.choice(CITIES)
    school = f"{rng.choice(SCHOOLS)} High School"
    lat, lon = round(rng.uniform(26.2, 30.4), 5), round(rng.uniform(-82.6, -80.2), 5)
    buildings = [Building(n, rng.choice([1, 2, 3]) if n != 1 else 3,
                          round(lat + rng.uniform(-0.0018, 0.0018), 6),
                          round(lon + rng.uniform(-0.0022, 0.0022), 6))
                 for n in range(1, rng.randint(7, 13) + 1)]
    target = rng.choice([b for b in buildings if b.floors == 3] or buildings)
    cc, ci = initials(county), initials(city)
    agencies = {a.code: a for a in [
        Agency(f"{cc}CSO", f"{county} County Sheriff's Office", "sheriff"),
        Agency(f"{ci}PD", f"{city} Police Department", "police"),
        Agency(f"{cc}CFR", f"{county} County Fire Rescue", "fire"),
        Agency(f"{cc}CPS", f"{county} County Public Schools", "schools"),
    ]}
    world = World(county, city, school, f"{rng.randint(1000, 9999)} {rng.choice(STREETS)} Blvd",
                  lat, lon, buildings, target, agencies)
    world.hospitals = [h.format(county=county, city=city) for h in HOSPITALS]
    return world

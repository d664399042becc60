"""The fictional world of one seed: place, campus, agencies, people and units."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from . import names

# (zone, latitude band, longitude band) — coordinates are random within the zone's band;
# nothing is placed on a real town.
ZONES = [
    ("America/Chicago", (31.0, 44.0), (-97.5, -88.5)),
    ("America/New_York", (33.0, 43.5), (-84.0, -75.5)),
    ("America/Denver", (35.0, 44.5), (-111.0, -104.5)),
    ("America/Los_Angeles", (34.0, 46.5), (-122.5, -117.5)),
    ("America/Phoenix", (31.8, 35.5), (-114.0, -110.0)),
]

PHONETIC = {
    "A": "Adam",
    "B": "Boy",
    "C": "Charles",
    "D": "David",
    "E": "Edward",
    "F": "Frank",
    "G": "George",
    "H": "Henry",
    "K": "King",
    "L": "Lincoln",
    "M": "Mary",
    "N": "Nora",
    "P": "Paul",
    "R": "Robert",
    "S": "Sam",
    "T": "Tom",
    "U": "Union",
    "V": "Victor",
    "W": "William",
}


@dataclass
class Agency:
    code: str
    name: str
    kind: str  # sheriff, police, fire, schools, state
    vocab: str  # how its people talk on the radio: plain, ten, slang
    unit_style: str
    answers_911: bool = False


@dataclass
class Person:
    id: str
    first: str
    middle: str
    last: str
    agency: str
    rank: str
    badge: str
    armed: bool
    dob: str


@dataclass
class Unit:
    id: str
    agency: str
    cad_id: str
    call_sign: str  # as spoken on the radio
    role: str  # patrol, sergeant, command, sro, cso, security, engine, medic, ladder, chief, trooper
    crew: list[str]
    armed: bool
    vehicle: str | None  # fleet number painted on the car (what an AVL box reports)
    radio_id: str
    avl: bool
    responds: bool  # False: busy on another call all afternoon
    near: bool = False  # close to the school when the first shots were fired


@dataclass
class World:
    seed: int
    zone: str
    local_date: str
    t0: float  # first shot, UTC epoch seconds
    county: str
    city: str
    school: str
    school_short: str
    address: str
    lat: float
    lon: float
    buildings: list[dict]
    target: dict
    doors: list[dict]  # doors of the target building
    police_staging: dict  # on campus
    fire_staging: dict  # off campus
    ccp: dict  # casualty collection point, on campus
    hospitals: list[str]
    agencies: dict[str, Agency]
    primary: str  # law agency with jurisdiction over the campus
    people: dict[str, Person] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    attacker: Person | None = None
    streets: list[str] = field(default_factory=list)

    def code_of(self, kind: str) -> str | None:
        for code, agency in self.agencies.items():
            if agency.kind == kind:
                return code
        return None

    def units_of(self, code: str) -> list[Unit]:
        return [u for u in self.units.values() if u.agency == code]

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)


def _place_name(rng: random.Random, used: set[str]) -> str:
    while True:
        name = rng.choice(names.PLACE_HEADS) + rng.choice(names.PLACE_TAILS)
        if name not in used:
            used.add(name)
            return name


def _initials(*words: str) -> str:
    return "".join(w[0] for w in words if w).upper()


def _offset_point(lat: float, lon: float, metres: float, bearing_deg: float) -> tuple[float, float]:
    b = math.radians(bearing_deg)
    dlat = metres * math.cos(b) / 111_320.0
    dlon = metres * math.sin(b) / (111_320.0 * math.cos(math.radians(lat)))
    return round(lat + dlat, 6), round(lon + dlon, 6)


def _pick_t0(rng: random.Random, zone: str) -> tuple[float, str]:
    tz = ZoneInfo(zone)
    while True:
        year = rng.randint(2019, 2025)
        month = rng.choice([1, 2, 3, 4, 5, 8, 9, 10, 11, 12])
        day = rng.randint(1, 28)
        local = datetime(year, month, day, tzinfo=tz)
        if local.weekday() < 5:
            break
    seconds = rng.randint(8 * 3600 + 20 * 60, 14 * 3600 + 50 * 60) + rng.randint(0, 999) / 1000.0
    local = local + timedelta(seconds=seconds)
    return local.timestamp(), local.date().isoformat()


class _People:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.n = 0
        self.used: set[tuple[str, str]] = set()

    def make(self, world: World, agency: str, rank: str, armed: bool, badge_len: int = 4) -> Person:
        rng = self.rng
        while True:
            first, last = rng.choice(names.FIRST_NAMES), rng.choice(names.LAST_NAMES)
            if (first, last) not in self.used:
                self.used.add((first, last))
                break
        self.n += 1
        pid = f"P{self.n:03d}"
        year = int(world.local_date[:4]) - rng.randint(24, 58)
        person = Person(
            pid,
            first,
            rng.choice(names.FIRST_NAMES)[0],
            last,
            agency,
            rank,
            str(rng.randint(10 ** (badge_len - 1), 10**badge_len - 1)),
            armed,
            f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        )
        world.people[pid] = person
        return person


class _UnitIds:
    """Unit designators in one agency's style, never repeating any agency's."""

    def __init__(self, rng: random.Random, taken: set[str]):
        self.rng = rng
        self.taken = taken

    def _free(self, make) -> tuple[str, str]:
        for _ in range(500):
            cad, spoken = make()
            if cad not in self.taken:
                self.taken.add(cad)
                return cad, spoken
        raise RuntimeError("unit id space exhausted")

    def law(self, style: str, role: str) -> tuple[str, str]:
        rng = self.rng
        letter = {"sergeant": "S", "command": "L", "cso": "C", "sro": "R"}.get(role)

        def make():
            beat = rng.randint(1, 6)
            nn = rng.randint(10, 49)
            if style == "beat_alpha":
                let = letter or rng.choice("ABDEKT")
                return f"{beat}{let}{nn}", f"{beat}-{PHONETIC[let]}-{nn}"
            if style == "numeric":
                return f"{beat}{nn}", f"{beat}-{nn}"
            if style == "prefix":
                pre = letter or "D"
                num = rng.randint(200, 399)
                return f"{pre}{num}", f"{PHONETIC[pre]} {num}"
            if style == "p_num":
                num = rng.randint(200, 299)
                prefix = {"sergeant": "SG", "command": "LT", "cso": "CSO"}.get(role, "P")
                return f"{prefix}{num}", f"{str(num)[0]}-{str(num)[1:]}"
            if style == "num4":
                num = rng.randint(1100, 4499)
                return f"{num}", f"{str(num)[:2]}-{str(num)[2:]}"
            if style == "trooper":
                num = rng.randint(400, 899)
                return f"T{num}", f"Trooper {num}"
            raise ValueError(style)

        return self._free(make)

    def fire(self, style: str, role: str) -> tuple[str, str]:
        rng = self.rng
        word, pre = {
            "engine": ("Engine", "E"),
            "medic": ("Medic", "M"),
            "ladder": ("Ladder", "L"),
            "chief": ("Battalion", "BC"),
            "rescue": ("Rescue", "R"),
        }[role]

        def make():
            num = (
                rng.randint(1, 9)
                if role == "chief"
                else (rng.randint(11, 59) if style == "short" else rng.randint(110, 459))
            )
            return f"{pre}{num}", f"{word} {num}"

        return self._free(make)

    def campus(self, style: str) -> tuple[str, str]:
        rng = self.rng

        def make():
            n = rng.randint(1, 12)
            if style == "campus":
                return f"CS{n}", f"Campus {n}"
            return f"SP{n:02d}", f"School {n}"

        return self._free(make)


def build_world(seed: int) -> World:
    rng = random.Random(f"independent/{seed}/world")
    zone, lat_band, lon_band = rng.choice(ZONES)
    t0, local_date = _pick_t0(rng, zone)
    used: set[str] = set()
    county, city = _place_name(rng, used), _place_name(rng, used)
    lat, lon = round(rng.uniform(*lat_band), 6), round(rng.uniform(*lon_band), 6)
    kind_of_school = rng.choice(
        ["High School", "High School", "Senior High School", "Middle School", "Community College"]
    )
    school_root = rng.choice([city, _place_name(rng, used)])
    school = f"{school_root} {kind_of_school}"
    streets = [f"{w} {rng.choice(names.STREET_TYPES)}" for w in rng.sample(names.STREET_WORDS, 8)]
    address = f"{rng.randint(100, 9899)} {streets[0]}"

    building_names = rng.choice(names.BUILDING_NAME_SETS)
    n_buildings = rng.randint(3, 5)
    buildings = []
    for i, bname in enumerate(building_names[:n_buildings]):
        blat, blon = _offset_point(lat, lon, rng.uniform(20, 160), rng.uniform(0, 360))
        buildings.append({"name": bname, "floors": rng.choice([1, 2, 2, 3, 3]), "lat": blat, "lon": blon})
    target = rng.choice([b for b in buildings if b["floors"] >= 2] or buildings)
    sides = rng.sample(["North", "South", "East", "West", "Northeast", "Southwest"], 4)
    doors = [
        {"name": f"{target['name']} {s} Doors", "id": f"D{rng.randint(10, 99)}{chr(65 + i)}", "side": s}
        for i, s in enumerate(sides)
    ]
    police_staging = {"name": rng.choice(["North Lot", "Stadium Lot", "Bus Loop", "Faculty Lot"]), "on_campus": True}
    fs_lat, fs_lon = _offset_point(lat, lon, rng.uniform(500, 900), rng.uniform(0, 360))
    fire_staging = {"name": f"{streets[1]} and {streets[2]}", "on_campus": False, "lat": fs_lat, "lon": fs_lon}
    ccp = {"name": rng.choice(["Front Circle", "Gym Lot", "Tennis Courts", "Baseball Field"]), "on_campus": True}
    hospitals = []
    for pattern in rng.sample(names.HOSPITAL_PATTERNS, 2):
        root = rng.choice(names.SAINTS) if pattern.startswith("St.") else _place_name(rng, used)
        hospitals.append(pattern.format(root))

    agencies: dict[str, Agency] = {}

    def add_agency(code: str, name: str, kind: str, style: str) -> str:
        while code in agencies:
            code = code + "X"
        agencies[code] = Agency(code, name, kind, rng.choice(["plain", "ten", "slang"]), style)
        return code

    so = add_agency(
        f"{county[0]}CSO",
        f"{county} County Sheriff's Office",
        "sheriff",
        rng.choice(["beat_alpha", "numeric", "prefix"]),
    )
    has_city = rng.random() < 0.75
    pd = None
    if has_city:
        pd = add_agency(
            rng.choice([f"{city[0]}PD", f"{city[:2].upper()}PD"]),
            f"{city} Police Department",
            "police",
            rng.choice(["p_num", "num4", "beat_alpha"]),
        )
    fire_kind = rng.choice(["city", "county", "district"] if has_city else ["county", "district"])
    if fire_kind == "city":
        fd = add_agency(f"{city[0]}FD", f"{city} Fire Department", "fire", "short")
    elif fire_kind == "county":
        fd = add_agency(f"{county[0]}CFR", f"{county} County Fire Rescue", "fire", "long")
    else:
        root = _place_name(rng, used)
        fd = add_agency(
            f"{root[:2].upper()}FPD", f"{root} Fire Protection District", "fire", rng.choice(["short", "long"])
        )
    district_root = rng.choice([city, county])
    district_word = rng.choice(["Unified School District", "Public Schools", "Independent School District"])
    district_code = _initials(*district_root.split()) + _initials(*district_word.split())
    add_agency(district_code, f"{district_root} {district_word}", "schools", rng.choice(["campus", "school"]))
    extra = rng.random() < 0.4
    if extra:
        if rng.random() < 0.5 or not has_city:
            add_agency(
                "HPT" + rng.choice("ABCDEFG"), f"Highway Patrol, Troop {rng.choice('ABCDEFG')}", "state", "trooper"
            )
        else:
            other = _place_name(rng, used)
            add_agency(
                f"{other[0]}{other[-1].upper()}PD",
                f"{other} Police Department",
                "police",
                rng.choice(["p_num", "num4"]),
            )
    # The campus is in the city limits or in unincorporated county.
    primary = pd if (has_city and rng.random() < 0.55) else so
    # Two answering points: the primary's, and one that wireless calls from the campus
    # sector reach first.
    agencies[primary].answers_911 = True
    wireless = pd if (has_city and primary == so) else (so if primary == pd else fd)
    agencies[wireless].answers_911 = True

    world = World(
        seed,
        zone,
        local_date,
        t0,
        county,
        city,
        school,
        school_root,
        address,
        lat,
        lon,
        buildings,
        target,
        doors,
        police_staging,
        fire_staging,
        ccp,
        hospitals,
        agencies,
        primary,
        streets=streets,
    )
    world.wireless_psap = wireless  # type: ignore[attr-defined]
    _staff(world, rng)
    return world


def _staff(world: World, rng: random.Random) -> None:
    people = _People(rng)
    ids = _UnitIds(rng, set())
    n = 0

    def add_unit(
        agency: str, cad: str, spoken: str, role: str, crew: list[Person], responds: bool, avl: bool, near: bool = False
    ) -> Unit:
        nonlocal n
        n += 1
        unit = Unit(
            f"U{n:02d}",
            agency,
            cad,
            spoken,
            role,
            [p.id for p in crew],
            any(p.armed for p in crew),
            f"{rng.randint(1000, 9899)}" if avl or rng.random() < 0.7 else None,
            f"{rng.randint(100000, 999999)}",
            avl,
            responds,
            near,
        )
        world.units[unit.id] = unit
        return unit

    for code, agency in world.agencies.items():
        if agency.kind in ("sheriff", "police"):
            avl = rng.random() < (0.9 if agency.kind == "sheriff" else 0.6)
            main = code == world.primary
            n_patrol = rng.randint(4, 7) if main else rng.randint(3, 6)
            if agency.kind == "police" and code != world.primary and code != world.code_of("police"):
                n_patrol = rng.randint(2, 3)  # a neighbouring department sends a few cars
            roles = ["patrol"] * n_patrol + ["sergeant"] + (["command"] if main or rng.random() < 0.5 else [])
            if rng.random() < 0.3:
                roles.append("cso")
            for i, role in enumerate(roles):
                cad, spoken = ids.law(agency.unit_style, role)
                rank = {
                    "patrol": rng.choice(["Deputy", "Officer"]) if agency.kind == "sheriff" else "Officer",
                    "sergeant": "Sergeant",
                    "command": rng.choice(["Lieutenant", "Captain"]),
                    "cso": "Community Service Officer",
                }[role]
                if agency.kind == "sheriff" and role == "patrol":
                    rank = "Deputy"
                crew = [people.make(world, code, rank, role != "cso")]
                if role == "patrol" and rng.random() < 0.2:
                    crew.append(people.make(world, code, rank, True))
                add_unit(code, cad, spoken, role, crew, True, avl and role != "cso", near=role == "patrol" and i < 2)
            for _ in range(rng.randint(1, 3)):  # busy elsewhere all afternoon
                cad, spoken = ids.law(agency.unit_style, "patrol")
                add_unit(
                    code,
                    cad,
                    spoken,
                    "patrol",
                    [people.make(world, code, "Deputy" if agency.kind == "sheriff" else "Officer", True)],
                    False,
                    avl,
                )
        elif agency.kind == "state":
            for _ in range(rng.randint(1, 3)):
                cad, spoken = ids.law("trooper", "patrol")
                add_unit(
                    code, cad, spoken, "trooper", [people.make(world, code, "Trooper", True)], True, rng.random() < 0.4
                )
        elif agency.kind == "fire":
            avl = rng.random() < 0.5
            roles = (
                ["engine"] * rng.randint(2, 3)
                + ["medic"] * rng.randint(2, 4)
                + ["chief"]
                + (["ladder"] if rng.random() < 0.5 else [])
                + (["rescue"] if rng.random() < 0.3 else [])
            )
            for role in roles:
                cad, spoken = ids.fire(agency.unit_style, role)
                size = {"engine": 3, "ladder": 4, "medic": 2, "rescue": 2, "chief": 1}[role]
                crew = [
                    people.make(
                        world,
                        code,
                        "Captain"
                        if i == 0 and role in ("engine", "ladder")
                        else ("Battalion Chief" if role == "chief" else rng.choice(["Firefighter", "Paramedic"])),
                        False,
                    )
                    for i in range(size)
                ]
                add_unit(code, cad, spoken, role, crew, True, avl)
            for _ in range(rng.randint(1, 2)):
                cad, spoken = ids.fire(agency.unit_style, "medic")
                add_unit(
                    code,
                    cad,
                    spoken,
                    "medic",
                    [people.make(world, code, "Paramedic", False) for _ in range(2)],
                    False,
                    avl,
                )
    # Campus: an armed school resource officer from a law agency or the district's own
    # police, and (often) unarmed campus security.
    sd = world.code_of("schools")
    district = world.agencies[sd]
    district_police = district.unit_style == "school"
    sro_from = rng.random()
    if district_police and sro_from < 0.5:
        cad, spoken = ids.campus("school")
        add_unit(sd, cad, spoken, "sro", [people.make(world, sd, "School Police Officer", True)], True, False)
    elif sro_from < 0.85:
        agency = world.agencies[world.primary]
        cad, spoken = ids.law(agency.unit_style, "sro")
        add_unit(
            world.primary,
            cad,
            spoken,
            "sro",
            [people.make(world, world.primary, "Deputy" if agency.kind == "sheriff" else "Officer", True)],
            True,
            False,
        )
    if rng.random() < 0.75 or not any(u.agency == sd for u in world.units.values()):
        for _ in range(rng.randint(1, 3)):
            cad, spoken = ids.campus(district.unit_style)
            armed = district_police and rng.random() < 0.6
            add_unit(
                sd,
                cad,
                spoken,
                "security",
                [people.make(world, sd, "School Police Officer" if armed else "Campus Monitor", armed)],
                True,
                False,
            )
    world.attacker = Person(
        "P900",
        rng.choice(names.FIRST_NAMES),
        rng.choice(names.FIRST_NAMES)[0],
        rng.choice(names.LAST_NAMES),
        "",
        "",
        "",
        True,
        f"{int(world.local_date[:4]) - rng.randint(15, 19)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )


offset_point = _offset_point

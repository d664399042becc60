"""Fictional people for the linkage tests. Every name and address here is invented."""

from __future__ import annotations

# Orla Brennick appears at four agencies with spelling, format and address variants;
# Tobias and Wren Quillfeather share a surname and a street but are different people.
AGENCY_ROWS: list[dict] = [
    {"record_id": "sheriff-101", "agency": "sheriff", "full_name": "BRENNICK, Orla J.",
     "dob": "14/03/2001", "address": "1412 N Maple Ave, Lakeview, OR 97630",
     "phone": "(541) 555-0142"},
    {"record_id": "school-7", "agency": "school", "first_name": "Orla",
     "middle_name": "Jane", "last_name": "Brenick", "dob": "2001-03-14",
     "street_number": "1412", "street": "North Maple Avenue", "city": "Lakeview",
     "postcode": "97630", "state": "OR"},
    {"record_id": "tipline-33", "agency": "tipline", "first_name": "Orla",
     "last_name": "Brennick", "dob": "2001-03-14", "phone": "541-555-0142",
     "city": "Lakeview", "state": "OR"},
    {"record_id": "social-5", "agency": "social", "first_name": "Orla",
     "last_name": "Brennick", "dob": "2001-03-41", "street_number": "1412",
     "street": "Maple Ave", "city": "Lakeview", "postcode": "97630", "state": "OR",
     "id_number": "OR-7731902"},
    {"record_id": "sheriff-102", "agency": "sheriff", "full_name": "Quillfeather, Tobias",
     "dob": "02/11/1968", "address": "88 Harrow Lane, Lakeview, OR 97630"},
    {"record_id": "school-9", "agency": "school", "first_name": "Wren",
     "last_name": "Quillfeather", "dob": "2004-06-19", "street_number": "88",
     "street": "Harrow Lane", "city": "Lakeview", "postcode": "97630", "state": "OR"},
    {"record_id": "tipline-40", "agency": "tipline", "first_name": "Tobias",
     "last_name": "Quillfeather", "dob": "1968-11-02", "phone": "541 555 0199",
     "city": "Lakeview", "state": "OR"},
    {"record_id": "social-8", "agency": "social", "first_name": "Marguerite",
     "last_name": "Osterlund", "dob": "1979-08-30", "street_number": "7",
     "street": "Cinder Court", "city": "Pine Hollow", "postcode": "97641", "state": "OR"},
    {"record_id": "sheriff-103", "agency": "sheriff", "full_name": "Dace Albrightson",
     "dob": "21/01/1990", "address": "305 Kestrel Rd, Pine Hollow, OR 97641"},
    {"record_id": "school-12", "agency": "school", "first_name": "Ilse",
     "last_name": "Vantongeren", "dob": "2003-12-05", "street_number": "19",
     "street": "Fernbrook Way", "city": "Lakeview", "postcode": "97630", "state": "OR"},
    # No usable name: must be dropped, never linked on the shared address.
    {"record_id": "tipline-41", "agency": "tipline", "first_name": "  ",
     "last_name": None, "dob": "2001-03-14", "street_number": "1412",
     "street": "North Maple Avenue", "city": "Lakeview", "postcode": "97630"},
]

# Timothy Farraday as four agencies wrote him: a nickname, a dropped letter, an account
# name in a tip, a day-first date. His brother and mother live at the same address.
FARRADAY_HOME = "9198 Bluestem Dr"
FARRADAY_ROWS: list[dict] = [
    {"record_id": "t1", "agency": "sheriff", "first_name": "TIM", "last_name": "FRRADAY", "address": FARRADAY_HOME},
    {"record_id": "t2", "agency": "school", "full_name": "FARRADAY, Timothy E.", "dob": "2006-10-06",
     "address": "9198 Bluestem Drive"},
    {"record_id": "t3", "agency": "tipline", "full_name": "timothyfarraday18", "address": FARRADAY_HOME.upper(),
     "phone": "(332) 555-5064"},
    {"record_id": "t4", "agency": "family", "first_name": "Timothy", "last_name": "Farraday",
     "dob": "06/10/2006", "phone": "332-555-5064"},
    {"record_id": "b1", "agency": "sheriff", "first_name": "MATTHEW", "last_name": "FARRADAY",
     "dob": "2007-01-11", "address": FARRADAY_HOME},
    {"record_id": "m1", "agency": "police", "full_name": "Emily K Farraday", "address": FARRADAY_HOME},
]

# The sheriff exports dates day-first; everyone else writes ISO.
DATE_FORMATS = {"sheriff": "%d/%m/%Y"}
ORLA = ["sheriff-101", "school-7", "tipline-33", "social-5"]


def invented_population(n_people: int = 300, seed: int = 6) -> tuple[list[dict], set]:
    """A fictional county: each person on a sheriff record and a school record.

    Names are built from invented syllables. One person in four shares a household
    (surname, address, phone) with the person before them, with another first name and
    birth date. The sheriff writes full names, one-line addresses and day-first dates;
    the school writes split ISO fields; either side may mistype or omit a value.
    Returns (rows, true pairs as frozensets of record ids).
    """
    import random

    rng = random.Random(seed)
    syllables = ["bra", "cor", "del", "fen", "gal", "hol", "ist", "jor", "kel", "lun",
                 "mar", "nor", "ost", "pel", "quin", "ros", "sel", "tam", "ulv", "ven"]

    def word(parts: int) -> str:
        return "".join(rng.choice(syllables) for _ in range(parts)).capitalize()

    def typo(text: str) -> str:
        i = rng.randrange(1, len(text))
        return text[:i] + text[i + 1:] if rng.random() < 0.5 else text[:i] + "e" + text[i:]

    people = []
    for i in range(n_people):
        person = {"first": word(2), "dob": (1950 + rng.randrange(60), rng.randrange(1, 13),
                                            rng.randrange(1, 29))}
        if people and i % 4 == 3:  # shares the previous person's household
            home = people[-1]
            person.update(last=home["last"], number=home["number"], street=home["street"],
                          phone=home["phone"])
        else:
            person.update(last=word(3), number=str(rng.randrange(1, 999)),
                          street=f"{word(2)} {rng.choice(['Road', 'Lane', 'Court'])}",
                          phone=f"541555{rng.randrange(10000):04d}")
        people.append(person)

    rows, truth = [], set()
    for i, p in enumerate(people):
        y, m, d = p["dob"]
        last_b = typo(p["last"]) if rng.random() < 0.2 else p["last"]
        rows.append({"record_id": f"sh-{i}", "agency": "sheriff",
                     "full_name": f"{p['last'].upper()}, {p['first']}",
                     "dob": f"{d:02d}/{m:02d}/{y}" if rng.random() > 0.1 else None,
                     "address": f"{p['number']} {p['street']}, Lakeview, OR 97630",
                     "phone": p["phone"] if rng.random() < 0.5 else None})
        rows.append({"record_id": f"sc-{i}", "agency": "school", "first_name": p["first"],
                     "last_name": last_b, "dob": f"{y}-{m:02d}-{d:02d}",
                     "street_number": p["number"],
                     "street": p["street"] if rng.random() > 0.15 else None,
                     "city": "Lakeview", "postcode": "97630", "state": "OR"})
        truth.add(frozenset((f"sh-{i}", f"sc-{i}")))
    return rows, truth

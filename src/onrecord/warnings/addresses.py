"""Address clean-up for person linkage.

One agency writes "1412 N Maple Ave Apt 4, Lakeview, OR 97630" in one field, another
splits it and spells "North Maple Avenue". Linkage compares street number, street,
city, postcode and state separately, so a one-line address is split with `usaddress`
(a CRF model shipped inside its wheel, nothing fetched), and common abbreviations are
spelled out the same way everywhere so they agree exactly.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

ADDRESS_FIELDS = ("street_number", "street", "city", "postcode", "state")

# Street parts that agencies abbreviate differently; spelled-out form is canonical.
STREET_WORDS = {
    "st": "street", "str": "street", "ave": "avenue", "av": "avenue",
    "rd": "road", "dr": "drive", "ln": "lane", "ct": "court", "pl": "place",
    "blvd": "boulevard", "hwy": "highway", "pkwy": "parkway", "cir": "circle",
    "ter": "terrace", "terr": "terrace", "cres": "crescent", "sq": "square",
    "n": "north", "s": "south", "e": "east", "w": "west",
    "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
}

# usaddress labels that make up the street line (without the number or the unit).
_STREET_LABELS = (
    "StreetNamePreModifier", "StreetNamePreDirectional", "StreetNamePreType",
    "StreetName", "StreetNamePostType", "StreetNamePostDirectional",
)


# Street types that end the plainest one-line addresses ("644 Juniper Way, Unit 1").
_STREET_TYPES = (
    "street", "st", "str", "avenue", "ave", "av", "road", "rd", "drive", "dr", "lane", "ln",
    "court", "ct", "place", "pl", "boulevard", "blvd", "terrace", "ter", "terr", "way",
    "circle", "cir", "parkway", "pkwy", "square", "sq", "crescent", "cres", "trail", "trl",
)
_PLAIN_ADDRESS = re.compile(
    r"(?P<number>\d+)\s+(?P<street>[A-Za-z]+(?:\s+[A-Za-z]+)*?\s+(?:"
    + "|".join(_STREET_TYPES)
    + r"))\.?(?:,?\s*(?:(?:apt|unit|suite|ste)\.?\s*|#\s*)[A-Za-z0-9-]+)?",
    re.IGNORECASE,
)


def parse_one_line(address: str) -> dict[str, str | None]:
    """Split a one-line address into the linkage fields; unknown parts are None.

    usaddress raises on text it cannot label consistently (e.g. two street numbers);
    then the whole line is kept as the street so nothing is lost or invented.
    """
    return dict(_parse_one_line(address.strip()))


@lru_cache(maxsize=100_000)
def _parse_one_line(address: str) -> dict[str, str | None]:
    # The plainest shape (number, street ending in a street type, maybe a unit, nothing
    # else) is split by a pattern, as usaddress splits it (tests/warnings/test_addresses.py):
    # usaddress takes a fifth of a millisecond a line, too slow for statewide files.
    plain = _PLAIN_ADDRESS.fullmatch(address)
    if plain:
        return {"street_number": plain["number"], "street": plain["street"],
                "city": None, "postcode": None, "state": None}
    import usaddress

    try:
        tagged, _kind = usaddress.tag(address)
    except usaddress.RepeatedLabelError:
        return {"street": address}
    street = " ".join(tagged[k] for k in _STREET_LABELS if k in tagged) or None
    return {
        "street_number": tagged.get("AddressNumber"),
        "street": street,
        "city": tagged.get("PlaceName"),
        "postcode": tagged.get("ZipCode"),
        "state": tagged.get("StateName"),
    }


def clean_address(parts: dict[str, Any]) -> dict[str, str | None]:
    """Lower-case, punctuation removed, street words spelled out."""
    return {
        "street_number": _token(parts.get("street_number")),
        "street": clean_street(parts.get("street")),
        "city": _words(parts.get("city")),
        "postcode": _token(parts.get("postcode")),
        "state": _words(parts.get("state")),
    }


def clean_street(value: Any) -> str | None:
    words = _words(value)
    if words is None:
        return None
    tokens = words.split()
    # A leading "st" is Saint ("St Kilda Road"), anywhere else it is Street.
    first = ["saint"] if tokens[0] == "st" and len(tokens) > 1 else []
    rest = tokens[len(first):]
    return " ".join(first + [STREET_WORDS.get(w, w) for w in rest])


def _words(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    text = re.sub(r"[^0-9a-z ]+", " ", str(value).lower())
    text = re.sub(r"\s+", " ", text).strip()
    return text or None


def _token(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    text = re.sub(r"[^0-9a-z]", "", str(value).lower())
    return text or None

"""The person record that linkage compares, and the clean-up that produces it.

Agencies describe the same person differently: one writes "SMITH, John A." in a single
field, another splits it; one writes dates day-first, another ISO; one gives the address
as one line. `prepare_persons` turns all of them into one table of lower-case, trimmed
fields, and reports every value it could not use instead of guessing. A value that cannot
be trusted is cleared (so it can never count as agreement); a row with no usable name is
dropped, because linking a nameless record on address or date alone joins strangers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Iterable, Mapping

import pandas as pd

from onrecord.warnings import addresses

# The schema the product links. Every column is a string or missing; `dob` is ISO.
PERSON_FIELDS: tuple[str, ...] = (
    "record_id",
    "agency",
    "first_name",
    "middle_name",
    "last_name",
    "dob",
    "street_number",
    "street",
    "city",
    "postcode",
    "state",
    "phone",
    "id_number",
)
NAME_FIELDS = ("first_name", "middle_name", "last_name")
ISO_DATE = "%Y-%m-%d"
# Nobody alive or on a recent record was born before this; earlier years are typos.
EARLIEST_BIRTH = date(1880, 1, 1)
MIN_PHONE_DIGITS = 7

ROW_DROPPED = "row dropped"
FIELD_CLEARED = "field cleared"
FIELD_MISSING = "field missing"


@dataclass(frozen=True)
class Reject:
    """One value (or whole row) that linkage will not use, and why."""

    record_id: str
    field: str
    value: str | None
    reason: str
    action: str  # ROW_DROPPED, FIELD_CLEARED or FIELD_MISSING

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def prepare_persons(
    rows: pd.DataFrame | Iterable[Mapping[str, Any]],
    date_formats: Mapping[str, str] | None = None,
    today: date | None = None,
) -> tuple[pd.DataFrame, list[Reject]]:
    """Clean person rows into the linkage schema; return (clean_table, rejects).

    `rows` may carry `full_name` instead of split names and `address` (one line)
    instead of split address fields. `date_formats` maps an agency code to the
    strptime format its exports use (e.g. {"county_sheriff": "%d/%m/%Y"}); ISO dates
    are accepted from every agency because they cannot be misread.
    """
    records = _as_records(rows)
    today = today or date.today()
    formats = dict(date_formats or {})
    clean: list[dict[str, Any]] = []
    rejects: list[Reject] = []
    for index, raw in enumerate(records):
        person, problems = _prepare_one(raw, index, formats, today)
        rejects.extend(problems)
        if person is not None:
            clean.append(person)
    return pd.DataFrame(clean, columns=list(PERSON_FIELDS)), rejects


def rejects_table(rejects: list[Reject]) -> pd.DataFrame:
    """The rejects as a table, for printing or saving beside the clean rows."""
    columns = ["record_id", "field", "value", "reason", "action"]
    return pd.DataFrame([r.as_dict() for r in rejects], columns=columns)


def _as_records(rows: pd.DataFrame | Iterable[Mapping[str, Any]]) -> list[dict]:
    if isinstance(rows, pd.DataFrame):
        # Column lists zipped into dicts: a tenth of the cost of to_dict on a million rows.
        columns = [str(c) for c in rows.columns]
        values = [rows[c].tolist() for c in rows.columns]
        return [dict(zip(columns, row)) for row in zip(*values)]
    return [dict(r) for r in rows]


def _prepare_one(
    raw: dict[str, Any], index: int, formats: dict[str, str], today: date
) -> tuple[dict[str, Any] | None, list[Reject]]:
    record_id = _text(raw.get("record_id")) or f"row {index + 1}"
    agency = _text(raw.get("agency")) or ""
    person: dict[str, Any] = {"record_id": record_id, "agency": agency}
    person.update(_names(raw))
    if not (person["first_name"] or person["last_name"]):
        value = _text(raw.get("full_name")) or _text(raw.get("last_name"))
        return None, [Reject(record_id, "name", value, "no usable name", ROW_DROPPED)]
    problems: list[Reject] = []
    person["dob"] = _dob(raw.get("dob"), agency, formats, today, record_id, problems)
    person.update(_address(raw))
    person["phone"] = _phone(raw.get("phone"), record_id, problems)
    person["id_number"] = _id_number(raw.get("id_number"))
    for field in ("first_name", "last_name"):
        if not person[field]:
            problems.append(Reject(record_id, field, None, "missing", FIELD_MISSING))
    return person, problems


def _text(value: Any) -> str | None:
    """A trimmed string, or None for missing values of any kind (None, NaN, '')."""
    if type(value) is str:  # nearly every value: no other checks needed
        return value.strip() or None
    if value is None or (isinstance(value, float) and value != value):
        return None
    if value is pd.NA or value is pd.NaT:
        return None
    text = str(value).strip()
    return text or None


def clean_name(value: Any) -> str | None:
    """Lower-case, accents and punctuation removed, spaces collapsed (see `_clean_name`)."""
    text = _text(value)
    return None if text is None else _clean_name(text)


@lru_cache(maxsize=200_000)
def _clean_name(text: str) -> str | None:
    """Lower-case, accents and punctuation removed, spaces collapsed.

    Apostrophes and dots vanish ("O'Brien" -> "obrien") so that agencies that drop
    them still agree; hyphens become spaces for the same reason.
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"['.`’]", "", text)
    text = re.sub(r"[^a-z ]+", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text or None


def _names(raw: dict[str, Any]) -> dict[str, str | None]:
    split = {f: clean_name(raw.get(f)) for f in NAME_FIELDS}
    full = _text(raw.get("full_name"))
    if full and not (split["first_name"] or split["last_name"]):
        split = parse_full_name(full)
    return split


def parse_full_name(full: str) -> dict[str, str | None]:
    """Split "SMITH, John A." or "Dr John A Smith Jr" with nameparser.

    Titles and suffixes are dropped: agencies disagree on them and they are not
    evidence of identity. Statewide files repeat the same written names many times
    and nameparser takes a third of a millisecond per name, so each distinct string
    is split once, and the plainest shapes without nameparser (see `_plain_name`).
    """
    return dict(_split_full_name(full))


@lru_cache(maxsize=200_000)
def _split_full_name(full: str) -> dict[str, str | None]:
    plain = _plain_name(full)
    if plain is not None:
        return plain
    from nameparser import HumanName

    name = HumanName(full)
    return {
        "first_name": clean_name(name.first),
        "middle_name": clean_name(name.middle),
        "last_name": clean_name(name.last),
    }


def _plain_name(full: str) -> dict[str, str | None] | None:
    """"LAST, First M." or "First M Last" with nothing nameparser would treat specially
    (a title, suffix, particle such as "van", or conjunction); None for anything else.
    On these shapes it splits exactly as nameparser does (tests/warnings/test_persons.py)."""
    head, comma, tail = full.partition(",")
    if comma:
        surname, given = head.split(), tail.split()
        if len(surname) != 1 or not 1 <= len(given) <= 2 or "," in tail:
            return None
        tokens = [given[0], given[1] if len(given) == 2 else "", surname[0]]
    else:
        words = full.split()
        if not 1 <= len(words) <= 3:
            return None
        tokens = [words[0], words[1] if len(words) == 3 else "", words[-1] if len(words) > 1 else ""]
    for token in filter(None, tokens):
        bare = token[:-1] if token.endswith(".") else token
        if not bare.isalpha() or (bare != token and len(bare) > 1) or bare.lower() in _special_words():
            return None
    first, middle, last = (clean_name(t) for t in tokens)
    return {"first_name": first, "middle_name": middle, "last_name": last}


@lru_cache(maxsize=1)
def _special_words() -> frozenset[str]:
    from nameparser.config import CONSTANTS

    groups = (CONSTANTS.titles, CONSTANTS.suffix_acronyms, CONSTANTS.suffix_not_acronyms,
              CONSTANTS.prefixes, CONSTANTS.conjunctions)
    return frozenset(str(w).lower().rstrip(".") for group in groups for w in group)


def _dob(
    value: Any,
    agency: str,
    formats: dict[str, str],
    today: date,
    record_id: str,
    problems: list[Reject],
) -> str | None:
    text = _text(value)
    if text is None:
        problems.append(Reject(record_id, "dob", None, "missing", FIELD_MISSING))
        return None
    declared = formats.get(agency)
    parsed = parse_date(text, declared)
    if parsed is not None and parsed > today and _two_digit_year(text, declared):
        parsed = _century_earlier(parsed)
    if parsed is None:
        reason = f"not a date in {_format_label(declared)}"
        problems.append(Reject(record_id, "dob", text, reason, FIELD_CLEARED))
        return None
    if not EARLIEST_BIRTH <= parsed <= today:
        reason = f"impossible date of birth (outside {EARLIEST_BIRTH} to {today})"
        problems.append(Reject(record_id, "dob", text, reason, FIELD_CLEARED))
        return None
    return parsed.isoformat()


@lru_cache(maxsize=500_000)  # every birth date of a century in a few formats
def parse_date(text: str, declared_format: str | None = None) -> date | None:
    """A calendar date from the agency's declared format, or ISO; else None.

    Only the declared format and ISO are tried: guessing between day-first and
    month-first would silently turn 03/04 into the wrong person.
    """
    for fmt in (declared_format, ISO_DATE):
        if not fmt:
            continue
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _two_digit_year(text: str, declared: str | None) -> bool:
    if not declared or "%y" not in declared:
        return False
    try:
        datetime.strptime(text, declared)
    except ValueError:  # it was read as ISO, with all four digits of its year
        return False
    return True


def _century_earlier(day: date) -> date:
    """A two-digit birth year read as the future ("05/17/62" -> 2062) is the last
    century's: nobody's birth date lies ahead. strptime's pivot (69) is for any date,
    not for birth dates."""
    try:
        return day.replace(year=day.year - 100)
    except ValueError:  # 29 February of a year whose century-earlier twin is not leap
        return day


def _format_label(declared: str | None) -> str:
    if declared:
        return f"the agency's declared format {declared!r} or ISO YYYY-MM-DD"
    return "ISO YYYY-MM-DD (the agency declares no other date format)"


def _address(raw: dict[str, Any]) -> dict[str, str | None]:
    one_line = _text(raw.get("address"))
    split = {f: _text(raw.get(f)) for f in addresses.ADDRESS_FIELDS}
    if one_line and not any(split.values()):
        return dict(_clean_one_line(one_line))  # the usual case: one field, nothing split
    has_split = split["street"] or split["street_number"]
    parts = addresses.parse_one_line(one_line) if one_line and not has_split else {}
    merged = {f: split[f] or parts.get(f) for f in addresses.ADDRESS_FIELDS}
    return addresses.clean_address(merged)


@lru_cache(maxsize=100_000)
def _clean_one_line(one_line: str) -> dict[str, str | None]:
    return addresses.clean_address(addresses.parse_one_line(one_line))


def _phone(value: Any, record_id: str, problems: list[Reject]) -> str | None:
    """Digits only; too few digits to identify a line is cleared and reported."""
    text = _text(value)
    if text is None:
        return None
    digits = re.sub(r"\D", "", text)
    if len(digits) < MIN_PHONE_DIGITS:
        reason = f"fewer than {MIN_PHONE_DIGITS} digits"
        problems.append(Reject(record_id, "phone", text, reason, FIELD_CLEARED))
        return None
    # A leading country code 1 on an 11-digit number is the same line as without it.
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return digits


def _id_number(value: Any) -> str | None:
    text = _text(value)
    if text is None:
        return None
    cleaned = re.sub(r"[^0-9a-z]", "", text.lower())
    return cleaned or None

"""Cleaning person rows: names, dates per agency format, addresses, rejects."""

from __future__ import annotations

from datetime import date

import pandas as pd

from onrecord.warnings.persons import (
    FIELD_CLEARED,
    FIELD_MISSING,
    PERSON_FIELDS,
    ROW_DROPPED,
    parse_date,
    prepare_persons,
    rejects_table,
)
from tests.warnings.people import AGENCY_ROWS, DATE_FORMATS

TODAY = date(2026, 6, 1)


def _prepare(rows, formats=None):
    return prepare_persons(rows, formats or {}, today=TODAY)


def _by_id(table: pd.DataFrame, record_id: str) -> dict:
    return table.set_index("record_id").loc[record_id].to_dict()


def test_full_name_in_one_field_is_split_and_lowercased():
    clean, _ = _prepare(AGENCY_ROWS, DATE_FORMATS)
    orla = _by_id(clean, "sheriff-101")
    assert (orla["first_name"], orla["middle_name"], orla["last_name"]) == ("orla", "j", "brennick")
    assert list(clean.columns) == list(PERSON_FIELDS)


def test_titles_suffixes_accents_and_apostrophes_are_dropped():
    rows = [{"record_id": "r1", "agency": "a", "full_name": "Dr. Séamus O'Tierney Jr.",
             "dob": "1985-02-17"}]
    clean, rejects = _prepare(rows)
    person = _by_id(clean, "r1")
    assert (person["first_name"], person["last_name"]) == ("seamus", "otierney")
    assert rejects == []


def test_agency_declared_day_first_format_is_parsed_through_it():
    clean, _ = _prepare(AGENCY_ROWS, DATE_FORMATS)
    assert _by_id(clean, "sheriff-101")["dob"] == "2001-03-14"
    assert _by_id(clean, "sheriff-102")["dob"] == "1968-11-02"  # 02/11 is 2 November


def test_same_day_first_text_from_an_agency_without_that_format_is_rejected():
    rows = [{"record_id": "x1", "agency": "school", "first_name": "Pell",
             "last_name": "Anstruther", "dob": "02/11/1968"}]
    clean, rejects = _prepare(rows, DATE_FORMATS)
    assert pd.isna(_by_id(clean, "x1")["dob"])
    assert [(r.record_id, r.field, r.value, r.action) for r in rejects] == [
        ("x1", "dob", "02/11/1968", FIELD_CLEARED)]
    assert "ISO" in rejects[0].reason


def test_impossible_dates_are_rejected_with_reason():
    rows = [
        {"record_id": "d1", "agency": "a", "first_name": "Ansel", "last_name": "Morrow", "dob": "2001-02-30"},
        {"record_id": "d2", "agency": "a", "first_name": "Ansel", "last_name": "Morrow", "dob": "2031-01-01"},
        {"record_id": "d3", "agency": "a", "first_name": "Ansel", "last_name": "Morrow", "dob": "1066-10-14"},
    ]
    clean, rejects = _prepare(rows)
    assert clean["dob"].isna().all()
    assert {r.record_id for r in rejects if r.field == "dob" and r.action == FIELD_CLEARED} == {"d1", "d2", "d3"}
    assert "impossible" in next(r.reason for r in rejects if r.record_id == "d2")


def test_row_without_a_usable_name_is_dropped_and_reported():
    clean, rejects = _prepare(AGENCY_ROWS, DATE_FORMATS)
    assert "tipline-41" not in set(clean["record_id"])
    dropped = [r for r in rejects if r.action == ROW_DROPPED]
    assert [(r.record_id, r.field, r.reason) for r in dropped] == [("tipline-41", "name", "no usable name")]


def test_missing_dob_is_reported_per_row_but_row_kept():
    rows = [{"record_id": "m1", "agency": "a", "first_name": "Ysolde", "last_name": "Farrant"}]
    clean, rejects = _prepare(rows)
    assert list(clean["record_id"]) == ["m1"]
    assert [(r.field, r.action) for r in rejects] == [("dob", FIELD_MISSING)]
    assert list(rejects_table(rejects).columns) == ["record_id", "field", "value", "reason", "action"]


def test_one_line_address_is_split_and_street_words_spelled_out():
    clean, _ = _prepare(AGENCY_ROWS, DATE_FORMATS)
    one_line = _by_id(clean, "sheriff-101")
    split = _by_id(clean, "school-7")
    for field in ("street_number", "street", "city", "postcode", "state"):
        assert one_line[field] == split[field], field
    assert one_line["street"] == "north maple avenue"


def test_phone_is_digits_and_too_short_phone_is_cleared():
    rows = [
        {"record_id": "p1", "agency": "a", "first_name": "Ivo", "last_name": "Penhallow", "dob": "1990-01-01",
         "phone": "+1 (541) 555-0142"},
        {"record_id": "p2", "agency": "a", "first_name": "Ivo", "last_name": "Penhallow", "dob": "1990-01-01",
         "phone": "555"},
    ]
    clean, rejects = _prepare(rows)
    assert _by_id(clean, "p1")["phone"] == "5415550142"
    assert pd.isna(_by_id(clean, "p2")["phone"])
    assert [(r.record_id, r.field) for r in rejects] == [("p2", "phone")]


def test_parse_date_never_guesses_between_formats():
    assert parse_date("03/04/2001", "%d/%m/%Y") == date(2001, 4, 3)
    assert parse_date("03/04/2001", "%m/%d/%Y") == date(2001, 3, 4)
    assert parse_date("03/04/2001") is None
    assert parse_date("2001-04-03", "%d/%m/%Y") == date(2001, 4, 3)


def test_dataframe_input_with_nan_is_accepted():
    frame = pd.DataFrame([{"record_id": "f1", "agency": "a", "first_name": "Corra",
                           "last_name": float("nan"), "dob": "1999-09-09"}])
    clean, rejects = _prepare(frame)
    assert _by_id(clean, "f1")["first_name"] == "corra"
    assert [(r.field, r.action) for r in rejects] == [("last_name", FIELD_MISSING)]


def test_two_digit_birth_year_in_the_future_is_last_century():
    rows = [
        {"record_id": "y1", "agency": "city", "first_name": "Ansel", "last_name": "Morrow", "dob": "05/17/62"},
        {"record_id": "y2", "agency": "city", "first_name": "Ansel", "last_name": "Morrow", "dob": "05/17/06"},
        # ISO from the same agency has its four digits: a future date stays impossible.
        {"record_id": "y3", "agency": "city", "first_name": "Ansel", "last_name": "Morrow", "dob": "2062-05-17"},
    ]
    clean, rejects = _prepare(rows, {"city": "%m/%d/%y"})
    assert _by_id(clean, "y1")["dob"] == "1962-05-17"
    assert _by_id(clean, "y2")["dob"] == "2006-05-17"
    assert pd.isna(_by_id(clean, "y3")["dob"])
    assert [(r.record_id, r.action) for r in rejects if r.field == "dob"] == [("y3", FIELD_CLEARED)]


def test_plain_names_split_as_nameparser_splits_them():
    """The fast path for plain names gives nameparser's answer; anything else goes to it."""
    import random

    from nameparser import HumanName

    from onrecord.scenario import invented_names
    from onrecord.warnings.persons import _plain_name, clean_name

    rng = random.Random(3)
    written = ["Dr John A Smith Jr", "Emily K Van Buren", "SMITH, John", "Mary-Jane O'Neil",
               "Timothy Y Novak", "Bo", "A B C D", "jameshendricks18", "de la Cruz, Ana"]
    for _ in range(400):
        first, middle, last, _sex = invented_names.pick_person_name(rng)
        last = rng.choice([last, invented_names.misspell(last, rng)])
        first = rng.choice([first, invented_names.nickname(first)])
        written += [f"{first} {last}", f"{last.upper()}, {first} {middle}.", f"{first} {middle} {last}",
                    f"{last.upper()}, {first}"]
    plain = 0
    for text in written:
        fast = _plain_name(text)
        if fast is None:
            continue
        plain += 1
        slow = HumanName(text)
        assert fast == {"first_name": clean_name(slow.first), "middle_name": clean_name(slow.middle),
                        "last_name": clean_name(slow.last)}, text
    assert plain > 1000  # the generated shapes take the fast path
    assert _plain_name("Dr John A Smith Jr") is None and _plain_name("Emily K Van Buren") is None

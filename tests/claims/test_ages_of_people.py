"""A person's age in the forms press articles write it (issue 15, round 11): appositions,
lists of victims, "N years of age", brackets, "who is N". Invented sentences, fictional people."""

import pytest

from onrecord.claims.extract import analyse


def _ages(text):
    return [(c.text, c.lo) for c in analyse({"a.txt": text}).claims if c.measure == "age"]


@pytest.mark.parametrize("text, ages", [
    ("The dead were identified as Jon Roe, 64, and Ann Roe, 61.", [("64", 64), ("61", 61)]),
    ("The victims were Lee Park, 22; Mia Fern, 35; and Tom Gale, 41.", [("22", 22), ("35", 35), ("41", 41)]),
    ("Jon Roe Jr., 64, was killed.", [("64", 64)]),
    ("The boy was 17 years of age.", [("17 years of age", 17)]),
    ("Jane Dorne (17) was arrested.", [("17", 17)]),
    ("Police named the suspect as Jane Dorne, 17.", [("17", 17)]),
    ("The victims, ages 14 and 15, were students.", [("14", 14), ("15", 15)]),
    ("Jane Dorne, who is 17, was arrested.", [("17", 17)]),
    ("The suspect, aged 19, was arrested at the scene.", [("19", 19)]),
    ("A 17-year-old gunman killed two people.", [("17-year-old", 17)]),
    ("Officers detained a 15-year-old sophomore.", [("15-year-old", 15)]),
])
def test_ages_of_people(text, ages):
    assert _ages(text) == ages


@pytest.mark.parametrize("text", [
    "In Dunmore, 12 people died.",
    "On Feb. 14, 17 people were killed.",
    "Officer Dale Kim, a 12-year veteran, was among the first inside.",
])
def test_numbers_that_are_no_age(text):
    assert _ages(text) == []


def test_an_age_after_a_name_is_never_a_toll():
    claims = analyse({"a.txt": "Jon Roe Jr., 64, was killed."}).claims
    assert [c.measure for c in claims] == ["age"]

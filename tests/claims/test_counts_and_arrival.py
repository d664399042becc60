"""Counts a second number or a verb of the attack used to steal, and shots after an arrival
told of officers (issue 15, round 10); invented sentences."""

import pytest

from onrecord.claims.extract import extract_claims


def _read(text):
    return [(c.text, c.measure, c.lo, c.qualifier) for c in extract_claims(text, "c.txt")
            if c.measure != "place_of_action"]


def test_the_attackers_count_no_victims_and_a_second_and_ends_the_coordinated_count():
    assert _read("The two gunmen killed 12 students and one teacher and wounded 21 others before killing "
                 "themselves.") == [("12 students", "count_deaths", 12.0, "students"),
                                    ("one teacher", "count_deaths", 1.0, "teacher"),
                                    ("21 others", "count_injured", 21.0, None)]


def test_a_count_takes_its_verb_past_an_including_aside():
    got = _read("21 people, including 19 children, were fatally shot.")
    assert ("21 people", "count_deaths", 21.0, None) in got


def test_a_number_word_of_an_age_still_modifies_the_count():
    assert _read("The gunman killed three 9-year-old children.")[0][1] == "count_deaths"


@pytest.mark.parametrize("text", [
    "By the time police arrived, the gunman had stopped firing.",
    "When officers reached the floor, the shooting had stopped.",
    "No shots were fired after officers arrived.",
    "The gunman fired no shots after police reached the 32nd floor.",
])
def test_no_shots_after_officers_arrived(text):
    [c] = [c for c in extract_claims(text, "s.txt") if c.measure == "shots_after_arrival"]
    assert (c.lo, c.hi, c.subject) == (0, 0, "group:officers")


def test_no_shots_with_no_arrival_named_is_no_claim():
    assert [c for c in extract_claims("The gunman had stopped firing.", "s.txt")
            if c.measure == "shots_after_arrival"] == []


def test_officers_who_joined_those_who_entered_entered():
    got = _read("The Linden officers entered the school soon after arriving and were joined by two newly-arrived "
                "Harlan County sheriff's deputies.")
    assert ("two newly-arrived Harlan County sheriff's deputies", "count_officers_entered", 2.0, None) in got

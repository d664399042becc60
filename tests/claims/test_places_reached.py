"""Places of action: being in a place and getting to one (issue 15, round 10); invented sentences."""

import pytest

from onrecord.claims.extract import analyse
from onrecord.claims.places import find_places


def _places(text):
    return [(c.value_text, c.subject) for c in analyse({"p.txt": text}).claims if c.measure == "place_of_action"]


@pytest.mark.parametrize("text, place", [
    ("Two officers reached the 32nd floor at 10:17 p.m.", "the 32nd floor"),
    ("Officers took up positions in the hallway outside the suite.", "in the hallway"),
    ("Deputies staged in the parking lot of the school.", "in the parking lot of the school"),
    ("Officer Dana Pike was in the stairwell when the shots stopped.", "in the stairwell"),
    ("Deputies remained in the cafeteria for 45 minutes.", "in the cafeteria"),
    ("The first officers went up the stairs to the 32nd floor.", "the 32nd floor"),
    ("Officer Dana Pike and her partner made their way to the second floor of the library.",
     "the second floor of the library"),
    ("The first two officers pull into the Marlow Elementary School parking lot.",
     "the Marlow Elementary School parking lot"),
])
def test_where_responders_were_or_got_to(text, place):
    [(value, subject)] = _places(text)
    assert value == place and subject is not None


@pytest.mark.parametrize("text", [
    "The suspect was in custody by noon.",
    "Officers were in the theater within a minute of the call.",
    "Two officers were in danger on the stairs.",
])
def test_no_place_of_action(text):
    assert [p.text for p in find_places(text) if p.text.startswith(("in the theater", "in custody", "in danger"))] == []

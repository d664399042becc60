"""How long the attack went on, in the forms press writes it (issue 15, round 10); invented sentences."""

import pytest

from onrecord.claims.extract import extract_claims
from onrecord.claims.numbers import find_quantities


def _durations(text):
    return [(c.text, c.measure, c.lo, c.hi, c.qualifier) for c in extract_claims(text, "d.txt")
            if c.measure.startswith("duration_")]


@pytest.mark.parametrize("text, words, lo, hi", [
    ("The gunman fired 1,100 rounds over 10 minutes.", "10 minutes", 10, 10),
    ("The gunman fired 1,100 rounds in the span of 10 minutes.", "10 minutes", 10, 10),
    ("The gunman's nine-minute barrage killed 58 people.", "nine-minute", 9, 9),
    ("During the 10-minute attack, the gunman fired from two windows.", "10-minute", 10, 10),
    ("Over the next nine minutes, the gunman fired into the crowd.", "nine minutes", 9, 9),
    ("For the next 10 minutes, the gunman fired into the crowd.", "10 minutes", 10, 10),
    ("The shooting was over in less than 10 minutes.", "less than 10 minutes", 0, 10),
    ("The killing was over within 16 minutes.", "within 16 minutes", 0, 16),
])
def test_how_long_the_gunman_fired(text, words, lo, hi):
    [(span, measure, got_lo, got_hi, qualifier)] = _durations(text)
    assert (span, measure, got_lo, got_hi, qualifier) == (words, "duration_of_incident", lo, hi, None)


def test_over_is_more_than_after_a_verb_of_lasting():
    [q] = find_quantities("The shooting lasted over 10 minutes.")
    assert (q.lo, q.hi, q.hedge) == (10, None, "over")


def test_a_hostage_situation_is_still_the_standoff():
    [(_, measure, _, _, qualifier)] = _durations("It ended a three-hour hostage situation.")
    assert (measure, qualifier) == ("duration_of_incident", "standoff")


def test_being_on_the_scene_for_a_time_before_going_in_is_a_wait_not_an_offset():
    [(span, measure, lo, _, _)] = _durations("Police were on the scene for 3 hours before they entered.")
    assert (span, measure, lo) == ("3 hours", "duration_waiting", 180)

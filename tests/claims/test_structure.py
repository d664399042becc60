"""Measures read from the structure of a sentence where the rules read none (invented
sentences; needs the `parse` extra)."""

import pytest

from onrecord.claims import grammar
from onrecord.claims.extract import analyse

pytestmark = pytest.mark.skipif(not grammar.available(), reason="the 'parse' extra (English pipeline) is not installed")


def _read(text, parse=True):
    return [(c.text, c.measure, c.lo, c.hi) for c in analyse({"s.txt": text}, parse=parse).claims]


def test_a_delay_told_with_its_start_after_it():
    text = "Halden officers were on hand within 90 seconds after the first alarms from the mall."
    assert _read(text, parse=False) == []  # the rules take "90 seconds after" for a time
    assert _read(text) == [("within 90 seconds", "duration_to_arrival", 0.0, 1.5)]
    text = "“Police responded in less than two minutes after this began,” Mayor Ada Brisk said."
    assert [(m, lo, hi) for _, m, lo, hi in _read(text)] == [("duration_to_arrival", 0.0, 2.0)]


def test_the_verb_decides_not_the_words_near_it():
    # "lost their lives": the verb "lose" with its object, however far from any cue word
    text = "Two Halden deputies lost their lives in the ambush."
    assert _read(text, parse=False) == []
    assert _read(text) == [("Two Halden deputies", "count_officers_killed", 2.0, 2.0)]


def test_a_number_on_no_verb_of_the_response_stays_out():
    assert _read("The mall has 90 stores and four entrances.") == []

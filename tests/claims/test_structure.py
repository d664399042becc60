"""Measures read from the structure of a sentence where the rules read none (invented
sentences; needs the `parse` extra)."""

import pytest

from onrecord.claims import grammar
from onrecord.claims.extract import analyse

pytestmark = pytest.mark.skipif(not grammar.available(), reason="the 'parse' extra (English pipeline) is not installed")


def _read(text, parse=True):
    return [(c.text, c.measure, c.lo, c.hi) for c in analyse({"s.txt": text}, parse=parse).claims]


def test_a_wait_told_by_the_verb_alone():
    # "held the perimeter for N minutes": no cue word of the rules; the verb and "for" decide
    text = "Two Halden deputies held the perimeter for 40 minutes."
    assert _read(text, parse=False) == []
    assert _read(text) == [("Two Halden deputies", "count_officers_waiting", 2.0, 2.0),
                           ("40 minutes", "duration_waiting", 40.0, 40.0)]


def test_the_verb_decides_not_the_words_near_it():
    # "lost their lives": the verb "lose" with its object, however far from any cue word
    text = "Two Halden deputies lost their lives in the ambush."
    assert _read(text, parse=False) == []
    assert _read(text) == [("Two Halden deputies", "count_officers_killed", 2.0, 2.0)]


def test_a_number_on_no_verb_of_the_response_stays_out():
    assert _read("The mall has 90 stores and four entrances.") == []

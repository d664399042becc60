"""Who says what as the dependency parse reads it (attribution.py; invented sentences).
Needs the `parse` extra; the rule path's answers for the same forms are in test_speakers.py."""

import pytest

from onrecord.claims import grammar
from onrecord.claims.named_entities import resolve_entities
from onrecord.claims.speakers import find_speakers
from onrecord.claims.text import read_document

needs_model = pytest.mark.skipif(not grammar.available(),
                                 reason="the 'parse' extra (English pipeline) is not installed")


def _who(text: str, words: str, parse: bool = True) -> str | None:
    doc = read_document("a.txt", text)
    res = resolve_entities([doc])
    voice, _ = find_speakers(doc, res, parse=parse).who_said(text.index(words))
    return voice.speaker


@needs_model
def test_the_subject_of_the_verb_speaks_across_a_bracketed_acronym_and_a_time():
    text = ("The Marlow County Sheriff's Office (MCSO) confirmed late Tuesday evening that "
            "five people were killed at the depot.")
    assert _who(text, "five people") == "org:marlow-county-sheriff-s-office"


@needs_model
def test_a_reporting_verb_in_a_relative_clause_says_only_its_clause():
    text = ("Police are studying the gunman, a 31-year-old former clerk named Orrin Vale who officials "
            "said planned the attack.")
    assert _who(text, "31-year-old").startswith("author:")
    assert _who(text, "planned").startswith("group:")


@needs_model
def test_a_trailing_reporting_clause_speaks_for_every_joined_clause_before_it():
    text = ("At least four people died and 12 were wounded at the fair, and deputies are searching for "
            "a driver, police said Monday.")
    assert _who(text, "four people") == "group:police"
    assert _who(text, "12 were") == "group:police"


@needs_model
def test_according_to_leaves_a_later_joined_clause_to_the_author():
    text = ("It was the ninth crash on the road this year in which someone was hurt, according to a "
            "county tally, and the worst since the March pileup left 14 dead.")
    assert _who(text, "someone was hurt") is None  # the tally: named, but no entity
    assert _who(text, "14 dead").startswith("author:")


@needs_model
def test_a_heading_before_the_name_does_not_take_the_speaker():
    text = ("- Dead and injured: Marlow County Sheriff's Office spokesman Tobin Reyes said that 9 people "
            "were hurt.")
    assert _who(text, "9 people") == "person:tobin-reyes"


@needs_model
def test_a_participle_of_saying_speaks_with_its_verb():
    text = ("Linden Police Chief Ray Okafor spoke on Friday.\n\n"
            "\"We were there within four minutes,\" Okafor said, adding that the first 911 call came at 11:30 a.m.")
    assert _who(text, "11:30") == "person:ray-okafor"

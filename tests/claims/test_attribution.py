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


# Reporting-clause shapes in general (issue 15, round 9): who a number hangs on through a
# reporting clause, read from the parse. Invented people and agencies; each form beside the
# same numbers with no reporting clause, which stay the author's.
OPENING = "Chief Odile Farrant of the Pell City Police Department spoke on Tuesday.\n\n"


def _at(sentence: str, words: str) -> str | None:
    return _who(OPENING + sentence, words)


@needs_model
@pytest.mark.parametrize("sentence,words", [
    # a trailing clause longer than a few words, with its own adjuncts
    ("It took officers four minutes to get inside, Farrant told the Pell Courier in an interview published "
     "Sunday about the response to the shooting at the fairground.", "four minutes"),
    # verbs of telling the rules do not list, with a clause or a gerund after them
    ("Farrant recounted that 14 officers were inside within four minutes.", "14 officers"),
    ("Farrant remembered reaching the door within four minutes.", "four minutes"),
    ("Asked how long it took, Farrant replied that it was about four minutes.", "four minutes"),
    ("Farrant conceded she stood outside for 48 minutes.", "48 minutes"),
    ("Farrant insists that 14 officers were inside within four minutes.", "14 officers"),
    # a pronoun subject of such a verb: the person it means
    ("She recounted that 14 officers were inside within four minutes.", "14 officers"),
    ("He estimates that 14 officers were inside within four minutes.", "14 officers"),
    # a subject taken from the verb the reporting verb completes
    ("She went on to explain that 14 officers were inside within four minutes.", "14 officers"),
    ("Farrant was quoted as saying 14 officers were inside within four minutes.", "14 officers"),
    # a source phrase: by her account, in her telling, per the chief
    ("By Farrant's account, 14 officers were inside within four minutes.", "14 officers"),
    ("In her telling, 14 officers were inside within four minutes.", "14 officers"),
    ("Per Farrant, 14 officers were inside within four minutes.", "14 officers"),
    # a set-in clause: the clause it interrupts, on both sides of it
    ("Officers were inside, Farrant said, within four minutes of the call.", "four minutes"),
    ("Fourteen officers, Farrant said in a long interview with the weekly paper, were inside.", "Fourteen"),
    # an account given before a colon
    ("Farrant gave this account: officers were inside within four minutes.", "four minutes"),
    ("Farrant laid out the sequence: officers were inside within four minutes and 14 went in.", "14 went"),
    # a relative clause between the name and the verb
    ("Farrant, whose department sent 14 officers, said they were inside within four minutes.", "four minutes"),
])
def test_a_number_hangs_on_the_speaker_of_its_reporting_clause(sentence, words):
    assert _at(sentence, words) == "person:odile-farrant"


@needs_model
@pytest.mark.parametrize("sentence,words", [
    ("Officers were inside within four minutes.", "four minutes"),
    # a verb of telling with an object only is an act, not an account
    ("Farrant answered 14 calls that night.", "14 calls"),
    ("Farrant relayed the order to 14 officers.", "14 officers"),
    # a plan, not an account, before a colon
    ("Farrant gave this order: 14 officers were to hold the door.", "14 officers"),
    # a reporting clause after a dash reports what follows it, not what comes before
    ("The gunman entered at 11:33 a.m. \u2014 Farrant recounted that officers came at 11:40 a.m.", "11:33"),
])
def test_no_reporting_clause_leaves_the_number_to_the_author(sentence, words):
    assert _at(sentence, words).startswith("author:")


def test_a_name_set_off_by_a_relative_clause_is_the_verbs_subject_without_the_parse():
    # the rule path: a name that only the reporting verb after its relative clause makes certain
    text = ("Mara Quell, who led the Tamsin County Sheriff's Office for 11 years before she retired in "
            "March, said deputies waited 41 minutes.")
    assert _who(text, "41 minutes", parse=False) == "person:mara-quell"


@needs_model
def test_by_default_the_parse_decides_speakers_where_it_is_installed():
    from onrecord.claims.extract import analyse

    text = OPENING + "Farrant recounted that 14 officers were inside within four minutes."
    by_default = {c.text: c.speaker for c in analyse({"a.txt": text}).claims}
    by_rules = {c.text: c.speaker for c in analyse({"a.txt": text}, parse_speakers=False).claims}
    assert "person:odile-farrant" in by_default.values()
    assert "person:odile-farrant" not in by_rules.values()


@needs_model
def test_a_passive_verb_of_naming_speaks_through_its_agent():
    text = ("The driver, identified by two county officials as Orrin Vale, 44, of Tamsin, was stopped about "
            "3 miles away.")
    assert _who(text, "44") is None  # the officials: unnamed, not the author
    assert _who(text, "3 miles").startswith("author:")
    text = "Officer Len Brisco was described by Chief Odile Farrant as the first of 14 officers at the door."
    assert _who(text, "14 officers") == "person:odile-farrant"

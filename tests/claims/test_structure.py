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


def test_the_parse_decides_an_amount_of_time_first():
    # with the parse, the structure decides a duration before the rules do (they agree here);
    # a count is still the rules' first
    from onrecord.claims import provenance

    text = "Four Halden officers arrived and remained outside for 11 minutes."
    by, read = {}, {}
    provenance.enable(True)
    try:
        for name, parse in (("rules", False), ("parse", True)):
            read[name] = analyse({"s.txt": text}, parse=parse)
            for c in read[name].claims:  # RULES is keyed by span: read it before the next run
                by[(name, c.measure)] = provenance.RULES[(c.doc, c.start, c.end, c.measure)][0]
    finally:
        provenance.enable(False)
    rules, parsed = read["rules"], read["parse"]
    assert by[("rules", "duration_outside")].startswith("measures.")
    assert by[("parse", "duration_outside")].startswith("structure.")
    assert [(c.text, c.measure) for c in rules.claims] == [(c.text, c.measure) for c in parsed.claims]


def _reading(sentence, word):
    from onrecord.claims.structure import structural_reading

    i = sentence.index(word)
    found = structural_reading(sentence, i, i + len(word), "")
    return found.measure if found else None


def test_a_span_named_by_a_noun_is_time_that_passed():
    # nominalisations: "a delay of N minutes", "the wait of N minutes" (the number taken by "of")
    assert _reading("A delay of 77 minutes passed before the Corvel unit moved in.", "77") == "duration_elapsed"
    assert _reading("The wait of 31 minutes ended when deputies moved in.", "31") == "duration_elapsed"


def test_officers_present_at_a_place_are_on_scene():
    assert _reading("Nearly 30 officers were at the Fenwick school by then.", "30") == "count_officers_on_scene"
    assert _reading("More than a dozen troopers were on the scene of the Varn plaza attack.",
                    "dozen") == "count_officers_on_scene"


def test_went_into_negated_is_officers_outside():
    # "went into" (a preposition, not a particle) is going in; "never" makes it staying out
    assert _reading("Twelve officers never went into the Pell library.", "Twelve") == "count_officers_outside"
    assert _reading("Five officers went into the Pell library.", "Five") == "count_officers_entered"


def test_an_unsettled_number_stays_unread():
    assert _reading("The entry came 40 minutes after the first call.", "40") is None


def test_time_that_went_by():
    assert _reading("Seventy minutes went by before the Kestrel team moved in.", "Seventy") == "duration_elapsed"

"""How long something lasted or took, decided from the sentence's structure (issue 15, round 11):
a span that opens its clause, verbs of lasting, a gunbattle, a standoff, "within N of <event>".
Invented sentences, fictional people and places."""

import pytest

from onrecord.claims.extract import analyse


def _spans(text):
    return [(c.measure, c.lo, c.hi, c.qualifier) for c in analyse({"a.txt": text}).claims
            if c.measure.startswith("duration")]


@pytest.mark.parametrize("text, want", [
    ("The shooting spanned six minutes.", [("duration_of_incident", 6, 6, None)]),
    ("The rampage went on for 11 minutes.", [("duration_of_incident", 11, 11, None)]),
    ("Over the course of 10 minutes, the gunman fired 100 rounds at the Penbury mall.",
     [("duration_of_incident", 10, 10, None)]),
    ("Within six minutes, the gunman had killed nine people.", [("duration_of_incident", 0, 6, None)]),
    ("In the six minutes that the gunman was inside, he fired 154 rounds.",
     [("duration_of_incident", 6, 6, "gunman inside")]),
    ("Officers and the gunman fought a 4-minute gunbattle in the hallway.",
     [("duration_of_incident", 4, 4, "gunbattle")]),
    ("The suspect barricaded himself for two hours.", [("duration_of_incident", 120, 120, "standoff")]),
    ("Deputies ended a standoff of 45 minutes.", [("duration_of_incident", 45, 45, "standoff")]),
    ("Officers stopped the gunman within 20 seconds of entering.", [("duration_elapsed", 0, 1 / 3, None)]),
    ("The suspect was dead within 10 minutes of the first shot.", [("duration_elapsed", 0, 10, None)]),
    ("Officers arrived within two minutes of the first call.", [("duration_to_arrival", 0, 2, None)]),
])
def test_spans_read_from_structure(text, want):
    got = [(m, pytest.approx(lo), pytest.approx(hi), q) for m, lo, hi, q in want]
    assert _spans(text) == got


@pytest.mark.parametrize("text", [
    "Within three minutes, officers shot the gunman.",  # the officers' shots: no span of the attack
    "Officer Dale Kim went on to serve 12 years.",
])
def test_no_span_of_the_attack(text):
    assert [m for m, *_ in _spans(text) if m == "duration_of_incident"] == []


def test_a_delay_from_a_gerund_keeps_its_anchor():
    [c] = [c for c in analyse({"a.txt": "Officers stopped the gunman within 20 seconds of entering."}).claims]
    assert c.time_ref["anchor"] == "entering"

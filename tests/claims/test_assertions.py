"""Claims without a number in the text: no shots after an arrival, orders given or denied,
a live camera view, counts limited to the shooting. Fictional sentences, worded several
ways (not one generator's phrasing)."""

import pytest

from onrecord.claims.assertions import camera_live, during_shots, first_minutes, no_more_shots, orders
from onrecord.claims.extract import extract_claims


def _claims(text, measure):
    return [c for c in extract_claims(text, "s.txt") if c.measure == measure]


@pytest.mark.parametrize("sentence", [
    "Once I was at the building I did not hear any more shots.",
    "When I got there the shooting had already stopped.",
    "By the time we arrived the gunfire had ceased.",
    "After I reached the door I heard no further gunfire.",
    "When Deputy Hale pulled up, no more shots were fired.",
])
def test_no_more_shots_after_an_arrival(sentence):
    found = no_more_shots(sentence)
    assert len(found) == 1 and (found[0].lo, found[0].hi) == (0, 0)
    assert found[0].anchor


@pytest.mark.parametrize("sentence", [
    "The shooting had stopped by the time the news crews came.",  # no one's arrival named
    "I did not hear any shots that morning.",
    "I heard shots from the second floor when I got there.",
])
def test_no_anchor_or_no_denial_is_no_claim(sentence):
    assert no_more_shots(sentence) == []


def test_the_arrival_is_the_speakers_when_they_say_i():
    text = ("Author: Deputy Rhea Lind\nAgency: Marlow County Sheriff\n\n"
            "When I got there the shooting had already stopped.")
    (c,) = _claims(text, "shots_after_arrival")
    assert c.subject == c.speaker == "person:rhea-lind"
    assert text[c.start:c.end] == "the shooting had already stopped"


@pytest.mark.parametrize("sentence,kind,lo,hi", [
    ("I never told anyone to stay away from the building.", "hold back", 0, 0),
    ("I never ordered anyone to hold back.", "hold back", 0, 0),
    ("I did not instruct the deputies to wait for SWAT.", "hold back", 0, 0),
    ("At no point did I tell deputies to stay outside.", "hold back", 0, 0),
    ("I never gave an order to hold back.", "hold back", 0, 0),
    ("I told them not to go in.", "hold back", 1, None),
    ("Sgt. Marsh told us to hold the perimeter.", "hold back", 1, None),
    ("I ordered units to go in.", "go in", 1, None),
])
def test_orders_given_and_denied(sentence, kind, lo, hi):
    (o,) = orders(sentence)
    assert (o.qualifier, o.lo, o.hi) == (kind, lo, hi)


@pytest.mark.parametrize("sentence", [
    "He told reporters he would hold a press conference.",
    "She told me to call my mother.",
    "I never told anyone about the call.",
])
def test_not_an_order_to_hold_or_go_in(sentence):
    assert orders(sentence) == []


def test_an_order_names_who_gave_it_and_is_not_speech():
    text = ("Author: Deputy Rhea Lind\nAgency: Marlow County Sheriff\n\n"
            "About ten minutes after I arrived, Sgt. Owen Marsh told us to hold the perimeter.")
    (c,) = _claims(text, "order_given")
    assert c.subject == "person:owen-marsh"
    assert c.speaker == "person:rhea-lind"  # "told us to" is an order he gave, not his words


@pytest.mark.parametrize("sentence,value", [
    ("The live camera feed showed the suspect on the third floor.", 1),
    ("Commanders watched the gunman live on the school's cameras.", 1),
    ("The video feed was not live; it was a replay.", 0),
    ("The cameras were live, but the footage was 20 minutes behind.", 0),
])
def test_camera_views_called_live_or_not(sentence, value):
    (s,) = camera_live(sentence)
    assert (s.lo, s.hi) == (value, value)


@pytest.mark.parametrize("sentence", [
    "Students live two blocks from the school.",
    "Police reviewed surveillance footage of the gunman, and the briefing was broadcast live on TV.",
])
def test_live_not_said_of_a_camera_view_is_no_claim(sentence):
    assert camera_live(sentence) == []


def test_counts_limited_to_the_shooting_group_apart():
    text = ("Only two deputies were on the campus while the gunman was still firing. "
            "Eleven deputies were on the campus by 3 p.m.")
    during, later = sorted(_claims(text, "count_officers_on_scene"), key=lambda c: c.start)
    assert during.time_ref == {"during": "shots"} and (during.lo, during.hi) == (2, 2)
    assert not (later.time_ref or {}).get("during")
    assert during_shots("Deputies waited outside for 11 minutes while shots were fired.")
    assert not during_shots("Deputies waited outside for 11 minutes.")


def test_only_one_is_a_count_but_the_only_one_is_not():
    assert [(c.lo, c.hi) for c in _claims("Only one deputy was on the campus.", "count_officers_on_scene")] \
        == [(1, 1)]
    assert _claims("He was the only one deputy on the campus.", "count_officers_on_scene") == []


def test_calls_in_a_window():
    (c,) = _claims("Dispatchers fielded 22 calls to 911 in the first ten minutes.", "count_calls_911")
    assert c.time_ref == {"within_first_min": 10}
    assert first_minutes("in the first two hours") == 120


def test_shots_heard_are_the_hearers():
    text = "Author: Deputy Rhea Lind\nAgency: Marlow County Sheriff\n\nI heard maybe two or three shots."
    (c,) = _claims(text, "count_shots_heard")
    assert (c.subject, c.lo, c.hi) == ("person:rhea-lind", 2, 3)
    assert _claims("The gunman fired 140 shots.", "count_shots_heard") == []


def test_who_denies_an_order_is_named_before_the_verb():
    text = ("Author: Deputy Rhea Lind\nAgency: Marlow County Sheriff\n\n"
            "At no point did I tell deputies to stay outside. Sgt. Owen Marsh was there. "
            "He never ordered anyone to go in.")
    mine, his = sorted(_claims(text, "order_given"), key=lambda c: c.start)
    assert (mine.subject, mine.hi) == ("person:rhea-lind", 0)
    assert (his.subject, his.qualifier, his.hi) == ("person:owen-marsh", "go in", 0)


def test_orders_with_no_giver_named():
    from onrecord.claims.assertions import unattributed_orders

    [denied] = unattributed_orders("No one told deputies to stage outside, Deputy Tom Vey said.")
    assert (denied.measure, denied.lo, denied.hi, denied.qualifier, denied.who_start) == (
        "order_given", 0, 0, "hold back", None)
    [given] = unattributed_orders("Officers were told to stand down.")
    assert (given.lo, given.hi, given.qualifier) == (1, None, "hold back")
    assert unattributed_orders("Officers were told about the threat.") == []


def test_an_order_denied_by_no_one_against_one_given():
    from onrecord.claims.extract import analyse

    a = "Halden Police Chief Ada Brisk said Deputy Tom Vey radioed deputies to stay 500 feet away from Penbury High."
    b = "No one told deputies to stay away from Penbury High, Deputy Tom Vey said."
    got = analyse({"a.txt": a, "b.txt": b}, one_incident=True)
    [c] = [c for c in got.conflicts if c.measure == "order_given"]
    assert sorted((s["lo"], s["hi"]) for s in c.sides) == [(0, 0), (1, None)]

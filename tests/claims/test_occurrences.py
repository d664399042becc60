"""When two claims are compared (occurrences.py): invented accounts only."""

from onrecord.claims.conflicts import find_conflicts
from onrecord.claims.extract import analyse
from onrecord.claims.occurrences import comparison_interval, occurrence, other_year_event
from onrecord.model import Claim


def _time(cid, sentence, number, lo, event="call_911", doc="a.txt", speaker="author:a.txt", subject="incident"):
    start = sentence.index(number)
    return Claim(id=cid, doc=doc, start=start, end=start + len(number), text=number, sentence=sentence,
                 sentence_start=0, speaker=speaker, speaker_text=speaker, subject=subject, subject_text=None,
                 measure="time_of_action", lo=lo, hi=lo, unit="minute_of_day", hedge=None,
                 time_ref={"clock": number, "event": event})


def _deaths(cid, sentence, number, lo, hi, doc):
    start = sentence.index(number)
    return Claim(id=cid, doc=doc, start=start, end=start + len(number), text=number, sentence=sentence,
                 sentence_start=0, speaker=f"author:{doc}", speaker_text=None, subject="incident",
                 subject_text=None, measure="count_deaths", lo=lo, hi=hi, unit="people", hedge=None)


def test_a_first_call_against_a_later_call_is_no_conflict():
    first = _time("a#c1", "The first call about the fire at Orrin Quay came in at 7:05 p.m.", "7:05 p.m.", 1145)
    later = _time("b#c1", "Finally, at 9:40 p.m., a call placed the driver on Fenn Road.", "9:40 p.m.", 1300,
                  doc="b.txt", speaker="author:b.txt")
    assert occurrence(first) == "first" and occurrence(later) == "later"
    assert comparison_interval(later) is None
    assert find_conflicts([first, later]) == []


def test_some_call_only_bounds_the_first_one():
    first = _time("a#c1", "The first call came in at 7:05 p.m., the dispatcher said.", "7:05 p.m.", 1145)
    some = _time("b#c2", "Dispatchers took a call at 7:40 p.m. from a caller on Fenn Road.", "7:40 p.m.", 1180,
                 doc="b.txt")
    other = _time("b#c1", "Dispatchers took a call at 6:50 p.m. from a caller on Fenn Road.", "6:50 p.m.", 1130,
                  doc="b.txt")
    assert occurrence(some) == "unmarked" and comparison_interval(some) == (None, 1180)
    # b.txt's earliest call is its account of the first one: 6:50 against 7:05 is a conflict,
    # its later 7:40 call is just some call after the first
    [conflict] = find_conflicts([first, some, other])
    assert {s["claim"] for s in conflict.sides} == {"a#c1", "b#c1"}


def test_one_account_two_arrivals_are_two_officers():
    a = _time("a#c1", "Officers reached the depot at 4:10 p.m.", "4:10 p.m.", 970, event="arrival",
              subject="group:officers")
    b = _time("a#c2", "Officers reached the depot at 4:14 p.m.", "4:14 p.m.", 974, event="arrival",
              subject="group:officers")
    assert find_conflicts([a, b]) == []


def test_two_named_voices_in_one_article_can_disagree():
    a = _time("a#c1", "The first call was at 3:12 p.m., Chief Pell said.", "3:12 p.m.", 912, speaker="person:pell")
    b = _time("a#c2", "The first call came at 2:30 p.m., spokesman Ruiz said.", "2:30 p.m.", 870,
              speaker="person:ruiz")
    assert len(find_conflicts([a, b])) == 1


def test_the_mark_belongs_to_its_own_clause():
    c = _time("a#c1", "The blast was reported at 5:01 p.m. and crews arrived at 5:09 p.m.", "5:09 p.m.", 1029,
              event="arrival")
    assert occurrence(c) == "unmarked"


def test_a_toll_counting_the_attacker():
    a = _deaths("a#c1", "Five dead, including the gunman, at the Vell Street depot", "Five dead", 5, 5, "a.txt")
    b = _deaths("b#c1", "Four people were killed at the Vell Street depot.", "Four people", 4, 4, "b.txt")
    assert comparison_interval(a) == (4, 5)
    assert find_conflicts([a, b]) == []
    c = _deaths("c#c1", "Two people were killed at the Vell Street depot.", "Two people", 2, 2, "c.txt")
    assert len(find_conflicts([a, c])) == 1
    beside = _deaths("d#c1", "Four people and the gunman died at the depot.", "Four people", 4, 4, "d.txt")
    assert comparison_interval(beside) == (4, 5)
    assert find_conflicts([beside, a]) == []


def test_dozens_is_no_exact_count():
    a = _deaths("a#c1", "Dozens of people died in the hall.", "Dozens of people", 24, None, "a.txt")
    b = _deaths("b#c1", "Sixteen people died in the hall.", "Sixteen people", 16, 16, "b.txt")
    assert find_conflicts([a, b]) == []


def test_another_incident_named_by_its_year():
    a = _deaths("a#c1", "Town still mourns the deaths of 40 people in a 2009 mass shooting nearby.", "40 people",
                40, 40, "a.txt")
    b = _deaths("b#c1", "Three people were killed at the Vell Street depot on Monday.", "Three people", 3, 3,
                "b.txt")
    assert other_year_event(a, set())
    assert not other_year_event(a, {"2009"})
    assert find_conflicts([a, b]) == []


def test_headline_words_do_not_join_two_incidents():
    a = ("Mass Shooting At Orrin Quay Leaves Three Wounded. Harlow police said the gunman fled the quay. "
         "Officer Tam Brisco said the scene was secured.")
    # b names a's town police in passing; with the headline's words that was two shared names
    b = ("Mass Shooting In Vell Leaves Two Wounded. Kestrel County deputies said the attacker was held. "
         "Deputy Ana Quell said shots were fired at a depot, and Harlow police sent help.")
    got = analyse({"a.txt": a, "b.txt": b})
    assert len(got.incidents) == 2


def test_going_in_before_arriving():
    from onrecord.claims.same_fact import cross_measure_conflicts

    entry = _time("a#c1", "By 3:20 p.m. the first Harlow officers had gone into the depot.", "3:20 p.m.", 920,
                  event="entry", subject="org:harlow-police")
    arrival = _time("b#c1", "Harlow police arrived at 3:31 p.m., the chief said.", "3:31 p.m.", 931,
                    event="arrival", subject="org:harlow-police", doc="b.txt", speaker="person:chief")
    [c] = cross_measure_conflicts([entry, arrival], {}, lambda x: {"claim": x.id})
    assert [s["claim"] for s in c.sides] == ["a#c1", "b#c1"]
    later = _time("b#c1", "Harlow police arrived at 3:11 p.m., the chief said.", "3:11 p.m.", 911,
                  event="arrival", subject="org:harlow-police", doc="b.txt", speaker="person:chief")
    assert cross_measure_conflicts([entry, later], {}, lambda x: {"claim": x.id}) == []

"""Times of day as timeline entry heads (issue 15, round 11): a glued p.m. ends no sentence
at its dot, a time alone heads the entry after it. Invented sentences, fictional people and
agencies. (Round 11's reading of a time followed by a colon, "10:12pm: ...", was taken back:
on the held-out articles it read 17 times twelve hours off where it had read none. Round 12
reads a time before a colon only when its own text says its half of the day, or, bare, when
the entries on both sides of it in one run state one half and it falls between them.)"""

import pytest

from onrecord.claims.extract import analyse
from onrecord.claims.text import read_document
from onrecord.claims.times_in_text import clock_times


@pytest.mark.parametrize("text", ["Chapter 10: the response", "The vote was 10:12:3 in favour."])
def test_a_colon_makes_no_time_of_a_number(text):
    assert [t.lo for t in clock_times(text)] in ([], [None])


def test_a_glued_pm_ends_no_sentence_at_its_dot_unless_a_sentence_follows():
    one = read_document("a", "10:22p.m.: Officers arrived at the rear door.")
    assert len(one.sentences) == 1
    two = read_document("b", "Officers arrived at 10:12p.m. They entered at once.")
    assert [s.text for s in two.sentences] == ["Officers arrived at 10:12p.m.", "They entered at once."]


TIMELINE = """Author: Pat Reyes
Outlet: The Dunmore Ledger

The first call came at 10:09 p.m., according to the Dunmore Police Department.

10:12pm: Officers arrived at the front door.

10:15p.m.: Officers entered the building.

10:17: Officers set up a command post.

10:21PM: The suspect was taken into custody.
"""


@pytest.mark.parametrize("head", ["10:16 PM.", "10:16pm.", "10:16 P.M.", "10:16pm -", "10:16pm —",
                                  "10:16pm"])
def test_a_time_alone_before_its_entry_heads_the_entry(head):
    [t] = [c for c in analyse({"t.txt": f"The call came at 10:09 p.m.\n\n{head} Officers breached the office."}).claims
           if c.measure == "time_of_action" and c.lo == 1336]
    assert t.qualifier == "breached" and t.time_ref["event"] == "entry"


def test_a_sentence_that_ends_with_a_time_still_ends():
    doc = read_document("c", "It ended at 10:16 PM. Officers left.")
    assert len(doc.sentences) == 2


def test_a_time_with_its_own_half_before_a_colon_heads_its_entry():
    got = [(c.text, c.lo, c.qualifier) for c in analyse({"t.txt": TIMELINE}).claims
           if c.measure == "time_of_action"]
    assert ("10:12pm", 1332.0, "arrived") in got and ("10:15p.m.", 1335.0, "entered") in got
    assert ("10:21PM", 1341.0, "taken") in got


def test_a_bare_head_between_two_heads_of_one_half_takes_that_half():
    # "10:17:" sits between 10:15 p.m. and 10:21 p.m. in one run of entries
    [t] = [c for c in analyse({"t.txt": TIMELINE}).claims if c.text == "10:17"]
    assert (t.lo, t.hi, t.measure, t.qualifier) == (1337.0, 1337.0, "time_of_action", "set")


@pytest.mark.parametrize("timeline", [
    # the two sides say different halves (midnight between them): unsure, left unread
    "11:58 p.m.: The first call comes in.\n\n12:01: Officers arrive.\n\n12:09 a.m.: Officers enter the club.",
    # only one side states a half
    "The call came at 10:09 p.m.\n\n10:12pm: Officers arrive.\n\n10:17: Officers set up a command post.",
    # a paragraph that is no entry breaks the run
    "10:12pm: Officers arrive.\n\nThe chief spoke later.\n\n10:17: Officers set up a post.\n\n10:21PM: Arrest.",
    # out of the sequence: no time of that half between its neighbours
    "10:12pm: Officers arrive.\n\n9:17: Officers set up a command post.\n\n10:21PM: The suspect is arrested.",
])
def test_a_bare_head_the_sequence_does_not_settle_is_left_unread(timeline):
    assert not [c for c in analyse({"t.txt": timeline}).claims
                if c.measure == "time_of_action" and c.text in {"12:01", "10:17", "9:17"}]

"""One-word times of day as timeline entry heads (issue 15, round 11): glued a.m./p.m.
("10:12pm", "10:12PM", "10:12p.m."), a bare h:mm, and a colon after the time. Invented
sentences, fictional people and agencies."""

import pytest

from onrecord.claims.extract import analyse
from onrecord.claims.text import read_document
from onrecord.claims.times_in_text import clock_times


@pytest.mark.parametrize("text, minute", [
    ("10:12pm: Officers arrived at the door.", 22 * 60 + 12),
    ("10:12PM: Officers arrived at the door.", 22 * 60 + 12),
    ("10:12p.m.: Officers arrived at the door.", 22 * 60 + 12),
    ("10:12 p.m.: Officers arrived at the door.", 22 * 60 + 12),
    ("Deputies arrived at 9:59pm, the sheriff said.", 21 * 60 + 59),
    ("Deputies entered the store (10:12pm) and found him.", 22 * 60 + 12),
    ("10:17: Officers set up a command post.", 10 * 60 + 17),
    ("9:35:52: Officers arrived.", 9 * 60 + 35 + 52 / 60),
])
def test_a_colon_or_punctuation_after_a_one_word_time_keeps_the_time(text, minute):
    [t] = clock_times(text)
    assert t.lo == pytest.approx(minute) and t.hi == pytest.approx(minute)


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


def test_each_timeline_head_is_bound_to_its_entry_verb():
    times = {c.text.rstrip("."): c for c in analyse({"t.txt": TIMELINE}).claims if c.measure == "time_of_action"}
    assert {k: (v.lo, (v.time_ref or {}).get("event")) for k, v in times.items() if k != "10:09 p.m"} == {
        "10:12pm": (1332, "arrival"), "10:15p.m": (1335, "entry"), "10:17": (1337, None),
        "10:21PM": (1341, "custody"),
    }
    assert times["10:12pm"].qualifier == "arrived" and times["10:17"].qualifier == "set"
    # a bare h:mm takes the half of the day of the times around it
    assert times["10:17"].lo == 22 * 60 + 17


@pytest.mark.parametrize("head", ["10:16 PM.", "10:16pm.", "10:16 P.M.", "10:16pm -", "10:16pm —", "10:16 pm:",
                                  "10:16pm"])
def test_a_time_alone_before_its_entry_heads_the_entry(head):
    [t] = [c for c in analyse({"t.txt": f"The call came at 10:09 p.m.\n\n{head} Officers breached the office."}).claims
           if c.measure == "time_of_action" and c.lo == 1336]
    assert t.qualifier == "breached" and t.time_ref["event"] == "entry"


def test_a_sentence_that_ends_with_a_time_still_ends():
    doc = read_document("c", "It ended at 10:16 PM. Officers left.")
    assert len(doc.sentences) == 2

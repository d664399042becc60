"""Times of day as timeline entry heads (issue 15, round 11): a glued p.m. ends no sentence
at its dot, a time alone heads the entry after it. Invented sentences, fictional people and
agencies. (Round 11's reading of a time followed by a colon, "10:12pm: ...", was taken back:
on the held-out articles it read 17 times twelve hours off where it had read none.)"""

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

"""One fact told as different measures (same_fact.py), on invented accounts."""

from onrecord.claims.extract import analyse

TIMELINE = ("Details from a report issued Monday by State's Attorney Ilse Marrow of Penbury County:\n\n"
            "9:35:39 a.m. — Initial 911 call reporting shots fired at Thistlewood School.\n\n"
            "9:39:00 — Officer Oren Vale arrives behind the school.\n")
ARTICLE = ("Penbury County officers arrived at Thistlewood School within two minutes of the initial call, "
           "State's Attorney Ilse Marrow said.")


def test_a_delay_against_the_first_clock_time_of_the_moment():
    a = analyse({"timeline.txt": TIMELINE, "article.txt": ARTICLE})
    crossed = [c for c in a.conflicts if "puts the arrival" in c.reason]
    assert len(crossed) == 1
    sides = {s["doc"]: s["text"] for s in crossed[0].sides}
    assert sides == {"article.txt": "within two minutes", "timeline.txt": "9:39:00"}
    assert "09:35" in crossed[0].reason  # the call's time, from a third claim


def test_the_timeline_is_the_reports_entry_by_entry():
    a = analyse({"timeline.txt": TIMELINE})
    times = [c for c in a.claims if c.measure == "time_of_action"]
    assert {c.speaker for c in times} == {"person:ilse-marrow"}
    assert [(c.lo, c.time_ref["event"]) for c in times] == [(575.65, "call_911"), (579.0, "arrival")]


def test_a_part_larger_than_its_whole():
    a = analyse({"a.txt": "Four Penbury County Sheriff's deputies stayed outside the Thistlewood School, sources said.",
                 "b.txt": "Sheriff Ilse Marrow said only one Penbury County Sheriff's deputy was on the scene "
                          "at Thistlewood School."})
    [c] = [c for c in a.conflicts if c.measure == "count_officers_outside"]
    assert "more than the 1" in c.reason


def test_shots_after_the_stated_end():
    a = analyse({"a.txt": "Chief Oren Vale of the Penbury Police Department said the gunman stopped shooting at "
                          "2:18 a.m. "
                          "at the Thistlewood club.",
                 "b.txt": "At the Thistlewood club in Penbury, survivors said gunfire started again at 2:28 a.m., "
                          "Chief Oren Vale conceded."})
    assert any("shots after it" in c.reason for c in a.conflicts)

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


def test_a_delay_that_names_no_start_conflicts_only_if_no_timed_start_fits():
    from onrecord.claims.extract import analyse

    clocks = ("The first 911 call came at 9:41 a.m. The first deputy arrived at 9:58 a.m., Sheriff Dana "
              "Whitlock said. Officers entered the building at 10:40 a.m.")
    told = "Deputies arrived within four minutes, the Marlow Ledger reported. It took officers 50 minutes to enter."
    got = analyse({"a.txt": clocks, "b.txt": told}, one_incident=True)
    texts = sorted(s["text"] for c in got.conflicts for s in c.sides if s["doc"] == "b.txt")
    # 9:41 + [0, 4] cannot reach 9:58; 50 minutes to go in gives 10:31 from the call and 10:48 from
    # the arrival, neither 10:40
    assert texts == ["50 minutes", "within four minutes"]
    fits = "It took officers 42 minutes to enter."  # 9:58 + 42 = 10:40: fits from the arrival
    got = analyse({"a.txt": clocks, "b.txt": fits}, one_incident=True)
    assert not [c for c in got.conflicts if any(s["doc"] == "b.txt" for s in c.sides)]


def test_two_speakers_of_one_article_tell_one_arrival_as_a_delay_and_an_offset():
    from onrecord.claims.extract import analyse

    text = ("Police Chief Martin Oyelaran of the Harlow Police Department spoke on Wednesday. On Friday, "
            "Colonel Ruth Abernathy of the Oregon State Police gave a new timeline.\n\n"
            "Oyelaran had said the first officers arrived within two minutes of the first call. Abernathy said "
            "the first officers arrived about eight minutes after the first call.")
    a = analyse({"h.txt": text})
    [c] = [c for c in a.conflicts if c.measure == "duration_to_arrival"]
    assert {s["speaker"] for s in c.sides} == {"person:martin-oyelaran", "person:ruth-abernathy"}
    assert "first call" in c.reason
    # one speaker's single account is no disagreement with itself
    one = analyse({"o.txt": "Chief Martin Oyelaran said the first officers arrived within two minutes of the call "
                            "and were in the building about eight minutes after the call."})
    assert not [c for c in one.conflicts if c.measure == "duration_to_arrival"]

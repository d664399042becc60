"""Times of day in the forms US press and official reports write them (issue 15, round 10):
invented sentences, fictional places."""

import pytest

from onrecord.claims.extract import analyse
from onrecord.claims.times_in_text import clock_times


@pytest.mark.parametrize("text, minute", [
    ("The first call came at 10:06 p.m. Sunday.", 22 * 60 + 6),
    ("at 10:06 PM the shooting began", 22 * 60 + 6),
    ("at 10.06pm officers arrived", 22 * 60 + 6),
    ("Officers arrived at 2215 hours.", 22 * 60 + 15),
    ("Officers arrived at 22:15.", 22 * 60 + 15),
    ("Officers arrived at 10 p.m.", 22 * 60),
    ("at 12:04:36 p.m. the gunman", 12 * 60 + 4 + 36 / 60),
    ("at 10:06 p.m. PT officers", 22 * 60 + 6),
    ("10:05 p.m. \u2014 First 911 call", 22 * 60 + 5),
    ("(10:05 p.m.) First call", 22 * 60 + 5),
])
def test_written_forms_of_a_time_of_day(text, minute):
    [t] = clock_times(text)
    assert t.lo == pytest.approx(minute) and t.hi == pytest.approx(minute)


@pytest.mark.parametrize("text, lo, hi", [
    ("at 10 that night", 1320, 1320),
    ("at 1 that night", 60, 60),
    ("around 11 in the morning", 655, 665),
    ("at 9 Sunday night", 1260, 1260),
    ("about 7 o'clock that evening", 1135, 1145),
    ("By 11 that morning", None, 660),
])
def test_a_bare_hour_with_a_part_of_the_day_is_a_time(text, lo, hi):
    [t] = clock_times(text)
    assert (t.lo, t.hi) == (lo, hi)


@pytest.mark.parametrize("text", ["shortly after 10 minutes", "the toll stood at 10.", "killed 10 that night",
                                  "about 10, police said"])
def test_a_bare_hour_without_the_words_of_a_time_is_a_number(text):
    assert clock_times(text) == []


def _times(text):
    return [c for c in analyse({"t.txt": text}).claims if c.measure == "time_of_action"]


def test_a_bare_hour_after_a_time_only_hedge_takes_the_half_of_the_day_of_the_piece():
    [first, bare] = _times("The first shots came at 9:58 p.m. Shortly after 10, officers arrived at the hotel.")
    assert (bare.text, bare.lo, bare.hi) == ("Shortly after 10", 1320, 1335)


def test_a_bare_hour_in_a_piece_that_never_says_am_or_pm_is_no_claim():
    assert _times("Shortly after 10, officers arrived at the hotel.") == []


def test_night_runs_across_midnight():
    [late] = _times("Deputies reached the gate at 10:15 Sunday night.")
    [early] = _times("Deputies reached the gate at 1:20 that night.")
    assert late.lo == 22 * 60 + 15 and early.lo == 80


def test_a_timeline_entry_after_a_colon_hangs_on_its_verb():
    text = ("Here is the timeline:\n\n- 10:05 p.m.: The gunman opens fire.\n\n"
            "- 10:12 p.m.: Officers arrive at the hotel.")
    opens, arrive = _times(text)
    assert (opens.qualifier, opens.time_ref["event"]) == ("opens", "shooting_start")
    assert (arrive.qualifier, arrive.time_ref["event"]) == ("arrive", "arrival")


@pytest.mark.parametrize("text, lo, hi", [
    ("Officers arrived at 2205, the log shows.", 1325, 1325),
    ("The first unit cleared at about 0440 GMT Monday.", 275, 285),
    ("at 2015 GMT", 1215, 1215),
    ("at a quarter past 10 p.m.", 1335, 1335),
    ("at half past 11 a.m.", 690, 690),
])
def test_report_clock_times_without_hours_and_quarter_hours(text, lo, hi):
    [t] = clock_times(text)
    assert (t.lo, t.hi) == (lo, hi)


@pytest.mark.parametrize("text", ["by 2015, the program ended", "about 1122 officers responded", "In 2015 officers"])
def test_four_digits_that_are_a_year_or_a_count_are_no_time(text):
    assert clock_times(text) == []


def test_n_minutes_in_is_an_offset_from_what_just_began():
    [c] = _times("The gunman opened fire at 10:05 p.m. Nine minutes in, officers entered the hall.")[1:]
    assert (c.text, c.lo, c.time_ref["relation"], c.qualifier) == ("Nine minutes in", 9, "after", "entered")


@pytest.mark.parametrize("text, bare, minute", [
    # the nearest written half is p.m. (12:21 p.m.), but 11:35 p.m. would be eleven hours from it
    ("At 11:33 a.m. the gunman walks into the Tarrow Mall. Deputies arrived at 11:35.\n"
     "12:21 p.m.: Officers enter the store.", "11:35", 11 * 60 + 35),
    ("Officers arrived at 11:58.\n12:04 p.m.: The gunman is in custody.", "11:58", 11 * 60 + 58),
    # after noon, the written p.m. time is nearer as the evening reading
    ("The shooting began at 10:05 p.m. and deputies entered at 11:20.", "11:20", 23 * 60 + 20),
    # "exactly 12:39" beside "12:45 a.m." is just after midnight
    ("Deputies were told at exactly 12:39. At 12:45 a.m. the door was breached.", "12:39", 39),
])
def test_a_bare_time_takes_the_half_of_the_day_nearer_on_the_clock_to_the_written_time(text, bare, minute):
    [c] = [c for c in analyse({"t.txt": text}).claims if c.text.endswith(bare)]
    assert c.lo == c.hi == minute

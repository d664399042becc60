from onrecord.claims.times_in_text import calendar_dates, clock_times, offsets


def test_clock_time_with_hedge():
    [t] = clock_times("At about 2:21 p.m. the gunman entered")
    assert (t.lo, t.hi, t.ref["clock"], t.hedge) == (14 * 60 + 16, 14 * 60 + 26, "14:21", "about")


def test_clock_time_needs_minutes_or_am_pm():
    assert clock_times("he waited 12 minutes") == []
    [t] = clock_times("shortly after 3 pm")
    assert (t.lo, t.hi) == (900, 915)


def test_offset_keeps_its_anchor():
    [t] = offsets("Two days after the vigil, Chief Okonkwo sent an email")
    assert (t.lo, t.unit, t.ref) == (2, "day", {"relation": "after", "anchor": "the vigil"})


def test_hedged_offset_and_a_minute():
    [t] = offsets("About a minute after I got there, Deputy Ray Okafor pulled up")
    assert (t.lo, t.hi, t.hedge, t.ref["anchor"]) == (0, 2, "about", "I got there")


def test_later_has_no_anchor_in_words():
    [t] = offsets("I got to the gym four minutes later.")
    assert t.ref == {"relation": "after", "anchor": None} and t.text == "four minutes later"


def test_dates_keep_an_unknown_year_unknown():
    [d] = calendar_dates("a vigil the night of March 3, where")
    assert d["date"] == "--03-03"
    [d] = calendar_dates("on Feb. 14, 2031 at noon")
    assert d["date"] == "2031-02-14"


def test_police_report_24_hour_clock():
    [t] = clock_times("At approximately 1421 hours, I was dispatched to Linden Ridge High.")
    assert (t.lo, t.hi, t.ref["clock"]) == (856, 866, "14:21")
    [t] = clock_times("I cleared the scene at 16:05 hrs.")
    assert t.ref["clock"] == "16:05"

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


def test_every_written_form_of_a_time_of_day():
    cases = {
        "at 9:35:52 a.m. the call": (575.8667, 575.8667),
        "at 2.32pm the doors": (872.0, 872.0),
        "by 11.34am it was over": (None, 694.0),
        "at 12 noon they": (720.0, 720.0),
        "*11 a.m.  Service begins": (660.0, 660.0),
        "until nearly 10:30 a.m., classes": (625.0, 630.0),
    }
    for text, want in cases.items():
        [t] = clock_times(text)
        assert (t.lo, t.hi) == want, text
    assert clock_times("he waited 2.5 minutes") == []


def test_a_range_of_times_is_one_interval():
    [t] = clock_times("the shots came between noon and 12:10 p.m. that day")
    assert (t.lo, t.hi, t.hedge, t.text) == (720.0, 730.0, "range", "between noon and 12:10 p.m.")
    [t] = clock_times("Between 12:49 a.m. and 1:05 a.m., ambulances left")
    assert (t.lo, t.hi) == (49.0, 65.0)
    two = clock_times("at 2.32pm and 11.34am")
    assert [(t.lo, t.hi) for t in two] == [(872.0, 872.0), (694.0, 694.0)]


def test_not_until_is_the_moment_it_happened():
    [t] = clock_times("Officers did not breach the wall until 5:02 a.m.")
    assert (t.lo, t.hi) == (302.0, 302.0)
    [t] = clock_times("The shooting went on until 2:30 a.m.")
    assert (t.lo, t.hi) == (None, 150.0)


def test_offsets_into_an_event_and_compound_amounts():
    [t] = offsets("she was rescued about a half hour into the ordeal.")
    assert (t.lo, t.hi, t.unit, t.ref["anchor"]) == (27.0, 33.0, "minute", "the ordeal")
    [t] = offsets("one minute and 39 seconds after the first shot, a deputy radioed")
    assert (t.lo, t.hi, t.ref["anchor"]) == (1.65, 1.65, "the first shot")
    assert offsets("Three weeks later, the board met.") == []
    assert offsets("Deputies responded in less than two minutes after the alarm.") == []


def test_an_offset_in_hours_is_in_minutes_with_its_hedge():
    [t] = offsets("Officers went in about an hour after the gunman entered at 11:33 a.m.")
    assert (t.lo, t.hi, t.unit) == (54.0, 66.0, "minute")
    assert t.ref["anchor"] == "the gunman entered at 11:33 a.m."  # the clock inside the anchor stays whole
    [t] = offsets("Police arrived 90 seconds after the first shot.")
    assert (t.lo, t.hi, t.unit) == (1.5, 1.5, "minute")


def test_until_denied_is_a_bound_until_negated_is_the_moment():
    [denied] = clock_times("Mina said it is not accurate to say there was shooting until 2:30 a.m.")
    [late] = clock_times("Police chose to not use explosives to breach the club until 5:02 a.m.")
    assert (denied.lo, denied.hi) == (None, 150.0)
    assert (late.lo, late.hi) == (302.0, 302.0)


def test_shortly_or_just_before_an_event_is_an_offset_with_no_number():
    from onrecord.claims.times_in_text import offsets

    [o] = offsets("the school received a call shortly before the gunman began shooting")
    assert (o.lo, o.hi, o.ref["relation"], o.ref["anchor"]) == (0.0, 15.0, "before", "the gunman began shooting")
    [o] = offsets("deputies went in just after the first shots")
    assert (o.lo, o.hi, o.ref["relation"]) == (0.0, 5.0, "after")
    assert offsets("officers arrived shortly after 11 a.m.") == []  # a clock time's hedge
    assert offsets("they went in soon after arriving") == []  # no documented interval

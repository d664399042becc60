"""When a moment happened, from its records: reports and a spoken entry."""

from __future__ import annotations

from onrecord.reconstruct.moment_time import moment_time

T = 1_700_000_000_000


def test_a_moment_known_from_a_report_on_an_unknown_clock_is_best_put_at_the_report():
    # typed in a log whose clock is known only within +/- 5 minutes: the report is most
    # likely where its clock says, not five minutes early
    said = T + 300_000
    m = moment_time([{"rank": 2, "t_lo": T, "t_hi": T + 600_000, "said": said}], "unit_arrived")
    assert m.best == said and m.lo < T and m.hi == T + 600_000


def test_a_radio_going_in_bounds_the_entry_on_both_sides():
    # "we're going in" is said as the team moves, a few seconds before the door as well as after
    m = moment_time([{"rank": 0, "t_lo": T, "t_hi": T + 2_000, "spoken": True}], "entry")
    assert m.lo <= T - 3_000 and m.hi >= T + 2_000 + 4_000
    door = moment_time([{"rank": 0, "t_lo": T, "t_hi": T + 2_000}], "entry")
    assert door.hi == T + 2_000  # a door's own record is not said ahead of it


def test_a_moment_known_from_several_reports_lies_where_their_spans_meet():
    # a radio "on scene" (at most 30 s after) and CAD's typed arrival (at most 60 s after):
    # the typed one, 40 s after the radio, puts the arrival no earlier than 20 s before it
    radio = {"rank": 1, "t_lo": T, "t_hi": T + 1_000, "spoken": True}
    cad = {"rank": 2, "t_lo": T + 40_000, "t_hi": T + 41_000}
    m = moment_time([radio, cad], "unit_arrived")
    assert m.lo == T - 20_000 and m.hi == T + 1_000
    alone = moment_time([radio], "unit_arrived")
    assert alone.lo == T - 30_000


def test_reports_whose_spans_do_not_meet_leave_the_first_reports_span():
    radio = {"rank": 1, "t_lo": T, "t_hi": T + 1_000, "spoken": True}
    late = {"rank": 2, "t_lo": T + 200_000, "t_hi": T + 201_000}  # typed later than any usual delay
    m = moment_time([radio, late], "unit_arrived")
    assert m.lo == T - 30_000 and m.hi == T + 1_000

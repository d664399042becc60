"""Fusion of reports into moments: the tie rules that cannot be seen on a whole case."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.fuse import fuse

MINUTE = 60_000


def _rows(*rows) -> pd.DataFrame:
    cols = ("id", "source_id", "family", "who", "rank", "lo", "hi")
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])


def test_records_of_one_written_minute_pair_with_reports_in_the_order_both_were_made():
    # Two patients taken by one ambulance, both records written "14:47" (the whole minute);
    # the crew said "transporting" twice on the radio, 59 s apart. Nothing tells the two
    # records apart in time: first come, first served.
    t = 1_000_000_000
    anchored = _rows(
        (11, 1, "patient_transported", 7, 0, t, t + MINUTE - 1),
        (12, 1, "patient_transported", 7, 0, t, t + MINUTE - 1),
        (21, 2, "patient_transported", 7, 1, t + 4_000, t + 4_000),
        (22, 2, "patient_transported", 7, 1, t + 63_000, t + 63_000),
    )
    assert sorted(sorted(g) for g in fuse(anchored)) == [[11, 21], [12, 22]]


def test_one_source_never_reports_one_moment_twice():
    t = 2_000_000_000
    anchored = _rows(
        (31, 1, "unit_arrived", 5, 0, t, t),
        (32, 1, "unit_arrived", 5, 0, t + 1_000, t + 1_000),
        (41, 2, "unit_arrived", 5, 1, t + 5_000, t + 5_000),
    )
    groups = fuse(anchored)
    assert len(groups) == 1 and 41 in groups[0] and not {31, 32} <= set(groups[0])


def test_a_patient_record_written_to_the_minute_takes_the_radio_report_after_that_minute():
    # "1404" on the patient record: the contact was somewhere in 14:04; the crew said
    # "receiving one patient" 12 s after the minute ended, within a report's usual lag
    t = 3_000_000_000
    anchored = _rows(
        (51, 1, "patient_contact", 9, 0, t, t + MINUTE - 1),
        (61, 2, "patient_contact", 9, 1, t + MINUTE + 12_000, t + MINUTE + 12_000),
    )
    assert fuse(anchored) == [[51, 61]]


def test_a_typed_entry_goes_with_the_one_team_it_can_have_joined_and_says_when_it_cannot_tell():
    t = 4_000_000_000
    anchored = _rows(
        (71, 1, "entry", 1, 0, t, t),                  # team A on the radio: "going in"
        (72, 1, "entry", 2, 0, t + 60_000, t + 60_000),  # team B, a minute later
        (81, 2, "unit_arrived", 3, 2, t - 30_000, t - 30_000),  # unit C got there before both
        (73, 2, "entry", 3, 2, t + 120_000, t + 120_000),      # ... and its entry typed later
        (82, 3, "unit_arrived", 4, 0, t + 40_000, t + 40_000),  # unit D got there after A went in
        (74, 2, "entry", 4, 2, t + 125_000, t + 125_000),
    )
    doubts: dict = {}
    groups = [sorted(g) for g in fuse(anchored, doubts)]
    assert [72, 74] in groups  # D can only have gone in with B
    # C could have gone with A or B: it goes with the first, and its entry is stated as
    # anywhere from A's entry to its own typed time
    assert doubts == {73: t}


def test_a_typed_entry_follows_the_typing_delay_its_source_shows_elsewhere():
    t = 5_000_000_000
    anchored = _rows(
        (91, 1, "entry", 1, 0, t, t), (92, 2, "entry", 1, 2, t + 20_000, t + 20_000),  # A said, typed 20 s on
        (93, 1, "entry", 2, 0, t + 300_000, t + 300_000),
        (94, 2, "entry", 2, 2, t + 322_000, t + 322_000),                              # B, 22 s on
        (98, 1, "entry", 3, 0, t + 360_000, t + 360_000),
        (99, 2, "entry", 3, 2, t + 378_000, t + 378_000),                              # C, 18 s on
        (95, 1, "entry", 5, 0, t + 400_000, t + 400_000),  # team E goes in
        (96, 1, "entry", 6, 0, t + 480_000, t + 480_000),  # team F, 80 s later
        (97, 2, "entry", 7, 2, t + 501_000, t + 501_000),  # unit G's entry typed: 21 s after F
    )
    doubts: dict = {}
    groups = [sorted(g) for g in fuse(anchored, doubts)]
    assert [96, 97] in groups and doubts == {}


def _with(anchored: pd.DataFrame, named: dict | None = None, slack: dict | None = None) -> pd.DataFrame:
    """The units each entry's words name, and each record's clock slack (ms), as build.py gives them."""
    named, slack = named or {}, slack or {}
    return anchored.assign(named=[frozenset(named.get(i, ())) for i in anchored["id"]],
                           slack=[float(slack.get(i, 0.0)) for i in anchored["id"]])


def test_a_typed_entry_on_an_unknown_clock_joins_the_team_its_words_name():
    # A campus log whose clock nobody could tie (+/- 5 minutes) types "School 9 going in
    # with 4-Edward-19 and 6-Adam-34" at what its clock calls 30 s before the team's entry
    # the camera saw: it cannot be before, so by its time it would stand alone as an
    # earlier entry; by the units it names, it is that team's.
    t = 6_000_000_000
    anchored = _with(_rows(
        (101, 1, "entry", None, 0, t, t + 999),                 # the camera: the team goes in
        (102, 2, "entry", 19, 2, t + 90_000, t + 90_000),       # CAD types 4E19 in, 90 s on
        (103, 2, "entry", 34, 2, t + 95_000, t + 95_000),       # ... and 6A34
        (104, 3, "entry", 9, 2, t - 30_000, t - 30_000),        # the campus log
    ), named={104: {19, 34}}, slack={104: 300_000})
    groups = [sorted(g) for g in fuse(anchored)]
    assert [101, 102, 103, 104] in groups


def test_an_entry_on_an_unknown_clock_naming_units_of_two_teams_stands_alone():
    t = 7_000_000_000
    anchored = _with(_rows(
        (111, 1, "entry", 1, 0, t, t),
        (112, 1, "entry", 2, 0, t + 120_000, t + 120_000),
        (113, 3, "entry", 9, 2, t + 400_000, t + 400_000),   # too late for either by its time
    ), named={113: {1, 2}}, slack={113: 300_000})
    assert all(113 not in g for g in fuse(anchored))  # the words cannot say which: never a guess


def test_a_unit_named_going_in_on_the_radio_takes_its_own_typed_entry_later():
    # 31-20's team goes in; 80 s later "making entry east doors, 20-37 with me" from 32-74;
    # 20-37's entry typed 150 s after the first: both teams fit its time, but its unit was
    # named in the second, so it is that one's (not the first for want of a better)
    t = 8_000_000_000
    anchored = _with(_rows(
        (121, 1, "entry", 3120, 0, t, t),
        (122, 1, "entry", 3274, 0, t + 80_000, t + 80_000),
        (123, 2, "entry", 2037, 2, t + 150_000, t + 150_000),
    ), named={122: {2037}})
    doubts: dict = {}
    groups = [sorted(g) for g in fuse(anchored, doubts)]
    assert [122, 123] in groups and doubts == {}


def test_a_record_on_an_unknown_clock_naming_no_team_does_not_join_one_by_its_time():
    # "School 6 making entry east doors" in a log whose clock is tied to nothing: its
    # written time falls 20 s before a later team's radio "going in", which says nothing
    t = 9_000_000_000
    anchored = _with(_rows(
        (131, 1, "entry", 521, 0, t, t),
        (132, 3, "entry", None, 2, t + 20_000, t + 20_000),
    ), slack={132: 300_000})
    assert fuse(anchored) == []


def test_an_arrival_on_an_unknown_clock_joins_the_same_units_arrival_on_a_trusted_one():
    # A campus log nobody could tie (+/- 5 minutes) types "On scene" for School 11 at what
    # its clock calls two minutes before the officer's "I'm here" on a trusted radio: by its
    # time it would be a second, earlier arrival; it is a record of the same one
    t = 10_000_000_000
    anchored = _with(_rows(
        (141, 1, "unit_arrived", 11, 1, t, t + 999),                       # the radio
        (142, 3, "unit_arrived", 11, 2, t - 120_000, t - 60_001),          # the log, to the minute
    ), slack={142: 300_000})
    assert fuse(anchored) == [[141, 142]]


def test_an_arrival_on_an_unknown_clock_that_fits_two_arrivals_of_its_unit_stands_alone():
    t = 11_000_000_000
    anchored = _with(_rows(
        (151, 1, "unit_arrived", 11, 1, t, t),
        (152, 1, "unit_arrived", 11, 1, t + 200_000, t + 200_000),  # back again, minutes later
        (153, 3, "unit_arrived", 11, 2, t + 90_000, t + 90_000),
    ), slack={153: 300_000})
    assert all(153 not in g for g in fuse(anchored))  # which one it records, its time cannot say

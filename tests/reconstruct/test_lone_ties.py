"""A clock no pile of shared moments ties is tied through a moment both records name (a
unit's status and its AVL crossing, a door both name), as unsure as one such match allows;
names that disagree tie nothing."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.clocks import DOORS_DISAGREE, ClockEstimate, PairEstimate, solve
from onrecord.reconstruct.lone_ties import door_side, refused_ties, tie_alone

T0 = 1_750_000_000_000
COLS = ["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency", "place"]


def _clocks():
    return {1: ClockEstimate(1, "reference", 0.0, 0.1, 10),      # an AVL
            2: ClockEstimate(2, "estimated", -120.0, 0.5, 10),   # a radio recorder, 2 min slow
            3: ClockEstimate(3, "unknown", None, None, 0, [], relative_s=None)}


def _solved(anchored, events=None):
    pairs = tie_alone(anchored, _clocks(), events)
    sources = pd.DataFrame({"id": [1, 2, 3]})
    fixed = [PairEstimate(1, 2, -120.0, 0.5, [(0, 0, 0.0)] * 5, False)]  # the radio, tied to the AVL
    return pairs, solve(sources, fixed + pairs, {}, {1: 0.1})


def test_a_units_typed_arrival_against_its_own_avl_crossing_ties_the_clock_within_what_it_states():
    true_offset = 40.0
    for lag in (0.5, 12.0, 35.0):  # however soon after the car got there it was typed
        rows = [(1, 1, T0 + 5_000, 10_000.0, "unit_arrived", 77, 0, "HP", None),       # crossing: fix before .. fix
                (2, 3, T0 + 10_000 + (lag + true_offset) * 1000, 0.0, "unit_arrived", 77, 2, "HP", None)]
        pairs, clocks = _solved(pd.DataFrame(rows, columns=COLS))
        assert len(pairs) == 1 and pairs[0].via == "one named moment"
        c = clocks[3]
        assert c.status == "estimated"
        assert abs(c.offset_s - true_offset) <= 2 * c.uncertainty_s
        assert c.uncertainty_s < 60  # loose, but a tie, not the unknown clock's minutes


def test_another_agencys_unit_of_the_same_name_ties_nothing():
    rows = [(1, 1, T0, 0.0, "unit_arrived", 77, 0, "HP", None),
            (2, 3, T0 + 45_000, 0.0, "unit_arrived", 77, 2, "CITY", None)]
    assert tie_alone(pd.DataFrame(rows, columns=COLS), _clocks()) == []


def test_a_door_the_door_log_and_a_radio_line_both_name_ties_the_door_log_every_candidate_kept():
    true_offset = 120.0
    # the door log (source 3) logs two openings of its northeast doors 60 s apart; the radio
    # (source 2, 120 s slow) says an entry at the northeast doors as the first happens
    rows = [(1, 3, T0 + true_offset * 1000, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (2, 3, T0 + (60 + true_offset) * 1000, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (3, 2, T0 + 1_000 - 120_000, 0.0, "entry", 5, 1, "SO", None)]
    events = pd.DataFrame({"id": [1, 2, 3], "place": ["South Hall Northeast Doors"] * 2 + [None],
                           "text": [None, None, "5-david-23 making entry northeast doors"]})
    pairs, clocks = _solved(pd.DataFrame(rows, columns=COLS), events)
    c = clocks[3]
    assert c.status == "estimated" and abs(c.offset_s - true_offset) <= 2 * c.uncertainty_s
    assert c.uncertainty_s >= 30  # two openings the name cannot choose between: as unsure as their distance


def test_names_that_disagree_tie_nothing():
    # the southwest door's only logged opening in the hour is a badge swipe 20 min before
    # the entry the radio names there; the northeast door agrees with another difference
    rows = [(1, 3, T0 - 1_200_000, 0.0, "entry", None, 0, "SCH", "hall south sw"),
            (2, 3, T0 + 120_000, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (3, 2, T0 - 120_000, 0.0, "entry", 5, 1, "SO", None),
            (4, 2, T0 - 110_000, 0.0, "entry", 6, 1, "SO", None)]
    events = pd.DataFrame({"id": [1, 2, 3, 4], "place": ["South Hall Southwest Doors", "South Hall Northeast Doors",
                                                         None, None],
                           "text": [None, None, "going in northeast doors", "moving in, southwest doors"]})
    assert tie_alone(pd.DataFrame(rows, columns=COLS), _clocks(), events) == []


def test_door_sides_read_from_door_names_and_radio_words():
    assert door_side("South Hall Northeast Doors") == "ne"
    assert door_side(None, "2-91 moving in, SW entrance") == "sw"
    assert door_side("South Hall") is None  # a building named after a compass point is no door


def test_candidates_minutes_apart_tie_nothing():
    # the door's three logged openings are minutes apart: the name leaves the clock anywhere in them
    rows = [(1, 3, T0, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (2, 3, T0 + 150_000, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (3, 3, T0 + 300_000, 0.0, "entry", None, 0, "SCH", "hall ne south"),
            (4, 2, T0 - 120_000, 0.0, "entry", 5, 1, "SO", None)]
    events = pd.DataFrame({"id": [1, 2, 3, 4], "place": ["South Hall Northeast Doors"] * 3 + [None],
                           "text": [None, None, None, "making entry northeast doors"]})
    assert tie_alone(pd.DataFrame(rows, columns=COLS), _clocks(), events) == []


def _second_team(door_log_openings_s):
    """A typed campus log (source 3, clock unknown, to the minute) says School 1 went in at
    the north doors; the radio (source 2, known) holds only the first team's entry there,
    105 s before; a door log of unknown clock (source 4) logs the door's openings."""
    true_offset, radio, typed_at = -6.0, 1_000.0, 105_000.0 + 40_000.0  # typed 40 s after the second entry
    rows = [(1, 3, T0 + (typed_at + true_offset * 1000) // 60_000 * 60_000 + 30_000, 60_000.0, "entry", 67, 2,
             "SCH", None),
            (2, 2, T0 + radio - 120_000, 0.0, "entry", 21, 0, "PD", None)]
    rows += [(10 + i, 4, T0 + s * 1000 + 900_000, 0.0, "entry", None, 0, "SCH", "arts n")
             for i, s in enumerate(door_log_openings_s)]
    events = pd.DataFrame({"id": [r[0] for r in rows],
                           "place": [None, None] + ["Arts Center North Doors"] * len(door_log_openings_s),
                           "text": ["Entering building: School 1 moving in, north doors", "going in the north doors"]
                           + [None] * len(door_log_openings_s)})
    clocks = {**_clocks(), 4: ClockEstimate(4, "unknown", None, None, 0, [], relative_s=None)}
    return pd.DataFrame(rows, columns=COLS), clocks, events


def test_a_door_gone_through_several_times_ties_no_typed_record_to_the_one_entry_a_known_source_holds():
    # the door log's own clock shows the north doors opened four times over 225 s: the
    # typed "moving in, north doors" can be any of them (here the one the radio never said)
    anchored, clocks, events = _second_team([0.0, 81.0, 139.0, 225.0])
    ties = [p for p in tie_alone(anchored, clocks, events) if 3 in (p.a, p.b)]
    assert ties == []


def test_a_door_gone_through_once_still_ties_the_typed_record():
    anchored, clocks, events = _second_team([1.0])
    ties = [p for p in tie_alone(anchored, clocks, events) if 3 in (p.a, p.b)]
    assert len(ties) == 1 and ties[0].via == "one named moment"


def test_names_that_agree_state_their_range_once():
    # a typed arrival against its unit's crossing as two known sources hold it (the AVL, and
    # the radio's copy): they allow one range (a report up to two lags after, +-25 s), which
    # two pair estimates must not state surer than it is
    rows = [(1, 1, T0 + 5_000, 10_000.0, "unit_arrived", 77, 0, "HP", None),
            (2, 2, T0 + 5_000 - 120_000, 10_000.0, "unit_arrived", 77, 0, "HP", None),
            (3, 3, T0 + 10_000 + 52_000, 0.0, "unit_arrived", 77, 2, "HP", None)]
    pairs, clocks = _solved(pd.DataFrame(rows, columns=COLS))
    assert len(pairs) == 2
    assert clocks[3].uncertainty_s >= 25.0 - 0.01


def _three_doors(north_s: float, off: float = 200.0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A door log (source 3, `off` s fast) with the north doors opened once at `north_s` (true
    time) and the west doors twice (250 s, 600 s); a team's radio (source 2, 120 s slow) going
    in at the west doors at 600 s and at the north doors at 1100 s."""
    rows = [(1, 3, T0 + (north_s + off) * 1000, 0.0, "entry", None, 0, "SCH", "b300 north"),
            (2, 3, T0 + (250 + off) * 1000, 0.0, "entry", None, 0, "SCH", "b300 west"),
            (3, 3, T0 + (600 + off) * 1000, 0.0, "entry", None, 0, "SCH", "b300 west"),
            (4, 2, T0 + (600 - 120) * 1000, 0.0, "entry", 5, 1, "SO", None),
            (5, 2, T0 + (1100 - 120) * 1000, 0.0, "entry", 6, 1, "SO", None)]
    events = pd.DataFrame({"id": [1, 2, 3, 4, 5],
                           "place": ["Building 300 North Doors", "Building 300 West Doors",
                                     "Building 300 West Doors", None, None],
                           "text": [None, None, None, "making entry west doors", "making entry north doors"]})
    return pd.DataFrame(rows, columns=COLS), events


def test_a_tie_through_one_door_that_another_door_contradicts_as_strongly_is_refused_and_said():
    # The door log (unknown, 200 s fast) logs the north doors forced open once (students
    # fleeing, true 0 s) and the west doors opened twice (true 250 s and 600 s); the team
    # went in at the west doors at 600 s, the rescue team at the north doors at 1100 s
    # (its "held open" mapped as an alarm, so no opening there). The north doors alone
    # would tie the clock 1100 s off; the west doors say it stands at 200 s as strongly.
    off = 200.0
    anchored, events = _three_doors(0.0, off)
    refused: list = []
    assert tie_alone(anchored, _clocks(), events, refused) == []
    (r,) = refused
    assert r["sources"] == [3] and abs((r["offset_s"][0] + r["offset_s"][1]) / 2 - (off - 1100)) < 30
    assert any(abs(v - off) < 30 for v in r["elsewhere_s"]) and r["elsewhere"] >= r["explained"]
    clocks = _clocks()
    said = refused_ties(refused + refused, {3: "doors.csv"}, clocks)  # the rounds retry it: said once
    assert len(said) == 1 and said[0].startswith("doors.csv: clock not tied")
    assert clocks[3].offset_s is None and clocks[3].note == DOORS_DISAGREE and "door log" in clocks[3].needs


def test_a_door_tie_the_other_doors_agree_with_stands():
    off = 200.0
    anchored, events = _three_doors(1100.0, off)
    refused: list = []
    pairs, clocks = _solved(anchored.copy(), events)
    assert abs(clocks[3].offset_s - off) <= 2 * clocks[3].uncertainty_s
    assert tie_alone(anchored, _clocks(), events, refused) and refused == []


def _custody(typed_by: str, lag_s: float):
    """The radio (source 2, 120 s slow) says the suspect is in custody; a log of unknown clock
    (source 3, truly 40 s slow) types it, to the minute, `lag_s` after the radio said it."""
    true_offset, said = -40.0, T0 + 30_000
    typed = said + (lag_s + true_offset) * 1000
    minute = typed - typed % 60_000 + 30_000  # the middle of its written minute
    rows = [(1, 2, said - 120_000, 0.0, "threat_ended", "threat_ended", 1, "SO", None),
            (2, 3, minute, 60_000.0, "threat_ended", "threat_ended", 2, typed_by, None)]
    return pd.DataFrame(rows, columns=COLS), true_offset


def test_another_agencys_typed_record_of_a_moment_was_relayed_by_minutes_and_ties_nothing():
    # a district's campus log "PD advises suspect in custody", typed five minutes after the
    # sheriff's radio said it: no report window bounds how late it was told
    anchored, _ = _custody("DISTRICT", 300.0)
    assert tie_alone(anchored, _clocks()) == []


def test_a_record_typed_by_the_agency_whose_radio_said_it_still_ties_within_its_stated_range():
    anchored, true_offset = _custody("SO", 12.0)
    pairs, clocks = _solved(anchored)
    assert len(pairs) == 1
    c = clocks[3]
    assert c.status == "estimated" and abs(c.offset_s - true_offset) <= c.uncertainty_s

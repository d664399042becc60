"""The response metrics from moments: which armed unit was first on scene."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pandas as pd

from onrecord.findings.metrics import ResponseMetrics
from onrecord.reconstruct.moments import MomentRow

T0 = 1_700_000_000_000


def _moment(i, family, who, lo_s, hi_s):
    lo, hi = T0 + lo_s * 1000, T0 + hi_s * 1000
    return MomentRow(i, family, who, None, lo, hi, (lo + hi) / 2, [i], {who: [i]} if who else {}, True)


def _no_events():
    cols = {"id": "int64", "kind": "object", "source_kind": "object", "text": "object", "source_id": "int64",
            "transferred_in": "bool", "t_lo": "float64", "t_hi": "float64", "best": "float64", "call": "object"}
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in cols.items()})


def _first_armed(moments):
    units = {1: {"name": "1R16", "agency": "PD", "armed": True}, 2: {"name": "SP03", "agency": "SD", "armed": True}}
    out = ResponseMetrics(moments, units, _no_events()).compute()
    return next(f for f in out if f.name == "first_armed_unit_on_scene")


def test_an_arrival_known_only_within_minutes_leaves_the_first_unit_not_established_and_says_why():
    shots = _moment(10, "shots", None, 0, 1)
    sure = _moment(11, "unit_arrived", 1, 100, 110)          # a CAD tied to a trusted clock
    unsure = _moment(12, "unit_arrived", 2, -180, 420)       # a campus radio whose clock is unknown
    f = _first_armed([shots, sure, unsure])
    assert "unit" not in f.payload and f.payload["unit_status"] == "not_established"
    assert [c["unit"] for c in f.payload["candidates"]] == ["1R16", "SP03"]  # by best time: 105 s, 120 s
    assert (f.value_lo, f.value_hi) == (unsure.lo, sure.hi)  # the time stands: it holds whoever was first


def test_a_candidate_on_an_unknown_clock_is_said_to_be_so():
    from onrecord.findings.render import sentence
    from onrecord.reconstruct.clocks import ClockEstimate

    shots = _moment(10, "shots", None, 0, 1)
    sure = _moment(11, "unit_arrived", 1, 100, 110)
    unsure = _moment(12, "unit_arrived", 2, -290, 310)
    events = pd.DataFrame({"id": [11, 12], "kind": "unit_arrived", "source_kind": "cad", "text": None,
                           "source_id": [1, 2], "transferred_in": False, "t_lo": [sure.lo, unsure.lo],
                           "t_hi": [sure.hi, unsure.hi], "best": [sure.best, unsure.best], "call": None,
                           "file_name": ["cad.csv", "campus-log.csv"]})
    clocks = {1: ClockEstimate(1, "estimated", 0.0, 1.0), 2: ClockEstimate(2, "unknown", None, None)}
    units = {1: {"name": "1R16", "agency": "PD", "armed": True}, 2: {"name": "SP03", "agency": "SD", "armed": True}}
    out = ResponseMetrics([shots, sure, unsure], units, events, clocks).compute()
    f = next(f for f in out if f.name == "first_armed_unit_on_scene")
    why = {c["unit"]: (c["why"], c.get("source")) for c in f.payload["candidates"]}
    assert why == {"SP03": ("clock_unknown", "campus-log.csv"), "1R16": ("overlaps", None)}
    said = sentence(f, ZoneInfo("UTC"))
    assert "not established" in said and "campus-log.csv" in said


def test_two_sure_arrivals_seconds_apart_whose_intervals_overlap_name_no_unit():
    shots = _moment(10, "shots", None, 0, 1)
    f = _first_armed([shots, _moment(11, "unit_arrived", 1, 100, 106), _moment(12, "unit_arrived", 2, 104, 110)])
    assert f.payload["unit_status"] == "not_established"
    assert {c["why"] for c in f.payload["candidates"]} == {"overlaps"}


def test_two_arrivals_on_one_loose_clock_are_in_its_order_though_their_intervals_overlap():
    """One CAD known only within ±60 s: each arrival on it is 120 s wide on the common clock,
    but the CAD's own times put 1R16 ten seconds before SP03, whatever its offset."""
    from onrecord.reconstruct.clocks import ClockEstimate

    shots = _moment(10, "shots", None, 0, 1)
    a = _moment(11, "unit_arrived", 1, 40, 161)   # written 100-101 s, clock +-60 s
    b = _moment(12, "unit_arrived", 2, 50, 171)   # written 110-111 s, same CAD
    events = pd.DataFrame({"id": [11, 12], "kind": "unit_arrived", "source_kind": "cad", "text": None,
                           "source_id": [1, 1], "transferred_in": False, "t_lo": [a.lo, b.lo],
                           "t_hi": [a.hi, b.hi], "best": [a.best, b.best], "call": None,
                           "file_name": ["cad.csv", "cad.csv"]})
    clocks = {1: ClockEstimate(1, "estimated", 0.0, 60.0)}
    units = {1: {"name": "1R16", "agency": "PD", "armed": True}, 2: {"name": "SP03", "agency": "SD", "armed": True}}
    out = ResponseMetrics([shots, a, b], units, events, clocks).compute()
    f = next(f for f in out if f.name == "first_armed_unit_on_scene")
    assert f.payload.get("unit") == "1R16" and "candidates" not in f.payload
    # on two clocks the same intervals settle nothing
    events["source_id"] = [1, 2]
    clocks[2] = ClockEstimate(2, "estimated", 0.0, 60.0)
    out = ResponseMetrics([shots, a, b], units, events, clocks).compute()
    f = next(f for f in out if f.name == "first_armed_unit_on_scene")
    assert f.payload["unit_status"] == "not_established"


def test_a_sure_arrival_first_is_named_whatever_else_is_unsure():
    shots = _moment(10, "shots", None, 0, 1)
    first = _moment(11, "unit_arrived", 2, 90, 95)
    later = _moment(12, "unit_arrived", 1, 100, 110)
    f = _first_armed([shots, first, later])
    assert f.payload["unit"] == "SP03" and "candidates" not in f.payload


def test_a_consolidated_cad_numbers_the_police_and_the_fire_incident_apart_both_count():
    units = {1: {"name": "2912", "agency": "PD"}, 2: {"name": "1444", "agency": "PD"},
             3: {"name": "M44", "agency": "FD", "fire_ems": True}, 4: {"name": "E52", "agency": "FD", "fire_ems": True},
             5: {"name": "E9", "agency": "FD", "fire_ems": True}}
    calls = {1: "7#P100", 2: "7#P100", 3: "7#F200", 4: "7#F200", 5: "7#F300"}  # E9 on a medical call
    moments, n = [_moment(10, "shots", None, 0, 1)], 10
    for u, call in calls.items():
        for family, at in (("unit_dispatched", 60 + u), ("unit_arrived", 300 + u)):
            m = _moment(n := n + 1, family, u, at, at + 2)
            m.calls = frozenset({call})
            moments.append(m)
    out = ResponseMetrics(moments, units, _no_events()).compute()
    on_scene = {f.subject: f.value_lo for f in out if f.name == "agency_units_on_scene"}
    assert on_scene == {"PD": 2, "FD": 2}  # E9's one-unit call of the afternoon is not the incident's


def test_a_first_call_chosen_by_its_number_on_cad_reaches_back_to_an_earlier_call_left_out_for_its_number():
    """First shots known only within minutes: the first 911 call is looked for among the numbers
    CAD holds on the incident call. CAD holds the caller it opened the incident from, not always
    the first one, so the interval reaches back to the earlier call (the call named stays)."""
    def call(i, source, kind, at_s, ani, call_no=None):
        t = T0 + at_s * 1000
        return {"id": i, "kind": kind, "source_kind": "call911" if source == 5 else "cad", "text": None,
                "source_id": source, "transferred_in": False, "t_lo": t, "t_hi": t + 1000, "best": t + 500,
                "call": call_no, "attrs": f'{{"ani": "{ani}"}}'}
    events = pd.DataFrame([call(1, 5, "call_received", 100, "(555) 000-1111"),
                           call(2, 5, "call_received", 140, "555.000.2222"),
                           call(3, 7, "call_received", 150, "5550002222", "C1")])
    rm = ResponseMetrics([], {}, events)
    rm.first = _moment(10, "shots", None, -200, 400)  # a sensor whose clock is tied to nothing trusted
    rm.incident_calls = frozenset({"7#C1"})
    rm._first_call()
    (f,) = rm.out
    assert f.evidence == [2] and f.payload["may_be_earlier"] == 1
    assert f.value_lo == T0 + 100_000 and f.value_hi == T0 + 141_000


def test_an_unsure_arrival_whose_best_time_comes_first_is_not_named_for_it():
    # The campus officer's "on scene" typed in a log whose clock is tied to nothing (+/- 5
    # minutes) at 90 s before the first patrol car's AVL-located arrival: its unaligned time
    # sorting first is no ground to name it; the interval still runs from the earliest the
    # officer's can have been to the car's arrival.
    shots = _moment(10, "shots", None, 0, 1)
    sure = _moment(11, "unit_arrived", 1, 100, 110)
    unsure = _moment(12, "unit_arrived", 2, -290, 310)       # best 10 s: 95 s before the car
    f = _first_armed([shots, sure, unsure])
    assert "unit" not in f.payload and [c["unit"] for c in f.payload["candidates"]] == ["SP03", "1R16"]
    assert (f.value_lo, f.value_hi) == (unsure.lo, sure.hi)


def test_a_unit_whose_arrival_ends_before_an_unsure_one_begins_is_named():
    shots = _moment(10, "shots", None, 0, 1)
    f = _first_armed([shots, _moment(11, "unit_arrived", 1, 100, 110), _moment(12, "unit_arrived", 2, 111, 700)])
    assert f.payload["unit"] == "1R16" and "candidates" not in f.payload


def test_a_unit_only_at_staging_is_not_on_scene_and_an_arrival_is_a_units_first():
    units = {1: {"name": "E210", "agency": "FD", "fire_ems": True}, 2: {"name": "M162", "agency": "FD",
                                                                          "fire_ems": True}}
    moments = [_moment(10, "shots", None, 0, 1),
               _moment(11, "staging", 1, 100, 130),          # E210 staged all afternoon
               _moment(12, "staging", 2, 90, 120),            # M162 staged, then moved up ...
               _moment(13, "unit_arrived", 2, 600, 630),      # ... to the casualty collection point
               _moment(14, "unit_arrived", 2, 900, 930)]      # and again, after a transport
    out = ResponseMetrics(moments, units, _no_events()).compute()
    on_scene = {f.subject: f.value_lo for f in out if f.name == "agency_units_on_scene"}
    arrived = {f.subject: f.value_lo for f in out if f.name == "unit_on_scene"}
    assert on_scene == {"FD": 1} and arrived == {"M162": T0 + 600_000}


def test_a_call_cad_opened_another_incident_from_is_not_the_first_911_call_of_this_one():
    """A theft reported by phone twenty seconds after the first shots: its caller's number is
    on the theft's CAD call, answered as the 911 call was, and on none of the incident's."""
    def event(i, source, kind, at_s, ani, call_no=None, source_kind="call911"):
        t = T0 + at_s * 1000
        return {"id": i, "kind": kind, "source_kind": source_kind, "text": None, "source_id": source,
                "transferred_in": False, "t_lo": t, "t_hi": t + 1000, "best": t + 500, "call": call_no,
                "attrs": f'{{"ani": "{ani}"}}'}
    events = pd.DataFrame([event(1, 5, "call_received", 20, "(555) 000-1111", "911-1"),
                           event(2, 5, "call_received", 30, "555.000.2222", "911-2"),
                           event(3, 7, "call_answered", 24, "5550001111", "THEFT-9", "cad")])
    rm = ResponseMetrics([], {}, events)
    rm.first = _moment(10, "shots", None, 0, 1)
    rm.incident_calls = frozenset({"7#SHOOT-1"})
    rm._first_call()
    (f,) = rm.out
    assert f.evidence == [2] and "may_be_earlier" not in f.payload
    assert f.value_lo == T0 + 30_000


def test_a_caller_who_reported_something_else_an_hour_before_still_counts():
    def event(i, source, kind, at_s, ani, call_no=None, source_kind="call911"):
        t = T0 + at_s * 1000
        return {"id": i, "kind": kind, "source_kind": source_kind, "text": None, "source_id": source,
                "transferred_in": False, "t_lo": t, "t_hi": t + 1000, "best": t + 500, "call": call_no,
                "attrs": f'{{"ani": "{ani}"}}'}
    events = pd.DataFrame([event(1, 5, "call_received", 20, "5550001111"),
                           event(3, 7, "call_answered", -3600, "5550001111", "THEFT-9", "cad")])
    rm = ResponseMetrics([], {}, events)
    rm.first = _moment(10, "shots", None, 0, 1)
    rm.incident_calls = frozenset({"7#SHOOT-1"})
    rm._first_call()
    (f,) = rm.out
    assert f.evidence == [1]


def _last_shots(moments):
    units = {1: {"name": "D389", "agency": "SO", "armed": True}}
    out = ResponseMetrics(moments, units, _no_events()).compute()
    return next(f for f in out if f.name == "last_shots")


def test_a_unit_hearing_shots_after_the_last_the_camera_saw_moves_the_last_shots_on():
    seen = [_moment(10, "shots", None, 0, 2), _moment(11, "shots", None, 60, 62)]
    heard = _moment(12, "shots_heard", 1, 108, 124)  # "he's still shooting": a burst upstairs, off camera
    f = _last_shots(seen + [heard])
    assert f.value_lo == T0 + 108 * 1000  # the burst it heard, up to 12 s before the words
    assert f.value_hi == T0 + (124 + 10) * 1000  # which may run on 10 s
    assert f.evidence == [12] and f.payload["heard"] == 1


def test_shots_heard_long_after_every_shot_known_do_not_move_the_last_shots():
    seen = [_moment(10, "shots", None, 0, 2)]
    stale = _moment(12, "shots_heard", 1, 900, 901)  # "shots fired" a quarter of an hour on
    f = _last_shots(seen + [stale])
    assert (f.value_lo, f.value_hi) == (T0, T0 + 12 * 1000) and f.payload["heard"] == 0


def test_a_report_that_may_be_of_the_last_placed_burst_leaves_the_last_shots_where_they_were():
    seen = [_moment(10, "shots", None, 0, 2), _moment(11, "shots", None, 60, 62)]
    heard = _moment(12, "shots_heard", 1, 51, 65)  # words at 63-65: the burst at 60 it may be
    f = _last_shots(seen + [heard])
    assert (f.value_lo, f.value_hi) == (T0 + 60_000, T0 + 72_000) and f.payload["heard"] == 0


def test_a_report_on_a_clock_known_only_within_minutes_does_not_move_the_last_shots():
    seen = [_moment(10, "shots", None, 0, 2)]
    unsure = _moment(12, "shots_heard", 1, -150, 170)  # a campus radio nobody could tie
    f = _last_shots(seen + [unsure])
    assert (f.value_lo, f.value_hi) == (T0, T0 + 12_000) and f.payload["heard"] == 0

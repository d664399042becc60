"""Clock offsets from shared moments: right, robust to wrong matches, honest when unknown."""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import pair_estimates, pinned_conflicts, solve

T0 = 1_700_000_000_000


def _moments(rows):
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency"])


def _sources(kinds):
    return pd.DataFrame({"id": list(kinds), "kind": list(kinds.values())})


def test_offset_of_a_camera_from_shots_it_saw_with_wrong_matches_around():
    rows, n = [], 0
    bursts = [0, 40_000, 95_000, 160_000, 300_000]
    for b in bursts:  # the sensor network (declared reference) and a camera 232.5 s slow see each burst
        rows.append((n := n + 1, 1, T0 + b, 0, "shots", None, 0, "SCH"))
        rows.append((n := n + 1, 2, T0 + b - 232_500, 1000, "shots", None, 0, "SCH"))
    rows.append((n := n + 1, 2, T0 + 500_000, 1000, "shots", None, 0, "SCH"))  # a false alarm
    clocks = solve(_sources({1: "sensor", 2: "camera"}), pair_estimates(_moments(rows)), {}, {1: 1.5})
    assert clocks[1].status == "reference"
    assert abs(clocks[2].offset_s - (-232.0)) <= 1.0  # 1 s precision camera
    # the estimate carries the sensor network's own doubt (within +/- 1.5 s, alike anywhere
    # in it: a standard deviation of 1.5/sqrt(3)): it is only as good as its reference
    assert clocks[2].anchors == 5 and 1.5 / 3 ** 0.5 <= clocks[2].uncertainty_s < 1.5


def test_source_sharing_nothing_keeps_its_offset_unknown():
    rows = [(1, 1, T0, 0, "shots", None, 0, "SCH"), (2, 3, T0 + 5000, 0, "unit_arrived", 7, 2, "CO")]
    clocks = solve(_sources({1: "sensor", 3: "cad"}), pair_estimates(_moments(rows)), {}, {1: 1.5})
    assert clocks[3].status == "unknown" and clocks[3].offset_s is None
    assert "no recorded moment" in clocks[3].note


def test_typed_reports_bound_the_clock_from_their_earliest():
    # radio (rank 1) and CAD typed from it (rank 2): CAD always later by 2-8 s, CAD clock +20 s
    rows, n = [], 0
    for i, lag in enumerate([2.1, 5.0, 7.5, 3.3, 6.2]):
        t = T0 + i * 60_000
        rows.append((n := n + 1, 1, t, 0, "unit_arrived", i, 1, "CO"))
        rows.append((n := n + 1, 2, t + (lag + 20) * 1000, 0, "unit_arrived", i, 2, "CO"))
    pairs = pair_estimates(_moments(rows))
    assert len(pairs) == 1 and pairs[0].lagged
    assert 20.0 <= pairs[0].delta_s <= 22.5


def test_pinned_offset_wins_and_contradicting_pins_are_reported():
    rows = [(1, 1, T0, 0, "channels_patched", "channels_patched", 0, "A"),
            (2, 2, T0 + 10_000, 0, "channels_patched", "channels_patched", 0, "B")]
    pairs = pair_estimates(_moments(rows))
    clocks = solve(_sources({1: "radio", 2: "radio"}), pairs, {1: (0.0, 0.0)})
    assert clocks[1].status == "pinned" and abs(clocks[2].offset_s - 10.0) < 0.5
    problems = pinned_conflicts(pairs, {1: (0.0, 0.0), 2: (-30.0, 0.0)}, {1: "a.csv", 2: "b.csv"})
    assert problems and "a.csv" in problems[0] and "b.csv" in problems[0]


def test_records_written_to_the_minute_bound_the_clock_from_both_sides():
    # patient records (rank 0) written to the minute on a clock 0 s off; the radio's
    # "transporting" (rank 1) 0-10 s later on a clock 17 s fast
    rows, n = [], 0
    for i, (sec, lag) in enumerate([(5.0, 3.0), (52.0, 8.0), (31.0, 1.0), (44.0, 6.0), (12.0, 9.0), (58.5, 2.5)]):
        t = T0 + i * 600_000 + sec * 1000  # the true moment, sec seconds into its minute
        minute = t - sec * 1000
        rows.append((n := n + 1, 1, minute + 30_000, 60_000, "patient_transported", i, 0, "FR"))
        rows.append((n := n + 1, 2, t + (lag + 17) * 1000, 0, "patient_transported", i, 1, "FR"))
    pairs = pair_estimates(_moments(rows))
    assert len(pairs) == 1 and pairs[0].lagged
    # the middle of the minute and the earliest report put it 20 s off; the bounds hold it
    # within 10 s and say how unsure it is (truth within two of its sigmas)
    est = pairs[0]
    assert abs(est.delta_s - 17.0) <= 10.0 and abs(est.delta_s - 17.0) <= 2 * est.sigma_s <= 20.0


def test_a_relayed_copy_that_always_trails_does_not_make_the_clock_look_surer():
    # CAD stamps its copy of each AVL geofence fix on receipt, 0.6-0.9 s after the fix
    # (over the modem), on a clock 2 s fast: forty shared moments, all leaning one way
    rows, n = [], 0
    for i in range(40):
        t = T0 + i * 45_000
        rows.append((n := n + 1, 1, t, 0, "unit_position", i, 0, "CO"))
        rows.append((n := n + 1, 2, t + 2000 + 600 + (i % 4) * 100, 0, "unit_position", i, 0, "CO"))
    clocks = solve(_sources({1: "avl", 2: "cad"}), pair_estimates(_moments(rows)), {}, {1: 0.1})
    est = clocks[2]
    assert est.status == "estimated" and abs(est.offset_s - 2.0) < 1.0
    # the lean is in every record alike: forty of them do not shrink the doubt below it,
    # and the truth stays inside twice what is stated
    assert est.uncertainty_s >= 0.5
    assert abs(est.offset_s - 2.0) <= 2 * est.uncertainty_s


def test_fixes_every_ten_seconds_pair_with_their_copies_jointly_not_by_nearest_time():
    # CAD copies of AVL fixes (fixes 8-14 s apart), stamped 0.7 s after the fix on a clock
    # 25 s fast: the fix one before lines most copies up too, but spread over seconds
    rng = np.random.default_rng(5)
    rows, n = [], 0
    for car in range(8):
        t = T0 + car * 500_000.0
        for k in range(40):
            t += rng.uniform(8_000, 14_000)
            rows.append((n := n + 1, 1, t, 0, "unit_position", car, 0, "CO"))
            if k in (12, 25):
                rows.append((n := n + 1, 2, t + 25_700, 0, "unit_position", car, 0, "CO"))
    clocks = solve(_sources({1: "avl", 2: "cad"}), pair_estimates(_moments(rows)), {}, {1: 0.1})
    assert abs(clocks[2].offset_s - 25.7) < 0.5


def test_fixes_exactly_periodic_leave_the_clock_ambiguous_and_say_so():
    # every 10.0 s exactly: the copies line up as well one fix off as at the right one
    rows, n = [], 0
    for car in range(8):
        t = T0 + car * 500_000.0
        for k in range(40):
            t += 10_000
            rows.append((n := n + 1, 1, t, 0, "unit_position", car, 0, "CO"))
            if k in (12, 25):
                rows.append((n := n + 1, 2, t + 25_700, 0, "unit_position", car, 0, "CO"))
    (pair,) = pair_estimates(_moments(rows))
    assert pair.sigma_s >= 5.0  # as unsure as the distance to the other difference that fits


def test_one_transmission_matched_by_its_words_is_no_evidence():
    # two recorders share one line of words ("10-4, en route to the school") nine minutes
    # apart: words repeat; one such coincidence must not set a clock
    rows = [(1, 1, T0, 0, "transmission", "10 4 en route to the school", 0, "A"),
            (2, 2, T0 + 514_000, 0, "transmission", "10 4 en route to the school", 0, "B")]
    assert pair_estimates(_moments(rows)) == []
    # two of them, at one difference, are
    rows += [(3, 1, T0 + 60_000, 0, "transmission", "engine 12 staging on main street", 0, "A"),
             (4, 2, T0 + 574_000, 0, "transmission", "engine 12 staging on main street", 0, "B")]
    pairs = pair_estimates(_moments(rows))
    assert len(pairs) == 1 and abs(pairs[0].delta_s - 514.0) < 0.5


def test_two_reports_of_one_arrival_bound_the_clocks_only_loosely():
    # a crew's terminal (rank 1) and its radio call (rank 1) each trail the arrival by a lag
    # of their own: their difference is not the clocks' difference to a second
    rows = [(1, 1, T0, 0, "unit_arrived", 7, 1, "CO"), (2, 2, T0 + 26_900, 0, "unit_arrived", 7, 1, "CO")]
    pairs = pair_estimates(_moments(rows).assign(spoken=[False, True]))
    assert len(pairs) == 1 and pairs[0].lagged and pairs[0].sigma_s >= 10.0
    # the same words logged by two recorders are one moment, as sure as it happens
    pairs = pair_estimates(_moments(rows).assign(spoken=[True, True]))
    assert len(pairs) == 1 and not pairs[0].lagged and pairs[0].sigma_s < 3.0


def _door_log_and_camera(camera_place: str, door_places: list[str]):
    """A camera's three "officers enter" (one at the West doors' camera twice) and a door
    log 250 s fast with twenty openings scattered over the hour besides two at those doors."""
    from onrecord.reconstruct.places import place_key

    rng = np.random.default_rng(4)
    camera = [T0, T0 + 95_000, T0 + 610_000]
    doors = list(T0 + rng.uniform(-1_500_000, 1_500_000, 20)) + [camera[0] + 251_000, camera[1] + 250_000]
    rows = [(i + 1, 1, t, 1000.0, "entry", None, 0, "SD", place_key(camera_place if i < 2 else "Gym hall"))
            for i, t in enumerate(camera)]
    rows += [(100 + i, 2, float(np.floor(t / 1000) * 1000 + 500), 1000.0, "entry", None, 0, "SD",
              place_key(door_places[i % len(door_places)] if i < 20 else "Gymnasium West Doors"))
             for i, t in enumerate(doors)]
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency",
                                       "place"])


def test_a_door_log_and_a_camera_matched_at_the_door_both_name():
    # by time alone the two line up as chance would (tests/reconstruct/test_lagged_moments.py);
    # among the openings of the door the camera watches, two at one difference are evidence
    m = _door_log_and_camera("Gymnasium West Doors (exterior)", ["Gymnasium East Doors", "Gymnasium North Doors",
                                                                 "Gymnasium South Doors", "Library SW Doors"])
    (pair,) = pair_estimates(m)
    assert pair.via == "same door" and abs(pair.delta_s - 250.5) <= 1.5 and len(pair.anchors) == 2


def test_a_door_log_at_the_cameras_door_all_day_is_still_chance():
    # every opening at the door the camera watches: the place no longer narrows the candidates
    m = _door_log_and_camera("Gymnasium West Doors (exterior)", ["Gymnasium West Doors"])
    assert pair_estimates(m) == []

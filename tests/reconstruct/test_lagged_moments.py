"""A campus sensor clock that shares no unit, call or transmission with anyone is tied to
the others through the shots officers say they hear, jointly, or not at all."""

from __future__ import annotations

import numpy as np
import pandas as pd

from onrecord.reconstruct.clocks import (
    CHANCE,
    ClockEstimate,
    PairEstimate,
    by_chance,
    pair_estimates,
    solve,
)
from onrecord.reconstruct.lagged_moments import tie_components
from onrecord.reconstruct.moments import moment_of

T0 = 1_750_000_000_000
SENSOR_OFFSET_S = -70.4  # the campus sensor clock runs 70.4 s slow
RADIO_B_OFFSET_S = 20.0
# first impulse of each burst (s after T0, true time): irregular, as an attacker fires
BURSTS = [0.0, 15.2, 74.8, 150.1, 231.0, 255.7, 317.4, 338.9, 352.6]
# (radio, burst it follows, lag s): officers keying up a few seconds after a burst
REPORTS = [(1, 1, 3.4), (1, 7, 2.9), (2, 6, 2.6), (2, 8, 3.8), (1, 4, 4.9)]


def _anchored(reports=REPORTS, bursts=BURSTS) -> pd.DataFrame:
    rows, n = [], 0
    for t in bursts:
        for sensor_lag in (0.05, 0.2):  # two sensors hear each burst
            n += 1
            rows.append((n, 3, T0 + (t + sensor_lag + SENSOR_OFFSET_S) * 1000, 1000.0, "shots", None, 0))
    for radio, burst, lag in reports:
        n += 1
        offset = 0.0 if radio == 1 else RADIO_B_OFFSET_S
        rows.append((n, radio, T0 + (bursts[burst] + lag + offset) * 1000, 1000.0, "shots_heard", 500 + n, 1))
    return pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank"])


def _clocks() -> dict:
    return {1: ClockEstimate(1, "reference", 0.0, 0.5, 10),
            2: ClockEstimate(2, "estimated", RADIO_B_OFFSET_S, 1.0, 10),
            3: ClockEstimate(3, "unknown", None, None, 4, [], relative_s=0.0)}


SOURCES = pd.DataFrame({"id": [1, 2, 3], "kind": ["radio", "radio", "sensor"]})
RADIOS = PairEstimate(1, 2, RADIO_B_OFFSET_S, 0.5, [(0, 0, 0.0)] * 5, False)


def test_the_shots_units_report_tie_the_sensor_clock_and_its_stated_uncertainty_holds_the_truth():
    found = tie_components(_anchored(), _clocks())
    assert {(p.a, p.b) for p in found} == {(3, 1), (3, 2)}  # one estimate per pair of real sources
    assert all(p.lagged for p in found)  # one-sided: reports trail their bursts
    clocks = solve(SOURCES, [RADIOS, *found], {}, {1: 0.5})
    c = clocks[3]
    assert c.status == "estimated"
    err = abs(c.offset_s - SENSOR_OFFSET_S)
    assert err < 5.0
    assert err <= c.uncertainty_s  # truth within the stated ±


def test_without_known_clocks_to_hear_them_nothing_is_tied():
    clocks = _clocks()
    clocks[1] = ClockEstimate(1, "unknown", None, None, 0, [])
    clocks[2] = ClockEstimate(2, "unknown", None, None, 0, [])
    assert tie_components(_anchored(), clocks) == []


def test_too_few_reports_tie_nothing():
    assert tie_components(_anchored(REPORTS[:2]), _clocks()) == []


def test_bursts_at_a_steady_beat_leave_the_choice_open_and_nothing_is_tied():
    # every 20 s: each report fits the burst before it at any multiple of 20 s as well
    steady = [20.0 * k for k in range(18)]
    reports = [(1, 2, 3.0), (1, 9, 3.5), (2, 5, 2.5), (2, 12, 4.0)]
    assert tie_components(_anchored(reports, steady), _clocks()) == []


def test_a_near_rival_widens_the_stated_uncertainty_to_hold_it():
    # bursts in pairs 14 s apart: three of four reports also fit the earlier of each pair
    paired = [0.0, 14.0, 100.0, 114.0, 200.0, 214.0, 300.0, 333.0]
    reports = [(1, 1, 3.0), (1, 3, 3.2), (2, 5, 2.8), (2, 7, 3.5)]
    found = tie_components(_anchored(reports, paired), _clocks())
    assert found and all(p.sigma_s >= 10.0 for p in found)
    clocks = solve(SOURCES, [RADIOS, *found], {}, {1: 0.5})
    assert abs(clocks[3].offset_s - SENSOR_OFFSET_S) <= clocks[3].uncertainty_s


def test_a_unit_saying_it_hears_shots_records_a_heard_burst_a_dispatcher_or_an_echo_does_not():
    said = moment_of("radio_transmission", "14-73, 10-71, shots fired north hall", 7, {})
    assert (said.what, said.who, said.rank) == ("shots_heard", 7, 1)
    assert moment_of("radio_transmission", "Campus 3 I hear shots upstairs", 8, {}).what == "shots_heard"
    assert moment_of("radio_transmission", "shots fired at the school, respond", None, {}) is None  # no unit
    for echo in ("14-73 copy 10-71", "Campus 3 no more shots"):
        assert moment_of("radio_transmission", echo, 7, {}).what != "shots_heard"  # (its words, as any line's)


def test_records_matched_by_time_alone_among_many_are_refused_as_chance():
    # a door log's routine badge use (twenty openings in the hour) against a camera's three
    # "officers enter": two line up at one difference by chance, and nowhere else do two
    rng = np.random.default_rng(4)
    camera = [T0, T0 + 95_000, T0 + 610_000]
    doors = list(T0 + rng.uniform(-1_500_000, 1_500_000, 20)) + [camera[0] + 251_000, camera[1] + 250_000]
    rows = [(i + 1, 1, t, 1000.0, "entry", None, 0) for i, t in enumerate(camera)]
    rows += [(100 + i, 2, float(np.floor(t / 1000) * 1000 + 500), 1000.0, "entry", None, 0)
             for i, t in enumerate(doors)]
    m = pd.DataFrame(rows, columns=["id", "source_id", "t_mid", "width", "family", "who", "rank"])
    assert pair_estimates(m.assign(agency="CO")) == []
    # the odds behind it: 2 of 22 x 3 differences in one window somewhere, likely; 4 of 90, not
    assert by_chance(66, 12.0, 2) > CHANCE
    assert by_chance(90, 6.0, 4) < CHANCE


def test_the_clock_table_says_a_tied_clock_was_read_against_the_radios_through_the_shots_heard():
    from onrecord.reconstruct.clocks import _evidence
    from onrecord.reconstruct.understood import _clock

    found = tie_components(_anchored(), _clocks())
    clocks = solve(SOURCES, [RADIOS, *found], {}, {1: 0.5})
    c = clocks[3]
    assert c.evidence == _evidence(3, [RADIOS, *found])
    said = _clock(c, {1: "NORTHRADIO.csv", 2: "CITYRADIO.csv", 3: "GUNSHOTS.csv"})
    assert said["against"] == ["CITYRADIO.csv (shots heard)", "NORTHRADIO.csv (shots heard)"]

"""How soon a case's spoken arrival reports come, read off its located arrivals."""

from __future__ import annotations

import numpy as np

from onrecord.reconstruct.report_lag import MIN_CARS, spoken_lag_window


def _cars(lags, fix_every_s: float, rng) -> list[tuple[float, float]]:
    # each car crossed into the fence somewhere between two fixes; its crew spoke `lag` on
    out = []
    for lag in lags:
        into = rng.uniform(0, fix_every_s)  # how long before the fix inside it crossed
        out.append((lag - into, lag - into + fix_every_s))
    return out


def test_reports_that_come_soon_narrow_the_window_and_it_still_holds_the_longest_lag():
    rng = np.random.default_rng(3)
    held = 0
    for _ in range(200):
        lags = rng.uniform(1, 15, 8)
        window = spoken_lag_window(_cars(lags, 5.0, rng), 30.0)
        assert window <= 30.0
        # a lag the case has not shown yet, drawn like the others: inside the window
        held += rng.uniform(1, 15) <= window
    assert held >= 196
    assert np.median([spoken_lag_window(_cars(rng.uniform(1, 15, 8), 5.0, rng), 30.0) for _ in range(50)]) < 25


def test_too_few_located_arrivals_or_a_late_report_leave_the_default():
    rng = np.random.default_rng(4)
    assert spoken_lag_window(_cars([5.0] * (MIN_CARS - 1), 5.0, rng), 30.0) == 30.0
    assert spoken_lag_window(_cars([5.0] * MIN_CARS, 5.0, rng) + [(31.0, 36.0)], 30.0) == 30.0
    # one that came at least 28 s late: the window never falls short of a lag the case shows
    assert 28.0 <= spoken_lag_window(_cars([5.0] * MIN_CARS, 5.0, rng) + [(28.0, 33.0)], 30.0) < 30.0


def test_a_report_said_as_the_car_pulls_up_counts_as_no_lag():
    # "pulling up now": said before the fix inside; a lag of nothing, never a negative one
    window = spoken_lag_window([(-3.0, 2.0)] * 6 + [(4.0, 9.0)] * 2, 30.0)
    assert 4.0 <= window < 30.0


def test_the_window_bounds_one_reports_lag_not_the_cases_longest():
    # eight cars whose reports came 0..15 s after their fixes: the case's longest lag may be
    # near 30 s, but one report's lag beyond the window is the rarer thing; the window is
    # narrower than the tail of the longest lag, and still past every lag the case shows
    bounds = [(float(a), float(a) + 14.0) for a in (1, 3, 5, 6, 8, 10, 11, 15)]
    window = spoken_lag_window(bounds, 30.0)
    assert 15.0 <= window < 28.0


def _row(fid, who, lo, hi, members, located=()):
    from onrecord.reconstruct.moments import MomentRow

    return MomentRow(fid, "unit_arrived", who, "PD", lo, hi, hi, members, {}, False, located=list(located))


def test_an_arrival_known_only_from_its_spoken_report_reaches_back_as_far_as_the_case_shows():
    from onrecord.reconstruct.report_lag import narrow_spoken_arrivals

    t = 1_700_000_000_000
    out, used, a, e = [], [], {"spoken": {}, "rank": {}}, {"t_lo": {}, "t_hi": {}, "source_id": {}}

    def event(i, at, rank, spoken, source):
        a["spoken"][i], a["rank"][i] = spoken, rank
        e["t_lo"][i], e["t_hi"][i], e["source_id"][i] = at - 500, at + 500, source

    # six cars: fix before, fix inside 5 s on, the crew's "on scene" 4-9 s after that
    for k in range(6):
        base = t + k * 100_000
        event(10 * k + 1, base, 0, False, 1)
        event(10 * k + 2, base + 5_000, 0, False, 1)
        event(10 * k + 3, base + 5_000 + (4 + k) * 1000, 1, True, 2)
        out.append(_row(10 * k + 3, k, base, base + 5_000, [10 * k + 3], located=(10 * k + 1, 10 * k + 2)))
        used.append([])
    # the school officer on foot: only its "I'm here" at `said`
    said = t + 900_000
    event(99, said, 1, True, 3)
    out.append(_row(99, 50, said - 500 - 30_000, said + 500, [99]))
    used.append([{"rank": 1, "t_lo": said - 500, "t_hi": said + 500, "said": said, "spoken": True}])
    narrow_spoken_arrivals(out, used, a, e, unsure=set())
    officer = out[-1]
    assert said - 500 - 30_000 < officer.lo <= said - 500 - 9_000 and officer.hi == said + 500
    # the same reports on a clock nobody could tie measure nothing
    out[-1] = _row(99, 50, said - 500 - 30_000, said + 500, [99])
    narrow_spoken_arrivals(out, used, a, e, unsure={2})
    assert out[-1].lo == said - 500 - 30_000


def test_each_recorder_is_read_for_how_soon_its_own_people_speak():
    """A deputy's channel says "on scene" within seconds; the fire channel's "in position at
    the casualty collection point" comes after parking and dismounting. An arrival known only
    from the deputies' channel is bounded by how soon they speak, not by the firefighters'."""
    from onrecord.reconstruct.report_lag import narrow_spoken_arrivals

    t = 1_700_000_000_000
    out, used, a, e = [], [], {"spoken": {}, "rank": {}}, {"t_lo": {}, "t_hi": {}, "source_id": {}}

    def event(i, at, rank, spoken, source):
        a["spoken"][i], a["rank"][i] = spoken, rank
        e["t_lo"][i], e["t_hi"][i], e["source_id"][i] = at - 500, at + 500, source

    for k in range(12):  # six cars on each channel: the deputies' 4-9 s, the firefighters' 20-25 s
        channel, lag_s = (2, 4 + k) if k < 6 else (4, 14 + k)
        base = t + k * 100_000
        event(10 * k + 1, base, 0, False, 1)
        event(10 * k + 2, base + 5_000, 0, False, 1)
        event(10 * k + 3, base + 5_000 + lag_s * 1000, 1, True, channel)
        out.append(_row(10 * k + 3, k, base, base + 5_000, [10 * k + 3], located=(10 * k + 1, 10 * k + 2)))
        used.append([])
    said = t + 1_500_000
    for i, channel in ((98, 2), (99, 4)):  # an officer on foot on each channel
        event(i, said, 1, True, channel)
        out.append(_row(i, i, said - 500 - 30_000, said + 500, [i]))
        used.append([{"rank": 1, "t_lo": said - 500, "t_hi": said + 500, "said": said, "spoken": True,
                      "source_id": channel}])
    narrow_spoken_arrivals(out, used, a, e, unsure=set())
    deputy, firefighter = out[-2], out[-1]
    assert said - 500 - 30_000 < firefighter.lo < deputy.lo <= said - 500 - 9_000

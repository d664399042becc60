"""A duration read off one clock drops that clock's width; ends on two clocks keep both."""

from __future__ import annotations

import pandas as pd

from onrecord.findings.metrics import ResponseMetrics
from onrecord.findings.same_clock import one_clock_span
from onrecord.reconstruct.clocks import ClockEstimate
from onrecord.reconstruct.moments import MomentRow

T0 = 1_700_000_000_000
UNC = 40.0  # a radio recorder known within ±40 s


def _moment(i, family, who, lo_s, hi_s, members):
    lo, hi = T0 + lo_s * 1000, T0 + hi_s * 1000
    return MomentRow(i, family, who, None, lo, hi, (lo + hi) / 2, members, {who: members} if who else {}, True)


def _events(sources: dict[int, int]):
    n = len(sources)
    return pd.DataFrame({"id": list(sources), "source_id": list(sources.values()), "kind": ["x"] * n,
                         "source_kind": ["radio"] * n, "text": [""] * n, "transferred_in": [False] * n,
                         "t_lo": [0.0] * n, "t_hi": [0.0] * n, "best": [0.0] * n, "call": [None] * n})


def test_both_ends_on_one_clock_cancel_its_offset_and_two_clocks_do_not():
    clocks = {7: ClockEstimate(7, "estimated", 12.0, UNC, 5), 8: ClockEstimate(8, "estimated", -3.0, UNC, 5)}
    # an arrival said on the radio (written 100..101 s, so 60..141 on the common clock), the
    # entry said 90 s later on the same radio
    arrival = _moment(1, "unit_arrived", 1, 100 - UNC, 101 + UNC, [11])
    entry = _moment(2, "entry", None, 190 - UNC, 191 + UNC, [12])
    lo, hi, on = one_clock_span(arrival, entry, {11: 7, 12: 7}, clocks)
    assert on == 7 and lo <= 90 <= hi and hi - lo <= 2.0 + 1e-6  # the written seconds' width, not 160 s
    assert one_clock_span(arrival, entry, {11: 7, 12: 8}, clocks) is None
    # sources declared to share one clock are one clock
    assert one_clock_span(arrival, entry, {11: 7, 12: 8}, clocks, shared={8: 7}) is not None


def test_a_moment_narrowed_below_its_clocks_width_cancels_nothing():
    clocks = {7: ClockEstimate(7, "estimated", 12.0, UNC, 5)}
    arrival = _moment(1, "unit_arrived", 1, 100, 101, [11])  # narrowed by an AVL fix on another clock
    entry = _moment(2, "entry", None, 190 - UNC, 191 + UNC, [12])
    assert one_clock_span(arrival, entry, {11: 7, 12: 7}, clocks) is None


def test_the_metric_says_which_clock_it_was_read_off():
    clocks = {7: ClockEstimate(7, "estimated", 12.0, UNC, 5)}
    shots = _moment(10, "shots", None, 0 - UNC, 1 + UNC, [20])
    arrival = _moment(11, "unit_arrived", 1, 100 - UNC, 101 + UNC, [21])
    entry = _moment(12, "entry", None, 190 - UNC, 191 + UNC, [22])
    entry.officers_seen = True
    units = {1: {"name": "2B25", "agency": "PD", "armed": True}}
    out = ResponseMetrics([shots, arrival, entry], units, _events({20: 7, 21: 7, 22: 7}), clocks).compute()
    f = next(f for f in out if f.name == "first_armed_arrival_to_entry")
    assert f.value_lo <= 90 <= f.value_hi and f.value_hi - f.value_lo <= 2.0 + 1e-6
    assert f.payload["one_clock"] == 7
    g = next(f for f in out if f.name == "first_shot_to_first_entry")
    assert g.value_lo <= 190 <= g.value_hi and g.value_hi - g.value_lo <= 2.0 + 1e-6
    # without the clocks: the sum of both ends' widths, as before
    out = ResponseMetrics([shots, arrival, entry], units, _events({20: 7, 21: 7, 22: 7})).compute()
    f = next(f for f in out if f.name == "first_armed_arrival_to_entry")
    assert f.value_hi - f.value_lo >= 4 * UNC

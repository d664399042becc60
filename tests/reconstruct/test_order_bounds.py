"""What must come first bounds an unsure clock: a unit's entry after its arrival on a sure
clock, its arrival after its en-route; the bound narrows the clock's range and every event
on it, and never moves a clock outside what its own records say."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.align import aligned_times
from onrecord.reconstruct.clocks import UNKNOWN_UNCERTAINTY_S, ClockEstimate, loosened
from onrecord.reconstruct.order_bounds import SLACK_S, narrow_events, order_bounded, order_bounds

T0 = 1_750_000_000_000
COLS = ["id", "source_id", "t_mid", "width", "family", "who", "rank"]
AVL, LOG = 1, 2  # an AVL on a clock known to a tenth of a second; a campus log written to the minute


def _table(rows):
    return pd.DataFrame(rows, columns=COLS).assign(who=lambda d: d["who"].astype(object))


def _clocks(log: ClockEstimate):
    return {AVL: ClockEstimate(AVL, "reference", 0.0, 0.1, 10), LOG: log}


def test_an_entry_typed_on_an_unknown_clock_is_bounded_to_after_the_units_arrival():
    true_offset = -40.0  # the log runs 40 s slow
    arrived = T0  # on scene by the AVL
    went_in = arrived + 90_000  # a minute and a half later: typed in the log in its minute
    written = went_in + true_offset * 1000
    minute = written - written % 60_000
    rows = [(1, AVL, arrived, 0.0, "unit_arrived", 25, 0),
            (2, LOG, minute + 30_000, 60_000.0, "entry", None, 2)]
    log = ClockEstimate(LOG, "unknown", None, None, 0, [], relative_s=0.0)
    out, per_event = order_bounds(_table(rows), _clocks(log), named_units={2: {25}})
    c = out[LOG]
    lo, hi = c.offset_range
    assert c.status == "unknown" and c.offset_s is None  # one side only: still unknown
    assert lo == -UNKNOWN_UNCERTAINTY_S and hi < UNKNOWN_UNCERTAINTY_S  # narrowed on the side the order bounds
    assert lo <= true_offset <= hi
    # the event itself: no earlier than the arrival (less the slack), whatever the clock
    events = pd.DataFrame({"id": [2], "source_id": [LOG], "t_src_lo": [float(minute)],
                           "t_src_hi": [float(minute + 60_000)]})
    t = aligned_times(events, out)
    assert t["t_lo"].iloc[0] <= went_in <= t["t_hi"].iloc[0]  # the clock's range: over the written minute
    assert t["t_lo"].iloc[0] < arrived - 30_000
    # the record's own bound: to the second
    t = narrow_events(t.rename(columns={"event_id": "id"}), per_event)
    assert arrived - (SLACK_S + 1) * 1000 <= t["t_lo"].iloc[0] <= went_in <= t["t_hi"].iloc[0]


def test_bounds_from_both_sides_give_an_unknown_clock_a_loose_offset_holding_the_truth():
    true_offset = 75.0
    rows = [(1, AVL, T0, 0.0, "unit_arrived", 25, 0),  # 25 on scene at T0 by the AVL
            (2, LOG, T0 + (40 + true_offset) * 1000, 0.0, "entry", None, 0),  # 25 went in 40 s on
            (3, AVL, T0 + 200_000, 0.0, "unit_arrived", 31, 0),  # 31 on scene at T0 + 200 s
            (4, LOG, T0 + (150 + true_offset) * 1000, 0.0, "unit_enroute", 31, 0)]  # 31 set off 50 s before
    log = ClockEstimate(LOG, "unknown", None, None, 0, [], relative_s=0.0)
    c = order_bounded(_table(rows), _clocks(log), named_units={2: {25}})[LOG]
    assert c.status == "loose"
    assert abs(c.offset_s - true_offset) <= c.uncertainty_s
    assert c.uncertainty_s < UNKNOWN_UNCERTAINTY_S


def test_an_estimate_keeps_its_centre_and_a_bound_that_contradicts_it_entirely_is_not_used():
    rows = [(1, AVL, T0, 0.0, "unit_arrived", 25, 0),
            (2, LOG, T0 + 60_000, 0.0, "entry", None, 0)]  # the entry written a minute after the arrival
    # a clock said to run 10 s fast ± 500: the order says no faster than +65 s
    wide = ClockEstimate(LOG, "estimated", 10.0, 500.0, 1)
    c = order_bounded(_table(rows), _clocks(wide), named_units={2: {25}})[LOG]
    assert c.offset_s == 10.0  # not moved
    assert c.offset_range[0] == -490.0 and c.offset_range[1] <= 60.0 + 2 * SLACK_S
    # a clock the records put at +200 ± 70: the order's +65 leaves nothing of it: not used
    against = ClockEstimate(LOG, "estimated", 200.0, 70.0, 1)
    out = order_bounded(_table(rows), _clocks(against), named_units={2: {25}})
    assert out[LOG] is against


def test_a_sure_clock_is_not_bounded_and_records_of_another_unit_bound_nothing():
    rows = [(1, AVL, T0, 0.0, "unit_arrived", 25, 0),
            (2, LOG, T0 - 600_000, 0.0, "entry", None, 0)]  # an entry of unit 31, long before 25 got there
    log = ClockEstimate(LOG, "unknown", None, None, 0, [], relative_s=0.0)
    assert order_bounded(_table(rows), _clocks(log), named_units={2: {31}})[LOG] is log
    sure = ClockEstimate(LOG, "estimated", 0.0, 2.0, 5)
    assert order_bounded(_table(rows), _clocks(sure), named_units={2: {25}})[LOG] is sure


def test_an_estimate_wider_than_an_unknown_clock_is_said_to_be_loose():
    clocks = {1: ClockEstimate(1, "estimated", 14.0, 861.0, 8, note="from shared moments"),
              2: ClockEstimate(2, "estimated", 14.0, 20.0, 8)}
    out = loosened(clocks)
    assert out[1].status == "loose" and out[1].offset_s == 14.0 and "only bounded" in out[1].note
    assert out[2].status == "estimated"


def test_records_of_a_units_earlier_call_bound_nothing():
    # the AVL holds the unit's arrival at a call ten minutes before; the campus log, running
    # 40 s slow, its en-route to this one; the sure clocks' arrival at this one, later
    rows = [(1, AVL, T0 - 600_000, 0.0, "unit_arrived", 25, 0),  # ten minutes before: another call
            (2, LOG, T0 - 60_000 - 40_000, 0.0, "unit_enroute", 25, 0),  # en route to this one, written 40 s slow
            (3, AVL, T0, 0.0, "unit_arrived", 25, 0)]
    log = ClockEstimate(LOG, "estimated", -40.0, 1000.0, 1)
    c = order_bounded(_table(rows), _clocks(log))[LOG]
    lo, hi = c.offset_range or (c.offset_s - c.uncertainty_s, c.offset_s + c.uncertainty_s)
    assert lo <= -40.0 <= hi


def test_a_narrowed_estimate_still_holds_within_twice_its_plus_minus_what_its_old_one_did():
    # the truth at -150 s: outside the clock's ±100 but within twice it, as a ± allows
    truth = -150.0
    rows = [(1, AVL, T0, 0.0, "unit_arrived", 25, 0),
            (2, LOG, T0 + (60 + truth) * 1000, 0.0, "entry", None, 0),  # went in a minute after arriving
            (3, AVL, T0 + 500_000, 0.0, "unit_arrived", 31, 0),
            (4, LOG, T0 + (400 + truth) * 1000, 0.0, "unit_enroute", 31, 0)]  # set off 100 s before
    est = ClockEstimate(LOG, "estimated", 0.0, 100.0, 3)
    c = order_bounded(_table(rows), _clocks(est), named_units={2: {25}})[LOG]
    assert c.offset_range is not None and c.offset_range[1] < -80.0  # narrowed, the centre moved into it
    assert c.uncertainty_s < 100.0
    assert abs(c.offset_s - truth) <= 2 * c.uncertainty_s

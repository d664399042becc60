"""An arrival seen in AVL bounds the arrival the radio and CAD report."""

from __future__ import annotations

from onrecord.reconstruct.avl_arrival import tighten_arrivals
from onrecord.reconstruct.moments import MomentRow

T0 = 1_700_000_000_000


def _moment(fid, family, who, lo, hi, members):
    return MomentRow(fid, family, who, "SO", lo, hi, (lo + hi) / 2, members, {who: members}, True)


def test_the_geofence_fix_and_the_fix_before_it_bound_the_arrival():
    # AVL fixes of unit 7 every 20 s: 1, 2 (moving), 3 (the first inside the geofence, copied by CAD as 4)
    t = {1: T0, 2: T0 + 20_000, 3: T0 + 40_000, 4: T0 + 40_600, 5: T0 + 48_000, 6: T0 + 60_000}
    kinds = {1: "avl", 2: "avl", 3: "avl", 4: "cad", 5: "radio", 6: "cad"}
    # the radio "on scene" (5) and CAD's typed arrival (6) allow 30 s before the radio call
    arrival = _moment(5, "unit_arrived", 7, T0 + 18_000, T0 + 48_000, [5, 6])
    moments = [_moment(1, "unit_position", 7, T0, T0, [1]),
               _moment(2, "unit_position", 7, T0 + 20_000, T0 + 20_000, [2]),
               _moment(3, "unit_position", 7, T0 + 37_000, T0 + 40_600, [3, 4]), arrival]
    tighten_arrivals(moments, t, t, kinds)
    assert (arrival.lo, arrival.hi) == (T0 + 20_000, T0 + 40_000)
    assert arrival.members == [5, 6] and arrival.located == [2, 3]  # evidence, not fused reports
    assert set(arrival.evidence) == {2, 3, 5, 6}


def test_without_cad_taking_a_fix_as_on_scene_nothing_changes():
    t = {1: T0, 2: T0 + 20_000, 5: T0 + 48_000}
    kinds = {1: "avl", 2: "avl", 5: "radio"}
    arrival = _moment(5, "unit_arrived", 7, T0 + 18_000, T0 + 48_000, [5])
    moments = [_moment(1, "unit_position", 7, T0, T0, [1]),
               _moment(2, "unit_position", 7, T0 + 20_000, T0 + 20_000, [2]),
               arrival]
    tighten_arrivals(moments, t, t, kinds)
    assert (arrival.lo, arrival.hi) == (T0 + 18_000, T0 + 48_000) and arrival.located == []

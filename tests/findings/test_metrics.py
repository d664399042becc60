"""The response metrics from moments: which armed unit was first on scene."""

from __future__ import annotations

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


def test_an_arrival_known_only_within_minutes_does_not_displace_one_known_to_seconds():
    shots = _moment(10, "shots", None, 0, 1)
    sure = _moment(11, "unit_arrived", 1, 100, 110)          # a CAD tied to a trusted clock
    unsure = _moment(12, "unit_arrived", 2, -180, 420)       # a campus radio whose clock is unknown
    f = _first_armed([shots, sure, unsure])
    assert f.payload["unit"] == "1R16" and f.value_lo == sure.lo and f.value_hi == sure.hi
    assert f.payload["may_be_earlier"] == ["SP03"]  # said, not hidden


def test_a_sure_arrival_first_is_named_whatever_else_is_unsure():
    shots = _moment(10, "shots", None, 0, 1)
    first = _moment(11, "unit_arrived", 2, 90, 95)
    later = _moment(12, "unit_arrived", 1, 100, 110)
    f = _first_armed([shots, first, later])
    assert f.payload["unit"] == "SP03" and "may_be_earlier" not in f.payload

"""Patients transported: one per unit leaving with a patient, however many sources say so."""

from __future__ import annotations

import pandas as pd

from onrecord.findings.metrics import ResponseMetrics
from onrecord.findings.transports import leavings
from onrecord.reconstruct.moments import MomentRow

T0 = 1_700_000_000_000
CAD, EPCR, RADIO = 1, 2, 3


def _moment(i, who, at_s, members):
    t = T0 + at_s * 1000
    return MomentRow(i, "patient_transported", who, "FD", t, t + 1000, t + 500, list(members),
                     {who: list(members)}, False)


def test_the_cad_status_the_epcr_row_and_the_radio_of_one_leaving_are_one_transport():
    source_of = {1: CAD, 2: EPCR, 3: RADIO}
    fused = [_moment(100, 7, 600, [1, 2, 3])]
    assert len(leavings(fused, source_of)) == 1
    # fusion left the late-typed CAD status apart: still the same leaving
    apart = [_moment(100, 7, 600, [2, 3]), _moment(101, 7, 780, [1])]
    assert [[m.fused_id for m in g] for g in leavings(apart, source_of)] == [[100, 101]]


def test_two_records_of_one_source_are_two_patients_and_a_later_trip_is_another():
    source_of = {1: EPCR, 2: EPCR, 3: CAD, 4: EPCR}
    together = [_moment(100, 7, 600, [1, 3]), _moment(101, 7, 600, [2])]  # two patients, one row each
    later = [_moment(102, 7, 600 + 2400, [4])]  # back from the hospital, out again
    assert len(leavings(together + later, source_of)) == 3
    # other units' leavings never merge with this one's
    other = [_moment(103, 8, 610, [5])]
    assert len(leavings(together + other, {**source_of, 5: CAD})) == 3


def test_the_metric_counts_leavings_not_records():
    events = pd.DataFrame({"id": [1, 2, 3, 4, 5, 6], "source_id": [CAD, EPCR, RADIO, CAD, EPCR, RADIO],
                           "kind": ["patient_transported"] * 2 + ["radio_transmission"]
                           + ["patient_transported"] * 2 + ["radio_transmission"]})
    shots = MomentRow(50, "shots", None, None, T0, T0 + 1000, T0 + 500, [50], {}, True)
    moved = [_moment(100, 7, 600, [1, 2, 3]), _moment(101, 8, 650, [4, 5]), _moment(102, 8, 700, [6])]
    rm = ResponseMetrics([shots, *moved], {}, events)
    rm.first = shots
    rm._patients()
    (f,) = rm.out
    assert (f.name, f.value_lo, f.value_hi) == ("patients_transported", 2, 2)
    assert f.payload["records"] == 6 and sorted(f.evidence) == [1, 2, 3, 4, 5, 6]

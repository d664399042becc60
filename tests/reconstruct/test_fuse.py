"""Fusion of reports into moments: the tie rules that cannot be seen on a whole case."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.fuse import fuse

MINUTE = 60_000


def _rows(*rows) -> pd.DataFrame:
    cols = ("id", "source_id", "family", "who", "rank", "lo", "hi")
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])


def test_records_of_one_written_minute_pair_with_reports_in_the_order_both_were_made():
    # Two patients taken by one ambulance, both records written "14:47" (the whole minute);
    # the crew said "transporting" twice on the radio, 59 s apart. Nothing tells the two
    # records apart in time: first come, first served.
    t = 1_000_000_000
    anchored = _rows(
        (11, 1, "patient_transported", 7, 0, t, t + MINUTE - 1),
        (12, 1, "patient_transported", 7, 0, t, t + MINUTE - 1),
        (21, 2, "patient_transported", 7, 1, t + 4_000, t + 4_000),
        (22, 2, "patient_transported", 7, 1, t + 63_000, t + 63_000),
    )
    assert sorted(sorted(g) for g in fuse(anchored)) == [[11, 21], [12, 22]]


def test_one_source_never_reports_one_moment_twice():
    t = 2_000_000_000
    anchored = _rows(
        (31, 1, "unit_arrived", 5, 0, t, t),
        (32, 1, "unit_arrived", 5, 0, t + 1_000, t + 1_000),
        (41, 2, "unit_arrived", 5, 1, t + 5_000, t + 5_000),
    )
    groups = fuse(anchored)
    assert len(groups) == 1 and 41 in groups[0] and not {31, 32} <= set(groups[0])


def test_a_patient_record_written_to_the_minute_takes_the_radio_report_after_that_minute():
    # "1404" on the patient record: the contact was somewhere in 14:04; the crew said
    # "receiving one patient" 12 s after the minute ended, within a report's usual lag
    t = 3_000_000_000
    anchored = _rows(
        (51, 1, "patient_contact", 9, 0, t, t + MINUTE - 1),
        (61, 2, "patient_contact", 9, 1, t + MINUTE + 12_000, t + MINUTE + 12_000),
    )
    assert fuse(anchored) == [[51, 61]]

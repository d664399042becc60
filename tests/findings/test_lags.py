"""The camera's live lag (findings/lags.py): as wide as the two written times allow."""

from __future__ import annotations

from onrecord.findings.lags import camera_live_lag

S = 1000.0


def test_a_lag_from_two_times_written_to_the_second_is_an_interval_that_holds_the_true_lag():
    # shown at 10:00:00.700, of footage from 09:44:37.100: the true lag is 923.6 s; both written to the second
    true_shown, true_footage = 36_000_700.0, 35_077_100.0
    shown, footage = true_shown // S * S, true_footage // S * S
    f = camera_live_lag([(7, shown, footage)], {7: 999.0})
    assert f.status == "established" and f.value_lo < 923.6 < f.value_hi
    assert (f.value_lo, f.value_hi) == (922.001, 923.999)  # a second either side, less the millisecond a time cannot be
    assert f.payload["median_s"] == 923.0 and f.evidence == [7]


def test_times_written_to_the_millisecond_give_the_lag_as_written():
    f = camera_live_lag([(1, 10_500.0, 2_000.0), (2, 20_900.0, 12_000.0)], {1: 0.0, 2: 0.0})
    assert (f.value_lo, f.value_hi) == (8.5, 8.9) and f.payload["views"] == 2


def test_no_view_that_says_what_it_showed_establishes_nothing():
    assert camera_live_lag([]).status == "not_established"


def test_a_view_s_footage_time_is_read_as_the_import_stored_it_or_as_an_older_case_wrote_it():
    import pandas as pd

    from onrecord.findings.lags import camera_views
    from tests.sources.test_csv_file import ms

    mapping = ('[mapping]\nname = "cp"\nsource_kind = "camera"\n[[events]]\nkind = "camera_observation"\n'
               'time = "Screen"\nformat = "%m/%d/%Y %H:%M:%S"\n')
    sources = pd.DataFrame({"id": [1], "mapping_text": [mapping], "file_name": ["cp.csv"],
                            "timezone": ["America/Chicago"]})
    shown = ms("2021-10-04T18:47:03")
    events = pd.DataFrame({"id": [7, 8], "source_id": [1, 1], "kind": ["camera_observation"] * 2,
                           "t_src_lo": [shown, shown],
                           # stored at import as the UTC instant; a case imported before, as written
                           "attrs": ['{"shown_time":"2021-10-04T18:42:42.000Z"}',
                                     '{"shown_time":"10/04/2021 13:42:42"}']})
    views = camera_views(events, sources)
    assert [(ev, (s - f) / S) for ev, s, f in views] == [(7, 261.0), (8, 261.0)]

"""The case's window: events of other days left out of the build, kept in the evidence."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from onrecord.errors import CaseError
from onrecord.reconstruct.window import declared_window, within_window
from tests.helpers import write_cad

PHOENIX = ZoneInfo("America/Phoenix")


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).astimezone(timezone.utc).timestamp() * 1000)


def events(rows) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=["id", "file_name", "source_kind", "t_src_lo"])
    df["t_src_hi"] = df["t_src_lo"]
    return df.astype({"t_src_lo": "float64", "t_src_hi": "float64"})


def test_a_window_in_the_case_zone_leaves_out_a_stray_alert_of_another_day_and_says_so():
    window = declared_window({"case": {"window": ["2025-08-18 09:00", "2025-08-18 12:00"]}}, PHOENIX)
    assert window == (ms("2025-08-18T09:00:00-07:00"), ms("2025-08-18T12:00:00-07:00"))
    ev = events([(1, "gunshots.csv", "sensor", ms("2025-08-16T14:02:00-07:00")),
                 (2, "gunshots.csv", "sensor", ms("2025-08-18T09:31:10-07:00")),
                 (3, "roster.csv", "roster", None),
                 (4, "priors.csv", "contact", ms("2023-01-05T10:00:00-07:00"))])
    kept, notes = within_window(ev, window)
    assert kept["id"].tolist() == [2, 3, 4]  # untimed roster lines and prior contacts are not the incident's
    assert len(notes) == 1 and notes[0].startswith("gunshots.csv: 1 event(s) outside")


def test_an_offset_written_wins_over_the_case_zone_and_toml_datetimes_are_read():
    w = declared_window({"case": {"window": ["2025-08-18T16:00:00Z",
                                             datetime(2025, 8, 18, 19, 0, tzinfo=timezone.utc)]}}, PHOENIX)
    assert w == (ms("2025-08-18T16:00:00+00:00"), ms("2025-08-18T19:00:00+00:00"))


def test_without_a_window_a_source_spanning_days_is_named():
    ev = events([(1, "gunshots.csv", "sensor", ms("2025-08-11T10:00:00-07:00")),
                 (2, "gunshots.csv", "sensor", ms("2025-08-18T09:31:10-07:00")),
                 (3, "priors.csv", "contact", ms("2019-01-05T10:00:00-07:00")),
                 (4, "priors.csv", "contact", ms("2025-01-05T10:00:00-07:00"))])
    kept, notes = within_window(ev, None)
    assert len(kept) == 4
    assert len(notes) == 1 and notes[0].startswith("gunshots.csv: its events span 7.0 days")


@pytest.mark.parametrize("given, says", [
    (["2025-08-18 12:00", "2025-08-18 09:00"], "ends"),
    (["2025-08-18 09:00"], "two times"),
    (["noon", "2025-08-18 12:00"], "'noon' is not a time"),
])
def test_a_bad_window_is_one_error_naming_the_key(given, says):
    with pytest.raises(CaseError) as err:
        declared_window({"case": {"window": given}}, PHOENIX)
    assert "[case] window" in str(err.value) and says in str(err.value)


def test_build_reads_the_window_from_the_case_file(case_dir, cli, tmp_path):
    rows = ("CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene\n"
            "C-1,S12,Alarm,1 Elm St,2,03/12/2026 08:00:00,03/12/2026 08:01:00,\n"
            "C-2,S14,Welfare check,14 Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00\n")
    data, mapping = write_cad(tmp_path / "in", rows)
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0
    code, out, _ = cli("build", case_dir)
    assert code == 0 and "its events span 2.1 days" in " ".join(out.split())
    toml = case_dir / "onrecord.toml"
    toml.write_text(toml.read_text().replace("[case]\n", '[case]\nwindow = ["2026-03-14 09:00", "2026-03-14 12:00"]\n'))
    code, out, _ = cli("build", case_dir)
    assert code == 0 and "eastvale.csv: 2 event(s) outside the case's window" in " ".join(out.split())
    toml.write_text(toml.read_text().replace('"2026-03-14 09:00"', '"nine"'))
    code, _, err = cli("build", case_dir)
    assert code == 2 and "[case] window" in err and "Traceback" not in err

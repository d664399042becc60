"""Timesketch JSONL: every line carries what Timesketch's importer requires, in the types its
own test file uses, with datetime and timestamp telling the same moment."""

from __future__ import annotations

import json
from datetime import datetime

from tests.conftest import shared_path

REQUIRED = ("message", "datetime", "timestamp_desc")


def test_every_line_is_importable_and_cites_its_source(exported_case, cli, tmp_path):
    out = tmp_path / "case.jsonl"
    code, printed, err = cli("export", exported_case, "--format", "timesketch", "--out", out)
    assert code == 0, err
    sample = [json.loads(line) for line in shared_path("data", "interchange", "timesketch-sigma_events.jsonl")
              .read_text().splitlines() if line.strip()]
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines and "left out" in printed
    for s in sample:  # the sample file is what Timesketch's importer is tested on
        assert all(k in s for k in REQUIRED) and int(s["timestamp"]) > 0  # µs, an int or its digits
    for line in lines:
        assert all(isinstance(line[k], str) and line[k] for k in REQUIRED)
        when = datetime.fromisoformat(line["datetime"])
        assert when.utcoffset() is not None  # ISO 8601 with its offset
        assert line["timestamp"] == round(when.timestamp() * 1_000_000)  # µs, the same moment
        assert {"source_file", "source_line", "record_sha256", "event_id", "clock"} <= set(line)
    aligned = [line for line in lines if line["clock"] == "aligned" and "clock_offset_s" in line]
    assert aligned and all("clock offset applied" in line["timestamp_desc"] for line in aligned)
    arrival = next(line for line in lines if line["kind"] == "unit_arrived")
    assert arrival["timestamp_desc"].startswith("Unit arrived (") and "unit" in arrival
    times = [line["timestamp"] for line in lines]
    assert times == sorted(times)


def test_it_says_how_many_events_it_left_out_and_why(exported_case, cli, tmp_path):
    from onrecord.pipeline import export_case
    from onrecord.store.reader import open_reader

    result = export_case(exported_case, "timesketch", tmp_path / "t.jsonl")
    untimed = sum(1 for r in open_reader(exported_case).export_events() if r["t_src_lo"] is None
                  and r["t_aligned_lo"] is None)
    assert untimed > 0 and sum(result.left_out.values()) == untimed
    assert result.written + untimed == len(open_reader(exported_case).export_events())

"""`onrecord build` says, per source, what it could not understand: text lines no lexicon
matched, attributes it does not read, whether the source shares a moment, and which clock
it was read against; the web sources page shows the same."""

from __future__ import annotations

import json

import pandas as pd

from onrecord.findings.render import sentence
from onrecord.reconstruct.clocks import ClockEstimate
from onrecord.reconstruct.understood import understood

RADIO_MAPPING = """
[mapping]
name = "eastvale-radio"
source_kind = "radio"
agency = "EVSO"
timezone = "UTC"
lexicon = ["default", { radio = { unit_arrived = ["at the rally point"] } }]
[fields]
unit = "Unit"
text = "Said"
[attributes]
radio = "Radio"
device = "Console"
[[events]]
kind = "radio_transmission"
time = "At"
format = "iso"
"""
RADIO_ROWS = ("At,Unit,Said,Radio,Console\n"
              "2026-03-14T14:00:00Z,A12,A12 on scene,R1,C1\n"
              "2026-03-14T14:00:20Z,A14,A14 at the rally point,R2,C1\n"
              "2026-03-14T14:01:00Z,A12,A12 copy,R1,C1\n"
              "2026-03-14T14:02:00Z,A14,A14 copy,R2,C1\n"
              "2026-03-14T14:03:00Z,A14,A14 going code 3 to the north gate,R2,C1\n")


def test_lines_no_lexicon_matched_are_counted_by_their_wording():
    events = pd.DataFrame({"id": [1, 2, 3, 4], "source_id": [1] * 4, "kind": ["radio_transmission"] * 4,
                           "text": ["Adam-12 on scene", "Adam-12 copy", "Adam-14 copy", "10-4"],
                           "attrs": [None] * 4})
    sources = pd.DataFrame({"id": [1], "file_name": ["radio.csv"], "kind": ["radio"], "mapping_text": [""]})
    got = understood(events, sources, {1: ClockEstimate(1, "unknown", None, None, 0, [], "")})[1]
    assert (got["text_events"], got["unclassified"]) == (4, 3)
    assert got["common"][0] == ["adam-# copy", 2]
    assert got["shares_moment"] is False and got["clock"]["status"] == "unknown"


def test_build_prints_what_it_did_not_understand_and_the_api_says_the_same(case_dir, cli, tmp_path):
    (tmp_path / "radio.csv").write_text(RADIO_ROWS)
    (tmp_path / "radio.toml").write_text(RADIO_MAPPING)
    assert cli("import", case_dir, tmp_path / "radio.csv", "--mapping", tmp_path / "radio.toml")[0] == 0
    code, out, err = cli("build", case_dir)
    assert code == 0, err
    flat = " ".join(out.split())
    assert "radio.csv" in flat and "3 of 5 lines" in flat  # on scene and the rally point understood
    assert "“a# copy” ×2" in flat
    assert "radio" in flat.split("attributes not read")[0] or "radio" in flat  # the table lists the column
    assert "shares no moment" in flat

    from onrecord.store.reader import open_reader
    from onrecord.views.web.shape import sources

    reader = open_reader(case_dir)
    (src,) = sources(reader, reader.display_zone())
    said = src["understood"]
    assert said["ignored_attributes"] == ["radio"]  # `device` is read (a sensor's device); `radio` is not
    assert said["unclassified"] == 3 and said["shares_moment"] is False
    assert any("attributes not read by the build: radio" in part for part in said["said"])
    check = [f for f in reader.findings("source_check") if f["subject"] == "radio.csv"][0]
    assert "3 of 5 text lines not understood" in sentence(check)
    json.dumps(src)  # the API serves it as it is

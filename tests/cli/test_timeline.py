"""`onrecord timeline`: the table, the JSON schema (docs/json.md) and the filters."""

from __future__ import annotations

import json

from tests.helpers import write_cad


def _case(case_dir, cli, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    assert cli("import", case_dir, data, "--mapping", mapping)[0] == 0


def test_table_shows_local_time_with_zone_and_source_line(case_dir, cli, tmp_path):
    _case(case_dir, cli, tmp_path)
    code, out, _ = cli("timeline", case_dir)
    assert code == 0
    assert "2026-03-14 09:30:05 CDT" in out and "eastvale.csv:2" in out and "unit_arrived" in out


def test_json_schema_and_order(case_dir, cli, tmp_path):
    _case(case_dir, cli, tmp_path)
    code, out, _ = cli("timeline", case_dir, "--json")
    doc = json.loads(out)
    assert doc["timezone"] == "America/Chicago" and doc["total"] == 7
    first = doc["events"][0]
    assert first["kind"] == "call_received" and first["t_lo"] == "2026-03-14T14:30:05.000Z"
    assert first["time_local"] == "2026-03-14T09:30:05-05:00" and first["clock"] == "source"
    assert first["record"]["line"] == 2 and len(first["record"]["sha256"]) == 64
    assert first["source"]["file"] == "eastvale.csv" and first["attributes"] == {"priority": "3"}
    times = [e["t_lo"] for e in doc["events"]]
    assert times == sorted(times)


def test_json_cut_by_limit_says_so_on_stderr(case_dir, cli, tmp_path):
    _case(case_dir, cli, tmp_path)
    code, out, err = cli("timeline", case_dir, "--json", "--limit", "3")
    doc = json.loads(out)
    assert code == 0 and len(doc["events"]) == 3 and doc["total"] == 7
    assert "3 of 7 events" in err and "--limit 0" in err
    _, _, err = cli("timeline", case_dir, "--json", "--limit", "0")
    assert "of 7 events" not in err


def test_filters_by_window_agency_and_unit(case_dir, cli, tmp_path):
    _case(case_dir, cli, tmp_path)
    _, out, _ = cli("timeline", case_dir, "--json", "--from", "2026-03-14 09:31", "--to", "2026-03-14T15:00:00Z")
    assert [e["kind"] for e in json.loads(out)["events"]] == ["unit_dispatched", "unit_dispatched", "unit_arrived"]
    _, out, _ = cli("timeline", case_dir, "--json", "--unit", "S20")
    assert {e["unit"] for e in json.loads(out)["events"]} == {"S20"}
    _, out, _ = cli("timeline", case_dir, "--json", "--agency", "NOPE")
    assert json.loads(out)["events"] == []


def test_bad_time_option_is_a_usage_error(case_dir, cli, tmp_path):
    code, _, err = cli("timeline", case_dir, "--from", "yesterday-ish")
    assert code == 2 and "--from" in err


RADIO_MAPPING = """
[mapping]
name = "eastvale-radio"
source_kind = "radio"
agency = "EVFD"
timezone = "UTC"

[lexicon.radio]
staging = ["at the rally point"]

[fields]
unit = "Unit"
text = "Said"

[[events]]
kind = "radio_transmission"
time = "At"
format = "iso"
"""
RADIO_ROWS = """At,Unit,Said
2026-03-14T14:40:00,M4,Medic 4 10-97 staging Elm Rd
2026-03-14T14:41:00,E2,Engine 2 at the rally point
2026-03-14T14:42:00,M4,Medic 4 copy
"""


def test_a_radio_line_shows_what_its_lexicons_read_it_as(case_dir, cli, tmp_path):
    (tmp_path / "radio.csv").write_text(RADIO_ROWS)
    (tmp_path / "radio.toml").write_text(RADIO_MAPPING)
    assert cli("import", case_dir, tmp_path / "radio.csv", "--mapping", tmp_path / "radio.toml")[0] == 0
    _, out, _ = cli("timeline", case_dir, "--json")
    read = [e["read_as"] for e in json.loads(out)["events"]]
    assert read == [{"kind": "staging", "phrase": "10-97 staging"},
                    {"kind": "staging", "phrase": "at the rally point"},  # the mapping's own phrase
                    {"kind": None, "phrase": None}]
    _, table, _ = cli("timeline", case_dir)
    assert "radio_transmission → staging" in table and "radio_transmission → ?" in table


def test_an_event_whose_text_says_no_moment_has_no_reading(case_dir, cli, tmp_path):
    _case(case_dir, cli, tmp_path)
    _, out, _ = cli("timeline", case_dir, "--json")
    assert {e["read_as"] for e in json.loads(out)["events"]} == {None}

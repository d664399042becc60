"""A clock tied to nothing says what would tie it."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.untied import needs, siblings_of

COLS = ["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency", "place"]


def test_a_unit_no_other_export_names_is_named():
    anchored = pd.DataFrame([(1, 6, 0.0, 0.0, "unit_arrived", 81, 2, "SCH", None),
                             (2, 1, 0.0, 0.0, "unit_arrived", 5, 2, "SO", None)], columns=COLS)
    said = needs(6, anchored, {81: "CS8", 5: "5D23"})
    assert "CS8" in said and "5D23" not in said and "pin-clock" in said


def test_a_threat_ended_no_other_source_records_is_not_called_a_unit():
    anchored = pd.DataFrame([(1, 4, 0.0, 0.0, "threat_ended", "threat_ended", 0, "SD", None),
                             (2, 1, 0.0, 0.0, "unit_arrived", 5, 2, "SO", None)], columns=COLS)
    said = needs(4, anchored, {5: "5D23"})
    assert "naming unit" not in said and "its threat_ended moments" in said


def test_camera_views_naming_no_door_ask_for_the_door():
    anchored = pd.DataFrame([(2, 1, 0.0, 0.0, "unit_arrived", 5, 2, "SO", None)], columns=COLS)
    said = needs(17, anchored, {}, frozenset({"camera_observation"}))
    assert "[fields] place" in said


def test_a_source_with_nothing_shareable_is_told_what_to_map():
    said = needs(9, pd.DataFrame(columns=COLS), {})
    assert "map one of them" in said


def test_an_incident_no_other_export_holds_asks_for_its_cads_other_export_not_a_unit():
    anchored = pd.DataFrame([(1, 5, 0.0, 0.0, "incident_created", "FD|I2300017", 0, "FD", None),
                             (2, 1, 0.0, 0.0, "incident_created", "SO|23-0101", 0, "SO", None)], columns=COLS)
    said = needs(5, anchored, {})
    assert "incident I2300017" in said and "naming unit" not in said


def test_an_export_beside_another_of_its_agency_and_kind_is_pointed_to_a_clock_name_first():
    sources = pd.DataFrame({"id": [5, 6, 7], "kind": ["cad", "cad", "radio"], "agency": ["FD", "FD", "FD"],
                            "file_name": ["fd-calls.csv", "fd-chronology.csv", "fd-radio.csv"]})
    events = pd.DataFrame({"source_id": [5], "kind": ["incident_created"], "attrs": [None], "place": [None]})
    said = needs(5, pd.DataFrame(columns=COLS), {}, frozenset({"incident_created"}),
                 siblings_of(5, sources, events, {}))
    assert said.index('[clock] name = "..."') < said.index("map one of them")
    assert "fd-chronology.csv" in said and "fd-radio.csv" not in said and "CAD server" in said
    # once its clock is named, that is not asked again
    assert "[clock] name" not in needs(5, pd.DataFrame(columns=COLS), {}, frozenset(),
                                       siblings_of(5, sources, events, {5: "fd cad"}))


def test_replayed_camera_views_are_said_to_be_replays_not_to_lack_a_door():
    sources = pd.DataFrame({"id": [3], "kind": ["camera"], "agency": ["SD"], "file_name": ["cp-monitor.csv"]})
    events = pd.DataFrame({"source_id": [3, 3], "kind": ["camera_observation"] * 2, "place": ["East Doors"] * 2,
                           "attrs": ['{"shown_time":"2021-10-04T18:42:42.000Z"}'] * 2})
    said = needs(3, pd.DataFrame(columns=COLS), {}, frozenset({"camera_observation"}),
                 siblings_of(3, sources, events, {}))
    assert "replays" in said and "[fields] place" not in said
    live = events.assign(attrs=[None, None])
    said = needs(3, pd.DataFrame(columns=COLS), {}, frozenset({"camera_observation"}),
                 siblings_of(3, sources, live, {}))
    assert "[lexicon.camera]" in said and "[fields] place" not in said


def test_two_sensor_exports_of_one_campus_are_not_offered_one_clock():
    sources = pd.DataFrame({"id": [1, 2], "kind": ["sensor", "sensor"], "agency": ["SD", "SD"],
                            "file_name": ["doors.csv", "gunshots.csv"]})
    events = pd.DataFrame({"source_id": [1], "kind": ["door_event"], "attrs": [None], "place": ["East Doors"]})
    said = needs(1, pd.DataFrame(columns=COLS), {}, frozenset({"door_event"}), siblings_of(1, sources, events, {}))
    assert "[clock] name" not in said and 'trust = "reference"' in said


def test_a_log_whose_typed_moment_was_relayed_from_another_agency_is_told_so():
    # a district log typed "suspect in custody" from what the sheriff's radio said: told
    # second-hand, it ties nothing, and the hint says why instead of "names that disagree"
    anchored = pd.DataFrame([(1, 4, 0.0, 60_000.0, "threat_ended", "threat_ended", 2, "DISTRICT", None),
                             (2, 1, 0.0, 0.0, "threat_ended", "threat_ended", 1, "SO", None)], columns=COLS)
    said = needs(4, anchored, {})
    assert "second-hand" in said and "threat_ended" in said


def test_a_log_typing_its_own_agencys_moment_is_not_called_relayed():
    anchored = pd.DataFrame([(1, 4, 0.0, 60_000.0, "threat_ended", "threat_ended", 2, "SO", None),
                             (2, 1, 0.0, 0.0, "threat_ended", "threat_ended", 1, "SO", None)], columns=COLS)
    assert "second-hand" not in needs(4, anchored, {})


def test_radio_lines_keyed_by_their_words_are_no_units():
    # a transmission moment is keyed by the line's own words (patched channels meet on them):
    # the hint must not offer those words as unit names
    anchored = pd.DataFrame([(1, 7, 0.0, 0.0, "transmission", "campus 9 copy that heading north", 0, "CD", None),
                             (2, 1, 0.0, 0.0, "unit_arrived", 5, 2, "SO", None)], columns=COLS)
    said = needs(7, anchored, {5: "5D23"})
    assert "naming unit" not in said and "copy that" not in said
    assert "another recorder logging one of its channels" in said and "[lexicon.radio]" in said

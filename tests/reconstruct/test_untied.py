"""A clock tied to nothing says what would tie it."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.untied import needs

COLS = ["id", "source_id", "t_mid", "width", "family", "who", "rank", "agency", "place"]


def test_a_unit_no_other_export_names_is_named():
    anchored = pd.DataFrame([(1, 6, 0.0, 0.0, "unit_arrived", 81, 2, "SCH", None),
                             (2, 1, 0.0, 0.0, "unit_arrived", 5, 2, "SO", None)], columns=COLS)
    said = needs(6, anchored, {81: "CS8", 5: "5D23"})
    assert "CS8" in said and "5D23" not in said and "pin-clock" in said


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

"""Who is who: the unit of a record that names none, read from the roster's keys."""

from __future__ import annotations

import json

import pandas as pd

from onrecord.reconstruct.who_is_who import resolve

COLUMNS = ["id", "kind", "unit", "actor", "agency", "text", "attrs"]


def _events(rows):
    return pd.DataFrame(rows, columns=COLUMNS)


ROSTER = [
    (1, "roster_entry", "4T38", "AMBLER J", "PD", None,
     json.dumps({"call_sign": "4-Tom-38", "vehicle": "3086", "radio_id": "451408"})),
    (2, "roster_entry", "1A49", "GRIMALDI M", "PD", None,
     json.dumps({"call_sign": "1-Adam-49", "vehicle": "5008", "radio_id": "803102"})),
]


def _unit_name(who, event_id):
    uid = who.unit_of_event.get(event_id)
    return None if uid is None else who.entities[uid].name


def test_a_radio_line_whose_alias_is_a_person_gets_the_unit_of_its_radio_id_or_its_officer():
    who = resolve(_events(ROSTER + [
        (10, "radio_transmission", None, "OFF AMBLER", "PD", "I'M HERE AT BUILDING 100",
         json.dumps({"radio_id": "451408"})),
        (11, "radio_transmission", None, "Grimaldi M", "PD", "behind the west wall", None),
    ]))
    assert _unit_name(who, 10) == "4T38"  # the radio id issued to 4T38
    assert _unit_name(who, 11) == "1A49"  # the officer on 1A49's crew


def test_a_radio_line_names_its_speaker_first_but_a_dispatcher_names_whom_it_calls():
    who = resolve(_events(ROSTER + [
        (10, "radio_transmission", None, "OFF X", "PD", "4-TOM-38 ON SCENE AT BUILDING 100", None),
        (11, "radio_transmission", None, "CONSOLE", "PD", "1-ADAM-49, RESPOND TO THE SCHOOL", None),
        (12, "unit_position", None, None, "PD", None, json.dumps({"vehicle": "5008"})),
    ]))
    assert _unit_name(who, 10) == "4T38"
    assert _unit_name(who, 11) is None  # the console speaks to 1A49; it is not 1A49 speaking
    assert _unit_name(who, 12) == "1A49"  # an AVL fix naming only the vehicle


def test_a_radio_id_two_units_share_resolves_nothing():
    roster = [(1, "roster_entry", "E1", None, "FD", None, json.dumps({"radio_id": "77"})),
              (2, "roster_entry", "E2", None, "FD", None, json.dumps({"radio_id": "77"}))]
    who = resolve(_events(roster + [(10, "radio_transmission", None, "PORTABLE", "FD", "copy",
                                     json.dumps({"radio_id": "77"}))]))
    assert _unit_name(who, 10) is None


def test_the_units_a_radio_line_names_in_its_words_are_read_not_street_numbers():
    who = resolve(_events(ROSTER + [
        (10, "radio_transmission", "448", None, "PD", "ENTRY TEAM GOING IN WEST DOORS, 4-TOM-38 AND 1-ADAM-49", None),
        (11, "radio_transmission", None, "CONSOLE", "PD", "RESPOND 5008 HALBERD ST", None),
    ]))
    names = {who.entities[u].name for u in who.named_units.get(10, set())}
    assert names == {"4T38", "1A49"}
    assert 11 not in who.named_units  # 5008 is a street number here, though a vehicle's too

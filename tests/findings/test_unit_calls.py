"""Which call a unit is on when the radio has it arriving: a radio line names no call."""

from __future__ import annotations

import pandas as pd

from onrecord.findings.unit_calls import ELSEWHERE, ON, UNSURE, call_standing, own_cad_agencies, statuses_by_unit
from onrecord.reconstruct.moments import MomentRow

T = 1_700_000_000_000
INCIDENT = frozenset({"1#24-100"})


def _m(fid, family, who, t, calls=(), members=None):
    return MomentRow(fid, family, who, None, t - 1000, t + 1000, t, members or [fid], {}, False, frozenset(calls))


def test_a_radio_arrival_of_a_unit_cad_has_on_another_call_is_not_on_scene():
    cad = [_m(1, "unit_dispatched", 7, T - 600_000, {"1#24-099"}), _m(2, "unit_arrived", 7, T + 20_000, {"1#24-099"})]
    radio = _m(3, "unit_arrived", 7, T)  # "Medic 455 10-97 229 Underhill Ln"
    assert call_standing(radio, statuses_by_unit(cad), INCIDENT) == ELSEWHERE


def test_a_radio_arrival_of_a_unit_sent_to_the_incident_is_on_scene():
    cad = [_m(1, "unit_dispatched", 7, T - 300_000, INCIDENT), _m(2, "unit_enroute", 7, T - 200_000, INCIDENT)]
    assert call_standing(_m(3, "unit_arrived", 7, T), statuses_by_unit(cad), INCIDENT) == ON


def test_a_unit_cleared_from_one_call_and_sent_to_the_incident_within_the_minute_is_unsure():
    cad = [_m(1, "unit_arrived", 7, T - 900_000, {"1#24-099"}), _m(2, "unit_dispatched", 7, T + 30_000, INCIDENT)]
    # the status before it is on the other call, the one typed after it on the incident's: no pick
    assert call_standing(_m(3, "unit_arrived", 7, T), statuses_by_unit(cad), INCIDENT) == UNSURE


def test_a_clear_is_on_no_call_and_says_nothing_against_the_incident():
    cad = [_m(1, "unit_dispatched", 7, T - 900_000, INCIDENT), _m(2, "unit_available", 7, T - 60_000, {"1#24-099"})]
    assert call_standing(_m(3, "unit_arrived", 7, T), statuses_by_unit(cad), INCIDENT) == ON


def test_a_unit_its_own_agencys_cad_never_files_under_the_incident_was_not_sent():
    cad = [_m(1, "unit_dispatched", 8, T - 300_000, INCIDENT)]  # another medic of the agency
    st = statuses_by_unit(cad)
    radio = _m(3, "unit_arrived", 7, T)
    assert call_standing(radio, st, INCIDENT, "ICFR", frozenset({"ICFR"})) == ELSEWHERE
    # an agency whose own CAD files none of its units there: the radio line stands
    assert call_standing(radio, st, INCIDENT, "OSPD", frozenset({"ICFR"})) == ON


def test_cad_statuses_with_no_call_number_leave_the_radio_line_standing():
    st = statuses_by_unit([_m(1, "unit_dispatched", 7, T - 300_000, members=[11])], frozenset({11}))
    assert call_standing(_m(3, "unit_arrived", 7, T), st, INCIDENT, "OSPD", frozenset({"OSPD"})) == ON


def test_own_cad_agencies_counts_an_agency_only_through_its_own_cad():
    st = statuses_by_unit([_m(1, "unit_dispatched", 7, T, INCIDENT), _m(2, "unit_dispatched", 8, T, INCIDENT)])
    units = {7: {"agency": "ICSO"}, 8: {"agency": "OSPD"}}  # OSPD's unit filed by ICSO's CAD (mutual aid)
    events = pd.DataFrame({"source_id": [1], "source_kind": ["cad"], "agency": ["ICSO"]})
    assert own_cad_agencies(st, INCIDENT, units, events) == frozenset({"ICSO"})

"""Which moment each record shares: call answers keyed by agency, or found without one."""

from __future__ import annotations

import json

import pandas as pd

from onrecord.reconstruct.align import moments_table
from onrecord.reconstruct.who_is_who import resolve

T0 = 1_700_000_000_000


def _events(rows):
    cols = ["id", "source_id", "source_kind", "kind", "t_src_lo", "agency", "ani"]
    df = pd.DataFrame(rows, columns=cols)
    return df.assign(t_src_hi=df["t_src_lo"], text=None, place=None, unit=None, actor=None, call=None,
                     attrs=[json.dumps({"ani": a}) for a in df["ani"]]).drop(columns="ani")


def test_a_phone_log_with_no_agency_shares_the_answer_of_the_one_agency_that_took_that_number():
    ev = _events([(1, 1, "call911", "call_answered", T0, None, "5550101"),
                  (2, 2, "cad", "call_answered", T0 + 4000, "EVPD", "5550101"),
                  (3, 1, "call911", "call_answered", T0 + 60_000, None, "5550199"),
                  (4, 3, "cad", "call_answered", T0 + 61_000, None, "5550199")])
    m = moments_table(ev, resolve(ev)).set_index("id")
    assert m.loc[1, "who"] == m.loc[2, "who"] == "EVPD|5550101"
    assert m.loc[3, "who"] == m.loc[4, "who"]  # no agency anywhere: the number alone


def test_a_blank_agency_answer_is_not_given_to_one_of_two_agencies_by_guess():
    ev = _events([(1, 1, "call911", "call_answered", T0, None, "5550101"),
                  (2, 2, "cad", "call_answered", T0 + 4000, "EVPD", "5550101"),
                  (3, 3, "cad", "call_answered", T0 + 90_000, "EVSO", "5550101")])
    m = moments_table(ev, resolve(ev)).set_index("id")
    assert m.loc[1, "who"] not in (m.loc[2, "who"], m.loc[3, "who"])


def test_how_a_status_was_entered_sets_its_rank_and_marks_copies_of_fixes():
    ev = pd.DataFrame({"id": [1, 2, 3, 4], "source_id": [1, 1, 1, 2], "source_kind": ["cad", "cad", "cad", "avl"],
                       "kind": ["unit_arrived", "unit_arrived", "unit_arrived", "unit_position"],
                       "t_src_lo": [T0, T0 + 1000, T0 + 2000, T0], "agency": ["EVSO"] * 4,
                       "unit": ["S12", "S14", "S15", "S12"], "actor": None, "call": None, "text": None,
                       "place": None,
                       "attrs": ['{"entered_by":"avl"}', '{"entered_by":"terminal"}', None, None]})
    ev = ev.assign(t_src_hi=ev["t_src_lo"])
    m = moments_table(ev, resolve(ev)).set_index("id")
    assert m.loc[1, "declared_copy"] and m.loc[1, "rank"] == 2  # a copy: shares the fix, bounds the arrival
    assert m.loc[2, "rank"] == 1 and not m.loc[2, "declared_copy"]  # the crew's terminal: like a spoken report
    assert m.loc[3, "rank"] == 2  # not said: typed


def test_one_incident_opened_is_one_moment_in_each_export_of_its_agency_keyed_by_its_number():
    ev = _events([(1, 1, "cad", "incident_created", T0, "EVSO", None),     # the chronology
                  (2, 2, "cad", "incident_created", T0, "EVSO", None),     # the same CAD's calls table
                  (3, 3, "cad", "incident_created", T0, "EVPD", None),     # the same number at another agency
                  (4, 4, "cad", "incident_created", T0, None, None),       # whose system, unknown
                  (5, 2, "cad", "incident_created", T0, "EVSO", None)])    # no incident number
    ev["call"] = ["23-0101", "23-0101", "23-0101", "23-0101", None]
    m = moments_table(ev, resolve(ev)).set_index("id")
    assert m.loc[1, "who"] == m.loc[2, "who"] == "EVSO|23-0101" and m.loc[1, "rank"] == 0
    assert m.loc[3, "who"] == "EVPD|23-0101"  # two agencies' incidents of one number are two acts
    assert 4 not in m.index and 5 not in m.index

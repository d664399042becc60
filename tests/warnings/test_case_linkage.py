"""`onrecord link` and `onrecord subjects` on a generated case: the attacker's prior
contacts across agencies are joined and flagged, and a rebuild keeps them."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    from onrecord.scenario.into_case import generate_and_import

    work = tmp_path_factory.mktemp("linked")
    generate_and_import(2, work)
    return work


def test_link_then_subjects_flags_warnings_nobody_joined(linked, cli):
    case = linked / "case-2"
    code, out, err = cli("link", case, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["records"] > 100 and doc["people"]
    truth = json.loads((linked / "scenario-2" / "truth.json").read_text())
    attacker_agencies = len(truth["priors"]["attacker_agencies"])
    flagged = [p for p in doc["people"] if p["flag"]]
    assert flagged and max(len(p["agencies"]) for p in flagged) >= min(3, attacker_agencies)
    code, out, err = cli("subjects", case, "--json")
    assert code == 0, err
    subjects = json.loads(out)["subjects"]
    first = subjects[0]
    assert first["flag"] and "agencies" in first["flag"]
    assert all(c["file"] and c["line"] for c in first["contacts"])


def test_rebuild_keeps_linked_people(linked, cli):
    case = linked / "case-2"
    cli("link", case)
    assert cli("build", case)[0] == 0
    code, out, _ = cli("subjects", case, "--json")
    assert code == 0 and json.loads(out)["subjects"]


def test_subjects_before_link_is_a_usage_error(case_dir, cli):
    code, _, err = cli("subjects", case_dir)
    assert code == 2 and "onrecord link" in err


def test_unknown_backend_is_a_usage_error(case_dir, cli):
    code, _, err = cli("link", case_dir, "--backend", "oracle")
    assert code == 2 and "duckdb or spark" in err


def test_link_reports_bad_rows_and_never_links_a_nameless_record(linked, cli):
    """Calls to the house that name nobody are dropped and reported row by row; each
    agency's date format is read as declared (no date reported as unreadable)."""
    code, out, err = cli("link", linked / "case-2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    truth = json.loads((linked / "scenario-2" / "truth.json").read_text())
    nameless = sum(1 for r in truth["priors"]["attacker_records"] if not truth["prior_records"][r]["named"])
    dropped = {r["record_id"] for r in doc["rejects"] if r["action"] == "row dropped"}
    assert len(dropped) >= nameless > 0
    assert all(r["record_id"] and r["field"] and r["reason"] for r in doc["rejects"])
    linked_events = {str(c["event"]) for p in doc["people"] for c in p["contacts"]}
    assert not dropped & linked_events
    # Every written date of birth is read (two-digit years included); only absent ones are reported.
    assert {r["action"] for r in doc["rejects"] if r["field"] == "dob"} == {"field missing"}

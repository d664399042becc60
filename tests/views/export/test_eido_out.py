"""EIDO out: the reconstructed incident as successive EIDO snapshots that validate against
the NENA schema, disagreements carried as AlternateValuesType entries, and the round trip:
re-imported into a new case, the same units, calls and status times."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from onrecord.sources.eido.schema import SCHEMA_ENV, EidoSchema
from onrecord.store.reader import open_reader
from tests.conftest import shared_path


@pytest.fixture
def schema(monkeypatch):
    path = shared_path("data", "interchange", "nena-eido-schema", "openapi.yaml")
    monkeypatch.setenv(SCHEMA_ENV, str(path))
    return EidoSchema(path)


@pytest.fixture(scope="module")
def exported(exported_case, tmp_path_factory):
    from onrecord.cli import main

    out = tmp_path_factory.mktemp("eido") / "incident-eido.json"
    with pytest.raises(SystemExit) as done:  # the command, as a user runs it
        main(["export", str(exported_case), "--format", "eido", "--out", str(out)])
    assert done.value.code in (0, None)
    from onrecord.views.export.eido_out import build_snapshots

    _, result = build_snapshots(open_reader(exported_case))
    return out, result


UNIT_STATUS = {"unit_dispatched", "unit_enroute", "unit_arrived", "unit_status", "patient_contact",
               "patient_transported", "unit_available"}


def test_every_snapshot_validates_against_the_schema(schema, exported):
    out, result = exported
    snaps = json.loads(out.read_text(encoding="utf-8"))
    assert len(snaps) > 10 and result.left_out and result.written > 0
    for snap in snaps:
        assert schema.violations(snap) == []
    last = snaps[-1]
    assert last["emergencyResourceComponent"] and last["callComponent"] and last["agencyComponent"]
    roles = {r for a in last["agencyComponent"] for r in a["agencyRoleDescriptionRegistryText"]}
    assert {"CallReceiving", "Dispatching"} <= roles
    times = [s["lastUpdateTimeStamp"] for s in snaps]
    assert times == sorted(times)


def test_disagreements_are_alternate_values_with_each_agency_value_and_time(schema, exported):
    last = json.loads(exported[0].read_text(encoding="utf-8"))[-1]
    alternates = last.get("alternateValuesComponent", [])
    assert alternates
    ids = {c["$id"] for c in last["emergencyResourceComponent"] + last["callComponent"]}
    for a in alternates:
        assert a["DataComponentReference"]["$ref"] in ids and len(a["Alternate"]) >= 2
        assert all({"Constituent", "Timestamp", "OtherValue"} <= set(x) for x in a["Alternate"])
    holders = [c for c in last["emergencyResourceComponent"] if c.get("AlternateValueReferences")]
    assert holders


def test_the_round_trip_gives_the_same_units_calls_and_status_times(schema, exported, cli, tmp_path):
    out, _ = exported
    snaps = json.loads(out.read_text(encoding="utf-8"))
    case_b = tmp_path / "round-trip"
    assert cli("init", case_b)[0] == 0
    code, _, err = cli("import", case_b, out, "--mapping", "eido")
    assert code == 0, err
    back = open_reader(case_b).export_events()
    # status times: the units' states across the snapshots, as the EIDO says them
    said = Counter()
    seen: dict = {}
    for snap in snaps:
        for u in snap.get("emergencyResourceComponent", []):
            status = u["secondaryUnitStatusRegistryText"][0]
            if seen.get(u["$id"]) != status:
                said[(u["emergencyResourceName"], u["lastUpdateTimeStamp"])] += 1
                seen[u["$id"]] = status
    got = Counter((e["unit"], e["time_text"]) for e in back if e["kind"] in UNIT_STATUS)
    assert got == said
    last = snaps[-1]
    assert Counter(e["time_text"] for e in back if e["kind"] == "call_received") == \
        Counter(c["callStartTimestamp"] for c in last["callComponent"])
    assert Counter(e["time_text"] for e in back if e["kind"] == "call_answered") == \
        Counter(c["answerDate"] for c in last["callComponent"] if "answerDate" in c)
    assert {e["unit"] for e in back if e["kind"] in UNIT_STATUS} == {u["emergencyResourceName"] for u in
                                                                    last["emergencyResourceComponent"]}


def test_the_units_and_their_arrival_times_are_the_source_cases(exported_case, exported):
    from datetime import datetime

    last = json.loads(exported[0].read_text(encoding="utf-8"))[-1]
    rows = open_reader(exported_case).export_events()
    arrived = {r["unit"] for r in rows if r["kind"] == "unit_arrived" and r["t_aligned_lo"] is not None and r["unit"]}
    assert arrived <= {u["emergencyResourceName"] for u in last["emergencyResourceComponent"]}
    first = {}
    for r in rows:
        if r["kind"] == "unit_arrived" and r["t_aligned_lo"] is not None and r["unit"]:
            first.setdefault(r["unit"], r["t_aligned_lo"])
    snaps = json.loads(exported[0].read_text(encoding="utf-8"))
    onscene = {}
    for s in snaps:
        for u in s.get("emergencyResourceComponent", []):
            if u["secondaryUnitStatusRegistryText"] == ["OnScene"]:
                onscene.setdefault(u["emergencyResourceName"],
                                   int(datetime.fromisoformat(u["lastUpdateTimeStamp"]).timestamp() * 1000))
    assert onscene == first

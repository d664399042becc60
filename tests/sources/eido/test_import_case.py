"""A folder of EIDO snapshots imported as one source, built, measured, and verified."""

from __future__ import annotations

import json

from tests.conftest import shared_path
from tests.sources.eido import fixtures as fx

SENSOR = """
[mapping]
name = "riverbend-sensor"
source_kind = "sensor"
agency = "RBSENSE"
timezone = "UTC"

[fields]
text = "event"

[[events]]
kind = "shots_detected"
time = "time"
format = "iso"
"""


def test_a_folder_of_snapshots_imports_builds_and_measures(case_dir, cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ONRECORD_EIDO_SCHEMA",
                       str(shared_path("data", "interchange", "nena-eido-schema", "openapi.yaml")))
    folder = tmp_path / "riverbend-eido"
    folder.mkdir()
    for i, doc in enumerate(fx.snapshots(), start=1):
        (folder / f"snapshot-{i:02d}.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    code, out, err = cli("import", case_dir, folder, "--mapping", "eido")
    assert code == 0, err
    assert "4 records, 17 events" in out and "patched in memory" in out
    rows = json.loads(cli("timeline", case_dir, "--json")[1])["events"]
    arrived = next(r for r in rows if r["kind"] == "unit_arrived" and r["unit"] == "ADAM12")
    assert arrived["record"]["path"] == "snapshot-04.json#/emergencyResourceComponent/0"
    assert cli("verify", case_dir)[0] == 0
    # a gunshot sensor (fictional) gives the metrics their first shots
    (tmp_path / "sensor.csv").write_text("time,event\n2026-06-12T14:13:50Z,gunshot\n2026-06-12T14:20:30Z,gunshot\n")
    (tmp_path / "sensor.toml").write_text(SENSOR)
    assert cli("import", case_dir, tmp_path / "sensor.csv", "--mapping", tmp_path / "sensor.toml")[0] == 0
    assert cli("build", case_dir)[0] == 0
    metrics = json.loads(cli("metrics", case_dir, "--json")[1])
    by = {(m["name"], m.get("subject")): m for m in metrics["metrics"]}
    on_scene = {k[1]: v for k, v in by.items() if k[0] == "unit_on_scene"}
    assert set(on_scene) >= {"ADAM12", "ADAM14"} and "MEDIC5" not in on_scene  # staging is not on scene
    assert by[("agency_units_on_scene", fx.SO)]["value"] == {"lo": 2.0, "hi": 2.0}

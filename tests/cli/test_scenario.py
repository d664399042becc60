"""The two commands through the CLI: generate writes a case; score reports zeros, as JSON
too, for a case that has not been built; bad paths are one clear error."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from onrecord.cli import app
from onrecord.errors import OnrecordError


def test_generate_then_score_an_unbuilt_case(tmp_path):
    runner = CliRunner()
    out = tmp_path / "gen"
    r = runner.invoke(app, ["scenario", "generate", "--seed", "4", "--out", str(out), "--background", "500"])
    assert r.exit_code == 0, r.output
    assert "seed 4" in r.output and "500 calls" in r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert all((out / s["file"]).exists() and (out / s["mapping"]).exists() for s in manifest["sources"])
    assert sum(1 for _ in (out / "background" / "county_cfs_year.csv").open()) == 501
    r = runner.invoke(app, ["init", str(tmp_path / "case")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["scenario", "score", str(tmp_path / "case"), str(out / "truth.json"), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert report["built"] is False and set(report["summary"].values()) == {0.0}


def test_bad_truth_file_is_one_clear_error(tmp_path):
    (tmp_path / "t.json").write_text("{}")
    r = CliRunner().invoke(app, ["scenario", "score", str(tmp_path), str(tmp_path / "t.json")])
    assert isinstance(r.exception, OnrecordError)
    assert "not a scenario truth file" in str(r.exception) or "not a case folder" in str(r.exception)
    with pytest.raises(OnrecordError, match="not a scenario truth file"):
        from onrecord.scenario.truth import load_truth
        load_truth(tmp_path / "t.json")

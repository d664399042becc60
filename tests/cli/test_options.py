"""Command lines with negative numbers: every documented form of `onrecord pin-clock`."""

from __future__ import annotations

import tomllib

import pytest


def pins(case) -> dict:
    return tomllib.loads((case / "onrecord.toml").read_text())["clocks"]


@pytest.mark.parametrize("args", [
    ["--", "-232.5", "--uncertainty", "0.5"],  # as docs/metrics.md writes it
    ["-232.5", "--uncertainty", "0.5"],
    ["--uncertainty", "0.5", "--", "-232.5"],
    ["--uncertainty=0.5", "-232.5"],
])
def test_pin_clock_reads_a_negative_offset_in_every_documented_order(tmp_path, cli, args):
    case = tmp_path / "case"
    assert cli("init", case)[0] == 0
    code, out, err = cli("pin-clock", case, "campus_cameras.csv", *args)
    assert code == 0, err
    assert pins(case)["campus_cameras.csv"] == {"offset_s": -232.5, "uncertainty_s": 0.5}


def test_pin_clock_readme_form_with_a_positive_offset(tmp_path, cli):
    case = tmp_path / "case"
    cli("init", case)
    assert cli("pin-clock", case, "fire_cad.csv", "--", "4")[0] == 0
    assert pins(case)["fire_cad.csv"]["offset_s"] == 4.0


def test_pin_clock_refuses_an_unknown_option_and_a_negative_uncertainty(tmp_path, cli):
    case = tmp_path / "case"
    cli("init", case)
    code, _, err = cli("pin-clock", case, "cam.csv", "--", "-1", "--uncertainy", "2")
    assert code == 2 and "--uncertainy" in err
    code, _, err = cli("pin-clock", case, "cam.csv", "-1", "--uncertainty", "-0.5")
    assert code == 2 and "--uncertainty" in err
    assert not (case / "onrecord.toml").read_text().count("cam.csv")

"""A generated scenario turned into a case: generate, init, import every source."""

from __future__ import annotations

from pathlib import Path

from onrecord.scenario.load import import_generated
from onrecord.store.case import Case, init_case


def import_scenario(scenario_dir: Path, case_dir: Path, database_url: str | None = None) -> Case:
    """A new case at `case_dir` holding every source of a generated scenario folder."""
    case = init_case(case_dir, database_url)
    import_generated(case, scenario_dir)
    return case


def generate_and_import(seed: int, workdir: Path, background: int = 0, database_url: str | None = None) -> Case:
    from onrecord.scenario.generate import generate_case

    scenario_dir = workdir / f"scenario-{seed}"
    generate_case(seed, scenario_dir, background)
    return import_scenario(scenario_dir, workdir / f"case-{seed}", database_url)

"""A generated scenario turned into a case: generate, init, import every source."""

from __future__ import annotations

import json
from pathlib import Path

from onrecord.sources.importer import import_file
from onrecord.sources.mapping import load_mapping
from onrecord.store.case import Case, init_case


def import_scenario(scenario_dir: Path, case_dir: Path, database_url: str | None = None,
                    progress=lambda stage, n: None) -> Case:
    """Create a case from a generated scenario folder (its manifest.json lists each
    source with its mapping) and import every source."""
    manifest = json.loads((scenario_dir / "manifest.json").read_text(encoding="utf-8"))
    case = init_case(case_dir, database_url)
    for entry in manifest["sources"]:
        mapping = load_mapping(str(scenario_dir / entry["mapping"]))
        import_file(case, scenario_dir / entry["file"], mapping, progress=progress)
    return case


def generate_and_import(seed: int, workdir: Path, background: int = 0, database_url: str | None = None) -> Case:
    from onrecord.scenario.generate import generate_case

    scenario_dir = workdir / f"scenario-{seed}"
    generate_case(seed, scenario_dir, background)
    return import_scenario(scenario_dir, workdir / f"case-{seed}", database_url)

"""A generated scenario turned into a case: every source imported through its own
mapping, by the code `onrecord import` runs (pipeline.import_files) — what `onrecord
demo`, the benchmarks and the end-to-end tests all need."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from onrecord.store.case import Case, init_case


def import_generated(case, generated: Path, include_background: bool = True,
                     on_file: Callable[[str, object], None] = lambda name, result: None) -> dict[str, object]:
    """Every file of `generated/manifest.json` into `case` (an open store Case).

    Returns file name -> ImportResult. Re-importing a file already in the case changes
    nothing (the importer recognises it by its SHA-256)."""
    from onrecord.pipeline import import_files
    from onrecord.sources.mapping import load_mapping

    generated = Path(generated)
    manifest = json.loads((generated / "manifest.json").read_text(encoding="utf-8"))
    results = {}
    for src in manifest["sources"]:
        if not include_background and src["file"].startswith("background/"):
            continue
        path = generated / src["file"]
        (results[path.name],) = import_files(case, [path], load_mapping(str(generated / src["mapping"])))
        on_file(path.name, results[path.name])
    return results


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

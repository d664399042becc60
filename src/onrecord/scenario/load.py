"""Import a generated case's sources into a case store, each through its own mapping:
what `onrecord demo`, the benchmarks and the end-to-end tests all need."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable


def import_generated(case, generated: Path, include_background: bool = True,
                     on_file: Callable[[str, object], None] = lambda name, result: None) -> dict[str, object]:
    """Every file of `generated/manifest.json` into `case` (an open store Case).

    Returns file name -> ImportResult. Re-importing a file already in the case changes
    nothing (the importer recognises it by its SHA-256)."""
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping

    generated = Path(generated)
    manifest = json.loads((generated / "manifest.json").read_text(encoding="utf-8"))
    results = {}
    for src in manifest["sources"]:
        if not include_background and src["file"].startswith("background/"):
            continue
        path = generated / src["file"]
        results[path.name] = import_file(case, path, load_mapping(str(generated / src["mapping"])))
        on_file(path.name, results[path.name])
    return results

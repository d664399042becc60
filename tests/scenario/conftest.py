"""One generated case per seed per session: generation is fast but tests read it often."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from onrecord.scenario.generate import generate_case


@pytest.fixture(scope="session")
def make_case(tmp_path_factory):
    made: dict[int, Path] = {}

    def make(seed: int) -> Path:
        if seed not in made:
            out = tmp_path_factory.mktemp(f"seed{seed}")
            generate_case(seed, out)
            made[seed] = out
        return made[seed]
    return make


@pytest.fixture(scope="session")
def case1(make_case) -> Path:
    return make_case(1)


@pytest.fixture(scope="session")
def truth1(case1) -> dict:
    return json.loads((case1 / "truth.json").read_text())


def read_rows(path: Path) -> list[dict]:
    """Rows as dicts; a header-less export takes its column names from its mapping."""
    import tomllib
    file = tomllib.loads(path.with_suffix(".toml").read_text())["file"]
    with path.open(newline="", encoding=file.get("encoding", "utf-8")) as fh:
        names = None if file.get("header", True) else file["columns"]
        return list(csv.DictReader(fh, fieldnames=names))


def header_of(path: Path) -> list[str]:
    import tomllib
    file = tomllib.loads(path.with_suffix(".toml").read_text())["file"]
    if not file.get("header", True):
        return file["columns"]
    with path.open(newline="", encoding=file.get("encoding", "utf-8")) as fh:
        return next(csv.reader(fh))


def rows_of(case: Path, name: str) -> list[dict]:
    return read_rows(next(case.rglob(name)))


@pytest.fixture(scope="session")
def imported(case1, tmp_path_factory):
    """Seed 1's sources imported into a fresh case, each through the mapping beside it."""
    pytest.importorskip("onrecord.sources.importer")
    from onrecord.scenario.into_case import import_generated
    from onrecord.store.case import init_case

    case = init_case(tmp_path_factory.mktemp("built") / "case")
    return case, import_generated(case, case1)

"""A generated case (scenario seed 1) imported once per session, and a copy of it with
derived tables filled by hand (tests/views/derived.py). SQLite: the pages only read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from onrecord.store.engine import DATABASE_URL_ENV
from tests.browser import serving
from tests.views.derived import LOCAL


def _import_scenario(root: Path) -> Path:
    from onrecord.scenario.generate import generate_case
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case

    manifest = generate_case(1, root / "scenario")
    case = init_case(root / "case")
    for s in manifest["sources"]:
        import_file(case, root / "scenario" / s["file"], load_mapping(str(root / "scenario" / s["mapping"])))
    case.engine.dispose()
    return root / "case"


@pytest.fixture(scope="session")
def generated_case(tmp_path_factory) -> Path:
    """Imported, not built: derived tables empty."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DATABASE_URL_ENV, raising=False)
        return _import_scenario(tmp_path_factory.mktemp("views"))


@pytest.fixture(scope="session")
def scenario_dir(generated_case) -> Path:
    return generated_case.parent / "scenario"


@pytest.fixture(scope="session")
def built_case(generated_case, tmp_path_factory) -> tuple[Path, dict]:
    """The same case with derived rows written as a build would: (folder, the ids written)."""
    from onrecord.store.case import open_case
    from tests.views import derived

    path = tmp_path_factory.mktemp("built") / "case"
    shutil.copytree(generated_case, path)
    case = open_case(path)
    ids = derived.fill(case)
    case.engine.dispose()
    return path, ids


@pytest.fixture(scope="session")
def client(generated_case):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    return TestClient(create_app(generated_case), base_url=LOCAL)


@pytest.fixture(scope="session")
def built_client(built_case):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    return TestClient(create_app(built_case[0]), base_url=LOCAL)


@pytest.fixture(scope="session")
def live_server(built_case):
    """uvicorn in a thread on a free port, serving the built case; its base URL."""
    from onrecord.views.web.app import create_app

    with serving(create_app(built_case[0])) as base:
        yield base


@pytest.fixture(scope="module")
def two_cases(scenario_dir, pg_url, tmp_path_factory):
    """Cases A and B in the PostgreSQL store, each holding some of the scenario's exports;
    ana<tag> (analyst) granted A, bob<tag> (viewer) granted B: (url, {"A": case, "B": case}, tag).
    Its accounts are removed afterwards (the session's PostgreSQL store is shared)."""
    import json
    import uuid

    from onrecord.access.store import AccessStore
    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case
    from tests.access.conftest import PASSWORD
    from tests.conftest import _forget_accounts

    sources = json.loads((scenario_dir / "manifest.json").read_text())["sources"]
    root, tag = tmp_path_factory.mktemp("server"), uuid.uuid4().hex[:6]
    made = {}
    for key, picked in (("A", sources[:2]), ("B", sources[2:4])):
        case = init_case(root / f"case-{key}-{tag}", pg_url)
        for s in picked:
            import_file(case, scenario_dir / s["file"], load_mapping(str(scenario_dir / s["mapping"])))
        made[key] = case
    access = AccessStore(made["A"].engine)
    access.accounts.add(f"ana{tag}", "analyst", PASSWORD, made["A"].id)
    access.accounts.add(f"bob{tag}", "viewer", PASSWORD, made["B"].id)
    yield pg_url, made, tag
    for c in made.values():
        c.engine.dispose()
    _forget_accounts(pg_url)

"""A generated case (scenario seed 1), imported and really built once for the export tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from onrecord.store.engine import DATABASE_URL_ENV


@pytest.fixture(scope="session")
def exported_case(tmp_path_factory) -> Path:
    from onrecord.pipeline import build_case
    from onrecord.store.case import open_case
    from tests.views.conftest import _import_scenario

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DATABASE_URL_ENV, raising=False)
        path = _import_scenario(tmp_path_factory.mktemp("export"))
        case = open_case(path)
        build_case(case)
        case.engine.dispose()
    return path

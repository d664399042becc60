"""One generated incident (seed 7), imported and built once for the findings tests."""

from __future__ import annotations

import pytest

from onrecord.store.engine import DATABASE_URL_ENV


@pytest.fixture(scope="session")
def built_seed(tmp_path_factory):
    """(work folder, the case, its reconstruction with findings): statements, press pieces
    and contradictions included."""
    from onrecord.pipeline import build_case
    from onrecord.scenario.into_case import generate_and_import

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DATABASE_URL_ENV, raising=False)
        work = tmp_path_factory.mktemp("findings")
        case = generate_and_import(7, work)
        return work, case, build_case(case)

"""Shared fixtures: every store test runs on SQLite and on PostgreSQL.

PostgreSQL is the server at 127.0.0.1:5432 (user postgres, trust auth). Where it is not
running the PostgreSQL half skips with a reason, except in CI (CI=true), where it fails.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from onrecord.store.engine import DATABASE_URL_ENV

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ONRECORD_SHARED", REPO.parent / "shared"))  # a worktree elsewhere names it
PG_ADMIN_URL = os.environ.get("ONRECORD_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
IN_CI = os.environ.get("CI") == "true"


def shared_path(*parts: str) -> Path:
    """A file under ../shared/, or a skip (a failure in CI) when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if IN_CI:
            pytest.fail(f"{path} is missing, and CI must run the tests on real data")
        pytest.skip(f"real data not here: {path} is absent (a fresh clone has no ../shared/)")
    return path


@pytest.fixture(scope="session")
def pg_url():
    """A fresh PostgreSQL database for this test session, dropped afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError

    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = f"onrecord_test_{uuid.uuid4().hex[:10]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL is required in CI and is not reachable: {exc}")
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN_URL}: {exc.orig}")
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    yield url
    from sqlalchemy import engine as _e  # noqa: F401

    with admin.connect() as conn:
        conn.execute(text(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"))
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request, monkeypatch):
    """Sets the store for the test: SQLite file in the case folder, or PostgreSQL."""
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")
        monkeypatch.setenv(DATABASE_URL_ENV, url)
    else:
        monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    yield request.param
    if request.param == "postgres":
        _forget_accounts(url)


def _forget_accounts(url: str) -> None:
    """Accounts live in the store, server-wide (docs/access.md): once one exists, every case on
    the server needs sign-in. The session's PostgreSQL database is shared by every test, so a
    test's accounts are removed after it, or later tests' web reads would meet sign-in."""
    from sqlalchemy import create_engine, inspect

    from onrecord.store import schema_access as sa_

    engine = create_engine(url)
    try:
        present = set(inspect(engine).get_table_names())
        with engine.begin() as conn:
            for t in (sa_.sessions, sa_.api_tokens, sa_.user_agencies, sa_.user_cases, sa_.sign_in_failures,
                      sa_.users):
                if t.name in present:
                    conn.execute(t.delete())
    finally:
        engine.dispose()


@pytest.fixture
def cli(capsys):
    """Run `onrecord ARGS...` in-process: (exit code, stdout, stderr)."""
    from onrecord.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def case_dir(tmp_path, backend, cli):
    path = tmp_path / "case"
    code, out, err = cli("init", path)
    assert code == 0, err
    return path


@pytest.fixture(autouse=True, scope="session")
def _signing_keys(tmp_path_factory):
    """Cases made by tests (module-wide fixtures' too) keep their signing keys in a test
    folder, never in the user's own configuration folder."""
    from onrecord.store.signing import KEY_DIR_ENV

    saved = os.environ.get(KEY_DIR_ENV)
    os.environ[KEY_DIR_ENV] = str(tmp_path_factory.getbasetemp() / "signing-keys")
    yield
    if saved is None:
        os.environ.pop(KEY_DIR_ENV, None)
    else:
        os.environ[KEY_DIR_ENV] = saved

"""In WAL mode, Python's sqlite3 and ADBC's own SQLite must never hold one case file open at
once in one process (store/engine.py watch_sqlite): idle sqlite3 connections are closed
before ADBC opens the file, and one in use then, or one opened while ADBC holds the file,
is refused with TwoSqliteLibraries instead of corrupting the WAL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from onrecord.store.adbc import adbc_cursor
from onrecord.store.case import init_case
from onrecord.store.engine import TwoSqliteLibraries
from onrecord.store.reader import open_reader


@pytest.fixture(autouse=True)
def _adbc_in_this_process(monkeypatch):
    """These tests are of a process that keeps ADBC (the CLI's import and build). A test run
    earlier in the same interpreter may have served a case (`onrecord serve` in-process makes
    the process one-library for good), which exempts it from the guard."""
    from onrecord.store import engine

    monkeypatch.setattr(engine, "one_library", False)


def _count_cases(cur) -> int:
    cur.execute("SELECT count(*) FROM cases")
    return int(cur.fetchall()[0][0])


def test_idle_connections_are_closed_before_adbc_opens_the_file(tmp_path):
    case = init_case(tmp_path / "case")
    served = open_reader(case, read_only=True).case  # a server's read-only engine beside the case's own
    with served.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    assert served.engine.pool.checkedin() == 1
    with adbc_cursor(case) as cur:
        assert _count_cases(cur) == 1
    assert served.engine.pool.checkedin() == 0  # closed, and reopened on the next query
    with served.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM cases")).scalar() == 1


def test_a_connection_in_use_refuses_adbc(tmp_path):
    case = init_case(tmp_path / "case")
    with case.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
        with pytest.raises(TwoSqliteLibraries, match="in use"), adbc_cursor(case):
            pass


def test_no_sqlite3_connection_opens_while_adbc_holds_the_file(tmp_path):
    case = init_case(tmp_path / "case")
    with adbc_cursor(case) as cur:
        assert _count_cases(cur) == 1
        with pytest.raises(TwoSqliteLibraries, match="while ADBC"), case.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    with case.engine.connect() as conn:  # ADBC closed: open again
        assert conn.execute(text("SELECT count(*) FROM cases")).scalar() == 1


def test_one_library_processes_mix_freely(tmp_path, monkeypatch):
    monkeypatch.setattr("onrecord.store.engine.one_library", True)  # what serve and live do
    case = init_case(tmp_path / "case")
    with case.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
        with adbc_cursor(case) as cur:
            assert _count_cases(cur) == 1

"""The live writer's kept connection (store/adbc.py KeptConnection): one connection across
batches where the process reaches SQLite through sqlite3 alone, no lock held between
batches, a failed batch leaves nothing and drops the connection, and elsewhere each
transaction has a connection of its own as before."""

from __future__ import annotations

import sqlite3

import pytest

from onrecord.store.adbc import KeptConnection, adbc_transaction
from onrecord.store.case import init_case


@pytest.fixture
def case(tmp_path, monkeypatch):
    monkeypatch.setattr("onrecord.store.engine.one_library", True)  # what `onrecord live` sets
    c = init_case(tmp_path / "case")
    yield c
    c.engine.dispose()


def _rows_of_t(case) -> int:
    con = sqlite3.connect(case.engine.url.database)
    try:
        return con.execute("select count(*) from t").fetchone()[0]
    finally:
        con.close()


def test_one_connection_serves_every_batch_and_holds_no_lock_between_them(case):
    kept = KeptConnection(case)
    with adbc_transaction(case, kept) as cur:
        cur.execute("select 1")
        first = cur
    # between batches another connection writes at once: nothing of the kept one is held
    other = sqlite3.connect(case.engine.url.database, timeout=0)
    other.execute("create table other_writer (x integer)")
    other.commit()
    other.close()
    with adbc_transaction(case, kept) as cur:
        assert cur is first
        cur.execute("select count(*) from other_writer")  # and it sees what the other wrote
        assert cur.fetchall() == [(0,)]
    kept.drop()


def test_a_failed_batch_is_rolled_back_and_the_next_one_commits(case):
    kept = KeptConnection(case)
    with adbc_transaction(case, kept) as cur:
        cur.execute("create table t (x integer)")
        cur.execute("insert into t values (1)")
    with pytest.raises(RuntimeError):
        with adbc_transaction(case, kept) as cur:
            cur.execute("insert into t values (2)")
            raise RuntimeError("the batch failed")
    assert _rows_of_t(case) == 1
    with adbc_transaction(case, kept) as cur:
        cur.execute("insert into t values (3)")
    assert _rows_of_t(case) == 2
    kept.drop()


def test_a_broken_connection_is_dropped_and_a_fresh_one_opened(case):
    kept = KeptConnection(case)
    with adbc_transaction(case, kept) as cur:
        broken = cur
    broken.connection.raw.close()  # as a connection the store lost would be
    with pytest.raises(sqlite3.ProgrammingError):
        with adbc_transaction(case, kept):
            pass
    with adbc_transaction(case, kept) as cur:
        assert cur is not broken
        cur.execute("select 1")
        assert cur.fetchall() == [(1,)]
    kept.drop()


def test_without_sqlite3_alone_each_transaction_opens_its_own(case, monkeypatch):
    monkeypatch.setattr("onrecord.store.engine.one_library", False)
    kept = KeptConnection(case)
    assert not kept.usable()
    with adbc_transaction(case, kept) as cur:
        cur.execute("select 1")
    assert kept._cur is None  # nothing was kept

"""A case on each store, and a clock the tests move by hand (lockouts, timeouts)."""

from __future__ import annotations

import uuid

import pytest


class Clock:
    def __init__(self, ms: int = 1_780_000_000_000):
        self.ms = ms

    def __call__(self) -> int:
        return self.ms

    def advance(self, minutes: float = 0, seconds: float = 0) -> None:
        self.ms += int(minutes * 60_000 + seconds * 1000)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path, backend, clock):
    """(case, AccessStore) on SQLite or PostgreSQL."""
    from onrecord.access.store import AccessStore
    from onrecord.store.case import init_case

    case = init_case(tmp_path / "case")
    yield case, AccessStore(case.engine, clock)
    case.engine.dispose()


@pytest.fixture
def name() -> str:
    """A user name of this test alone (the PostgreSQL store is shared by the session's tests)."""
    return f"ana.{uuid.uuid4().hex[:8]}"


PASSWORD = "correct horse battery"

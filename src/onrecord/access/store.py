"""The access side of a store: accounts, sessions and API tokens on one writable engine,
and the Actor a signed-in account reads as."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import Engine

from onrecord.access.accounts import Account, Accounts
from onrecord.access.clock import wall_ms
from onrecord.access.sessions import Sessions
from onrecord.access.tokens import Tokens
from onrecord.store.case import Case
from onrecord.store.engine import make_engine
from onrecord.store.reader import Actor
from onrecord.store.write_lock import wait_limit

ACTOR_KEPT_S = 2.0


class AccessStore:
    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms):
        self.engine = engine
        self.accounts = Accounts(engine, now_ms)
        self.sessions = Sessions(engine, now_ms)
        self.tokens = Tokens(engine, now_ms)
        self._lock = threading.Lock()
        self._actors: dict[str, tuple[float, Actor | None]] = {}

    @classmethod
    def of(cls, case: Case, now_ms: Callable[[], int] = wall_ms, pool: int | None = None) -> AccessStore:
        """On the case's store, through a connection of its own that may write (a server reads
        the case on a read-only one). `pool`: connections kept open, one per worker thread."""
        from onrecord.store.reader import READ_POOL

        return cls(make_engine(case.engine.url.render_as_string(hide_password=False), wait_limit(case.settings),
                               pool_size=pool or READ_POOL), now_ms)

    def actor(self, name: str) -> Actor | None:
        """The Actor a live account reads as; None for a missing or disabled one. Kept for
        ACTOR_KEPT_S: three queries per request fewer under load; a disabled account's
        sessions and tokens are ended in the store at once and refused from the next request."""
        now = time.monotonic()
        with self._lock:
            found = self._actors.get(name)
        if found is None or now - found[0] > ACTOR_KEPT_S:
            account = self.accounts.find(name)
            found = (now, None if account is None or account.disabled else actor_of(account))
            with self._lock:
                self._actors[name] = found
        return found[1]


def actor_of(account: Account) -> Actor:
    return Actor(account.name, kind="user", role=account.role, agencies=account.agencies, cases=account.cases)

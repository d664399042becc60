"""Server-side sessions in the store (never signed cookies): the cookie holds a random
token, the store its SHA-256. A session ends after 30 minutes without a request (AC-11/
AC-12 idle timeout) and 12 hours after sign-in whatever happens (re-sign-in), or at
sign-out. `last_seen` is written at most once a minute per session: one write per minute,
not per request, under load; the idle timeout is exact to that minute."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, insert, select, update

from onrecord.access.clock import wall_ms
from onrecord.store.schema_access import sessions, users

IDLE_MS = 30 * 60_000
MAX_AGE_MS = 12 * 3600_000
TOUCH_EVERY_MS = 60_000


# asked on every request: built once (SQLAlchemy neither builds it nor works out its cache key again)
FIND = select(sessions, users.c.name, users.c.disabled).join(users, users.c.id == sessions.c.user_id).where(
    sessions.c.token_sha256 == bindparam("key"))


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Session:
    token_sha256: str
    user_name: str
    csrf: str


class Sessions:
    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms):
        self.engine, self.now_ms = engine, now_ms

    def start(self, user_id: int, from_addr: str | None) -> tuple[str, str]:
        """A new session: (the cookie's token, the CSRF token its forms carry)."""
        token, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(24), self.now_ms()
        with self.engine.begin() as conn:
            conn.execute(insert(sessions).values(token_sha256=digest(token), user_id=user_id, csrf=csrf,
                                                 created_ms=now, last_seen_ms=now, from_addr=from_addr))
        return token, csrf

    def find(self, token: str | None, touch: bool = True) -> Session | None:
        """The live session of this token, touched; None when unknown, ended, idle past 30
        minutes, older than 12 hours, or its account is disabled (then it is ended).
        `touch` False: checked without counting as use (a board's open stream re-checks its
        session so that it ends with it, but watching is not a request)."""
        if not token or len(token) > 200:
            return None
        key, now = digest(token), self.now_ms()
        with self.engine.connect().execution_options(one_read=True) as conn:
            row = conn.execute(FIND, {"key": key}).mappings().first()
        if row is None or row["ended_ms"] is not None:
            return None
        if row["disabled"] or now - row["last_seen_ms"] > IDLE_MS or now - row["created_ms"] > MAX_AGE_MS:
            self._end(key, now)
            return None
        if touch and now - row["last_seen_ms"] >= TOUCH_EVERY_MS:
            with self.engine.begin() as conn:
                conn.execute(update(sessions).where(sessions.c.token_sha256 == key).values(last_seen_ms=now))
        return Session(key, row["name"], row["csrf"])

    def end(self, token: str | None) -> None:
        if token:
            self._end(digest(token), self.now_ms())

    def end_all(self, user_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.user_id == user_id, sessions.c.ended_ms.is_(None))
                         .values(ended_ms=self.now_ms()))

    def _end(self, key: str, now: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.token_sha256 == key, sessions.c.ended_ms.is_(None))
                         .values(ended_ms=now))

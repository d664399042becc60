"""OIDC sign-ins under way (access/oidc.py), kept in the store rather than in one process:
with `onrecord serve --workers N` the browser's return from the provider may reach any of
the server's processes, and a `state` must be used once across all of them. The state and
the browser's cookie value are kept as SHA-256 (each is a bearer of the sign-in); the
nonce and PKCE verifier as given (the code exchange needs the verifier itself)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, insert, select, update

from onrecord.store.schema_access import oidc_pending


@dataclass
class Pending:
    nonce: str
    verifier: str
    redirect_uri: str
    next_url: str
    browser_sha256: str  # of a random value in the browser's cookie: the callback must come from that browser


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


class PendingSignIns:
    """`ttl_s`: a sign-in started longer ago is forgotten; `most`: at most this many kept
    (a flood of started sign-ins forgets the oldest)."""

    def __init__(self, engine: Engine, now_s: Callable[[], float], ttl_s: float, most: int):
        self.engine, self.now_s, self.ttl_ms, self.most = engine, now_s, int(ttl_s * 1000), most

    def _now_ms(self) -> int:
        return int(self.now_s() * 1000)

    def add(self, state: str, p: Pending) -> None:
        now = self._now_ms()
        with self.engine.begin() as conn:
            conn.execute(delete(oidc_pending).where(oidc_pending.c.started_ms < now - self.ttl_ms))
            conn.execute(insert(oidc_pending).values(
                state_sha256=sha(state), nonce=p.nonce, verifier=p.verifier, redirect_uri=p.redirect_uri,
                next_url=p.next_url, browser_sha256=p.browser_sha256, started_ms=now))
            kept = conn.execute(select(func.count()).select_from(oidc_pending)).scalar()
            if kept > self.most:
                oldest = select(oidc_pending.c.state_sha256).order_by(oidc_pending.c.started_ms).limit(kept - self.most)
                conn.execute(delete(oidc_pending).where(oidc_pending.c.state_sha256.in_(oldest.scalar_subquery())))

    def take(self, state: str) -> tuple[Pending | None, bool]:
        """(the sign-in begun with this state, marked used; or None, and whether the state
        was one already used). One UPDATE: two processes taking the same state at once
        cannot both get it."""
        key, now = sha(state), self._now_ms()
        c = oidc_pending.c
        with self.engine.begin() as conn:
            row = conn.execute(update(oidc_pending).where(
                c.state_sha256 == key, c.used_ms.is_(None), c.started_ms >= now - self.ttl_ms).values(
                used_ms=now).returning(c.nonce, c.verifier, c.redirect_uri, c.next_url, c.browser_sha256)).first()
            if row is not None:
                return Pending(*row), False
            used = conn.execute(select(c.used_ms).where(c.state_sha256 == key,
                                                         c.started_ms >= now - self.ttl_ms)).scalar()
        return None, used is not None

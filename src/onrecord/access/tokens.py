"""API tokens for scripts: `Authorization: Bearer onr_...`. The store keeps the token's
SHA-256 only; the token is shown once, when made. Revoked tokens are refused at once."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy import Engine, insert, select, update

from onrecord.access.clock import wall_ms
from onrecord.access.sessions import digest
from onrecord.errors import UsageError
from onrecord.store.schema_access import api_tokens, users

PREFIX = "onr_"


class Tokens:
    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms):
        self.engine, self.now_ms = engine, now_ms

    def create(self, user_id: int) -> tuple[int, str]:
        token = PREFIX + secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            tid = conn.execute(insert(api_tokens).values(user_id=user_id, token_sha256=digest(token),
                                                         created_ms=self.now_ms())).inserted_primary_key[0]
        return tid, token

    def user_of(self, token: str | None) -> str | None:
        """The name of the account a live token belongs to (disabled accounts' tokens are dead)."""
        if not token or not token.startswith(PREFIX) or len(token) > 200:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(users.c.name, users.c.disabled, api_tokens.c.revoked_ms).join(
                users, users.c.id == api_tokens.c.user_id).where(api_tokens.c.token_sha256 == digest(token))).first()
        if row is None or row.revoked_ms is not None or row.disabled:
            return None
        return row.name

    def revoke(self, token_id: int) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(update(api_tokens).where(api_tokens.c.id == token_id, api_tokens.c.revoked_ms.is_(None))
                                .values(revoked_ms=self.now_ms())).rowcount
        if not done:
            raise UsageError(f"no live token {token_id} (`onrecord token list` shows them)")

    def list(self) -> list[dict]:
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(select(
                api_tokens.c.id, users.c.name.label("user"), api_tokens.c.created_ms, api_tokens.c.revoked_ms)
                .join(users, users.c.id == api_tokens.c.user_id).order_by(api_tokens.c.id)).mappings()]

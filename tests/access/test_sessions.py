"""Server-side sessions: 30 minutes idle ends one, 12 hours after sign-in ends it whatever,
sign-out and disabling the account end it at once; API tokens can be revoked."""

from __future__ import annotations

from tests.access.conftest import PASSWORD


def _signed_in(access, case, name):
    access.accounts.add(name, "viewer", PASSWORD, case.id)
    account = access.accounts.sign_in(name, PASSWORD)
    return account, access.sessions.start(account.id, "127.0.0.1")[0]


def test_a_session_idle_for_30_minutes_ends(store, name, clock):
    case, access = store
    _, token = _signed_in(access, case, name)
    clock.advance(minutes=29)
    assert access.sessions.find(token).user_name == name  # used: the idle time starts again
    clock.advance(minutes=29)
    assert access.sessions.find(token) is not None
    clock.advance(minutes=30, seconds=1)
    assert access.sessions.find(token) is None
    clock.advance(seconds=1)
    assert access.sessions.find(token) is None  # ended, not merely idle


def test_a_session_in_use_still_ends_12_hours_after_sign_in(store, name, clock):
    case, access = store
    _, token = _signed_in(access, case, name)
    for _ in range(11 * 4 + 3):  # a request every 15 minutes for 11 h 45 min
        clock.advance(minutes=15)
        assert access.sessions.find(token) is not None
    clock.advance(minutes=16)
    assert access.sessions.find(token) is None


def test_sign_out_and_disabling_end_sessions(store, name):
    case, access = store
    account, token = _signed_in(access, case, name)
    access.sessions.end(token)
    assert access.sessions.find(token) is None
    token = access.sessions.start(account.id, None)[0]
    access.accounts.disable(name)
    assert access.sessions.find(token) is None


def test_the_store_keeps_no_token_in_clear(store, name):
    from sqlalchemy import select

    from onrecord.store.schema_access import api_tokens, sessions

    case, access = store
    account, token = _signed_in(access, case, name)
    _, api = access.tokens.create(account.id)
    with case.engine.connect() as conn:
        kept = [r[0] for r in conn.execute(select(sessions.c.token_sha256))] + \
            [r[0] for r in conn.execute(select(api_tokens.c.token_sha256))]
    assert token not in kept and api not in kept and all(len(k) == 64 for k in kept)


def test_api_tokens_work_until_revoked(store, name):
    case, access = store
    account, _ = _signed_in(access, case, name)
    tid, token = access.tokens.create(account.id)
    assert access.tokens.user_of(token) == name
    assert access.tokens.user_of(token[:-2] + "xx") is None and access.tokens.user_of("Basic abc") is None
    access.tokens.revoke(tid)
    assert access.tokens.user_of(token) is None

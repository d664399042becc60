"""live/access.py's re-check of an open board stream's credential: it holds while the
session or token does, and stops holding at sign-out, idle timeout, a revoked token or a
disabled account — without counting as use (the session's idle time runs on)."""

from __future__ import annotations

from types import SimpleNamespace

from starlette.requests import Request

from onrecord.access.sessions import IDLE_MS
from onrecord.access.store import AccessStore, actor_of
from onrecord.live.access import still_valid
from onrecord.store.case import init_case
from onrecord.store.reader import LOCAL_USER
from tests.access.conftest import PASSWORD, Clock


def _request(access, actor, headers):
    app = SimpleNamespace(state=SimpleNamespace(access=access))
    scope = {"type": "http", "app": app, "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
             "state": {"actor": actor}}
    return Request(scope)


def _store(tmp_path):
    clock = Clock()
    case = init_case(tmp_path / "case")
    access = AccessStore(case.engine, clock)
    access.accounts.add("ana", "analyst", PASSWORD, case.id)
    account = access.accounts.find("ana")
    return access, account, clock


def test_a_session_holds_until_signed_out(tmp_path):
    access, account, _ = _store(tmp_path)
    token, _ = access.sessions.start(account.id, None)
    request = _request(access, actor_of(account), {"cookie": f"onrecord_session={token}"})
    assert still_valid(request)
    access.sessions.end(token)
    assert not still_valid(request)


def test_watching_is_not_use_the_session_idles_out(tmp_path):
    access, account, clock = _store(tmp_path)
    token, _ = access.sessions.start(account.id, None)
    request = _request(access, actor_of(account), {"cookie": f"onrecord_session={token}"})
    for _ in range(5):  # re-checked every few minutes for half an hour: none of it touches the session
        clock.advance(minutes=IDLE_MS / 60_000 / 5)
        still_valid(request)
    clock.advance(seconds=1)
    assert not still_valid(request)
    assert access.sessions.find(token) is None


def test_a_token_holds_until_revoked_and_an_account_until_disabled(tmp_path):
    access, account, _ = _store(tmp_path)
    number, token = access.tokens.create(account.id)
    request = _request(access, actor_of(account), {"authorization": f"Bearer {token}"})
    assert still_valid(request)
    access.tokens.revoke(number)
    assert not still_valid(request)
    _, other = access.tokens.create(account.id)
    request = _request(access, actor_of(account), {"authorization": f"Bearer {other}"})
    access.accounts.disable("ana")
    assert not still_valid(request)


def test_the_local_user_holds_until_the_first_account(tmp_path):
    case = init_case(tmp_path / "case")
    access = AccessStore(case.engine)
    request = _request(access, LOCAL_USER, {})
    assert still_valid(request)
    access.accounts.add("ana", "viewer", PASSWORD, case.id)
    assert not still_valid(request)

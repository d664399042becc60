"""Sign-in on the web and the API: every case-data route answers 401 without a valid
session or token, the form's CSRF token, sessions' idle timeout, API tokens, sign-out,
cases not granted, and the audit entry of every request."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.access.conftest import PASSWORD, Clock
from tests.views.derived import LOCAL


@pytest.fixture
def served(generated_case, tmp_path, monkeypatch):
    """A copy of the generated case with two accounts; (client, access store, clock, case folder)."""
    from fastapi.testclient import TestClient

    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case
    from onrecord.store.engine import DATABASE_URL_ENV
    from onrecord.views.web.app import create_app

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    path = tmp_path / "case"
    shutil.copytree(generated_case, path)
    clock = Clock()
    case = open_case(path)
    access = AccessStore(case.engine, clock)
    access.accounts.add("ana", "analyst", PASSWORD, case.id)
    access.accounts.add("vic", "viewer", PASSWORD, case.id)
    app = create_app(path, now_ms=clock)
    web = TestClient(app, base_url=LOCAL)
    web.audit = app.state.audit
    yield web, access, clock, path
    case.engine.dispose()


def sign_in(web, name="ana", password=PASSWORD, code=""):
    form = web.get("/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
    return web.post("/login", data={"username": name, "password": password, "code": code, "csrf": csrf,
                                    "next": "/sources"}, follow_redirects=False)


def api_routes(web) -> list[str]:
    """Every route of the API's own schema, ids filled in."""
    return [re.sub(r"\{[a-z_]+\}", "1", p) for p in web.get("/openapi.json").json()["paths"]]


def test_every_case_data_route_answers_401_signed_out(served):
    web = served[0]
    routes = api_routes(web)
    assert len(routes) >= 10
    for path in routes:
        r = web.get(path)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer", path
        assert set(r.json()) == {"detail"}
        assert web.get(path, headers={"Authorization": "Bearer onr_not-a-token"}).status_code == 401
    for page in ("/timeline", "/sources", "/events/1", "/subjects"):
        r = web.get(page, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")


def test_signing_in_opens_the_pages_and_sets_a_strict_cookie(served):
    web = served[0]
    r = sign_in(web)
    assert r.status_code == 303 and r.headers["location"] == "/sources"
    cookie = r.headers["set-cookie"]
    assert "onrecord_session=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict",
                                                                                                         "strict")
    assert web.get("/api/cases/current").status_code == 200
    page = web.get("/sources")
    assert page.status_code == 200 and "Signed in as" in page.text and "ana" in page.text


def test_the_sign_in_form_needs_its_csrf_token(served):
    web = served[0]
    web.get("/login")
    r = web.post("/login", data={"username": "ana", "password": PASSWORD, "csrf": "forged"}, follow_redirects=False)
    assert r.status_code == 403 and "onrecord_session" not in r.headers.get("set-cookie", "")
    assert web.get("/api/cases/current").status_code == 401


def test_a_wrong_password_says_nothing_about_why_and_five_lock(served):
    web = served[0]
    first = sign_in(web, password="not the password")
    unknown = sign_in(web, name="nobody", password="not the password")
    assert first.status_code == unknown.status_code == 401
    assert re.search(r'id="login-message">([^<]+)', first.text).group(1) == \
        re.search(r'id="login-message">([^<]+)', unknown.text).group(1)
    for _ in range(4):
        sign_in(web, password="not the password")
    assert sign_in(web).status_code == 401  # locked: the right password is refused
    assert web.get("/api/cases/current").status_code == 401


def test_an_idle_session_is_sent_to_sign_in(served):
    web, _, clock, _ = served
    sign_in(web)
    clock.advance(minutes=20)
    assert web.get("/api/cases/current").status_code == 200
    clock.advance(minutes=30, seconds=5)
    r = web.get("/timeline", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=%2Ftimeline"


def test_sign_out_needs_the_session_token_and_ends_the_session(served):
    web = served[0]
    sign_in(web)
    assert web.post("/logout", data={"csrf": "forged"}, follow_redirects=False).status_code == 403
    assert web.get("/api/cases/current").status_code == 200
    csrf = re.search(r'name="csrf" value="([^"]+)"', web.get("/sources").text).group(1)
    assert web.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert web.get("/api/cases/current").status_code == 401


def test_api_tokens_are_bearer_and_revocable(served):
    web, access, _, _ = served
    tid, token = access.tokens.create(access.accounts.find("vic").id)
    bearer = {"Authorization": f"Bearer {token}"}
    assert web.get("/api/events", params={"limit": 3}, headers=bearer).status_code == 200
    access.tokens.revoke(tid)
    assert web.get("/api/events", params={"limit": 3}, headers=bearer).status_code == 401


def test_an_account_not_granted_the_case_is_refused(served):
    """Another case in the same store (as on a PostgreSQL server holding many)."""
    from sqlalchemy import insert

    from onrecord.store.schema import cases

    web, access, _, _ = served
    with access.engine.begin() as conn:
        other = conn.execute(insert(cases).values(uid="0-other", name="other", created_at="2026-01-01T00:00:00",
                                                  record_count=0, chain_head=bytes(32))).inserted_primary_key[0]
    access.accounts.add("olga", "admin", PASSWORD, other)
    _, token = access.tokens.create(access.accounts.find("olga").id)
    r = web.get("/api/cases/current", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 403 and "olga" in r.json()["detail"]


def test_every_request_is_in_the_audit_log(served):
    web, _, _, _ = served
    web.get("/api/events", params={"limit": 4})  # signed out: denied
    sign_in(web, password="not the password")
    sign_in(web)
    page = web.get("/api/events", params={"limit": 4}).json()
    web.get("/api/events/987654321")
    log = web.audit
    log.flush()
    entries = log.entries()
    kinds = [(e["actor"], e["action"], e["outcome"]) for e in entries]
    assert ("(not signed in)", "read", "denied") in kinds
    assert ("ana", "sign_in_failed", "denied") in kinds and ("ana", "sign_in", "allowed") in kinds
    read = [e for e in entries if e["actor"] == "ana" and e["what"].startswith("GET /api/events?")]
    assert len(read) == 1 and read[0]["outcome"] == "allowed" and read[0]["via"] == "api"
    import json
    assert json.loads(read[0]["record_ids"]) == sorted(e["id"] for e in page["events"])
    assert read[0]["from_addr"] == "testclient" and read[0]["at_ms"] > 0
    assert any(e["what"] == "GET /api/events/987654321" for e in entries)
    assert log.verify() == (len(entries), None)


def test_a_store_without_accounts_answers_this_machine_only(generated_case):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    remote = TestClient(create_app(generated_case), base_url=LOCAL, client=("203.0.113.9", 5000))
    r = remote.get("/api/cases/current")
    assert r.status_code == 403 and "user add" in r.json()["detail"]


def test_the_audit_log_on_the_api_is_for_auditors(served):
    web, access, _, path = served
    from onrecord.store.case import open_case

    case = open_case(path)
    access.accounts.add("aud", "auditor", PASSWORD, case.id)
    case.engine.dispose()
    viewer = {"Authorization": f"Bearer {access.tokens.create(access.accounts.find('vic').id)[1]}"}
    auditor = {"Authorization": f"Bearer {access.tokens.create(access.accounts.find('aud').id)[1]}"}
    web.get("/api/events", params={"limit": 2}, headers=viewer)
    r = web.get("/api/audit", headers=viewer)
    assert r.status_code == 403 and "may not read the audit" in r.json()["detail"]
    web.audit.flush()
    entries = web.get("/api/audit", params={"user": "vic"}, headers=auditor).json()["entries"]
    assert [e["outcome"] for e in entries] == ["allowed", "denied"]  # its read, then its refused look at the audit
    assert entries[0]["what"].startswith("GET /api/events?") and entries[0]["at"].endswith("Z")
    assert web.get("/api/audit/verify", headers=auditor).json()["intact"] is True

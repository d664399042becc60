"""OIDC sign-in against a provider run on loopback in the test (tests/access/oidc_provider.py):
a good sign-in starts the same server-side session as a password; a wrong audience, an
expired token, a bad signature, a replayed state, a state from another browser and an
unknown subject are each refused with the one sentence the page shows, and audited with
their reason."""

from __future__ import annotations

import html
import shutil
from urllib.parse import urlsplit

import pytest
import requests

from tests.access.conftest import PASSWORD
from tests.access.oidc_provider import Provider
from tests.views.derived import LOCAL


@pytest.fixture(scope="module")
def provider():
    with Provider() as p:
        yield p


@pytest.fixture
def served(generated_case, tmp_path, monkeypatch, provider):
    """A copy of the generated case: ana linked to the provider's subject (no password), vic
    with a password; (client, app, access store)."""
    from fastapi.testclient import TestClient

    from onrecord.access.oidc import OidcSettings
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case
    from onrecord.store.engine import DATABASE_URL_ENV
    from onrecord.views.web.app import create_app

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    path = tmp_path / "case"
    shutil.copytree(generated_case, path)
    case = open_case(path)
    access = AccessStore(case.engine)
    provider.reset()
    access.accounts.add("ana", "analyst", None, case.id, oidc_subject=provider.subject)
    access.accounts.add("vic", "viewer", PASSWORD, case.id)
    app = create_app(path, oidc=OidcSettings(provider.issuer, provider.client_id, provider.client_secret,
                                             "Test County SSO"))
    yield TestClient(app, base_url=LOCAL), app, access
    case.engine.dispose()


def at_provider(web, next_url="/sources") -> str:
    """Start a sign-in and let the provider answer as the browser would: the callback's path."""
    r = web.get("/login/oidc", params={"next": next_url}, follow_redirects=False)
    assert r.status_code == 303, r.text
    back = requests.get(r.headers["location"], allow_redirects=False, timeout=10)
    assert back.status_code == 302, back.text
    parts = urlsplit(back.headers["location"])
    assert f"{parts.scheme}://{parts.netloc}" == LOCAL and parts.path == "/login/oidc/callback"
    return f"{parts.path}?{parts.query}"


def audit_of(app, action: str) -> list[dict]:
    app.state.audit.flush()
    return [e for e in app.state.audit.entries() if e["action"] == action]


def refused(web, callback: str, app, reason: str, actor: str = "(oidc)", prefix: bool = False):
    from onrecord.views.web.oidc_signin import REFUSED

    r = web.get(callback, follow_redirects=False)
    assert r.status_code == 401 and html.escape(REFUSED, quote=True) in r.text
    assert "onrecord_session" not in r.headers.get("set-cookie", "")
    assert web.get("/api/cases/current").status_code == 401
    failed = audit_of(app, "sign_in_failed")
    what = failed[-1]["what"] if failed else ""
    assert (what.startswith(f"OIDC sign-in: {reason}") if prefix else what == f"OIDC sign-in: {reason}"), what
    assert failed[-1]["outcome"] == "denied"
    assert failed[-1]["actor"] == actor
    return failed[-1]


def test_the_login_page_offers_the_provider(served):
    web = served[0]
    page = web.get("/login?next=/metrics")
    assert 'id="sign-in-oidc"' in page.text and "Sign in with Test County SSO" in page.text
    assert "/login/oidc?next=/metrics" in page.text


def test_a_good_sign_in_starts_a_session(served, provider):
    web, app, _ = served
    first = web.get("/login/oidc", params={"next": "/sources"}, follow_redirects=False)
    query = dict(p.split("=", 1) for p in urlsplit(first.headers["location"]).query.split("&"))
    assert query["code_challenge_method"] == "S256" and query["code_challenge"] and query["nonce"] and query["state"]
    back = requests.get(first.headers["location"], allow_redirects=False, timeout=10)
    parts = urlsplit(back.headers["location"])
    r = web.get(f"{parts.path}?{parts.query}", follow_redirects=False)
    assert r.status_code == 200 and 'content="0;url=/sources"' in r.text
    cookie = r.headers["set-cookie"]
    assert "onrecord_session=" in cookie and "HttpOnly" in cookie
    page = web.get("/sources")
    assert page.status_code == 200 and '<span id="signed-in-as">ana</span>' in page.text
    ok = audit_of(app, "sign_in")
    assert ok[-1]["actor"] == "ana" and ok[-1]["what"] == "OIDC sign-in" and ok[-1]["outcome"] == "allowed"


def test_a_wrong_audience_is_refused(served, provider):
    web, app, _ = served
    provider.audience = "another-client"
    refused(web, at_provider(web), app, "wrong_audience")


def test_several_audiences_need_us_as_the_authorized_party(served, provider):
    web, app, _ = served
    provider.audience = [provider.client_id, "another-client"]  # no azp claim naming us
    refused(web, at_provider(web), app, "wrong_audience")


def test_a_token_of_another_issuer_is_refused(served, provider):
    web, app, _ = served
    provider.iss_claim = "https://another-provider.example.test"
    refused(web, at_provider(web), app, "wrong_issuer")


def test_an_expired_token_is_refused(served, provider):
    web, app, _ = served
    provider.issued_ago_s, provider.lifetime_s = 3600, 300
    refused(web, at_provider(web), app, "expired")


def test_a_token_signed_with_another_key_is_refused(served, provider):
    from joserfc.jwk import RSAKey

    web, app, _ = served
    provider.signing_key = RSAKey.generate_key(2048, parameters={"kid": "test-1"})  # same kid, not its key
    refused(web, at_provider(web), app, "bad_signature")


def test_an_unsigned_token_is_refused(served, provider):
    web, app, _ = served
    provider.unsigned = True
    refused(web, at_provider(web), app, "bad_token:", prefix=True)


def test_a_token_for_another_sign_in_is_refused(served, provider):
    web, app, _ = served
    provider.nonce_override = "a-nonce-of-another-sign-in"
    refused(web, at_provider(web), app, "wrong_nonce")


def test_a_replayed_state_is_refused(served, provider):
    web, app, _ = served
    callback = at_provider(web)
    assert web.get(callback, follow_redirects=False).status_code == 200
    web.post("/logout", data={"csrf": ""})  # signed-out again: the replay must not sign in
    web.cookies.clear()
    web.cookies.set("onrecord_oidc", "whatever", domain="127.0.0.1", path="/login/oidc")
    refused(web, callback, app, "state_reused")


def test_a_state_from_another_browser_is_refused(served, provider):
    from fastapi.testclient import TestClient

    web, app, _ = served
    callback = at_provider(web)
    other = TestClient(app, base_url=LOCAL)  # the link sent to someone else: no cookie of that sign-in
    refused(other, callback, app, "state_from_another_browser")


def test_an_unknown_subject_is_refused_and_nothing_is_created(served, provider):
    web, app, access = served
    provider.subject = "sub-nobody-linked"
    refused(web, at_provider(web), app, "unknown_subject", actor="oidc:sub-nobody-linked")
    assert [a.name for a in access.accounts.list()] == ["ana", "vic"]


def test_a_disabled_account_is_refused(served, provider):
    web, app, access = served
    access.accounts.disable("ana")
    refused(web, at_provider(web), app, "disabled", actor="oidc:" + provider.subject)


def test_a_locked_account_is_refused(served, provider):
    from sqlalchemy import update

    from onrecord.store.schema_access import users

    web, app, access = served
    with access.engine.begin() as conn:  # as the 5th failed password in 15 minutes leaves it
        conn.execute(update(users).where(users.c.name == "ana").values(locked_until_ms=2**62))
    refused(web, at_provider(web), app, "locked", actor="oidc:" + provider.subject)


def test_an_oidc_only_account_has_no_password(served):
    from tests.views.test_signin import sign_in

    web, app, _ = served
    for guess in (PASSWORD, "!", "$argon2id$"):
        assert sign_in(web, "ana", guess).status_code == 401
    assert sign_in(web, "ana", "").status_code == 422  # no password at all is not even a sign-in
    assert [e["what"] for e in audit_of(app, "sign_in_failed")] == ["POST /login: wrong_password"] * 3


def test_no_provider_configured_answers_404(generated_case):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    web = TestClient(create_app(generated_case), base_url=LOCAL)
    assert web.get("/login/oidc", follow_redirects=False).status_code == 404
    assert "sign-in-oidc" not in web.get("/login").text


def test_a_sign_in_begun_on_one_process_finishes_on_another(served, provider):
    """`serve --workers N`: the provider's redirect back may reach another process than the one
    that began the sign-in. A second app built apart from the first (its own OIDC client, its
    own engine: nothing in memory shared) finishes it, and the state is then used up for both."""
    from fastapi.testclient import TestClient

    from onrecord.access.oidc import OidcSettings
    from onrecord.views.web.app import create_app
    from onrecord.views.web.oidc_signin import BROWSER_COOKIE

    web, app, _ = served
    other_app = create_app(app.state.case.case.path, oidc=OidcSettings(
        provider.issuer, provider.client_id, provider.client_secret, "Test County SSO"))
    assert other_app.state.oidc is not app.state.oidc
    other = TestClient(other_app, base_url=LOCAL)
    callback = at_provider(web)
    other.cookies.set(BROWSER_COOKIE, web.cookies.get(BROWSER_COOKIE), path="/login/oidc")
    r = other.get(callback, follow_redirects=False)
    assert r.status_code == 200 and "onrecord_session=" in r.headers["set-cookie"]
    assert other.get("/api/cases/current").status_code == 200
    refused(web, callback, app, "state_reused")  # the first process does not take it again

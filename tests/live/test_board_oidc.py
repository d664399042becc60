"""OIDC sign-in to the live board (the web's flow, access/oidc.py and oidc_signin.py, on the
board's server) against the provider run on loopback in the tests: the board's page sends
a signed-out person to sign in, the provider's answer starts a session, and the board then
answers that account; a subject no admin linked is refused and audited."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from onrecord.access.oidc import OidcSettings
from onrecord.access.store import AccessStore
from onrecord.live.board_app import create_board_app
from onrecord.live.rules import load_rules
from onrecord.live.service import RuleNode
from onrecord.live.units import UnitDirectory
from onrecord.store.case import init_case
from tests.access.oidc_provider import Provider
from tests.views.derived import LOCAL
from tests.views.test_oidc_signin import at_provider


@pytest.fixture(scope="module")
def provider():
    with Provider() as p:
        yield p


@pytest.fixture
def board(tmp_path, provider):
    """The board of a new case (a rule node, no feeds) with OIDC sign-in; ana linked to the provider's subject."""
    case = init_case(tmp_path / "case")
    provider.reset()
    AccessStore(case.engine).accounts.add("ana", "analyst", None, case.id, oidc_subject=provider.subject)
    node = RuleNode(case, load_rules(), UnitDirectory(), "UTC")
    app = create_board_app(case, node, None, oidc=OidcSettings(provider.issuer, provider.client_id,
                                                               provider.client_secret, "Test County SSO"))
    yield TestClient(app, base_url=LOCAL), app
    case.engine.dispose()


def test_signing_in_to_the_board_through_the_provider(board):
    web, _ = board
    page = web.get("/board", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login?next=%2Fboard"
    assert 'id="sign-in-oidc"' in web.get("/login?next=/board").text
    answer = web.get(at_provider(web, "/board"), follow_redirects=False)
    assert answer.status_code == 200 and "onrecord_session" in answer.headers["set-cookie"]
    state = web.get("/board/state").json()
    assert state["you"]["name"] == "ana" and state["you"]["signed_in"] is True


def test_an_unlinked_subject_is_refused_and_audited(board, provider):
    web, app = board
    provider.subject = "sub|nobody-linked"
    answer = web.get(at_provider(web, "/board"), follow_redirects=False)
    assert answer.status_code == 401
    assert web.get("/board/state").status_code == 401
    app.state.audit.flush()
    failed = [e for e in app.state.audit.entries() if e["action"] == "sign_in_failed"]
    assert failed[-1]["what"] == "OIDC sign-in: unknown_subject" and failed[-1]["outcome"] == "denied"

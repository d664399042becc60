"""A server of many cases in a real browser (Debian's Chromium, Playwright, headless,
offline), on PostgreSQL: sign in once, see one's cases, open one, its timeline draws from
its own /cases/<uid>/api/ and an event's detail opens; another case is a 404 naming
nothing; and sign-in through an OIDC provider run on loopback lands signed in (the
session cookie survives the return from the provider's site)."""

from __future__ import annotations

import pytest

from tests.access.conftest import PASSWORD
from tests.access.oidc_provider import Provider
from tests.browser import chromium, offline_page, serving

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def provider():
    with Provider() as p:
        yield p


@pytest.fixture(scope="module")
def site(two_cases, provider):
    """The two cases' server on uvicorn, OIDC through the test's provider; ana is also
    linked to the provider's subject. (base URL, cases, tag)."""
    from onrecord.access.oidc import OidcSettings
    from onrecord.views.web.server import create_server

    url, made, tag = two_cases
    provider.reset()
    provider.subject = f"sub-ana{tag}"
    app = create_server(url, oidc=OidcSettings(provider.issuer, provider.client_id, provider.client_secret,
                                               "Test SSO"))
    app.state.access.accounts.link_oidc(f"ana{tag}", provider.subject)
    with serving(app) as base:
        yield base, made, tag


@pytest.fixture
def page():
    with chromium() as browser:
        yield offline_page(browser)


def test_sign_in_once_open_ones_case_and_not_another(page, site):
    from tests.views.test_browser import POINT_JS

    base, made, tag = site
    a, b = made["A"], made["B"]
    page.goto(f"{base}/cases/{a.uid}/timeline")
    assert "/login" in page.url
    page.fill("#username", f"ana{tag}")
    page.fill("#password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{base}/cases/{a.uid}/timeline", timeout=10_000)
    page.wait_for_function("document.getElementById('status').textContent.includes('events')", timeout=20_000)
    point = page.evaluate(POINT_JS)
    page.mouse.click(point["x"], point["y"])
    page.wait_for_selector("#detail .event-link", timeout=10_000)
    assert page.get_attribute("#detail .event-link", "href").startswith(f"/cases/{a.uid}/events/")
    page.click("text=All cases")
    page.wait_for_url(f"{base}/cases", timeout=10_000)
    listed = page.inner_text("#cases")
    assert a.name in listed and b.name not in listed
    response = page.goto(f"{base}/cases/{b.uid}/timeline")
    assert response.status == 404 and b.name not in page.content()
    assert page.outside == []


def test_oidc_sign_in_in_the_browser(page, site, provider):
    base, made, tag = site
    page.goto(f"{base}/login")
    page.click("#sign-in-oidc")  # to the provider (on loopback) and back
    page.wait_for_url(f"{base}/cases", timeout=15_000)
    assert page.inner_text("#signed-in-as") == f"ana{tag}"
    assert made["A"].name in page.inner_text("#cases")


def test_a_cases_docs_page_shows_its_own_schema(page, site):
    base, made, tag = site
    page.goto(f"{base}/cases/{made['A'].uid}/docs")
    assert "/login" in page.url  # a case's schema is for those who may read the case
    page.fill("#username", f"ana{tag}")
    page.fill("#password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{base}/cases/{made['A'].uid}/docs", timeout=10_000)
    shows = "(t) => document.body.innerText.includes(t)"
    page.wait_for_function(shows, arg="/api/events/{event_id}", timeout=20_000)
    page.goto(f"{base}/docs")
    page.wait_for_function(shows, arg="/api/cases", timeout=20_000)
    assert not page.evaluate(shows, "/api/events/{event_id}")
    assert page.outside == []

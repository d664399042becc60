"""Sign-in in a real browser (Debian's Chromium, Playwright, headless, offline): sign in
through the form, see only one's agency's sources, see a protected witness as "Witness 1"
as a viewer and by name as an analyst, sign out, and be sent to sign in again once a
session has been idle past 30 minutes."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.access.conftest import PASSWORD, Clock
from tests.browser import chromium, offline_page, serving


@pytest.fixture(scope="module")
def site(built_case, tmp_path_factory):
    """The built case with accounts, its sensor source restricted to its agency, its claim's
    speaker protected; served by uvicorn on a clock the test moves. (base URL, clock)."""
    from onrecord.access.marks import protect, restrict_source
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case
    from onrecord.store.reader import open_reader
    from onrecord.views.web.app import create_app

    path = tmp_path_factory.mktemp("browser-access") / "case"
    shutil.copytree(built_case[0], path)
    case = open_case(path)
    sensors = [s for s in open_reader(case).sources() if s["file_name"] == "campus_sensors.csv"][0]
    restrict_source(case.engine, case.id, sensors["id"], "test")
    protect(case.engine, case.id, "Deputy Example", "witness", "test")
    access = AccessStore(case.engine)
    access.accounts.add("ana", "analyst", PASSWORD, case.id, ("ZZFD",))
    access.accounts.add("vic", "viewer", PASSWORD, case.id, (sensors["agency"],))
    case.engine.dispose()
    clock = Clock(int(time.time() * 1000))
    with serving(create_app(path, now_ms=clock)) as base:
        yield base, clock


@pytest.fixture
def page():
    with chromium() as browser:
        yield offline_page(browser)


def _sign_in(page, base, name, target="/sources"):
    page.goto(f"{base}{target}")
    assert "/login" in page.url  # sent to sign in first
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{base}{target}", timeout=10_000)
    assert page.inner_text("#signed-in-as") == name


def test_sign_in_see_ones_agency_sign_out(page, site):
    base, _ = site
    _sign_in(page, base, "ana")
    text = page.inner_text("main")
    assert "county_radio.csv" in text and "campus_sensors.csv" not in text  # restricted to another agency
    page.goto(f"{base}/discrepancies")
    assert "Deputy Example" in page.inner_text("main")  # an analyst may see who the witness is
    page.click("#sign-out")
    page.wait_for_url(f"{base}/login", timeout=10_000)
    page.goto(f"{base}/sources")
    assert "/login" in page.url
    assert page.outside == []


def test_a_viewer_sees_the_pseudonym(page, site):
    base, _ = site
    _sign_in(page, base, "vic", "/discrepancies")
    text = page.inner_text("main")
    assert "Witness 1" in text and "Deputy Example" not in text
    page.goto(f"{base}/sources")
    assert "campus_sensors.csv" in page.inner_text("main")  # the viewer is of the sensors' agency


def test_a_wrong_password_is_refused(page, site):
    base, _ = site
    page.goto(f"{base}/login")
    page.fill("#username", "ana")
    page.fill("#password", "not the password at all")
    page.click("#sign-in")
    page.wait_for_selector("#login-message", timeout=10_000)
    assert "refused" in page.inner_text("#login-message") and "/login" in page.url


def test_an_idle_session_is_sent_to_sign_in(page, site):
    base, clock = site
    _sign_in(page, base, "vic")
    clock.advance(minutes=31)
    page.goto(f"{base}/timeline")
    assert "/login" in page.url and "next=%2Ftimeline" in page.url


def test_an_analyst_annotates_an_event_on_the_timeline(page, site):
    from tests.views.test_browser import POINT_JS

    base, _ = site
    _sign_in(page, base, "ana", "/timeline")
    page.wait_for_function("document.getElementById('status').textContent.includes('events ·')", timeout=20_000)
    point = page.evaluate(POINT_JS)
    page.mouse.click(point["x"], point["y"])
    page.wait_for_selector("#note-form", timeout=10_000)
    page.select_option("#note-kind", "comment")
    page.fill("#note-text", "checked against the radio log")
    page.click("#note-add")
    page.wait_for_selector("#detail .note-comment", timeout=10_000)
    note = page.inner_text("#detail .note-comment")
    assert "checked against the radio log" in note and "ana" in note
    assert page.outside == []

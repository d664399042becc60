"""Signing in to the live board in a real browser (Debian's Chromium, Playwright, headless,
offline): the board sends a signed-out browser to the web's sign-in form, which sends it
back to the board; an event posted with a feed token then shows without reload; signing
out sends the browser to sign in again."""

from __future__ import annotations

import httpx
import pytest

from onrecord.access.store import AccessStore
from onrecord.store.case import init_case
from tests.access.conftest import PASSWORD
from tests.browser import chromium, free_port, offline_page
from tests.live.process import event, start_live, stop_live


@pytest.fixture
def live(tmp_path):
    case_dir = tmp_path / "case"
    case = init_case(case_dir)
    with (case_dir / "onrecord.toml").open("a") as fh:
        fh.write('\n[[live.feeds]]\nname = "sensors"\ntype = "webhook"\n')
    access = AccessStore(case.engine)
    access.accounts.add("ana", "analyst", PASSWORD, case.id)
    access.accounts.add("sensor-box", "feed", PASSWORD, case.id)
    token = access.tokens.create(access.accounts.find("sensor-box").id)[1]
    case.engine.dispose()
    port = free_port()
    proc = start_live(case_dir, port)
    yield f"http://127.0.0.1:{port}", token
    stop_live(proc)


def test_sign_in_to_the_board_see_a_posted_event_sign_out(live):
    base, token = live
    with chromium() as browser:
        page = offline_page(browser)
        page.goto(f"{base}/board")
        assert "/login" in page.url  # sent to sign in first
        page.fill("#username", "ana")
        page.fill("#password", PASSWORD)
        page.click("#sign-in")
        page.wait_for_url(f"{base}/board", timeout=10_000)
        page.wait_for_selector("#connection.on", timeout=20_000)
        assert page.inner_text("#signed-in-as") == "ana"
        answer = httpx.post(f"{base}/feeds/sensors", content=event("unit_arrived", 30, "12A4"),
                            headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 202
        page.wait_for_selector('#units .unit[data-unit="12A4"]', timeout=10_000)
        page.click("#sign-out")
        page.wait_for_url(f"{base}/login", timeout=10_000)
        page.goto(f"{base}/board")
        assert "/login" in page.url
        assert page.outside == []

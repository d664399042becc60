"""The live board in a real browser (Debian's Chromium driven by Playwright, headless,
offline): `onrecord live` runs as a subprocess with a webhook feed; what is posted to the
feed appears on the open board without a reload — the unit, the shots, then the alert with
its evidence one click away. How fast is benchmarks/live.py's business, not this test's."""

from __future__ import annotations

import httpx
import pytest

from tests.browser import chromium, free_port
from tests.live.process import event, sensors_case, start_live, stop_live


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def live(tmp_path):
    port = free_port()
    proc = start_live(sensors_case(tmp_path), port)
    yield f"http://127.0.0.1:{port}"
    stop_live(proc)


def test_an_event_posted_to_a_feed_appears_on_the_open_board_without_reload(browser, live):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    outside = []  # offline: nothing may be asked of anywhere but the board
    context.route("**/*", lambda route: (route.continue_() if route.request.url.startswith("http://127.0.0.1")
                                         else (outside.append(route.request.url), route.abort())))
    page = context.new_page()
    page.goto(live + "/board")
    # locators, not wait_for_function: the board's CSP (script-src 'self') allows no eval
    page.wait_for_selector("#connection.on", timeout=20_000)
    loads = page.evaluate("performance.getEntriesByType('navigation').length")
    assert page.locator("#units .unit").count() == 0 and page.locator("#alerts li").count() == 0

    feed = live + "/feeds/sensors"
    assert httpx.post(feed, content=event("unit_arrived", 90, "12A4")).status_code == 202
    page.wait_for_selector('#units .unit[data-unit="12A4"]', timeout=10_000)
    assert "on scene" in page.inner_text('#units .unit[data-unit="12A4"]').lower()

    for i in range(3):  # shots from 80 s ago: the unit has held outside more than 60 s
        assert httpx.post(feed, content=event("shots_detected", 80 - 30 * i)).status_code == 202
    page.locator("#shots li").nth(2).wait_for(timeout=10_000)
    assert page.locator("#shots li").count() == 3
    page.wait_for_selector('#alerts li[data-alert="armed_unit_holding_outside:12A4:1"]', timeout=10_000)
    assert "12A4" in page.inner_text("#alerts")

    page.click('#alerts li[data-alert="armed_unit_holding_outside:12A4:1"] button')
    page.wait_for_selector("#evidence:not([hidden]) #evidence-rows tr", timeout=10_000)
    assert page.locator("#evidence-rows tr").count() >= 2  # its arrival and the shots it rests on
    # still the one page load: the board took every change over server-sent events
    assert page.evaluate("performance.getEntriesByType('navigation').length") == loads
    assert outside == []
    context.close()

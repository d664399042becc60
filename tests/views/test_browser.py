"""The pages in a real browser: Debian's Chromium driven by Playwright, headless, offline.
Load the generated case, see the timeline render, filter to one agency, click an event and
see its source line, open the discrepancies page."""

from __future__ import annotations

import pytest

from tests.browser import chromium, offline_page

# Where the middle point of the first trace sits on the page, and its event id.
POINT_JS = """() => { const gd = document.getElementById('chart'), fl = gd._fullLayout, tr = gd.data[0];
  const i = Math.floor(tr.x.length / 2), box = gd.getBoundingClientRect();
  return {x: box.left + fl._size.l + fl.xaxis.d2p(tr.x[i]), y: box.top + fl._size.t + fl.yaxis.d2p(tr.y[i]),
          agencies: gd.data.map(t => t.name)}; }"""


@pytest.fixture(scope="module")
def page():
    # Offline: any request that leaves the local server fails the test below.
    with chromium() as browser:
        yield offline_page(browser)


def _wait_drawn(pg):
    pg.wait_for_function("document.getElementById('status').textContent.includes('events ·')", timeout=20_000)


def test_timeline_renders_filters_and_shows_the_source_line(page, live_server):
    page.goto(live_server + "/timeline")
    _wait_drawn(page)
    assert page.locator("#chart canvas").count() > 0  # scattergl drew
    assert "America/New_York" in page.inner_text("#status") and "aligned clocks" in page.inner_text("#status")
    assert len(page.evaluate(POINT_JS)["agencies"]) >= 4
    # the replayed alert: a band on the chart, its evidence one click away
    assert page.get_attribute("#chart", "data-alerts") == "1"
    assert page.evaluate("document.getElementById('chart')._fullLayout.shapes.length") == 1
    page.click("#alerts a[data-event]")
    page.wait_for_selector("#detail .source-line", timeout=10_000)
    assert "/timeline" in page.url

    page.select_option("#f-agency", "BCFR")
    page.wait_for_function("document.getElementById('chart').data.length === 1 && "
                           "document.getElementById('chart').data[0].name === 'BCFR'", timeout=20_000)
    assert "agency=BCFR" in page.url
    point = page.evaluate(POINT_JS)
    page.mouse.click(point["x"], point["y"])
    page.wait_for_selector("#detail .source-line", timeout=10_000)
    detail = page.inner_text("#detail")
    assert "BCFR" in detail and "SHA-256" in detail and "Raw line" in detail
    assert page.inner_text("#detail .source-line").split(":")[0].startswith(("fire_", "roster_fire"))
    assert page.outside == []


def test_discrepancies_page_quotes_both_sides(page, live_server):
    from tests.views.derived import CLAIM_SENTENCE

    page.goto(live_server + "/discrepancies")
    assert CLAIM_SENTENCE in page.inner_text("blockquote")
    assert "campus_sensors.csv:" in page.inner_text(".side:nth-child(2)")
    page.click("nav >> text=Sources")
    assert "12.5 s ahead" in page.inner_text("main")


def test_zooming_in_refetches_the_window(page, live_server):
    page.goto(live_server + "/timeline")
    _wait_drawn(page)
    before = int(page.get_attribute("#chart", "data-count"))
    page.evaluate("Plotly.relayout(document.getElementById('chart'), "
                  "{'xaxis.range': ['2025-02-13 14:05:00', '2025-02-13 14:08:00']})")
    page.wait_for_function("document.getElementById('f-from').value.startsWith('2025-02-13T14:05')", timeout=10_000)
    page.wait_for_function(f"Number(document.getElementById('chart').dataset.count) < {before}", timeout=20_000)
    assert "from=2025-02-13T14%3A05" in page.url or "from=2025-02-13T14:05" in page.url


def test_the_pages_run_under_the_content_security_policy(page, live_server):
    """The chart draws, the API page renders from local files, and the browser reports no
    blocked script or style on the way (a CSP violation is a console error)."""
    blocked = []
    listen = lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None
    page.on("console", listen)
    try:
        page.goto(live_server + "/timeline")
        _wait_drawn(page)
        assert page.locator("#chart canvas").count() > 0
        page.goto(live_server + "/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        assert page.locator(".swagger-ui .opblock").count() >= 10
    finally:
        page.remove_listener("console", listen)
    assert blocked == [] and page.outside == []


def test_search_hits_are_ringed_on_the_timeline_and_listed(page, live_server):
    import httpx

    from onrecord.store.search_query import words

    # words of an event the chart draws in its first window, so its hit is on the chart
    chart = httpx.get(live_server + "/api/timeline").json()
    ids = [i for t in chart["traces"] for i in t.get("id", [])]
    text = next(t for t in (httpx.get(f"{live_server}/api/events/{i}").json()["text"] for i in ids[:200])
                if len(words(t)) >= 2)
    query = " ".join(words(text)[:2])
    page.goto(live_server + "/timeline")
    _wait_drawn(page)
    page.fill("#s-q", query)
    page.click("#s-go")
    page.wait_for_selector("#hits:not([hidden]) #hits-list li", timeout=20_000)
    assert page.locator("#hits-list mark").count() >= 2  # the matched words marked, as text
    ringed = page.evaluate("document.getElementById('chart').data.filter(t => t.name === 'search hits')"
                           "[0].x.length")
    assert ringed >= 1 and f"q={query.replace(' ', '+')}" in page.url
    page.click("#hits-list a[data-event]")
    page.wait_for_selector("#detail .source-line", timeout=10_000)
    page.click("#s-clear")
    page.wait_for_function("!document.getElementById('chart').data.some(t => t.name === 'search hits')",
                           timeout=10_000)
    assert page.outside == []

"""Debian's Chromium driven by Playwright, for the web and board tests (Playwright cannot
download a browser here). One place for finding it, launching it and keeping pages offline."""

from __future__ import annotations

import os
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]


@contextmanager
def chromium():
    """A headless Chromium; a skip where it is not installed, a failure in CI (which installs it)."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing; CI installs Debian's chromium (.ci/run) and must run this test")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); Playwright cannot download one here")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline_page(browser):
    """A page whose requests to anywhere but the local server are refused and listed in
    `page.outside` (the pages must work offline: no CDN)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    outside = []
    context.route("**/*", lambda route: (route.continue_() if route.request.url.startswith("http://127.0.0.1")
                                         else (outside.append(route.request.url), route.abort())))
    pg = context.new_page()
    pg.outside = outside
    return pg


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(app):
    """uvicorn serving `app` in a thread on a free loopback port; its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)

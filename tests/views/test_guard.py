"""The server's hardening: the Host allow-list (DNS rebinding), the security headers, no
inline script on any page, /docs from local files, crafted cursors, markup in agency codes,
and the refusal to serve the network over plain HTTP."""

from __future__ import annotations

import base64
import re

import pytest

from tests.views.derived import LOCAL

PAGES = ["/timeline", "/metrics", "/discrepancies", "/subjects", "/sources", "/docs", "/events/1"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "10.0.0.7"])
def test_a_request_naming_another_host_is_refused(client, host):
    for path in ("/api/cases/current", "/timeline", "/api/events/1"):
        r = client.get(path, headers={"Host": host})
        assert r.status_code == 421 and "name" in r.json()["detail"], (path, host)
        assert "case" not in r.json() and "events" not in r.json()


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_served(client, host):
    assert client.get("/api/cases/current", headers={"Host": host}).status_code == 200


def test_an_allowed_host_is_served_and_others_still_refused(generated_case):
    from fastapi.testclient import TestClient

    from onrecord.views.web.app import create_app

    web = TestClient(create_app(generated_case, host="10.1.2.3", allowed_hosts=("onrecord.county.example",)),
                     base_url="http://onrecord.county.example")
    assert web.get("/api/cases/current").status_code == 200
    assert web.get("/api/cases/current", headers={"Host": "10.1.2.3"}).status_code == 200
    assert web.get("/api/cases/current", headers={"Host": "localhost"}).status_code == 421


def _policy(r) -> dict[str, str]:
    return {d.strip().split(" ", 1)[0]: d.strip() for d in r.headers["content-security-policy"].split(";")}


@pytest.mark.parametrize("path", PAGES + ["/api/events?limit=2", "/api/nope", "/openapi.json"])
def test_every_answer_carries_the_security_headers(client, path):
    r = client.get(path)
    policy = _policy(r)
    assert "'unsafe-inline'" not in policy["script-src"] and policy["frame-ancestors"] == "frame-ancestors 'none'"
    assert policy["default-src"] == "default-src 'none'"
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_only_the_chart_page_may_evaluate_script(client):
    assert "'unsafe-eval'" in _policy(client.get("/timeline"))["script-src"]
    assert "'unsafe-eval'" not in _policy(client.get("/sources"))["script-src"]
    assert "'unsafe-eval'" not in _policy(client.get("/docs"))["script-src"]


@pytest.mark.parametrize("path", PAGES)
def test_no_page_has_inline_script_or_event_handlers(client, path):
    html = client.get(path).text
    for attrs, body in re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.S | re.I):
        assert "src=" in attrs or 'type="application/json"' in attrs, (path, attrs, body[:80])
        assert "src=" not in attrs or not body.strip()
    assert not re.search(r"\son[a-z]+\s*=", html, flags=re.I), path


def test_docs_work_without_the_network(client):
    html = client.get("/docs").text
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls and not [u for u in urls if re.match(r"(https?:)?//", u)], urls
    for u in urls:
        if not u.startswith("data:"):
            r = client.get(u)
            assert r.status_code == 200 and len(r.content) > 100, u
    assert b"SwaggerUIBundle" in client.get("/vendor/swagger/swagger-ui-bundle.js").content[:5000] or \
        len(client.get("/vendor/swagger/swagger-ui-bundle.js").content) > 500_000
    assert client.get("/vendor/swagger/..%2Fconsts.py").status_code == 404


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize("cursor", [_cursor("99999999999999999999999999.1"), _cursor("1.99999999999999999999999"),
                                    _cursor("1.-5"), _cursor("1.2.3"), _cursor("x.y"), _cursor(""), "%%%", "é"])
def test_a_crafted_cursor_is_a_bad_request_not_a_server_error(client, cursor):
    r = client.get("/api/events", params={"cursor": cursor, "limit": 5})
    assert r.status_code == 422 and "cursor" in r.json()["detail"]


def test_markup_in_an_agency_code_is_text_in_the_legend_and_lanes(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from onrecord.sources.importer import import_file
    from onrecord.sources.mapping import load_mapping
    from onrecord.store.case import init_case
    from onrecord.store.engine import DATABASE_URL_ENV
    from onrecord.views.web.app import create_app
    from tests.helpers import CAD_MAPPING, write_cad

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    data, mapping = write_cad(tmp_path / "in")
    code = "<a href='https://evil.example/'>EVSO</a>"
    mapping.write_text(CAD_MAPPING.replace('agency = "EVSO"', f'agency = "{code}"'), encoding="utf-8")
    case = init_case(tmp_path / "case")
    import_file(case, data, load_mapping(str(mapping)))
    case.engine.dispose()
    chart = TestClient(create_app(tmp_path / "case"), base_url=LOCAL).get(
        "/api/timeline", params={"from": "2026-03-14T00:00:00", "to": "2026-03-15T00:00:00"}).json()
    assert chart["mode"] == "points" and chart["count"] == 7  # 2 calls, 3 dispatches, 2 arrivals
    shown = [t["name"] for t in chart["traces"]] + chart["lanes"] + [h for t in chart["traces"] for h in t["hover"]]
    assert shown and not [s for s in shown if "<a" in s or "href='" in s]
    assert [t["agency"] for t in chart["traces"]] == [code]  # the code itself, as exported, for the filters
    assert "&lt;a href=" in chart["traces"][0]["name"]


def test_the_chart_script_draws_the_escaped_name():
    from pathlib import Path

    import onrecord.views.web as web

    js = (Path(web.__file__).parent / "static" / "timeline.js").read_text(encoding="utf-8")
    assert "name: t.name" in js and "name: t.agency" not in js

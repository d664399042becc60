"""A server of many cases (`onrecord serve --database-url URL`) on PostgreSQL: two cases,
an account granted each; each account lists and reads only its own case, and a case not
granted answers exactly as one that does not exist (404, its name nowhere), audited as a
denial. Every route of a case is served under /cases/<uid>/ through the same app, reader
door and audit as `onrecord serve CASE`."""

from __future__ import annotations

import re
import uuid
from urllib.parse import quote

import pytest

from tests.access.conftest import PASSWORD
from tests.views.derived import LOCAL

pytestmark = pytest.mark.postgres


@pytest.fixture
def server(two_cases):
    from fastapi.testclient import TestClient

    from onrecord.views.web.server import create_server

    url, made, tag = two_cases
    app = create_server(url)
    return app, made, tag, lambda: TestClient(app, base_url=LOCAL)


def sign_in(web, name: str, next_url: str = "/cases"):
    form = web.get("/login")
    assert form.status_code == 200 and "Sign in to onrecord" in form.text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
    r = web.post("/login", data={"username": name, "password": PASSWORD, "csrf": csrf, "next": next_url},
                 follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == next_url, r.text
    return r


def test_signed_out_nothing_is_read(server):
    app, made, _, client = server
    web, a = client(), made["A"].uid
    assert web.get("/api/cases").status_code == 401
    for case in (a, str(uuid.uuid4())):  # a case there is and one there is not: the same answer
        for path in ("/api/cases/current", "/api/nothing"):
            r = web.get(f"/cases/{case}{path}")
            assert r.status_code == 401 and r.json() == {"detail": "sign in first: POST /login, or send "
                                                         "Authorization: Bearer <token>"}, (case, path, r.text)
        for path in ("/openapi.json", "/static/style.css", "/sources"):
            r = web.get(f"/cases/{case}{path}", follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == "/login?next=" + quote(f"/cases/{case}{path}",
                                                                                            safe=""), (case, path)
    r = web.get(f"/cases/{a}/timeline", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/login?next=%2Fcases%2F{a}%2Ftimeline"
    r = web.get("/cases", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert web.get("/", follow_redirects=False).headers["location"] == "/cases"


def test_each_account_lists_and_reads_only_its_case(server):
    app, made, tag, client = server
    for me, mine, other in ((f"ana{tag}", made["A"], made["B"]), (f"bob{tag}", made["B"], made["A"])):
        web = client()
        sign_in(web, me)
        listed = web.get("/api/cases").json()["cases"]
        assert listed == [{"uid": mine.uid, "name": mine.name, "url": f"/cases/{mine.uid}/timeline"}]
        page = web.get("/cases")
        assert page.status_code == 200 and mine.name in page.text and other.name not in page.text
        current = web.get(f"/cases/{mine.uid}/api/cases/current")
        assert current.status_code == 200 and current.json()["name"] == mine.name
        events = web.get(f"/cases/{mine.uid}/api/events", params={"limit": 5})
        assert events.status_code == 200 and events.json()["events"]
        for path in ("/api/cases/current", "/api/events?limit=5", "/api/sources", "/sources", "/timeline",
                     "/events/1"):
            r = web.get(f"/cases/{other.uid}{path}", follow_redirects=False)
            assert r.status_code == 404, (path, r.status_code)
            assert other.name not in r.text and other.uid not in r.text.replace(f"/cases/{other.uid}", "")
        nowhere = uuid.uuid4()
        for path in ("/api/cases/current", "/sources", "/openapi.json", "/static/style.css", "/docs"):
            unknown, denied = web.get(f"/cases/{nowhere}{path}"), web.get(f"/cases/{other.uid}{path}")
            assert unknown.status_code == denied.status_code == 404, path
            assert unknown.content == denied.content and unknown.headers["content-type"] == denied.headers[
                "content-type"], path


def test_a_case_page_links_and_scripts_carry_its_prefix(server):
    app, made, tag, client = server
    web, a = client(), made["A"].uid
    sign_in(web, f"ana{tag}")
    page = web.get(f"/cases/{a}/timeline")
    assert page.status_code == 200
    assert f'<meta name="onrecord-base" content="/cases/{a}">' in page.text
    assert f'src="/cases/{a}/static/first.js"' in page.text and f'href="/cases/{a}/sources"' in page.text
    assert "'unsafe-eval'" in page.headers["content-security-policy"]  # the chart page, prefixed
    assert web.get(f"/cases/{a}/static/first.js").status_code == 200
    assert web.get(f"/cases/{a}/vendor/plotly.min.js").status_code == 200
    sources = web.get(f"/cases/{a}/sources")
    hrefs = re.findall(r'href="(/events/[^"]*)"', sources.text)
    assert not hrefs, hrefs[:3]  # every event link is the case's own


def test_api_tokens_and_annotations_work_under_the_prefix(server):
    app, made, tag, client = server
    a = made["A"]
    access = app.state.access
    _, token = access.tokens.create(access.accounts.find(f"ana{tag}").id)
    web = client()
    auth = {"Authorization": f"Bearer {token}"}
    event = web.get(f"/cases/{a.uid}/api/events", params={"limit": 1}, headers=auth).json()["events"][0]
    r = web.post(f"/cases/{a.uid}/api/annotations", headers=auth,
                 json={"target": "event", "target_id": event["id"], "kind": "star"})
    assert r.status_code == 201, r.text
    notes = web.get(f"/cases/{a.uid}/api/annotations", headers=auth).json()["annotations"]
    assert [n["id"] for n in notes] == [r.json()["id"]]
    assert web.get(f"/cases/{made['B'].uid}/api/annotations", headers=auth).status_code == 404


def test_every_read_is_audited_with_its_case(server):
    app, made, tag, client = server
    web = client()
    sign_in(web, f"ana{tag}")
    web.get("/api/cases")
    web.get(f"/cases/{made['A'].uid}/api/sources")
    web.get(f"/cases/{made['B'].uid}/api/sources")
    app.state.audit.flush()
    mine = [e for e in app.state.audit.entries(f"ana{tag}") if e["action"] == "read"]
    by_what = {(e["what"], e["case_id"]): e["outcome"] for e in mine}
    assert by_what[("GET /api/cases", None)] == "allowed"
    assert by_what[(f"GET /cases/{made['A'].uid}/api/sources", made["A"].id)] == "allowed"
    assert by_what[(f"GET /cases/{made['B'].uid}/api/sources", made["B"].id)] == "denied"
    signed = [e for e in app.state.audit.entries(f"ana{tag}") if e["action"] == "sign_in"]
    assert signed and signed[-1]["case_id"] is None
    nowhere = uuid.uuid4()
    web.get(f"/cases/{nowhere}/api/sources")
    app.state.audit.flush()
    last = app.state.audit.entries(f"ana{tag}")[-1]
    assert (last["what"], last["case_id"], last["outcome"]) == (f"GET /cases/{nowhere}/api/sources", None, "denied")
    assert app.state.audit.verify()[1] is None  # one chain, written by the server for all its cases


def test_the_server_schema_lists_its_routes_and_each_case_its_own(server):
    app, made, tag, client = server
    web = client()
    assert "/api/cases" in web.get("/openapi.json").json()["paths"]
    sign_in(web, f"ana{tag}")
    schema = web.get(f"/cases/{made['A'].uid}/openapi.json").json()
    assert "/api/events" in schema["paths"]
    assert schema["servers"] == [{"url": f"/cases/{made['A'].uid}"}]


def test_serve_needs_a_case_or_a_store(capsys):
    from onrecord.cli import main

    with pytest.raises(SystemExit) as done:
        main(["serve"])
    assert done.value.code == 2 and "--database-url" in capsys.readouterr().err


def test_schemathesis_on_the_server_and_a_case_under_it(two_cases):
    """Generated requests against the server's own schema and a mounted case's: signed out,
    every route 401 as the schema says; with a token, no server error and every answer as
    the schema says (the case's schema names its prefix as its server)."""
    from schemathesis.python.asgi import HOST

    from onrecord.views.web.server import create_server
    from tests.views.test_schemathesis import _no_server_errors

    url, made, tag = two_cases
    app = create_server(url, allowed_hosts=(HOST,))
    access = app.state.access
    _, token = access.tokens.create(access.accounts.find(f"ana{tag}").id)
    auth = {"Authorization": f"Bearer {token}"}
    a = made["A"].uid
    for schema_path in ("/openapi.json", f"/cases/{a}/openapi.json"):
        out = _no_server_errors(app, conform=True, schema_path=schema_path, schema_headers=auth)
        assert out and all(set(codes) <= {401, 422} for codes in out.values()), (schema_path, out)
        seen = _no_server_errors(app, headers=auth, conform=True, schema_path=schema_path, schema_headers=auth)
        assert seen and all(401 not in codes for codes in seen.values()), (schema_path, seen)
    assert len(seen) >= 10  # the case's every /api/ route

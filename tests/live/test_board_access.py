"""The live board and its feeds behind the web's sign-in, roles and audit (issues 16, 18):
`onrecord live` runs as a subprocess on a case with accounts (fictional agencies NCSO and
ZZPD, two webhook feeds, one restricted to ZZPD once open, a protected victim)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from datetime import datetime, timezone

import httpx
import pytest

from onrecord.access.audit import AuditLog
from onrecord.access.marks import protect, restrict_source
from onrecord.access.store import AccessStore
from onrecord.findings.render import WITHHELD
from onrecord.store.case import init_case, open_case
from onrecord.store.reader import open_reader
from tests.access.conftest import PASSWORD
from tests.browser import free_port
from tests.live.process import event, start_live, stop_live

ALERT = "armed_unit_holding_outside:12A4:1"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """(base URL, case folder, tokens by account name); the process stopped afterwards."""
    case_dir = tmp_path_factory.mktemp("board-access") / "case"
    case = init_case(case_dir)
    with (case_dir / "onrecord.toml").open("a") as fh:
        fh.write('\n[[live.feeds]]\nname = "sensors"\ntype = "webhook"\nagency = "NCSO"\n'
                 '\n[[live.feeds]]\nname = "campus"\ntype = "webhook"\nagency = "ZZPD"\n')
    access = AccessStore(case.engine)
    for name, role, agencies in (("ana", "analyst", ("NCSO",)), ("vic", "viewer", ("NCSO",)),
                                 ("zed", "viewer", ("ZZPD",)), ("sensor-box", "feed", ())):
        access.accounts.add(name, role, PASSWORD, case.id, agencies)
    tokens = {name: access.tokens.create(access.accounts.find(name).id)[1] for name in ("sensor-box", "vic")}
    protect(case.engine, case.id, "Jane Example", "victim", "test")
    case.engine.dispose()
    port = free_port()
    proc = start_live(case_dir, port)
    base = f"http://127.0.0.1:{port}"
    campus = next(s["id"] for s in open_reader(open_case(case_dir)).sources() if s["file_name"] == "live:campus")
    restrict_source(open_case(case_dir).engine, case.id, campus, "test")  # open readers see it within 2 s
    time.sleep(2.5)
    try:
        yield base, case_dir, tokens
    finally:
        stop_live(proc)


def signed_in(base: str, name: str) -> httpx.Client:
    """A client signed in through the web's own form: POST /login with its CSRF token."""
    client = httpx.Client(base_url=base, timeout=10)
    form = client.get("/login?next=/board")
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
    answer = client.post("/login", data={"username": name, "password": PASSWORD, "code": "", "csrf": csrf,
                                         "next": "/board"})
    assert answer.status_code == 303 and answer.headers["location"] == "/board"
    return client


def post(base, feed, body, token):
    return httpx.post(f"{base}/feeds/{feed}", content=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def until(check, seconds=15.0):
    """Polls `check` until it gives something true (a frame's events reach the board through
    the stream and the rules); that something, or the last answer."""
    deadline, got = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    return got


@pytest.fixture(scope="module")
def alerting(live):
    """A unit on scene outside for 90 s while shots come, one of them on the restricted feed, and a
    report naming the protected victim: the holding-outside alert is active."""
    base, _, tokens = live
    feed = tokens["sensor-box"]
    assert post(base, "sensors", event("unit_arrived", 90, "12A4"), feed).status_code == 202
    for ago in (80, 50):
        assert post(base, "sensors", event("shots_detected", ago), feed).status_code == 202
    assert post(base, "campus", event("shots_detected", 20), feed).status_code == 202
    now = datetime.now(timezone.utc).isoformat()
    said = json.dumps({"kind": "call_received", "time": now, "text": "Jane Example called from the office",
                       "agency": "NCSO"}).encode()
    assert post(base, "sensors", said, feed).status_code == 202
    ana = signed_in(base, "ana")
    assert until(lambda: any(a["alert"] == ALERT for a in ana.get("/board/state").json()["alerts"]))
    return ana


def test_signed_out_requests_are_refused(live):
    base, _, _ = live
    assert httpx.get(f"{base}/").headers["location"] == "/board"
    page = httpx.get(f"{base}/board")
    assert page.status_code == 303 and page.headers["location"] == "/login?next=%2Fboard"
    for path in ("/board/state", "/board/events", "/board/alerts"):
        answer = httpx.get(base + path)
        assert answer.status_code == 401, path
        assert answer.headers["www-authenticate"] == "Bearer"
    assert httpx.post(f"{base}/feeds/sensors", content=event("shots_detected", 1)).status_code == 401
    assert httpx.get(f"{base}/board/state", headers={"Authorization": "Bearer onr_not-a-token"}).status_code == 401


def test_a_feed_token_is_accepted_and_other_credentials_are_not(live):
    base, _, tokens = live
    answer = post(base, "sensors", event("unit_enroute", 120, "7B2"), tokens["sensor-box"])
    assert answer.status_code == 202 and answer.json()["raw_record"] > 0 and answer.json()["rejected"] is None
    assert post(base, "sensors", event("unit_enroute", 120, "7B3"), tokens["vic"]).status_code == 403  # a viewer's
    vic = signed_in(base, "vic")  # a browser's session is not a feed's credential
    assert vic.post("/feeds/sensors", content=event("unit_enroute", 120, "7B4")).status_code == 401
    # the feed's account reads nothing: not the board, not the web
    assert httpx.get(f"{base}/board/state", headers={"Authorization": f"Bearer {tokens['sensor-box']}"}
                     ).status_code == 403


def test_a_viewer_sees_the_board_and_may_not_acknowledge(live, alerting):
    base, _, tokens = live
    vic = signed_in(base, "vic")
    state = vic.get("/board/state").json()
    assert state["you"] == {"name": "vic", "role": "viewer", "may_acknowledge": False, "signed_in": True,
                            "csrf": state["you"]["csrf"]}
    answer = vic.post(f"/board/alerts/{ALERT}/acknowledge", headers={"X-CSRF-Token": state["you"]["csrf"]})
    assert answer.status_code == 403
    by_token = httpx.get(f"{base}/board/state", headers={"Authorization": f"Bearer {tokens['vic']}"})
    assert by_token.status_code == 200 and by_token.json()["you"]["signed_in"] is False


def test_an_analyst_acknowledges_with_the_sessions_csrf_token(live, alerting):
    ana = alerting
    you = ana.get("/board/state").json()["you"]
    assert you["may_acknowledge"] is True
    assert ana.post(f"/board/alerts/{ALERT}/acknowledge").status_code == 403  # no CSRF token
    done = ana.post(f"/board/alerts/{ALERT}/acknowledge", headers={"X-CSRF-Token": you["csrf"]})
    assert done.status_code == 200 and done.json()["acknowledged"]["by"] == "ana"
    shown = next(a for a in ana.get("/board/state").json()["alerts"] if a["alert"] == ALERT)
    assert shown["acknowledged"]["by"] == "ana"
    assert ana.post("/board/alerts/no-such-alert/acknowledge", headers={"X-CSRF-Token": you["csrf"]}
                    ).status_code == 404


def test_a_restricted_feed_is_withheld_from_other_agencies(live, alerting):
    base, _, _ = live
    vic, zed = signed_in(base, "vic"), signed_in(base, "zed")
    mine, theirs = vic.get("/board/state").json(), zed.get("/board/state").json()
    assert [f["feed"] for f in mine["feeds"]] == ["sensors"]
    assert sorted(f["feed"] for f in theirs["feeds"]) == ["campus", "sensors"]
    campus = next(f["source"] for f in theirs["feeds"] if f["feed"] == "campus")
    assert len(theirs["shots"]) == 3 and len(mine["shots"]) == 2
    assert all(s["source"] != campus for s in mine["shots"])
    # the alert rests on the campus shot: to vic it is there, and says its evidence is withheld
    held = next(a for a in mine["alerts"] if a["alert"] == ALERT)
    assert held["withheld"] is True and held["values"] is None and held["sentence"] == WITHHELD
    assert held["evidence"] and all(e["source"] != campus for e in held["evidence"])
    seen = next(a for a in theirs["alerts"] if a["alert"] == ALERT)
    assert seen["withheld"] is False and any(e["source"] == campus for e in seen["evidence"])
    history = vic.get("/board/alerts").json()
    assert [f["status"] for f in history if f["payload"].get("alert") == ALERT] == ["withheld"]


def test_a_protected_name_is_the_pseudonym_for_a_viewer_and_the_name_for_an_analyst(live, alerting):
    base, _, _ = live
    vic = signed_in(base, "vic")
    as_viewer = until(lambda: [c["text"] for c in vic.get("/board/state").json()["calls"]])
    as_analyst = [c["text"] for c in alerting.get("/board/state").json()["calls"]]
    assert as_viewer == ["Victim 1 called from the office"]
    assert as_analyst == ["Jane Example called from the office"]


def test_every_read_and_refusal_is_in_the_audit(live, alerting):
    base, case_dir, tokens = live
    httpx.get(f"{base}/board/state")  # refused
    vic = signed_in(base, "vic")
    vic.get("/board/state")
    vic.post(f"/board/alerts/{ALERT}/acknowledge")  # refused: a viewer

    def entries():
        found = AuditLog(open_case(case_dir).engine).entries()
        wanted = {("(not signed in)", "GET /board/state", "denied"), ("vic", "GET /board/state", "allowed"),
                  ("vic", f"POST /board/alerts/{ALERT}/acknowledge", "denied"), ("vic", "POST /login", "allowed"),
                  ("sensor-box", "POST /feeds/sensors", "allowed")}
        have = {(e["actor"], e["what"], e["outcome"]) for e in found}
        return found if wanted <= have else None

    found = until(entries)
    assert found, "the board's reads and refusals are not all in the audit log"
    read = next(e for e in found if e["actor"] == "vic" and e["what"] == "GET /board/state")
    assert read["via"] == "web" and read["action"] == "read" and read["record_ids"]
    posted = next(e for e in found if e["actor"] == "sensor-box")
    assert posted["action"] == "change" and posted["record_ids"]
    assert AuditLog(open_case(case_dir).engine).verify()[1] is None


def test_sign_out_ends_the_boards_session(live):
    base, _, _ = live
    vic = signed_in(base, "vic")
    csrf = vic.get("/board/state").json()["you"]["csrf"]
    assert vic.post("/logout", data={"csrf": csrf}).status_code == 303
    assert vic.get("/board/state").status_code == 401
    assert vic.get("/board").status_code == 303


def test_a_network_address_needs_tls_or_the_proxy_flag(tmp_path):
    case = tmp_path / "case"
    init_case(case)
    done = subprocess.run([sys.executable, "-m", "onrecord.cli", "live", str(case), "--host", "0.0.0.0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--tls-cert" in done.stderr and "plain HTTP" in done.stderr

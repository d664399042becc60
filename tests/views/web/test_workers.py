"""What must hold across the processes of one server (`onrecord serve --workers N`): each
is a separate interpreter with its own memory, so sessions, sign-in failures and lockouts,
and the audit chain are shared through the store or not at all. Two servers started apart
on one case are two such processes, each request landing on the one the test chooses."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from pathlib import Path

import httpx
import pytest

from tests.access.conftest import PASSWORD
from tests.views.web.servers import serve_process

pytestmark = pytest.mark.slow


@pytest.fixture
def case_dir(generated_case, tmp_path, monkeypatch) -> Path:
    """A copy of the generated case with one analyst, ana."""
    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case
    from onrecord.store.engine import DATABASE_URL_ENV

    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    path = tmp_path / "case"
    shutil.copytree(generated_case, path)
    case = open_case(path)
    AccessStore(case.engine).accounts.add("ana", "analyst", PASSWORD, case.id)
    case.engine.dispose()
    return path


def sign_in(base: str, password: str = PASSWORD) -> httpx.Response:
    with httpx.Client(base_url=base) as c:
        form = c.get("/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        return c.post("/login", data={"username": "ana", "password": password, "csrf": csrf, "next": "/"})


def audit(case_dir: Path) -> list[dict]:
    """The case's audit log once the servers have stopped: with what their spools held
    (a stopped server's last entries may be there still) put in the chain, as the next
    server on the case would."""
    from onrecord.access import audit_spool
    from onrecord.access.audit import AuditLog
    from onrecord.store.case import open_case

    case = open_case(case_dir)
    try:
        log = AuditLog(case.engine, background=True, spool=case_dir / audit_spool.FOLDER)
        log.flush()
        assert log.verify()[1] is None
        return log.entries()
    finally:
        case.engine.dispose()


def test_a_session_begun_on_one_process_holds_on_the_other(case_dir):
    with serve_process(case_dir) as (a, _), serve_process(case_dir) as (b, _):
        r = sign_in(a)
        assert r.status_code == 303
        token = r.cookies["onrecord_session"]
        with httpx.Client(base_url=b, cookies={"onrecord_session": token}) as on_b:
            assert on_b.get("/api/cases/current").status_code == 200
            csrf = re.search(r'name="csrf" value="([^"]+)"', on_b.get("/sources").text).group(1)
            assert on_b.post("/logout", data={"csrf": csrf}).status_code == 303
        with httpx.Client(base_url=a, cookies={"onrecord_session": token}) as on_a:
            assert on_a.get("/api/cases/current").status_code == 401  # signed out on b: ended on a too


def test_failed_sign_ins_on_both_processes_count_toward_one_lockout(case_dir):
    with serve_process(case_dir) as (a, _), serve_process(case_dir) as (b, _):
        for base in (a, b, a, b, a):
            assert sign_in(base, "not the password").status_code == 401
        assert sign_in(b).status_code == 401  # locked: the right password is refused on either
    entries = audit(case_dir)
    assert [e["action"] for e in entries].count("sign_in_failed") == 6
    assert any(e["action"] == "lockout" and e["actor"] == "ana" for e in entries)


def test_workers_answer_and_every_answer_is_audited(case_dir):
    with serve_process(case_dir, "--workers", "2") as (base, proc):
        assert len(descendants(proc.pid)) >= 2
        token = sign_in(base).cookies["onrecord_session"]
        with httpx.Client(base_url=base, cookies={"onrecord_session": token}) as c:
            answers = [c.get("/api/events", params={"limit": 5, "kind": "unit_dispatched", "n": i}).status_code
                       for i in range(20)]
    assert answers == [200] * 20
    reads = [e for e in audit(case_dir) if e["what"].startswith("GET /api/events?limit=5&kind=unit_dispatched")]
    assert sorted(e["what"] for e in reads) == sorted(
        f"GET /api/events?limit=5&kind=unit_dispatched&n={i}" for i in range(20))


def test_no_answered_request_is_lost_when_the_server_is_killed(case_dir):
    """kill -9 of every process of the server right after an answer arrived: its entry was
    safe before the answer left (a line of the case folder's audit spool), and the next
    server on the case puts it in the chain."""
    with serve_process(case_dir, "--workers", "2") as (base, proc):
        token = sign_in(base).cookies["onrecord_session"]
        with httpx.Client(base_url=base, cookies={"onrecord_session": token}) as c:
            r = c.get("/api/events", params={"limit": 3, "kind": "unit_arrived", "killed": "after-this"})
            for pid in descendants(proc.pid):
                os.kill(pid, signal.SIGKILL)
        assert r.status_code == 200 and r.json()["events"]
    with serve_process(case_dir):
        pass  # the next server recovers what the killed one left before it answers
    shown = [e for e in audit(case_dir) if e["what"] == "GET /api/events?limit=3&kind=unit_arrived&killed=after-this"]
    assert len(shown) == 1 and shown[0]["actor"] == "ana" and shown[0]["outcome"] == "allowed"
    assert set(json.loads(shown[0]["record_ids"])) == {e["id"] for e in r.json()["events"]}


def descendants(pid: int) -> list[int]:
    """The process and every process under it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def test_worker_processes_share_out_the_password_hashes_run_at_once(monkeypatch):
    """Each argon2 hash takes 64 MiB: N worker processes together hash no more at once than
    one process does (each its share, at least one)."""
    from onrecord.access import passwords
    from onrecord.views.web import workers

    monkeypatch.setattr(passwords, "AT_ONCE", passwords.AT_ONCE)  # put back after the test
    monkeypatch.setattr(workers, "build", lambda spec: spec)
    for processes, share in ((1, passwords.HASHES_AT_ONCE), (2, passwords.HASHES_AT_ONCE // 2), (64, 1)):
        monkeypatch.setenv(workers.SPEC_ENV, json.dumps({"case": "x", "allowed_hosts": [], "workers": processes}))
        assert workers.from_environment().workers == processes
        taken = [passwords.AT_ONCE.acquire(blocking=False) for _ in range(passwords.HASHES_AT_ONCE + 1)]
        assert taken.count(True) == share

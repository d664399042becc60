"""The live process reads accounts, sessions and the audit while its ingest writes a batch:
on SQLite both must go through one SQLite library (store/python_sqlite.py). With ADBC's
own copy beside Python's `sqlite3`, this very sequence rolled the batch back ("disk I/O
error" at its commit) or lost its locks; here the batch, the sign-in read and the audit
entry all stand, and `verify` and `audit verify` pass."""

from __future__ import annotations

import threading

import pytest

from onrecord.access.audit import AuditLog
from onrecord.access.store import AccessStore
from onrecord.live.clocks import LiveClocks
from onrecord.live.ingest import FeedSpec, IngestNode
from onrecord.live.units import UnitDirectory
from onrecord.pipeline import verify_case
from onrecord.store.case import init_case, open_case
from onrecord.store.live_writer import live_transaction
from onrecord.store.reader import open_reader
from tests.access.conftest import PASSWORD


@pytest.fixture
def one_library(monkeypatch):
    """What live/service.py does as the live process starts (engine.one_sqlite_library),
    undone after the test: the rest of the tests' process keeps ADBC."""
    monkeypatch.setattr("onrecord.store.engine.one_library", True)


def _case_with_a_session(tmp_path):
    case = init_case(tmp_path / "case")
    access = AccessStore.of(case)
    access.accounts.add("ana", "viewer", PASSWORD, case.id)
    account = access.accounts.sign_in("ana", PASSWORD, None)
    token, _ = access.sessions.start(account.id, "127.0.0.1")
    return case, access, token


def test_sign_in_read_and_audit_write_during_an_open_ingest_batch(tmp_path, one_library):
    case, access, token = _case_with_a_session(tmp_path)
    audit = AuditLog(access.engine, background=True)
    ingest = IngestNode(case, UnitDirectory(), LiveClocks({}, {}))
    feed = ingest.open_feed(FeedSpec(name="sensors", type="webhook"))
    frames = [b'{"kind": "shots_detected", "time": "2026-01-01T00:00:00Z"}\n'] * 3
    digest = feed.digest.copy()
    for f in frames:
        digest.update(f)
    with live_transaction(case) as w:  # the batch's transaction is open from here ...
        first = w.append_frames(feed.source_id, frames, digest.hexdigest())
        assert access.sessions.find(token).user_name == "ana"  # a sign-in read meanwhile
        assert access.accounts.any()
        # queued, not waited for: a request's own wait (AuditLog.event) would be for this
        # very batch's commit, which this thread holds open
        queued = audit.submit(audit.entry("ana", "web", "read", "GET /board/state", "127.0.0.1", "allowed",
                                          case.id))
        access.engine.dispose()  # sqlite3 connections closed while the batch holds its locks
    queued.result(30)  # ... and the audit entry, queued during it, is written after its commit
    held = [r.id for r in open_reader(case).raw_chain() if r.source_id == feed.source_id]
    assert held[-3:] == [first, first + 1, first + 2]
    assert verify_case(open_case(case.path)).intact
    assert audit.verify() == (1, None)
    assert [e["what"] for e in audit.entries()] == ["GET /board/state"]


def test_an_audit_write_waits_for_the_batch_then_goes_in(tmp_path, one_library):
    """A write of the access side (the audit, a sign-in's counters) during a batch waits for
    the batch's commit instead of breaking it."""
    case, access, _ = _case_with_a_session(tmp_path)
    audit = AuditLog(access.engine)  # written at once, on this thread of its own below
    ingest = IngestNode(case, UnitDirectory(), LiveClocks({}, {}))
    feed = ingest.open_feed(FeedSpec(name="sensors", type="webhook"))
    frame = b'{"kind": "shots_detected", "time": "2026-01-01T00:00:00Z"}\n'
    digest = feed.digest.copy()
    digest.update(frame)
    writer = threading.Thread(target=audit.event, args=("ana", "web", "sign_in", "POST /login", None, "allowed"))
    with live_transaction(case) as w:
        w.append_frames(feed.source_id, [frame], digest.hexdigest())
        writer.start()
        writer.join(0.3)  # it cannot go in while the batch holds the write lock
        assert writer.is_alive()
    writer.join(30)
    assert not writer.is_alive()
    assert audit.verify() == (1, None)
    assert verify_case(open_case(case.path)).intact


def test_frames_accepted_through_the_ingest_while_sessions_are_read(tmp_path, one_library):
    """The ingest's own path (group commit on its writer thread) beside sign-in reads on
    other threads, as the board serves them: every frame acknowledged is on the chain."""
    case, access, token = _case_with_a_session(tmp_path)
    ingest = IngestNode(case, UnitDirectory(), LiveClocks({}, {}))
    feed = ingest.open_feed(FeedSpec(name="sensors", type="webhook"))
    stop, seen, problems = threading.Event(), [], []

    def read_sessions():
        while not stop.is_set():
            try:
                seen.append(access.sessions.find(token) is not None)
                access.engine.dispose()
            except Exception as exc:  # noqa: BLE001 - the test reports whatever broke
                problems.append(exc)

    readers = [threading.Thread(target=read_sessions) for _ in range(2)]
    for t in readers:
        t.start()
    try:
        acked = [o.raw_id for i in range(60) for o in ingest.accept(
            feed, [f'{{"kind": "shots_detected", "time": "2026-01-01T00:00:{i % 60:02d}Z"}}'.encode()])]
    finally:
        stop.set()
        for t in readers:
            t.join()
        ingest.close()
    assert problems == [] and seen and all(seen)
    held = {r.id for r in open_reader(case).raw_chain() if r.source_id == feed.source_id}
    assert set(acked) <= held
    assert verify_case(open_case(case.path)).intact

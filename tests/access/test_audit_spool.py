"""The audit spool (access/audit_spool.py): a server's entries are lines in a file of the
case folder before they reach the chain; a spool left by a process that is gone is
recovered by the next log to start there, each line into the chain exactly once."""

from __future__ import annotations

import subprocess
import sys

from onrecord.access import audit_spool
from onrecord.access.audit import AuditLog

KILLED = """
import os, sys
from pathlib import Path
from onrecord.access.audit import AuditLog
from onrecord.store.case import open_case
case = open_case(Path(sys.argv[1]))
log = AuditLog(case.engine, background=True, spool=Path(sys.argv[1]) / "audit-spool")
for i in range(int(sys.argv[2])):
    log.submit(log.entry("ana", "api", "read", f"GET /api/events?n={i}", "127.0.0.1", "allowed")).result()
os.kill(os.getpid(), 9)  # every entry safe in the spool, some perhaps not yet in the store
"""


def reads(log: AuditLog) -> list[str]:
    return [e["what"] for e in log.entries() if e["actor"] == "ana"]


def test_a_killed_process_s_spool_reaches_the_chain_once(tmp_path):
    from onrecord.store.case import init_case

    case = init_case(tmp_path / "case")
    done = subprocess.run([sys.executable, "-c", KILLED, str(tmp_path / "case"), "200"], capture_output=True)
    assert done.returncode == -9, done.stderr.decode()
    log = AuditLog(case.engine, background=True, spool=tmp_path / "case" / audit_spool.FOLDER)
    log.flush()
    assert reads(log) == [f"GET /api/events?n={i}" for i in range(200)]
    assert log.verify()[1] is None
    assert [p.name for p in (tmp_path / "case" / audit_spool.FOLDER).glob("*.jsonl")] == [log._spool.path.name]
    case.engine.dispose()


def test_recovery_writes_only_what_the_store_does_not_have(tmp_path):
    """A process killed after a commit, before it could remove its file: the store's count
    says how much of it is in; a last line cut short by the kill was never answered."""
    from onrecord.store.case import init_case

    case = init_case(tmp_path / "case")
    first = AuditLog(case.engine)
    entries = [first.entry("ana", "api", "read", f"GET /api/events?n={i}", None, "allowed") for i in range(5)]
    with case.engine.begin() as conn:
        first._append(conn, entries[:3], {"gone-1": 3})  # the first three were committed, with their count
    folder = tmp_path / "case" / audit_spool.FOLDER
    folder.mkdir()
    (folder / "audit-gone-1.jsonl").write_bytes(b"".join(e.canonical() + b"\n" for e in entries)
                                               + entries[0].canonical()[:20])
    log = AuditLog(case.engine, background=True, spool=folder)
    log.flush()
    assert reads(log) == [f"GET /api/events?n={i}" for i in range(5)]
    assert log.verify()[1] is None
    assert not (folder / "audit-gone-1.jsonl").exists()
    case.engine.dispose()

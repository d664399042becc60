"""A process killed in the middle of an import leaves the case exactly as it was."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time

from sqlalchemy import create_engine, text

from tests.helpers import store_state, write_cad

ROW = "C-{n},S{u},Welfare check,{n} Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00\n"


def _big_export(folder, rows=120_000):
    body = "CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene\n" + "".join(
        ROW.format(n=i // 2, u=i % 7) for i in range(rows))
    return write_cad(folder, body, "big.csv")


# SQLite's WAL write lock: byte 120 of the -shm file (the unix VFS's first shared-memory lock)
WAL_WRITE_LOCK = 120


def _writing(case_dir, backend) -> bool:
    """True once the import holds its write transaction open."""
    if backend == "sqlite":
        return _wal_writer(case_dir / "case.db-shm")
    url = os.environ["ONRECORD_DATABASE_URL"]
    engine = create_engine(url)
    with engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                              "WHERE c.relname = 'raw_records' AND l.mode = 'ShareRowExclusiveLock' "
                              "AND l.granted")).scalar()
    engine.dispose()
    return n > 0


def _wal_writer(shm) -> bool:
    """Whether another process holds the case's WAL write lock (a write transaction is open):
    asked by trying that byte's lock for an instant, as a second writer would."""
    try:
        fd = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, WAL_WRITE_LOCK)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, WAL_WRITE_LOCK)
        return False
    finally:
        os.close(fd)


def test_case_store_is_in_wal_mode(case_dir, cli, tmp_path, backend):
    if backend != "sqlite":
        return
    small, mapping = write_cad(tmp_path / "small")
    assert cli("import", case_dir, small, "--mapping", mapping)[0] == 0
    with open(case_dir / "case.db", "rb") as f:
        header = f.read(20)
    assert header[18:20] == bytes([2, 2])  # file format versions 2: WAL (1 is the rollback journal)


def test_killed_import_leaves_nothing_behind(case_dir, cli, tmp_path, backend):
    small, mapping = write_cad(tmp_path / "small")
    assert cli("import", case_dir, small, "--mapping", mapping)[0] == 0
    before = store_state(case_dir)
    data, mapping = _big_export(tmp_path / "big")
    proc = subprocess.Popen([sys.executable, "-m", "onrecord.cli", "import", str(case_dir), str(data),
                             "--mapping", str(mapping)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not _writing(case_dir, backend):
        assert proc.poll() is None, "the import finished before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.3)  # well inside the write
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert store_state(case_dir) == before
    assert cli("verify", case_dir)[0] == 0
    # and the interrupted file imports cleanly afterwards
    code, out, err = cli("import", case_dir, data, "--mapping", mapping)
    assert code == 0, err
    assert store_state(case_dir)["records"] == before["records"] + 120_001

"""A process killed in the middle of an import leaves the case exactly as it was."""

from __future__ import annotations

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


def _writing(case_dir, backend) -> bool:
    """True once the import holds its write transaction open."""
    if backend == "sqlite":
        return (case_dir / "case.db-journal").exists()
    url = os.environ["ONRECORD_DATABASE_URL"]
    engine = create_engine(url)
    with engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                              "WHERE c.relname = 'raw_records' AND l.mode = 'ShareRowExclusiveLock' "
                              "AND l.granted")).scalar()
    engine.dispose()
    return n > 0


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

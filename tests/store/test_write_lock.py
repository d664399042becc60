"""Writers of one case queue on its write lock: concurrent imports all succeed, in turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from onrecord.store.engine import DATABASE_URL_ENV
from onrecord.store.write_lock import LOCK_FILE
from tests.helpers import store_state, write_cad

ROW = "C-{f}-{n},S{u},Welfare check,{n} Larkspur Rd,3,03/14/2026 09:30:05,03/14/2026 09:31:10,03/14/2026 09:40:00\n"
HEADER = "CallNo,Unit,Nature,Address,Pri,Received,Dispatched,OnScene\n"
HOLD = """
import sys, time
from onrecord.store.write_lock import case_write_lock
with case_write_lock(sys.argv[1], 5):
    print("held", flush=True)
    sys.stdin.readline()  # until the test lets go (or goes)
"""


def _env(**extra) -> dict:
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.environ.get("PYTHONPATH", ""), os.getcwd()] if p)
    return env


def _onrecord(*args, **env) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "onrecord.cli", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(**env))


def _hold_lock(case_dir) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(case_dir)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=_env())
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_four_imports_at_once_all_succeed_one_after_another(case_dir, cli, tmp_path):
    files = []
    for f in range(4):
        body = HEADER + "".join(ROW.format(f=f, n=i // 2, u=i % 5) for i in range(10_000))
        files.append(write_cad(tmp_path / f"in{f}", body, f"export{f}.csv"))
    procs = [_onrecord("import", case_dir, data, "--mapping", mapping) for data, mapping in files]
    results = [(p.wait(timeout=600), p.stderr.read()) for p in procs]
    for code, err in results:
        assert code == 0 and "locked" not in err and "Traceback" not in err, err
    state = store_state(case_dir)
    assert state["sources"] == 4 and state["raw"] == 4 * 10_001 and state["records"] == 4 * 10_001
    # each import's receipt states the chain as that import left it, not as a later one did
    heads = sorted(json.loads(p.read_text())["chain"]["records"] for p in (case_dir / "receipts").glob("*-import.json"))
    assert heads == [10_001, 20_002, 30_003, 40_004]
    assert cli("verify", case_dir)[0] == 0


def test_a_writer_waits_for_the_lock_says_so_and_then_writes(case_dir, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    holder = _hold_lock(case_dir)
    proc = _onrecord("import", case_dir, data, "--mapping", mapping)
    said = proc.stderr.readline()  # the import is waiting, and says so
    assert "waiting for another write" in said
    assert store_state(case_dir)["sources"] == 0
    holder.communicate("go\n")
    code = proc.wait(timeout=120)
    assert code == 0, proc.stderr.read()
    assert store_state(case_dir)["sources"] == 1
    assert (case_dir / LOCK_FILE).exists()


def test_a_wait_past_its_bound_is_one_clear_error_and_nothing_written(case_dir, tmp_path):
    data, mapping = write_cad(tmp_path / "in")
    before = store_state(case_dir)
    holder = _hold_lock(case_dir)
    proc = _onrecord("import", case_dir, data, "--mapping", mapping, ONRECORD_LOCK_WAIT_S="0.5")
    code = proc.wait(timeout=120)
    err = proc.stderr.read()
    holder.communicate("go\n")
    assert code == 2 and err.strip().splitlines()[-1].startswith("error: another write to this case"), err
    assert "Traceback" not in err
    assert store_state(case_dir) == before


SQLITE_HOLD = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN EXCLUSIVE")  # a writer's transaction (in WAL mode readers go on beside it)
print("held", flush=True)
sys.stdin.readline()
con.execute("ROLLBACK")
"""


def _hold_sqlite_file(case_dir) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", SQLITE_HOLD, str(case_dir / "case.db")], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=_env())
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_reader_does_not_wait_for_a_writer_and_its_audit_entry_waits_within_the_case_lock_wait(
        tmp_path, cli, monkeypatch):
    """The case file is in WAL mode: a read (`timeline`) answers at once while another process
    holds a write transaction, however short its wait; its audit entry is a write, which waits
    for the other writer within the case's bound and, past it, is one warning, not a traceback.
    SQLite only: a PostgreSQL reader never waits on a writer either."""
    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    case_dir = tmp_path / "case"
    assert cli("init", case_dir)[0] == 0
    holder = _hold_sqlite_file(case_dir)
    waiting = _onrecord("timeline", case_dir, ONRECORD_LOCK_WAIT_S="60")
    impatient = _onrecord("timeline", case_dir, ONRECORD_LOCK_WAIT_S="0.5")
    code = impatient.wait(timeout=120)
    err = impatient.stderr.read()
    assert code == 0 and "Traceback" not in err and "audit entry was not written" in err, err
    assert waiting.poll() is None  # still waiting, well past the half second the other gave up at
    holder.communicate("go\n")
    assert waiting.wait(timeout=120) == 0, waiting.stderr.read()

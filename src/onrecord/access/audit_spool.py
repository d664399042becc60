"""A server process's audit entries on local disk before they reach the store.

An answer may not leave the server before its entry is safe, yet it must not wait on the
store either: on SQLite an import holds the write lock for as long as it runs, and pages
must go on answering meanwhile. So each entry is first appended to this process's spool
file in the case folder (one write() of one line, done before the answer is sent: a
process killed after answering has the line in the file, whatever happens to the process),
and the audit writer moves the spool into the chain in batches. The store keeps how many
lines of each spool are in the chain (`audit_spool`), updated in the very transaction that
writes them, so a line is written once, never twice and never not at all.

A spool whose process is gone (its flock released) is recovered by the next server to start
on the case: the lines past its count go into the chain, then the file is removed. A live
spool starts a new file every ROTATE_LINES lines once all of it is in the chain.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from pathlib import Path

from sqlalchemy import Connection, delete, insert, select, update

from onrecord.store.schema_access import audit_spool

try:
    import fcntl
except ImportError:  # not POSIX: no spool (the log commits before answering instead: audit.py)
    fcntl = None

FOLDER = "audit-spool"
ROTATE_LINES = 50_000


def available() -> bool:
    return fcntl is not None


class Spool:
    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(exist_ok=True)
        self.lock = threading.Lock()
        self._open()

    def _open(self) -> None:
        self.name = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.path = self.folder / f"audit-{self.name}.jsonl"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)  # held while this process lives: recovery leaves it alone
        self.lines = 0

    def append(self, line: bytes) -> tuple[str, int]:
        """Write one entry's line; (this spool's name, the line's number from 1). Under
        `lock`: the caller queues the entry for the store in the same order."""
        os.write(self.fd, line + b"\n")
        self.lines += 1
        return self.name, self.lines

    def rotate_if_done(self, committed: int, forget) -> None:
        """Once every line is in the chain and the file is long: a new file, the old one gone
        (`forget(name)` removes its count from the store, after the file)."""
        with self.lock:
            if committed < self.lines or self.lines < ROTATE_LINES:
                return
            old_name, old_path, old_fd = self.name, self.path, self.fd
            self._open()
        old_path.unlink(missing_ok=True)
        os.close(old_fd)
        forget(old_name)


def note_progress(conn: Connection, name: str, committed: int) -> None:
    """In the transaction writing a spool's lines: how many of them are now in the chain."""
    if not conn.execute(update(audit_spool).where(audit_spool.c.name == name).values(committed=committed)).rowcount:
        conn.execute(insert(audit_spool).values(name=name, committed=committed))


def forget(engine, name: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(audit_spool).where(audit_spool.c.name == name))


def leftovers(folder: Path):
    """(path, descriptor holding its lock) of each spool file whose process is gone, oldest
    first: the lock held while it is recovered, so two servers starting at once never both
    recover one file. The caller closes the descriptor."""
    for path in sorted(folder.glob("audit-*.jsonl"), key=_mtime):
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:  # recovered meanwhile by another server
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live process's
        if not path.exists():  # recovered and removed between the listing and the lock
            os.close(fd)
            continue
        yield path, fd


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_lines(path: Path) -> list[list]:
    """The whole lines of a spool; a last line cut short (killed mid-write, before that
    answer could be sent) is left out."""
    out = []
    for raw in path.read_bytes().split(b"\n")[:-1]:  # every line but a last one without its newline
        try:
            out.append(json.loads(raw))
        except ValueError:
            break
    return out


def committed_of(conn: Connection, name: str) -> int:
    return int(conn.execute(select(audit_spool.c.committed).where(audit_spool.c.name == name)).scalar() or 0)


def spool_name(path: Path) -> str:
    return path.stem.removeprefix("audit-")

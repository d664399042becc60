"""The audit log (CJIS 5.4; AU-2, AU-3, AU-8, AU-11): who did what to which case, when
(UTC, to the millisecond), from where, and how it ended (allowed, denied, error), for
reads on the web, the API and the command line, sign-ins, their failures and lockouts,
and changes to users and permissions.

Append-only and hash-chained like the evidence (store/evidence.py): entry i's hash is
SHA-256(hash of entry i-1 || the entry's fields as canonical JSON), and the one row of
`audit_chain` keeps the count and the newest hash, so a changed, removed or inserted
entry, or the newest ones cut off, is found by `onrecord audit verify`. Nothing in the
code updates or deletes an entry; entries are kept at least a year (RETAIN_DAYS: nothing
prunes them at all today).

No answer leaves a server before its entry is safe (audit_reads.py holds the answer until
then), and one thread writes the entries into the store in batches:
- serving a case folder, an entry is safe once it is a line in this process's spool file
  there (audit_spool.py): the answer does not wait on the store, whose write lock an import
  may hold for minutes, and the spool reaches the chain in batches of up to BATCH_S, each
  exactly once, however the process ends (the next server on the case recovers what a
  killed one left);
- elsewhere (a server of many cases on a database URL, or a system without flock), by group
  commit: the answer waits until its entry is committed, the thread committing whatever has
  queued meanwhile in one transaction, and an answer whose entry cannot be written is
  refused (503).
The command line writes at once. Several server processes (`serve --workers N`) append to
the one chain: each commit takes the chain head's row first, so their batches are chained
one after another, never onto the same head.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import OperationalError

from onrecord.access import audit_spool
from onrecord.access.clock import wall_ms
from onrecord.store.evidence import GENESIS
from onrecord.store.schema_access import audit_chain, audit_log

RETAIN_DAYS = 366
FIELDS = ("at_ms", "actor", "via", "case_id", "action", "what", "record_ids", "from_addr", "outcome")
MAX_IDS = 20_000  # ids kept per entry: a chart's points at most
MAX_BATCH = 2000  # entries in one commit at most
# A spooled entry is in the store within this (and the time a commit takes). On SQLite each
# commit holds the file's exclusive lock through its fsyncs, and every read that begins
# meanwhile waits (in SQLite's busy handler: 1, 2, 5, 10 ms sleeps): under 50 readers each
# commit stalls every one of them, so a server commits its entries once every 2 s, not 2 a second.
BATCH_S = 2.0
RETRY_S = 0.2  # a commit that met a held write lock is tried again after this


@dataclass
class Entry:
    at_ms: int
    actor: str
    via: str
    case_id: int | None
    action: str
    what: str
    record_ids: str | None
    from_addr: str | None
    outcome: str

    def canonical(self) -> bytes:
        return json.dumps([getattr(self, f) for f in FIELDS], separators=(",", ":"), ensure_ascii=False).encode()


def entry_hash(previous: bytes, entry: Entry) -> bytes:
    return hashlib.sha256(previous + entry.canonical()).digest()


def ids_text(ids: Iterable[int] | None) -> str | None:
    if ids is None:
        return None
    out = sorted(ids if isinstance(ids, (set, frozenset)) and all(type(i) is int for i in ids)
                 else {int(i) for i in ids})
    # json.dumps' own text for a list of integers, written without its encoder (every page's 500 ids)
    return "[" + ", ".join(map(str, out[:MAX_IDS])) + (', "..."' if len(out) > MAX_IDS else "") + "]"


def _busy(exc: OperationalError) -> bool:
    """A lock held by another writer (worth waiting for), not a broken store."""
    return any(w in str(exc.orig).lower() for w in ("locked", "busy"))


class AuditUnavailable(Exception):
    """The entry could not be written: the answer it records must not be sent."""


class AuditLog:
    """`background`: a server's log, written by group commit on a thread of its own
    (`submit` returns a Future a request awaits); else every entry is written at once.
    `wait_s`: how long a server's commit keeps trying against a held write lock (an import
    on SQLite) before the requests waiting on it are refused. `spool`: the folder of a
    server's spool files (a case folder's audit-spool/): entries are safe there first."""

    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms, background: bool = False,
                 wait_s: float = 600.0, spool: Path | None = None):
        self.engine, self.now_ms, self.wait_s = engine, now_ms, wait_s
        self._queue: queue.Queue | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()  # a flush waits: the writer's batch ends now (_drain)
        self._spool = audit_spool.Spool(spool) if background and spool and audit_spool.available() else None
        if self._spool is not None:
            self._recover()  # before this server answers anyone: the chain is whole first
        if background:
            self._queue = queue.Queue()
            threading.Thread(target=self._drain, daemon=True, name="onrecord-audit").start()

    # ---- what is recorded

    def entry(self, actor: str, via: str, action: str, what: str, from_addr: str | None, outcome: str,
              case_id: int | None = None, record_ids: Iterable[int] | None = None) -> Entry:
        return Entry(self.now_ms(), actor[:120], via, case_id, action, what[:4000], ids_text(record_ids),
                     (from_addr or None) and from_addr[:64], outcome)

    def submit(self, entry: Entry) -> Future:
        """Queue the entry for the next commit; the Future is done once it is in the store
        (or failed with AuditUnavailable). Without a background writer, written now."""
        done: Future = Future()
        if self._spool is not None:
            with self._spool.lock:  # the spool's order and the queue's are the same
                line = self._spool.append(entry.canonical())
                self._queue.put((entry, None, line))
            done.set_result(None)  # safe on disk: the answer may go
        elif self._queue is None:
            try:
                self._write([entry])
                done.set_result(None)
            except Exception as exc:  # the caller decides; the CLI lets it surface
                done.set_exception(exc)
        else:
            self._queue.put((entry, done, None))
        return done

    def event(self, actor: str, via: str, action: str, what: str, from_addr: str | None, outcome: str,
              case_id: int | None = None, record_ids: Iterable[int] | None = None) -> None:
        """Record and wait until the entry is in the store."""
        entry = self.entry(actor, via, action, what, from_addr, outcome, case_id, record_ids)
        if self._queue is None:
            self._write([entry])
        else:
            self.submit(entry).result()

    def read(self, actor: str, via: str, what: str, from_addr: str | None, outcome: str, case_id: int | None,
             record_ids: Iterable[int] | None = None) -> None:
        self.event(actor, via, "read", what, from_addr, outcome, case_id, record_ids)

    def sign_in(self, name: str, from_addr: str | None, refused: str | None, case_id: int | None,
                how: str = "POST /login") -> None:
        if refused is None:
            self.event(name, "web", "sign_in", how, from_addr, "allowed", case_id)
            return
        self.event(name or "(no name)", "web", "sign_in_failed", f"{how}: {refused}", from_addr, "denied",
                   case_id)
        if "locked" in refused and refused != "locked":
            self.event(name, "web", "lockout", "5 failed sign-ins within 15 minutes", from_addr, "denied", case_id)

    # ---- writing

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every entry queued so far is in the store (each request already waits
        for its own: this is for callers that did not)."""
        if self._queue is not None:
            self._marker().result(timeout)

    def _marker(self) -> Future:
        # an empty batch item: done when every entry queued before it has been committed
        done: Future = Future()
        self._queue.put((None, done, None))
        self._wake.set()  # after the put: the writer, woken, finds the marker queued
        return done

    def _drain(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Spooled entries are safe already: gather for up to BATCH_S, one commit per batch (a
            # commit takes the SQLite store's exclusive lock, which the server's readers wait on).
            # Waiting answers: whatever has queued while the last commit ran, and no more, so an
            # idle server commits each entry at once and a busy one many per transaction.
            # A flush's marker ends the gathering: whoever waits on it waits for a commit, not a batch.
            if self._spool is not None and batch[-1][0] is not None:
                # Sleeping out the batch, not waiting on the queue: a thread waiting in
                # queue.get is woken by every put, one wake-up (and a turn at the interpreter
                # lock) per request under load; a flush cuts the sleep short (_marker).
                # Cleared only after a wait: a flush's wake-up given while the writer was busy
                # (its marker still queued) then ends the next gathering at once, not 2 s late.
                self._wake.wait(BATCH_S)
                self._wake.clear()
            while len(batch) < MAX_BATCH and batch[-1][0] is not None:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            entries = [e for e, _, _ in batch if e is not None]
            progress = {line[0]: line[1] for _, _, line in batch if line is not None}
            failure = self._write_patiently(entries, progress) if entries else None
            for _, done, _ in batch:
                if done is not None:
                    done.set_exception(failure) if failure else done.set_result(None)
            if self._spool is not None and progress:
                self._spool.rotate_if_done(progress.get(self._spool.name, 0),
                                           lambda name: audit_spool.forget(self.engine, name))

    def _recover(self) -> None:
        """Spools left by server processes that are gone: what of them is not yet in the chain."""
        for path, fd in audit_spool.leftovers(self._spool.folder):
            try:
                name, lines = audit_spool.spool_name(path), audit_spool.read_lines(path)
                written = False
                while not written:
                    try:
                        with self._lock, self.engine.begin() as conn:
                            self._append(conn, [Entry(*line) for line in lines[audit_spool.committed_of(
                                conn, name):]], {name: len(lines)})
                        written = True
                    except OperationalError as exc:
                        if not _busy(exc):  # a broken store, not a lock: the file waits for the next start
                            print(f"onrecord: {path} could not be put in the audit log ({exc.orig})",
                                  file=sys.stderr, flush=True)
                            break
                        threading.Event().wait(RETRY_S)
                if not written:
                    continue
                path.unlink(missing_ok=True)
                audit_spool.forget(self.engine, name)
            finally:
                os.close(fd)

    def _write_patiently(self, entries: list[Entry], progress: dict | None = None) -> AuditUnavailable | None:
        deadline = time.monotonic() + self.wait_s
        while True:
            try:
                self._write(entries, progress)
                return None
            except OperationalError as exc:  # the store's write lock is held (an import): try again shortly
                if not _busy(exc) and self._spool is not None:  # not a lock: say so, keep the spool, retry
                    print(f"onrecord: the audit log could not be written ({exc.orig}); its entries are kept in "
                          f"{self._spool.path} and tried again", file=sys.stderr, flush=True)
                    threading.Event().wait(5.0)
                    continue
                if self._spool is None and (time.monotonic() > deadline or not _busy(exc)):
                    print(f"onrecord: the audit log could not be written ({exc.orig}); {len(entries)} answers "
                          "withheld", file=sys.stderr, flush=True)
                    return AuditUnavailable(str(exc.orig))
                threading.Event().wait(RETRY_S)
            except Exception as exc:  # any other failure: refuse these answers, keep the writer alive
                print(f"onrecord: the audit log could not be written ({exc})", file=sys.stderr, flush=True)
                return AuditUnavailable(str(exc))

    def _write(self, entries: list[Entry], progress: dict | None = None) -> None:
        with self._lock, self.engine.begin() as conn:
            self._append(conn, entries, progress)

    @staticmethod
    def _append(conn, entries: list[Entry], progress: dict | None = None) -> None:
        """Chain `entries` onto the head, and note how far each spool has got, in one transaction."""
        if entries:
            # The UPDATE first: it takes the write lock (SQLite) or the row lock (PostgreSQL)
            # before the head is read, so two writers (threads or processes) never chain onto
            # the same head.
            count = conn.execute(update(audit_chain).where(audit_chain.c.id == 1).values(
                entry_count=audit_chain.c.entry_count + len(entries)).returning(
                audit_chain.c.entry_count, audit_chain.c.head)).first()
            first, head = count.entry_count - len(entries) + 1, bytes(count.head)
            rows = []
            for n, e in enumerate(entries):
                head = entry_hash(head, e)
                rows.append({f: getattr(e, f) for f in FIELDS} | {"id": first + n, "entry_sha256": head})
            conn.execute(insert(audit_log), rows)
            conn.execute(update(audit_chain).where(audit_chain.c.id == 1).values(head=head))
        for name, committed in (progress or {}).items():
            audit_spool.note_progress(conn, name, committed)

    # ---- reading and checking

    def entries(self, actor: str | None = None, since_ms: int | None = None, until_ms: int | None = None,
                case_id: int | None = None, limit: int | None = None) -> list[dict]:
        stmt = select(audit_log).order_by(audit_log.c.id)
        if actor is not None:
            stmt = stmt.where(audit_log.c.actor == actor)
        if since_ms is not None:
            stmt = stmt.where(audit_log.c.at_ms >= since_ms)
        if until_ms is not None:
            stmt = stmt.where(audit_log.c.at_ms <= until_ms)
        if case_id is not None:
            stmt = stmt.where(audit_log.c.case_id == case_id)
        if limit is not None:
            stmt = stmt.limit(limit)
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(stmt).mappings()]

    def verify(self) -> tuple[int, str | None]:
        """(entries checked, None) when the chain holds; else the first problem in words."""
        head, n = GENESIS, 0
        with self.engine.connect() as conn:
            for row in conn.execute(select(audit_log).order_by(audit_log.c.id).execution_options(yield_per=5000)):
                n += 1
                if row.id != n:
                    return n, f"entry {n} is missing (the next entry is {row.id})"
                head = entry_hash(head, Entry(**{f: getattr(row, f) for f in FIELDS}))
                if head != bytes(row.entry_sha256):
                    return n, f"entry {n} ({row.action} by {row.actor}) was changed after it was written"
            chain = conn.execute(select(audit_chain).where(audit_chain.c.id == 1)).first()
        if chain is None or chain.entry_count != n:
            return n, f"the log holds {n} entries but {chain.entry_count if chain else 0} were written: " \
                      "the newest were removed"
        if bytes(chain.head) != head:
            return n, "the newest entry does not match the chain head"
        return n, None

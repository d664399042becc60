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

The server writes entries by group commit: one thread writes whatever requests have
queued since its last commit, in one transaction, and each request's answer waits until
its own entry is committed. So no answer leaves the server without its entry in the store
(a process killed right after answering has lost nothing), a commit serves many requests
under load, and an answer whose entry cannot be written is not sent (audit_reads.py). The
command line writes at once. Several server processes (`serve --workers N`) append to the
one chain: each commit takes the chain head's row first (module docstring above), so their
batches are chained one after another, never onto the same head.
"""

from __future__ import annotations

import hashlib
import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import OperationalError

from onrecord.access.clock import wall_ms
from onrecord.store.evidence import GENESIS
from onrecord.store.schema_access import audit_chain, audit_log

RETAIN_DAYS = 366
FIELDS = ("at_ms", "actor", "via", "case_id", "action", "what", "record_ids", "from_addr", "outcome")
MAX_IDS = 20_000  # ids kept per entry: a chart's points at most
MAX_BATCH = 2000  # entries in one commit at most
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
    out = sorted({int(i) for i in ids})
    return json.dumps(out[:MAX_IDS] + (["..."] if len(out) > MAX_IDS else []))


class AuditUnavailable(Exception):
    """The entry could not be written: the answer it records must not be sent."""


class AuditLog:
    """`background`: a server's log, written by group commit on a thread of its own
    (`submit` returns a Future a request awaits); else every entry is written at once.
    `wait_s`: how long a server's commit keeps trying against a held write lock (an import
    on SQLite) before the requests waiting on it are refused."""

    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms, background: bool = False,
                 wait_s: float = 600.0):
        self.engine, self.now_ms, self.wait_s = engine, now_ms, wait_s
        self._queue: queue.Queue[tuple[Entry, Future]] | None = None
        self._lock = threading.Lock()
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
        if self._queue is None:
            try:
                self._write([entry])
                done.set_result(None)
            except Exception as exc:  # the caller decides; the CLI lets it surface
                done.set_exception(exc)
        else:
            self._queue.put((entry, done))
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
        self._queue.put((None, done))
        return done

    def _drain(self) -> None:
        while True:
            # Whatever has queued while the last commit ran goes into the next one: no waiting
            # to gather more, so an idle server commits each entry at once and a busy one
            # commits many per transaction.
            batch = [self._queue.get()]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            entries = [e for e, _ in batch if e is not None]
            failure = self._write_patiently(entries) if entries else None
            for _, done in batch:
                done.set_exception(failure) if failure else done.set_result(None)

    def _write_patiently(self, entries: list[Entry]) -> AuditUnavailable | None:
        deadline = time.monotonic() + self.wait_s
        while True:
            try:
                self._write(entries)
                return None
            except OperationalError as exc:  # the store's write lock is held (an import): try again shortly
                if time.monotonic() > deadline:
                    print(f"onrecord: the audit log could not be written ({exc.orig}); {len(entries)} answers "
                          "withheld", file=sys.stderr, flush=True)
                    return AuditUnavailable(str(exc.orig))
                threading.Event().wait(RETRY_S)
            except Exception as exc:  # any other failure: refuse these answers, keep the writer alive
                print(f"onrecord: the audit log could not be written ({exc})", file=sys.stderr, flush=True)
                return AuditUnavailable(str(exc))

    def _write(self, entries: list[Entry]) -> None:
        with self._lock, self.engine.begin() as conn:
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

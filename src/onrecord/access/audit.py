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

The server writes entries from one thread, in batches of up to half a second, so a reader
never waits on the store's write lock (an import holding it for minutes) and the server's
own reads are not held up by a commit per request: a request's entry is queued when its
answer is sent and written within the second. The command line writes at once.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import OperationalError

from onrecord.access.clock import wall_ms
from onrecord.store.evidence import GENESIS
from onrecord.store.schema_access import audit_chain, audit_log

RETAIN_DAYS = 366
FIELDS = ("at_ms", "actor", "via", "case_id", "action", "what", "record_ids", "from_addr", "outcome")
MAX_IDS = 20_000  # ids kept per entry: a chart's points at most
BATCH_S = 0.5  # a request's entry is in the store within this (and the time a commit takes)


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


class AuditLog:
    def __init__(self, engine: Engine, now_ms: Callable[[], int] = wall_ms, background: bool = False):
        self.engine, self.now_ms = engine, now_ms
        self._queue: queue.Queue[Entry] | None = None
        self._lock = threading.Lock()
        if background:
            self._queue = queue.Queue()
            self._idle = threading.Event()
            self._idle.set()
            threading.Thread(target=self._drain, daemon=True, name="onrecord-audit").start()

    # ---- what is recorded

    def event(self, actor: str, via: str, action: str, what: str, from_addr: str | None, outcome: str,
              case_id: int | None = None, record_ids: Iterable[int] | None = None) -> None:
        entry = Entry(self.now_ms(), actor[:120], via, case_id, action, what[:4000], ids_text(record_ids),
                      (from_addr or None) and from_addr[:64], outcome)
        if self._queue is not None:
            self._idle.clear()
            self._queue.put(entry)
        else:
            self._write([entry])

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
        """Wait until every queued entry is in the store."""
        if self._queue is not None:
            self._idle.wait(timeout)

    def _drain(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Gather for up to BATCH_S: one commit per batch, not per request. A commit takes the
            # SQLite store's exclusive lock, which the server's own readers would wait on.
            until = time.monotonic() + BATCH_S
            while len(batch) < 2000 and (left := until - time.monotonic()) > 0:
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            while True:
                try:
                    self._write(batch)
                    break
                except OperationalError:  # the store's write lock is held (an import): try again shortly
                    threading.Event().wait(0.5)
            if self._queue.empty():
                self._idle.set()

    def _write(self, entries: list[Entry]) -> None:
        with self._lock, self.engine.begin() as conn:
            # The UPDATE first: it takes the write lock (SQLite) or the row lock (PostgreSQL)
            # before the head is read, so two writers never chain onto the same head.
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

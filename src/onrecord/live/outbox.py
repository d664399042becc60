"""Where alerts go: first into the case's alert log (`live-alerts.jsonl`), then as CAP 1.2
to each webhook configured (`[live] alert_webhooks`), and to the board.

What a restarted node must know — that an alert fired, that it cleared — is written and
synced to the disk before it is sent, so no alert is lost or said twice. An update (new
evidence while an alert holds: every shot, thousands a second) is written to the log at
once, which a `kill -9` of the process does not lose (the operating system holds it), and
synced with the next fire or clear or within UPDATE_SYNC_S: a sync per update (5-40 ms on
a loaded disk) was the whole budget of the alert behind it. Updates are not what a restart
counts on (it says again no update, and rebuilds them from the stored events).

Webhooks are posted by one sender thread, in order; an update still waiting when a newer
one of the same alert comes is replaced by it (a CAP Update carries the alert's whole
state), so a receiver gets every fire and clear and the latest of the updates between.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
from collections import deque
from dataclasses import fields
from pathlib import Path
from zoneinfo import ZoneInfo

from onrecord.live.cap_out import cap_alert
from onrecord.live.engine import Change
from onrecord.model import Finding

ALERTS_FILE = "live-alerts.jsonl"
FINDING_FIELDS = fields(Finding)
UPDATE_SYNC_S = 1.0  # an update's line is on the disk no later than this after it was written


class Outbox:
    def __init__(self, case_path: Path, case_uid: str, zone: ZoneInfo, webhooks: list[str] = ()):
        self.path = Path(case_path) / ALERTS_FILE
        self.case_uid, self.zone, self.webhooks = case_uid, zone, list(webhooks)
        self.said: set[tuple[str, str]] = set()  # (alert id, fire/clear) already in the log
        self.sent_errors: list[str] = []
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut by a kill: the change it began is said again
                if row.get("action") in ("fire", "clear"):
                    self.said.add((row["alert"], row["action"]))
        self._log = None  # the log, open for appending from the first change on
        self._unsynced_since: float | None = None  # when the oldest update not yet synced was written
        # the webhooks' queue: [action, at, finding], in order; an update waiting, by alert id
        self._queue: deque = deque()
        self._waiting_update: dict[str, list] = {}
        self._wake = threading.Condition()
        self._sender: threading.Thread | None = None

    def already(self, change: Change) -> bool:
        return change.action in ("fire", "clear") and (change.alert.id, change.action) in self.said

    def send(self, change: Change) -> bool:
        """Log the change and send it on; False when it was said before (a restart's replay)."""
        if self.already(change):
            return False
        f = change.alert.finding()
        # the finding's fields as they are (asdict copies every value deeply: most of an update's cost)
        row = {"alert": change.alert.id, "action": change.action, "at": change.at,
               "finding": {k.name: getattr(f, k.name) for k in FINDING_FIELDS}}
        if self._log is None:
            self._log = open(self.path, "a", encoding="utf-8")
        self._log.write(json.dumps(row, default=str) + "\n")
        self._log.flush()  # in the operating system's hands: a kill of this process keeps it
        if change.action in ("fire", "clear"):
            os.fsync(self._log.fileno())  # on the disk before it is sent: what a restart counts on
            self._unsynced_since = None
            self.said.add((change.alert.id, change.action))
        elif self._unsynced_since is None:
            self._unsynced_since = time.monotonic()
        else:
            self.sync(due_only=True)
        if self.webhooks:
            self._enqueue(change, f)
        return True

    def sync(self, due_only: bool = False) -> None:
        """The updates written since the last sync, onto the disk (with `due_only`, only once
        the oldest of them is UPDATE_SYNC_S old: the rule node's tick calls it so)."""
        if self._unsynced_since is None or self._log is None:
            return
        if due_only and time.monotonic() - self._unsynced_since < UPDATE_SYNC_S:
            return
        os.fsync(self._log.fileno())
        self._unsynced_since = None

    def close(self) -> None:
        self.sync()
        if self._log is not None:
            self._log.close()
            self._log = None

    # ---- webhooks

    def _enqueue(self, change: Change, finding) -> None:
        with self._wake:
            waiting = self._waiting_update.get(change.alert.id) if change.action == "update" else None
            if waiting is not None:  # the newer state replaces the one not yet sent, in its place
                waiting[1], waiting[2] = change.at, finding
            else:
                item = [change.action, change.at, finding]
                self._queue.append(item)
                if change.action == "update":
                    self._waiting_update[change.alert.id] = item
            if self._sender is None or not self._sender.is_alive():
                self._sender = threading.Thread(target=self._send_loop, name="onrecord-live-alerts-out", daemon=True)
                self._sender.start()
            self._wake.notify()

    def _send_loop(self) -> None:
        while True:
            with self._wake:
                while not self._queue:
                    self._wake.wait()
                action, at, finding = item = self._queue.popleft()
                alert = finding.payload["alert"]
                if self._waiting_update.get(alert) is item:
                    del self._waiting_update[alert]
            self._post(cap_alert(finding, action, at, self.case_uid, self.zone))

    def _post(self, body: bytes) -> None:
        for url in self.webhooks:
            req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/cap+xml"})
            try:
                urllib.request.urlopen(req, timeout=5).close()
            except OSError as exc:
                self.sent_errors.append(f"{url}: {exc}")

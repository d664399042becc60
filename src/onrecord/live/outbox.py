"""Where alerts go: first into the case's alert log (`live-alerts.jsonl`, appended and
synced before anything is sent: a restarted node knows what it already said, so no alert
is lost or said twice), then as CAP 1.2 to each webhook configured (`[live]
alert_webhooks`), and to the board."""

from __future__ import annotations

import json
import os
import threading
import urllib.request
from dataclasses import asdict
from pathlib import Path
from zoneinfo import ZoneInfo

from onrecord.live.cap_out import cap_alert
from onrecord.live.engine import Change

ALERTS_FILE = "live-alerts.jsonl"


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

    def already(self, change: Change) -> bool:
        return change.action in ("fire", "clear") and (change.alert.id, change.action) in self.said

    def send(self, change: Change) -> bool:
        """Log the change and send it on; False when it was said before (a restart's replay)."""
        if self.already(change):
            return False
        f = change.alert.finding()
        row = {"alert": change.alert.id, "action": change.action, "at": change.at, "finding": asdict(f)}
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, default=str) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        if change.action in ("fire", "clear"):
            self.said.add((change.alert.id, change.action))
        if self.webhooks:
            body = cap_alert(f, change.action, change.at, self.case_uid, self.zone)
            threading.Thread(target=self._post, args=(body,), daemon=True).start()
        return True

    def _post(self, body: bytes) -> None:
        for url in self.webhooks:
            req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/cap+xml"})
            try:
                urllib.request.urlopen(req, timeout=5).close()
            except OSError as exc:
                self.sent_errors.append(f"{url}: {exc}")
